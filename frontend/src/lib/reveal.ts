// Bringing an element into view inside one scrolling box, and no other:
// Element.scrollIntoView would also scroll every box around it, the page's
// own layout included.

/** The part of a box that scrolls: where it is on screen and how far it has scrolled. */
export interface ScrollBox {
  scrollTop: number;
  getBoundingClientRect(): { top: number; bottom: number };
}

/**
 * Scrolls `box` so that `el` (inside it) is in view: its top, and as much
 * of it as fits; `margin` pixels are left above it.
 */
export function reveal(box: ScrollBox, el: { getBoundingClientRect(): { top: number; bottom: number } }, margin = 6): void {
  const b = box.getBoundingClientRect();
  const r = el.getBoundingClientRect();
  if (r.top - margin < b.top) box.scrollTop += r.top - margin - b.top;
  else if (r.bottom > b.bottom) box.scrollTop += Math.min(r.bottom - b.bottom, r.top - margin - b.top);
}
