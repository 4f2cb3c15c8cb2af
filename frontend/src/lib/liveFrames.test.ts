import { describe, expect, it } from 'vitest';
import { parseLiveFrame } from './liveFrames';
import { turtleOnCanvas } from './paint';
import { fitView } from './view';

describe('parseLiveFrame', () => {
  it('takes a screen frame as the runner sends it', () => {
    const f = parseLiveFrame({ type: 'screen', width: 420, height: 420, bg: '#f0fff0', scale: [1, 1], view: [-210, -210, 420, 420], title: '贪吃蛇 Snake' });
    expect(f).toEqual({ type: 'screen', width: 420, height: 420, bg: '#f0fff0', scale: [1, 1], view: [-210, -210, 420, 420], area: null, title: '贪吃蛇 Snake' });
  });

  it('fills in what a screen frame leaves out or gets wrong: the view from the size and scale, white for a bad colour', () => {
    const f = parseLiveFrame({ type: 'screen', width: 600, height: 300, bg: 'url(x)', scale: [2, 'x'], view: [1, 2] });
    expect(f).toEqual({ type: 'screen', width: 600, height: 300, bg: '#ffffff', scale: [1, 1], view: [-300, -150, 600, 300], area: null, title: '' });
  });

  it('keeps the steps of a draw frame that have a kind', () => {
    const f = parseLiveFrame({ type: 'draw', from: 3, steps: [{ k: 'turn', t: 0, s: 1, h: 90, ms: 40 }, null, 7, { x: 1 }] });
    expect(f).toEqual({ type: 'draw', from: 3, steps: [{ k: 'turn', t: 0, s: 1, h: 90, ms: 40 }] });
    expect(parseLiveFrame({ type: 'draw', from: 1.5, steps: [] })).toBeNull();
  });

  it('reads a number dialog, with null for what numinput left out', () => {
    expect(parseLiveFrame({ type: 'dialog', kind: 'number', title: 'Size', prompt: 'How big?', default: null, min: 1, max: null, error: true })).toEqual({
      type: 'dialog',
      kind: 'number',
      title: 'Size',
      prompt: 'How big?',
      default: null,
      min: 1,
      max: null,
      error: true,
    });
    expect(parseLiveFrame({ type: 'dialog', kind: 'text', title: 3, prompt: 'Name?' })).toMatchObject({ kind: 'text', title: '', prompt: 'Name?', error: false });
  });

  it('passes listen and bye, and nothing else', () => {
    expect(parseLiveFrame({ type: 'listen' })).toEqual({ type: 'listen' });
    expect(parseLiveFrame({ type: 'bye', extra: 1 })).toEqual({ type: 'bye' });
    expect(parseLiveFrame({ type: 'result' })).toBeNull();
    expect(parseLiveFrame('listen')).toBeNull();
  });
});

describe('turtleOnCanvas', () => {
  it('places a shape as CPython does: +y along the heading, screen pixels', () => {
    const fit = fitView([-200, -200, 400, 400], 400, 400);
    const [[pts]] = turtleOnCanvas(fit, [[[[0, 10], [5, 0]], '#000000', '#000000']], 0, 0, 0);
    // heading 0 is east: the shape's +y points right (+x on the canvas), its +x points down
    expect(pts).toEqual([[210, 200], [200, 205]]);
  });

  it('keeps the heading true under unequal scales (setworldcoordinates) and shapes in screen pixels', () => {
    // 4 canvas pixels per world unit across, 1 up: world heading 45° is steeper than 45° on screen
    const fit = fitView([0, 0, 100, 400], 400, 400, [4, 1]);
    const [[pts]] = turtleOnCanvas(fit, [[[[0, 10]], '', '']], 50, 200, 45);
    const [x, y] = pts[0];
    const [cx, cy] = [fit.ox + 50 * fit.sx, fit.oy - 200 * fit.sy];
    expect(Math.hypot(x - cx, y - cy)).toBeCloseTo(10, 9);
    // direction of (cos 45 · 4, sin 45 · 1), normalised
    expect((x - cx) / 10).toBeCloseTo(4 / Math.hypot(4, 1), 9);
    expect(-(y - cy) / 10).toBeCloseTo(1 / Math.hypot(4, 1), 9);
  });
});
