import { describe, expect, it } from 'vitest';
import { canvasToClient, canvasToWorld, clientToCanvas, fitView, worldToCanvas, type Box } from './view';

describe('fitView', () => {
  it('keeps the uniform case: the view box fills the canvas, centred', () => {
    const fit = fitView([-200, -200, 400, 400], 800, 600);
    expect(fit.px).toBe(1.5);
    expect(fit.sx).toBe(1.5);
    expect(fit.sy).toBe(1.5);
    expect(worldToCanvas(fit, -200, 200)).toEqual([100, 0]);
    expect(worldToCanvas(fit, 200, -200)).toEqual([700, 600]);
  });

  it('after setworldcoordinates(0, 0, 10, 100) on a 400 × 400 screen, x and y scales differ and the corners land on the canvas corners', () => {
    // the runner's screen frame: scale = canvas pixels per world unit
    const fit = fitView([0, 0, 10, 100], 400, 400, [40, 4]);
    expect(fit.px).toBe(1);
    expect(worldToCanvas(fit, 0, 0)).toEqual([0, 400]);
    expect(worldToCanvas(fit, 10, 100)).toEqual([400, 0]);
    expect(worldToCanvas(fit, 5, 50)).toEqual([200, 200]);
  });

  it('letterboxes a wide screen in a tall canvas', () => {
    const fit = fitView([-300, -100, 600, 200], 300, 300);
    expect(fit.px).toBe(0.5);
    const [, top] = worldToCanvas(fit, 0, 100);
    const [, bottom] = worldToCanvas(fit, 0, -100);
    expect(top).toBe(100);
    expect(bottom).toBe(200);
  });
});

describe('pointer to world and back', () => {
  const worlds: [string, readonly [number, number, number, number], [number, number]][] = [
    ['standard mode', [-200, -200, 400, 400], [1, 1]],
    ['setworldcoordinates(-1, -1, 1, 1)', [-1, -1, 2, 2], [200, 200]],
    ['setworldcoordinates(0, 0, 1000, 10) on 600 × 400', [0, 0, 1000, 10], [0.6, 40]],
  ];
  const boxes: [string, Box, number][] = [
    ['dpr 1, same shape', { left: 30, top: 50, width: 400, height: 300 }, 1],
    ['dpr 2', { left: 12.5, top: 80, width: 333, height: 250 }, 2],
    ['dpr 1.25', { left: 0, top: 0, width: 517, height: 289 }, 1.25],
  ];
  const points: [number, number][] = [
    [0, 0],
    [0.5, -0.25],
    [123.4, 7.77],
    [-0.9, 9.5],
  ];

  for (const [wname, view, scale] of worlds) {
    for (const [bname, box, dpr] of boxes) {
      it(`${wname}, ${bname}: world → client pixel → world is exact`, () => {
        const cw = Math.round(box.width * dpr);
        const ch = Math.round(box.height * dpr);
        const fit = fitView(view, cw, ch, scale);
        for (const [x, y] of points) {
          const [cx, cy] = worldToCanvas(fit, x, y);
          const [clientX, clientY] = canvasToClient(box, cw, ch, cx, cy);
          const back = canvasToWorld(fit, ...clientToCanvas(box, cw, ch, clientX, clientY));
          expect(back[0]).toBeCloseTo(x, 9);
          expect(back[1]).toBeCloseTo(y, 9);
        }
      });
    }
  }

  it('a click at the middle of the shown canvas is the middle of the view', () => {
    const box = { left: 100, top: 40, width: 500, height: 300 };
    const fit = fitView([-200, -200, 400, 400], 1000, 600);
    expect(canvasToWorld(fit, ...clientToCanvas(box, 1000, 600, 350, 190))).toEqual([0, 0]);
    // the top edge of the canvas is the top of the view: y = 200
    expect(canvasToWorld(fit, ...clientToCanvas(box, 1000, 600, 350, 40))[1]).toBe(200);
  });

  it('object-fit letterboxing of a canvas whose shape differs from its box', () => {
    // a 400 × 400 canvas in a 600 × 300 box: shown 300 × 300, 150 px in from the left
    const box = { left: 0, top: 0, width: 600, height: 300 };
    expect(clientToCanvas(box, 400, 400, 150, 0)).toEqual([0, 0]);
    expect(clientToCanvas(box, 400, 400, 450, 300)).toEqual([400, 400]);
  });
});
