import { describe, expect, it } from 'vitest';
import { reveal } from './reveal';

/** A box 100 px high at y 50 showing content from scrollTop; an element at content y `at`, `h` high. */
function setup(scrollTop: number, at: number, h: number) {
  const box = {
    scrollTop,
    getBoundingClientRect: () => ({ top: 50, bottom: 150 }),
  };
  const el = { getBoundingClientRect: () => ({ top: 50 + at - box.scrollTop, bottom: 50 + at - box.scrollTop + h }) };
  return { box, el };
}

describe('reveal', () => {
  it('scrolls up to an element above the view, leaving a margin', () => {
    const { box, el } = setup(300, 20, 40);
    reveal(box, el);
    expect(box.scrollTop).toBe(14);
  });

  it('scrolls down until an element below the view shows whole', () => {
    const { box, el } = setup(0, 180, 40);
    reveal(box, el);
    expect(box.scrollTop).toBe(120);
  });

  it('shows the top of an element taller than the view', () => {
    const { box, el } = setup(0, 180, 300);
    reveal(box, el);
    expect(box.scrollTop).toBe(174);
  });

  it('leaves an element in view where it is', () => {
    const { box, el } = setup(100, 130, 40);
    reveal(box, el);
    expect(box.scrollTop).toBe(100);
  });
});
