// Where the turtle's world lands on a canvas and back: the one transform the
// drawing is painted with, and its exact inverse for clicks.

/** minx, miny, w, h of the visible world (y up). */
export type ViewBox = readonly [number, number, number, number];

export interface ViewFit {
  /** Canvas pixels per world unit along x (same as sx; kept for callers of the uniform case). */
  scale: number;
  /** Canvas pixels per world unit, x and y (they differ after setworldcoordinates()). */
  sx: number;
  sy: number;
  /** Canvas pixels per Tk screen pixel: pen widths, dots, fonts and turtle shapes are in screen pixels. */
  px: number;
  /** canvas x of world x: ox + x·sx; canvas y of world y: oy − y·sy */
  ox: number;
  oy: number;
}

const positive = (n: unknown, fallback: number): number => (typeof n === 'number' && Number.isFinite(n) && n > 0 ? n : fallback);

/**
 * Fits the world view box into a canvas of cw × ch pixels (y down), centred
 * and letterboxed: the box is first taken to screen pixels with `scale`
 * (screen pixels per world unit, x and y), as Tk's canvas shows it.
 */
export function fitView(view: ViewBox, cw: number, ch: number, scale: readonly [number, number] = [1, 1]): ViewFit {
  const [minx, miny, w0, h0] = view;
  const kx = positive(scale[0], 1);
  const ky = positive(scale[1], 1);
  const w = positive(w0, 1);
  const h = positive(h0, 1);
  const px = Math.min(cw / (w * kx), ch / (h * ky));
  const sx = kx * px;
  const sy = ky * px;
  const ox = (cw - w * sx) / 2 - minx * sx;
  const oy = (ch - h * sy) / 2 + (miny + h) * sy;
  return { scale: sx, sx, sy, px, ox, oy };
}

/** The canvas pixel of a world point. */
export function worldToCanvas(fit: ViewFit, x: number, y: number): [number, number] {
  return [fit.ox + x * fit.sx, fit.oy - y * fit.sy];
}

/** The world point under a canvas pixel: the exact inverse of worldToCanvas. */
export function canvasToWorld(fit: ViewFit, cx: number, cy: number): [number, number] {
  return [(cx - fit.ox) / fit.sx, (fit.oy - cy) / fit.sy];
}

/** An element's box on the page, as getBoundingClientRect gives it (CSS pixels). */
export interface Box {
  left: number;
  top: number;
  width: number;
  height: number;
}

/**
 * The canvas pixel under a pointer at (clientX, clientY), for a canvas of
 * cw × ch pixels shown in `box` with object-fit: contain (scaled by the same
 * factor both ways and centred; devicePixelRatio is in that factor).
 */
export function clientToCanvas(box: Box, cw: number, ch: number, clientX: number, clientY: number): [number, number] {
  const k = Math.min(box.width / cw, box.height / ch);
  if (!(k > 0) || !Number.isFinite(k)) return [0, 0];
  const offX = (box.width - cw * k) / 2;
  const offY = (box.height - ch * k) / 2;
  return [(clientX - box.left - offX) / k, (clientY - box.top - offY) / k];
}

/** The pointer's position as a client point, for a canvas pixel: the inverse of clientToCanvas. */
export function canvasToClient(box: Box, cw: number, ch: number, cx: number, cy: number): [number, number] {
  const k = Math.min(box.width / cw, box.height / ch);
  return [box.left + (box.width - cw * k) / 2 + cx * k, box.top + (box.height - ch * k) / 2 + cy * k];
}
