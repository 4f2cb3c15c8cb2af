// Paints a Scene on a 2D canvas through a ViewFit: the finished items, and
// above them the step in progress and the turtles. Layers keeps the finished
// items on a backing canvas so each frame only paints what moves.

import type { DrawStep, Point } from './drawingTypes';
import { turnDelta, type Item, type Part, type Scene } from './scene';
import type { ViewFit } from './view';

/** The subset of CanvasRenderingContext2D the drawing paints with. */
export interface Paint2D {
  fillStyle: string | CanvasGradient | CanvasPattern;
  strokeStyle: string | CanvasGradient | CanvasPattern;
  lineWidth: number;
  lineCap: CanvasLineCap;
  lineJoin: CanvasLineJoin;
  font: string;
  textAlign: CanvasTextAlign;
  textBaseline: CanvasTextBaseline;
  save(): void;
  restore(): void;
  beginPath(): void;
  moveTo(x: number, y: number): void;
  lineTo(x: number, y: number): void;
  closePath(): void;
  arc(x: number, y: number, r: number, a0: number, a1: number): void;
  fill(): void;
  stroke(): void;
  fillRect(x: number, y: number, w: number, h: number): void;
  fillText(text: string, x: number, y: number): void;
}

/** A step being animated: `p` runs from 0 to 1 over its duration. */
export interface InProgress {
  step: DrawStep;
  p: number;
}

/** Tk font sizes are points; at 96 dpi a point is 4/3 pixel (the runner measures text the same way). */
const PX_PER_PT = 4 / 3;

const X = (fit: ViewFit, x: number) => fit.ox + x * fit.sx;
const Y = (fit: ViewFit, y: number) => fit.oy - y * fit.sy;

function poly(ctx: Paint2D, fit: ViewFit, pts: readonly Point[]): void {
  ctx.beginPath();
  pts.forEach(([x, y], j) => (j === 0 ? ctx.moveTo(X(fit, x), Y(fit, y)) : ctx.lineTo(X(fit, x), Y(fit, y))));
  ctx.closePath();
}

function line(ctx: Paint2D, fit: ViewFit, x1: number, y1: number, x2: number, y2: number, c: string, w: number): void {
  ctx.strokeStyle = c;
  ctx.lineWidth = Math.max(1, w * fit.px);
  ctx.beginPath();
  ctx.moveTo(X(fit, x1), Y(fit, y1));
  ctx.lineTo(X(fit, x2), Y(fit, y2));
  ctx.stroke();
}

/** Fills and outlines polygons given in canvas pixels (turtles) or, with `fit`, world coordinates (stamps). */
function shape(ctx: Paint2D, fit: ViewFit, parts: readonly Part[], world: boolean): void {
  for (const [pts, fc, oc, ow] of parts) {
    if (pts.length < 2) continue;
    if (world) poly(ctx, fit, pts);
    else {
      ctx.beginPath();
      pts.forEach(([x, y], j) => (j === 0 ? ctx.moveTo(x, y) : ctx.lineTo(x, y)));
      ctx.closePath();
    }
    if (fc) {
      ctx.fillStyle = fc;
      ctx.fill();
    }
    if (oc) {
      ctx.strokeStyle = oc;
      ctx.lineWidth = Math.max(1, (ow ?? 1) * fit.px);
      ctx.stroke();
    }
  }
}

/** Sets the line style every painter starts from. */
export function startPaint(ctx: Paint2D): void {
  ctx.lineCap = 'round';
  ctx.lineJoin = 'round';
}

/** What lies outside the program's own window, as the runner's SVG paints it too (python/kidsvg.py OUTSIDE). */
export const OUTSIDE = '#e6e3dc';

/** The background: over the program's own window when it has one (`scene.area`), so its walls show; else over all. */
export function paintBackground(ctx: Paint2D, scene: Pick<Scene, 'bg' | 'area'>, fit: ViewFit, cw: number, ch: number): void {
  const a = scene.area;
  if (!a) {
    ctx.fillStyle = scene.bg;
    ctx.fillRect(0, 0, cw, ch);
    return;
  }
  ctx.fillStyle = OUTSIDE;
  ctx.fillRect(0, 0, cw, ch);
  ctx.fillStyle = scene.bg;
  ctx.fillRect(X(fit, a[0]), Y(fit, a[1] + a[3]), a[2] * fit.sx, a[3] * fit.sy);
}

/** Paints items[from..] in order. */
export function paintItems(ctx: Paint2D, fit: ViewFit, items: readonly Item[], from = 0): void {
  for (let i = from; i < items.length; i++) {
    const it = items[i];
    switch (it.k) {
      case 'line':
        line(ctx, fit, it.x1, it.y1, it.x2, it.y2, it.c, it.w);
        break;
      case 'fill':
        poly(ctx, fit, it.pts);
        ctx.fillStyle = it.c;
        ctx.fill();
        break;
      case 'dot':
        ctx.beginPath();
        ctx.arc(X(fit, it.x), Y(fit, it.y), Math.max(0.5, (it.d / 2) * fit.px), 0, 2 * Math.PI);
        ctx.fillStyle = it.c;
        ctx.fill();
        break;
      case 'text': {
        const [family, size, style] = it.font;
        const st = String(style || '');
        ctx.font = `${st.includes('italic') ? 'italic ' : ''}${st.includes('bold') ? 'bold ' : ''}${Math.max(1, size * PX_PER_PT * fit.px)}px "${String(family).replace(/"/g, '')}", "Noto Sans CJK SC", sans-serif`;
        ctx.textAlign = it.align;
        ctx.textBaseline = 'bottom';
        ctx.fillStyle = it.c;
        ctx.fillText(it.text, X(fit, it.x), Y(fit, it.y));
        break;
      }
      case 'stamp':
        shape(ctx, fit, it.parts, true);
        break;
    }
  }
}

/**
 * Places a turtle's shape (its own frame, screen pixels, +y along the
 * heading) on the canvas at world (x, y), as CPython's _polytrafo does,
 * which also keeps the heading true under unequal x and y scales.
 */
export function turtleOnCanvas(fit: ViewFit, local: readonly Part[], x: number, y: number, heading: number): Part[] {
  const rad = (heading * Math.PI) / 180;
  let e0 = Math.cos(rad) * fit.sx;
  let e1 = Math.sin(rad) * fit.sy;
  const n = Math.hypot(e0, e1) || 1;
  e0 /= n;
  e1 /= n;
  const cx = X(fit, x);
  const cy = Y(fit, y);
  const k = fit.px;
  return local.map(([pts, fc, oc]) => [pts.map(([px, py]) => [cx + k * (e1 * px + e0 * py), cy - k * (-e0 * px + e1 * py)] as Point), fc, oc] as Part);
}

/** Paints the step in progress (a growing segment, a turtle turning) and every visible turtle. */
export function paintOverlay(ctx: Paint2D, fit: ViewFit, scene: Scene, partial: InProgress | null): void {
  let moving: { t: number; x: number; y: number; h?: number } | null = null;
  if (partial) {
    const s = partial.step;
    const p = Math.min(1, Math.max(0, partial.p));
    if (s.k === 'move') {
      const x = s.x1 + (s.x2 - s.x1) * p;
      const y = s.y1 + (s.y2 - s.y1) * p;
      if (s.c) line(ctx, fit, s.x1, s.y1, x, y, s.c, s.w ?? 1);
      moving = { t: s.t, x, y };
    } else if (s.k === 'turn') {
      const l = scene.look(s.t);
      moving = { t: s.t, x: l.x, y: l.y, h: l.h + turnDelta(l.h, s.h) * p };
    }
  }
  for (const [id, l] of scene.looks) {
    if (!l.visible) continue;
    const here = moving?.t === id;
    const x = here ? moving!.x : l.x;
    const y = here ? moving!.y : l.y;
    const h = here && moving!.h !== undefined ? moving!.h : l.h;
    shape(ctx, fit, turtleOnCanvas(fit, l.local, x, y, h), false);
  }
}

/** Paints the whole scene on `ctx`, the way Layers shows it but without a backing layer. */
export function paintScene(ctx: Paint2D, fit: ViewFit, scene: Scene, partial: InProgress | null, cw: number, ch: number): void {
  ctx.save();
  paintBackground(ctx, scene, fit, cw, ch);
  startPaint(ctx);
  paintItems(ctx, fit, scene.items);
  paintOverlay(ctx, fit, scene, partial);
  ctx.restore();
}

/** A canvas to paint on and its context. */
export interface Surface<C = Paint2D> {
  width: number;
  height: number;
  ctx: C;
}

/** What Layers draws the backing layer onto: a context that can also copy a canvas. */
export interface Blit2D<Img> extends Paint2D {
  drawImage(img: Img, x: number, y: number): void;
  clearRect(x: number, y: number, w: number, h: number): void;
}

/**
 * Two-layer painting: finished items go once onto a backing canvas, which
 * each frame copies before painting the step in progress and the turtles.
 * The backing layer is repainted in full only when the scene's epoch, the
 * fit or the size changes; otherwise only items added since are painted.
 */
export class Layers<Img> {
  #makeBacking: (w: number, h: number) => { image: Img; surface: Surface };
  #backing: { image: Img; surface: Surface } | null = null;
  #epoch = -1;
  #fitKey = '';
  #scene: Scene | null = null;
  #painted = 0;
  /** How many times the backing layer was painted from scratch (for tests and measurements). */
  fullRepaints = 0;

  constructor(makeBacking: (w: number, h: number) => { image: Img; surface: Surface }) {
    this.#makeBacking = makeBacking;
  }

  /** Forgets the backing layer's content: the next render repaints it. */
  invalidate(): void {
    this.#epoch = -1;
  }

  render(target: Blit2D<Img>, fit: ViewFit, scene: Scene, partial: InProgress | null, cw: number, ch: number): void {
    let b = this.#backing;
    if (!b || b.surface.width !== cw || b.surface.height !== ch) {
      b = this.#backing = this.#makeBacking(cw, ch);
      this.#epoch = -1;
    }
    const key = `${fit.ox},${fit.oy},${fit.sx},${fit.sy},${fit.px}`;
    const ctx = b.surface.ctx;
    if (this.#scene !== scene || this.#epoch !== scene.epoch || this.#fitKey !== key || this.#painted > scene.items.length) {
      this.#scene = scene;
      this.#epoch = scene.epoch;
      this.#fitKey = key;
      this.#painted = 0;
      this.fullRepaints++;
      ctx.save();
      paintBackground(ctx, scene, fit, cw, ch);
      ctx.restore();
    }
    if (this.#painted < scene.items.length) {
      ctx.save();
      startPaint(ctx);
      paintItems(ctx, fit, scene.items, this.#painted);
      ctx.restore();
      this.#painted = scene.items.length;
    }
    target.save();
    target.drawImage(b.image, 0, 0);
    startPaint(target);
    paintOverlay(target, fit, scene, partial);
    target.restore();
  }
}

/** Layers over real canvases: the backing layer is an offscreen canvas of the same size. */
export function canvasLayers(): Layers<CanvasImageSource> {
  return new Layers<CanvasImageSource>((w, h) => {
    const c = document.createElement('canvas');
    c.width = w;
    c.height = h;
    const ctx = c.getContext('2d');
    if (!ctx) throw new Error('no 2D canvas');
    return { image: c, surface: { width: w, height: h, ctx } };
  });
}
