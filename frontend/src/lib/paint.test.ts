import { describe, expect, it } from 'vitest';
import type { DrawStep } from './backend';
import { Layers, type Blit2D, type InProgress } from './paint';
import { Scene } from './scene';
import { fitView } from './view';

/** Records what is painted, as short strings. */
class Ctx implements Blit2D<string> {
  calls: string[] = [];
  fillStyle = '';
  strokeStyle = '';
  lineWidth = 1;
  lineCap: CanvasLineCap = 'butt';
  lineJoin: CanvasLineJoin = 'miter';
  font = '';
  textAlign: CanvasTextAlign = 'start';
  textBaseline: CanvasTextBaseline = 'alphabetic';
  path: string[] = [];
  save() {}
  restore() {}
  beginPath() {
    this.path = [];
  }
  moveTo(x: number, y: number) {
    this.path.push(`M${x},${y}`);
  }
  lineTo(x: number, y: number) {
    this.path.push(`L${x},${y}`);
  }
  closePath() {}
  arc(x: number, y: number) {
    this.path.push(`A${x},${y}`);
  }
  fill() {
    this.calls.push(`fill ${this.fillStyle}`);
  }
  stroke() {
    this.calls.push(`stroke ${this.strokeStyle} ${this.path.join(' ')}`);
  }
  fillRect(_x: number, _y: number, w: number, h: number) {
    this.calls.push(`rect ${this.fillStyle} ${w}x${h}`);
  }
  fillText(text: string) {
    this.calls.push(`text ${text}`);
  }
  drawImage(img: string) {
    this.calls.push(`image ${img}`);
  }
  clearRect() {}
  take(): string[] {
    return this.calls.splice(0);
  }
}

function setup() {
  const backings: Ctx[] = [];
  const layers = new Layers<string>((w, h) => {
    const ctx = new Ctx();
    backings.push(ctx);
    return { image: `backing${backings.length}`, surface: { width: w, height: h, ctx } };
  });
  const scene = new Scene();
  const target = new Ctx();
  const fit = fitView([-100, -100, 200, 200], 200, 200);
  const render = (partial: InProgress | null = null, f = fit, size = 200) => layers.render(target, f, scene, partial, size, size);
  return { layers, scene, target, backings, fit, render };
}

let n = 0;
const line = (c: string, t = 0): DrawStep => ({ k: 'move', t, s: 0, x1: 0, y1: 0, x2: 10, y2: n++, c, w: 1 });
const strokes = (calls: string[]) => calls.filter((c) => c.startsWith('stroke')).map((c) => c.split(' ')[1]);

describe('Layers', () => {
  it('paints finished items once on the backing layer; each frame copies it and paints only what moves', () => {
    const { scene, target, backings, layers, render } = setup();
    scene.look(0).visible = false;
    for (let i = 0; i < 5000; i++) scene.apply(line('#000001'), i);
    render();
    expect(strokes(backings[0].take())).toHaveLength(5000);
    expect(target.take()).toEqual(['image backing1']);

    // a frame with a move in progress: the backing layer is left alone
    const moving: DrawStep = { k: 'move', t: 0, s: 3, x1: 0, y1: 0, x2: 50, y2: 0, c: '#ff0000', w: 1 };
    render({ step: moving, p: 0.5 });
    expect(backings[0].take()).toEqual([]);
    expect(target.take()).toEqual(['image backing1', 'stroke #ff0000 M100,100 L125,100']);

    // the finished step joins the backing layer by itself
    scene.apply(moving, 5000);
    render();
    expect(strokes(backings[0].take())).toEqual(['#ff0000']);
    expect(layers.fullRepaints).toBe(1);
  });

  it.each([
    ['del (undo)', (s: Scene) => s.apply({ k: 'del', t: 0, s: 0, i: 1 }, 3), ['#000001', '#000003']],
    ['clear of one turtle', (s: Scene) => s.apply({ k: 'clear', t: 0, s: 0 }, 3), ['#000003']],
    ['clearscreen', (s: Scene) => s.apply({ k: 'clear', s: 0 }, 3), []],
  ] as const)('%s repaints the backing layer without what went', (_name, change, left) => {
    const { scene, backings, layers, render } = setup();
    scene.apply(line('#000001'), 0);
    scene.apply(line('#000002'), 1);
    scene.apply(line('#000003', 1), 2);
    render();
    backings[0].take();
    change(scene);
    render();
    const calls = backings[0].take();
    expect(calls[0]).toBe('rect #ffffff 200x200');
    expect(strokes(calls)).toEqual(left);
    expect(layers.fullRepaints).toBe(2);
  });

  it('a fill slipped under what was drawn since begin_fill repaints; a fill on top only adds', () => {
    const { scene, backings, layers, render } = setup();
    scene.apply(line('#000001'), 0);
    scene.apply(line('#000002'), 1);
    render();
    backings[0].take();
    scene.apply({ k: 'fill', t: 0, s: 0, c: '#ffd700', pts: [[0, 0], [10, 0], [10, 10]], z: 1 }, 2);
    render();
    expect(backings[0].take().map((c) => c.split(' ').slice(0, 2).join(' '))).toEqual(['rect #ffffff', 'stroke #000001', 'fill #ffd700', 'stroke #000002']);
    expect(layers.fullRepaints).toBe(2);
    scene.apply({ k: 'fill', t: 0, s: 0, c: '#00ff00', pts: [[0, 0], [10, 0], [10, 10]], z: 3 }, 3);
    render();
    expect(backings[0].take()).toEqual(['fill #00ff00']);
    expect(layers.fullRepaints).toBe(2);
  });

  it('unstamp and a background change repaint; a new view or canvas size does too', () => {
    const { scene, backings, layers, render, fit } = setup();
    scene.apply({ k: 'stamp', t: 0, s: 0, id: 1, x: 0, y: 0, h: 0, shape: 'square', c: '#111111', fc: '#222222' }, 0);
    render();
    scene.apply({ k: 'unstamp', t: 0, s: 0, id: 1 }, 1);
    render();
    expect(backings[0].take().filter((c) => c.includes('#222222'))).toHaveLength(1);
    expect(layers.fullRepaints).toBe(2);
    scene.apply({ k: 'bg', s: 0, c: '#000080' }, 2);
    render();
    expect(backings[0].take()).toEqual(['rect #000080 200x200']);
    render(null, { ...fit, ox: fit.ox + 1 });
    expect(layers.fullRepaints).toBe(4);
    render(null, fit, 300);
    expect(backings).toHaveLength(2);
    expect(layers.fullRepaints).toBe(5);
  });
});
