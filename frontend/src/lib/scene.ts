// What a turtle drawing holds at one moment: the painted items in stacking
// order, each turtle's place and look, and the background. Steps of the
// drawing model (docs/runner-protocol.md) are applied to it one by one.

import type { DrawStep, Point, ShapePart, TurtleInfo } from './drawingTypes';
import type { ViewBox } from './view';

// CPython's built-in shapes, pointing up (+y) in the turtle's own frame, in screen pixels.
export const SHAPES: Record<string, Point[]> = {
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

export type Part = ShapePart;

/** The polygons of a runner `parts` list; image shapes (["image", name]) have nothing to draw from data. */
export function partsFrom(raw: unknown): Part[] | null {
  if (!Array.isArray(raw)) return null;
  const parts: Part[] = [];
  for (const p of raw) {
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

export function stretch(pts: readonly Point[], size: number): Point[] {
  return pts.map(([x, y]) => [x * size, y * size] as Point);
}

/** The signed turn from one heading to another, the short way round, in (-180, 180]. */
export function turnDelta(from: number, to: number): number {
  let d = (((to - from) % 360) + 360) % 360;
  if (d > 180) d -= 360;
  return d;
}

/** Something painted, tagged with the step that drew it and its turtle (for del and clear). */
export type Item =
  | { k: 'line'; step: number; t: number; x1: number; y1: number; x2: number; y2: number; c: string; w: number }
  | { k: 'fill'; step: number; t: number; c: string; pts: Point[] }
  | { k: 'dot'; step: number; t: number; x: number; y: number; d: number; c: string }
  | { k: 'text'; step: number; t: number; x: number; y: number; text: string; align: CanvasTextAlign; font: [string, number, string]; c: string }
  | { k: 'stamp'; step: number; t: number; id: string; parts: Part[] };

export interface TurtleLook {
  x: number;
  y: number;
  h: number;
  visible: boolean;
  /** Shape polygons in the turtle's own frame (screen pixels), already stretched. */
  local: Part[];
}

/**
 * The items and turtles. `epoch` changes whenever something already in the
 * list is removed, reordered or repainted differently (del, clear, unstamp,
 * a fill slipped under later items, a background change): a painter that
 * keeps finished items on a backing layer repaints it then, and otherwise
 * only paints the items added at the end.
 */
export class Scene {
  items: Item[] = [];
  readonly looks = new Map<number, TurtleLook>();
  bg: string;
  /** The program's own window (world minx, miny, w, h): the background covers only it; null: all of the canvas. */
  area: ViewBox | null;
  epoch = 0;

  constructor(bg = '#ffffff', area: ViewBox | null = null) {
    this.bg = bg;
    this.area = area;
  }

  /** Sets every turtle as a finished drawing's first moves place it, for replaying a recorded drawing. */
  placeTurtles(turtles: readonly TurtleInfo[], steps: readonly DrawStep[]): void {
    const firstPos = new Map<number, Point>();
    const looked = new Set<number>();
    for (const s of steps) {
      if (s.k === 'move' && !firstPos.has(s.t)) firstPos.set(s.t, [s.x1, s.y1]);
      if (s.k === 'look') looked.add(s.t);
    }
    for (const info of turtles) {
      const [x, y] = firstPos.get(info.id) ?? [0, 0];
      const hasLook = looked.has(info.id);
      this.looks.set(info.id, {
        x,
        y,
        h: 0,
        visible: hasLook ? true : info.visible,
        local: [[stretch(SHAPES[hasLook ? 'classic' : info.shape] ?? SHAPES.classic, hasLook ? 1 : info.size || 1), info.fill, info.pen]],
      });
    }
  }

  setBackground(c: string): void {
    if (c === this.bg) return;
    this.bg = c;
    this.epoch++;
  }

  setArea(a: ViewBox | null): void {
    if (a === this.area || (a && this.area && a.every((v, i) => v === this.area![i]))) return;
    this.area = a;
    this.epoch++;
  }

  look(t: number): TurtleLook {
    let l = this.looks.get(t);
    if (!l) {
      l = { x: 0, y: 0, h: 0, visible: true, local: [[SHAPES.classic, '#000000', '#000000']] };
      this.looks.set(t, l);
    }
    return l;
  }

  /** Applies step number `i` (its position in the drawing's steps, which del and fill.z refer to). */
  apply(s: DrawStep, i: number): void {
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
        const item: Item = { k: 'fill', step: i, t: s.t, c: s.c, pts: s.pts };
        const at = typeof s.z === 'number' ? this.#firstFrom(s.z) : -1;
        if (at < 0) this.items.push(item);
        else {
          this.items.splice(at, 0, item);
          this.epoch++;
        }
        break;
      }
      case 'dot':
        this.items.push({ k: 'dot', step: i, t: s.t, x: s.x, y: s.y, d: s.d, c: s.c });
        break;
      case 'text':
        this.items.push({ k: 'text', step: i, t: s.t, x: s.x, y: s.y, text: String(s.text), align: s.align, font: s.font, c: s.c });
        break;
      case 'stamp': {
        const given = partsFrom(s.parts);
        const parts: Part[] = given ?? [[placeShape(SHAPES[s.shape] ?? SHAPES.classic, s.x, s.y, s.h), s.fc, s.c]];
        this.items.push({ k: 'stamp', step: i, t: s.t, id: JSON.stringify(s.id), parts });
        break;
      }
      case 'unstamp': {
        const id = JSON.stringify(s.id);
        this.#remove((it) => it.k === 'stamp' && it.id === id);
        break;
      }
      case 'clear':
        if (typeof s.t === 'number') this.#remove((it) => it.t === s.t);
        else this.#remove(() => true);
        break;
      case 'del':
        this.#remove((it) => it.step === s.i);
        break;
      case 'bg':
        this.setBackground(s.c);
        break;
      case 'look': {
        const l = this.look(s.t);
        l.visible = s.visible;
        const given = partsFrom(s.parts);
        l.local = given ?? [[stretch(SHAPES[s.shape] ?? SHAPES.classic, s.size || 1), '#000000', '#000000']];
        break;
      }
    }
  }

  /** The index of the first item drawn by step `z` or later; items are in step order apart from fills. */
  #firstFrom(z: number): number {
    for (let j = this.items.length - 1; j >= 0; j--) {
      if (this.items[j].step < z && this.items[j].k !== 'fill') return j + 1 < this.items.length ? j + 1 : -1;
    }
    return this.items.length ? 0 : -1;
  }

  #remove(gone: (it: Item) => boolean): void {
    const kept = this.items.filter((it) => !gone(it));
    if (kept.length === this.items.length) return;
    this.items = kept;
    this.epoch++;
  }
}
