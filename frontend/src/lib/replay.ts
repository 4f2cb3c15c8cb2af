// Replays a turtle drawing (docs/runner-protocol.md, "Drawing model") on a
// 2D canvas: the step list becomes a timeline paced like CPython's turtle,
// and any moment of it can be painted from the recorded data alone.

import type { Drawing, DrawStep } from './backend';
import { paintScene, type InProgress } from './paint';
import { Scene, turnDelta } from './scene';
import { fitView, type ViewFit } from './view';

import type { Paint2D } from './paint';
export type { Paint2D } from './paint';
export { placeShape, turnDelta } from './scene';
export { fitView, type ViewFit } from './view';

/** CPython's default screen delay: every turtle update waits this long. */
export const UPDATE_MS = 10;

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
    const tid = 't' in step && typeof step.t === 'number' ? step.t : -1;
    const prev = headings.get(tid) ?? 0;
    const d = stepDuration(step, prev);
    if (step.k === 'turn') headings.set(tid, step.h);
    starts.push(t);
    durations.push(d);
    t += d;
  }
  return { starts, durations, total: t };
}

export class Replay {
  readonly drawing: Drawing;
  readonly timeline: Timeline;
  #scene!: Scene;
  /** Steps [0, applied) are in the scene. */
  #applied = 0;

  constructor(drawing: Drawing) {
    this.drawing = drawing;
    this.timeline = buildTimeline(drawing.steps);
    this.#reset();
  }

  get total(): number {
    return this.timeline.total;
  }

  /** The scene as it is after the last advanceTo. */
  get scene(): Scene {
    return this.#scene;
  }

  /** Where the drawing's world lands on a canvas of cw × ch pixels. */
  fit(cw: number, ch: number): ViewFit {
    return fitView(this.drawing.view, cw, ch, this.drawing.scale);
  }

  /**
   * Brings the scene to `ms` after the replay started; returns the step in
   * progress (or null) and whether the replay is complete.
   */
  advanceTo(ms: number): { partial: InProgress | null; complete: boolean } {
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
    if (complete < this.#applied) this.#reset();
    while (this.#applied < complete) {
      this.#scene.apply(steps[this.#applied], this.#applied);
      this.#applied++;
    }
    let partial: InProgress | null = null;
    if (complete < steps.length && ms >= starts[complete]) {
      const d = durations[complete];
      partial = { step: steps[complete], p: d > 0 ? (ms - starts[complete]) / d : 1 };
    }
    return { partial, complete: complete >= steps.length };
  }

  /** Paints the drawing as it looks `ms` after the replay started; returns true once it is complete. */
  paintAt(ctx: Paint2D, ms: number, cw: number, ch: number): boolean {
    const { partial, complete } = this.advanceTo(ms);
    paintScene(ctx, this.fit(cw, ch), this.#scene, partial, cw, ch);
    return complete;
  }

  /** Paints the finished drawing. */
  paintFinal(ctx: Paint2D, cw: number, ch: number): void {
    this.paintAt(ctx, this.total, cw, ch);
  }

  #reset(): void {
    const d = this.drawing;
    this.#scene = new Scene(d.steps.some((s) => s.k === 'bg') ? '#ffffff' : d.bg || '#ffffff');
    this.#scene.placeTurtles(d.turtles ?? [], d.steps);
    this.#applied = 0;
  }
}
