// Replays a turtle drawing (docs/runner-protocol.md, "Drawing model") on a
// 2D canvas: the step list becomes a timeline paced like CPython's turtle,
// and any moment of it can be painted from the recorded data alone.

import type { Drawing, DrawStep, Point } from './backend';

/** CPython's default screen delay: every turtle update waits this long. */
export const UPDATE_MS = 10;

/** The subset of CanvasRenderingContext2D the replay paints with. */
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

/**
 * How long one step takes at its speed, following CPython's turtle.py:
 * a move is split into 1 + ⌊dist / (3·1.1^s·s)⌋ hops, a turn into
 * 1 + ⌊|angle| / (3·s)⌋ steps plus a final update, and every other visible
 * change is one update. Speed 0 is instant.
 */
export function stepDuration(step: DrawStep, prevHeading: number): number {
  const s = step.s;
  if (!s || s <= 0) return 0;
  switch (step.k) {
    case 'move': {
      const dist = Math.hypot(step.x2 - step.x1, step.y2 - step.y1);
      const hops = 1 + Math.floor(dist / (3 * Math.pow(1.1, s) * s));
      return hops * UPDATE_MS;
    }
    case 'turn': {
      const steps = 1 + Math.floor(Math.abs(turnDelta(prevHeading, step.h)) / (3 * s));
      return (steps + 1) * UPDATE_MS;
    }
    default:
      return UPDATE_MS;
  }
}

/** The signed turn from one heading to another, the short way round, in (-180, 180]. */
export function turnDelta(from: number, to: number): number {
  let d = (((to - from) % 360) + 360) % 360;
  if (d > 180) d -= 360;
  return d;
}

export interface Timeline {
  /** starts[i] is when step i begins; step i ends at starts[i + 1] (or total). */
  starts: number[];
  durations: number[];
  total: number;
}

export function buildTimeline(steps: readonly DrawStep[]): Timeline {
  const headings = new Map<number, number>();
  const starts: number[] = [];
  const durations: number[] = [];
  let t = 0;
  for (const step of steps) {
    const tid = 't' in step ? step.t : -1;
    const prev = headings.get(tid) ?? 0;
    const d = stepDuration(step, prev);
    if (step.k === 'turn') headings.set(tid, step.h);
    starts.push(t);
    durations.push(d);
    t += d;
  }
  return { starts, durations, total: t };
}

export interface ViewFit {
  scale: number;
  /** canvas x of world x: ox + x·scale; canvas y of world y: oy − y·scale */
  ox: number;
  oy: number;
}

/** Fits the world view box (minx, miny, w, h; y up) centred into a canvas of cw × ch pixels (y down). */
export function fitView(view: readonly [number, number, number, number], cw: number, ch: number): ViewFit {
  const [minx, miny, w0, h0] = view;
  const w = w0 > 0 ? w0 : 1;
  const h = h0 > 0 ? h0 : 1;
  const scale = Math.min(cw / w, ch / h);
  const ox = (cw - w * scale) / 2 - minx * scale;
  const oy = (ch - h * scale) / 2 + (miny + h) * scale;
  return { scale, ox, oy };
}

// CPython's built-in shapes, pointing up (+y) in the turtle's own frame.
const SHAPES: Record<string, Point[]> = {
  classic: [[0, 0], [-5, -9], [0, -7], [5, -9]],
  arrow: [[-10, 0], [10, 0], [0, 10]],
  turtle: [
    [0, 16], [-2, 14], [-1, 10], [-4, 7], [-7, 9], [-9, 8], [-6, 5], [-7, 1], [-5, -3], [-8, -6],
    [-6, -8], [-4, -5], [0, -7], [4, -5], [6, -8], [8, -6], [5, -3], [7, 1], [6, 5], [9, 8], [7, 9],
    [4, 7], [1, 10], [2, 14],
  ],
  circle: Array.from({ length: 20 }, (_, i) => [10 * Math.cos((i * Math.PI) / 10), 10 * Math.sin((i * Math.PI) / 10)] as Point),
  square: [[10, -10], [10, 10], [-10, 10], [-10, -10]],
  triangle: [[10, -5.77], [0, 11.55], [-10, -5.77]],
};

/** One polygon of a shape: points, fill colour, outline colour (the runner's `parts`). */
type Part = [Point[], string, string, number?];

function partsFrom(raw: unknown): Part[] | null {
  if (!Array.isArray(raw)) return null;
  const parts: Part[] = [];
  for (const p of raw) {
    // Image shapes come as ["image", name]: there is nothing to draw from data.
    if (Array.isArray(p) && Array.isArray(p[0])) parts.push(p as Part);
  }
  return parts;
}

/** Places shape points given in the turtle's frame at (x, y) facing heading (degrees), as CPython's _polytrafo does. */
export function placeShape(pts: readonly Point[], x: number, y: number, heading: number, size = 1): Point[] {
  const rad = (heading * Math.PI) / 180;
  const e0 = Math.cos(rad);
  const e1 = Math.sin(rad);
  return pts.map(([px, py]) => {
    const sx = px * size;
    const sy = py * size;
    return [x + e1 * sx + e0 * sy, y - e0 * sx + e1 * sy] as Point;
  });
}

type Item =
  | { k: 'line'; step: number; t: number; x1: number; y1: number; x2: number; y2: number; c: string; w: number }
  | { k: 'fill'; step: number; t: number; c: string; pts: Point[] }
  | { k: 'dot'; step: number; t: number; x: number; y: number; d: number; c: string }
  | { k: 'text'; step: number; t: number; x: number; y: number; text: string; align: CanvasTextAlign; font: [string, number, string]; c: string }
  | { k: 'stamp'; step: number; t: number; id: string; parts: Part[]; ow: number };

interface TurtleLook {
  x: number;
  y: number;
  h: number;
  visible: boolean;
  /** Shape polygons in the turtle's own frame, already stretched. */
  local: Part[];
}

/** Tk font sizes are points; at 96 dpi a point is 4/3 pixel (the runner measures text the same way). */
const PX_PER_PT = 4 / 3;

export class Replay {
  readonly drawing: Drawing;
  readonly timeline: Timeline;
  private items: Item[] = [];
  private looks = new Map<number, TurtleLook>();
  private bg = '#ffffff';
  /** Steps [0, applied) are in the scene. */
  private applied = 0;

  constructor(drawing: Drawing) {
    this.drawing = drawing;
    this.timeline = buildTimeline(drawing.steps);
    this.reset();
  }

  get total(): number {
    return this.timeline.total;
  }

  /** Paints the drawing as it looks `ms` after the replay started; returns true once it is complete. */
  paintAt(ctx: Paint2D, ms: number, cw: number, ch: number): boolean {
    const { starts, durations } = this.timeline;
    const steps = this.drawing.steps;
    // The last step whose end time has passed, found by bisection: replays may be 100k steps long.
    let lo = 0;
    let hi = steps.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (starts[mid] + durations[mid] <= ms) lo = mid + 1;
      else hi = mid;
    }
    const complete = lo;
    if (complete < this.applied) this.reset();
    while (this.applied < complete) this.apply(this.applied++);

    let partial: { step: DrawStep; p: number } | null = null;
    if (complete < steps.length && ms >= starts[complete]) {
      const d = durations[complete];
      partial = { step: steps[complete], p: d > 0 ? (ms - starts[complete]) / d : 1 };
    }
    this.paint(ctx, cw, ch, partial);
    return complete >= steps.length;
  }

  /** Paints the finished drawing. */
  paintFinal(ctx: Paint2D, cw: number, ch: number): void {
    this.paintAt(ctx, this.total, cw, ch);
  }

  private reset(): void {
    this.items = [];
    this.looks.clear();
    this.applied = 0;
    const d = this.drawing;
    this.bg = d.steps.some((s) => s.k === 'bg') ? '#ffffff' : d.bg || '#ffffff';
    const firstPos = new Map<number, Point>();
    for (const s of d.steps) {
      if (s.k === 'move' && !firstPos.has(s.t)) firstPos.set(s.t, [s.x1, s.y1]);
    }
    for (const info of d.turtles ?? []) {
      const [x, y] = firstPos.get(info.id) ?? [0, 0];
      const hasLook = d.steps.some((s) => s.k === 'look' && s.t === info.id);
      this.looks.set(info.id, {
        x,
        y,
        h: 0,
        visible: hasLook ? true : info.visible,
        local: [[stretch(SHAPES[hasLook ? 'classic' : info.shape] ?? SHAPES.classic, hasLook ? 1 : info.size || 1), info.fill, info.pen]],
      });
    }
  }

  private look(t: number): TurtleLook {
    let l = this.looks.get(t);
    if (!l) {
      l = { x: 0, y: 0, h: 0, visible: true, local: [[SHAPES.classic, '#000000', '#000000']] };
      this.looks.set(t, l);
    }
    return l;
  }

  private apply(i: number): void {
    const s = this.drawing.steps[i];
    switch (s.k) {
      case 'move': {
        const l = this.look(s.t);
        if (s.c) this.items.push({ k: 'line', step: i, t: s.t, x1: s.x1, y1: s.y1, x2: s.x2, y2: s.y2, c: s.c, w: s.w ?? 1 });
        l.x = s.x2;
        l.y = s.y2;
        break;
      }
      case 'turn':
        this.look(s.t).h = s.h;
        break;
      case 'fill': {
        // A fill lies under the outline drawn since its begin_fill (step z).
        const z = (s as { z?: number }).z;
        const item: Item = { k: 'fill', step: i, t: s.t, c: s.c, pts: s.pts };
        const at = z === undefined ? -1 : this.items.findIndex((it) => it.step >= z);
        if (at < 0) this.items.push(item);
        else this.items.splice(at, 0, item);
        break;
      }
      case 'dot':
        this.items.push({ k: 'dot', step: i, t: s.t, x: s.x, y: s.y, d: s.d, c: s.c });
        break;
      case 'text':
        this.items.push({ k: 'text', step: i, t: s.t, x: s.x, y: s.y, text: String(s.text), align: s.align, font: s.font, c: s.c });
        break;
      case 'stamp': {
        const given = partsFrom((s as { parts?: unknown }).parts);
        const parts: Part[] = given ?? [[placeShape(SHAPES[s.shape] ?? SHAPES.classic, s.x, s.y, s.h), s.fc, s.c]];
        this.items.push({ k: 'stamp', step: i, t: s.t, id: JSON.stringify(s.id), parts, ow: 1 });
        break;
      }
      case 'unstamp': {
        const id = JSON.stringify(s.id);
        this.items = this.items.filter((it) => !(it.k === 'stamp' && it.id === id));
        break;
      }
      case 'clear':
        this.items = this.items.filter((it) => it.t !== s.t);
        break;
      case 'bg':
        this.bg = s.c;
        break;
      case 'look': {
        const l = this.look(s.t);
        l.visible = s.visible;
        const given = partsFrom((s as { parts?: unknown }).parts);
        l.local = given ?? [[stretch(SHAPES[s.shape] ?? SHAPES.classic, s.size || 1), '#000000', '#000000']];
        break;
      }
      default: {
        // `del` (undo) removes what step `i` drew.
        const del = s as unknown as { k: string; i?: number };
        if (del.k === 'del' && typeof del.i === 'number') this.items = this.items.filter((it) => it.step !== del.i);
      }
    }
  }

  private paint(ctx: Paint2D, cw: number, ch: number, partial: { step: DrawStep; p: number } | null): void {
    const fit = fitView(this.drawing.view, cw, ch);
    const X = (x: number) => fit.ox + x * fit.scale;
    const Y = (y: number) => fit.oy - y * fit.scale;
    ctx.save();
    ctx.fillStyle = this.bg;
    ctx.fillRect(0, 0, cw, ch);
    ctx.lineCap = 'round';
    ctx.lineJoin = 'round';
    const poly = (pts: readonly Point[]) => {
      ctx.beginPath();
      pts.forEach(([x, y], j) => (j === 0 ? ctx.moveTo(X(x), Y(y)) : ctx.lineTo(X(x), Y(y))));
      ctx.closePath();
    };
    const line = (x1: number, y1: number, x2: number, y2: number, c: string, w: number) => {
      ctx.strokeStyle = c;
      ctx.lineWidth = Math.max(1, w * fit.scale);
      ctx.beginPath();
      ctx.moveTo(X(x1), Y(y1));
      ctx.lineTo(X(x2), Y(y2));
      ctx.stroke();
    };
    const shape = (parts: readonly Part[], ow: number) => {
      for (const [pts, fc, oc] of parts) {
        if (pts.length < 2) continue;
        poly(pts);
        if (fc) {
          ctx.fillStyle = fc;
          ctx.fill();
        }
        if (oc) {
          ctx.strokeStyle = oc;
          ctx.lineWidth = Math.max(1, ow * fit.scale);
          ctx.stroke();
        }
      }
    };

    for (const it of this.items) {
      switch (it.k) {
        case 'line':
          line(it.x1, it.y1, it.x2, it.y2, it.c, it.w);
          break;
        case 'fill':
          poly(it.pts);
          ctx.fillStyle = it.c;
          ctx.fill();
          break;
        case 'dot':
          ctx.beginPath();
          ctx.arc(X(it.x), Y(it.y), Math.max(0.5, (it.d / 2) * fit.scale), 0, 2 * Math.PI);
          ctx.fillStyle = it.c;
          ctx.fill();
          break;
        case 'text': {
          const [family, size, style] = it.font;
          const st = String(style || '');
          ctx.font = `${st.includes('italic') ? 'italic ' : ''}${st.includes('bold') ? 'bold ' : ''}${Math.max(1, size * PX_PER_PT * fit.scale)}px "${String(family).replace(/"/g, '')}", "Noto Sans CJK SC", sans-serif`;
          ctx.textAlign = it.align;
          ctx.textBaseline = 'bottom';
          ctx.fillStyle = it.c;
          ctx.fillText(it.text, X(it.x), Y(it.y));
          break;
        }
        case 'stamp':
          shape(it.parts, it.ow);
          break;
      }
    }

    // The step in progress: a growing segment, or a turtle turning.
    let moving: { t: number; x: number; y: number; h?: number } | null = null;
    if (partial) {
      const s = partial.step;
      const p = Math.min(1, Math.max(0, partial.p));
      if (s.k === 'move') {
        const x = s.x1 + (s.x2 - s.x1) * p;
        const y = s.y1 + (s.y2 - s.y1) * p;
        if (s.c) line(s.x1, s.y1, x, y, s.c, s.w ?? 1);
        moving = { t: s.t, x, y };
      } else if (s.k === 'turn') {
        const l = this.look(s.t);
        moving = { t: s.t, x: l.x, y: l.y, h: l.h + turnDelta(l.h, s.h) * p };
      }
    }

    for (const [id, l] of this.looks) {
      if (!l.visible) continue;
      const x = moving?.t === id ? moving.x : l.x;
      const y = moving?.t === id ? moving.y : l.y;
      const h = moving?.t === id && moving.h !== undefined ? moving.h : l.h;
      shape(
        l.local.map(([pts, fc, oc]) => [placeShape(pts, x, y, h), fc, oc] as Part),
        1,
      );
    }
    ctx.restore();
  }
}

function stretch(pts: readonly Point[], size: number): Point[] {
  return pts.map(([x, y]) => [x * size, y * size] as Point);
}
