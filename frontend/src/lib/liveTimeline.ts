// The live drawing's timeline: steps arrive while the program runs, each
// animating over its own time (animationMs) from max(its arrival, the
// previous step's end), so a burst of steps still plays in order and a slow
// program is followed as it goes. Within a step the turtle moves as CPython's
// does: its first hop shows at once, its last one update before the step's
// time is up (see updates()).

import type { DrawStep } from './backend';
import { turnDelta } from './scene';

/** The longest one step may animate: a forged `d` cannot hold the drawing up for ever. */
export const MAX_STEP_MS = 60_000;

/**
 * How long a live step animates: its `ms` as the runner sends it, or `d` as
 * the protocol names it, except on a dot, where `d` is the diameter.
 * Bounded to 0..MAX_STEP_MS.
 */
export function animationMs(s: DrawStep): number {
  const raw = typeof s.ms === 'number' ? s.ms : s.k === 'dot' ? 0 : s.d;
  return typeof raw === 'number' && Number.isFinite(raw) && raw > 0 ? Math.min(raw, MAX_STEP_MS) : 0;
}

/**
 * How many screen updates CPython's turtle makes for a step at its speed,
 * and how many of them move it (docs/runner-protocol.md, "Pacing"): a move
 * is 1 + ⌊d / (3·1.1^s·s)⌋ hops (d in screen pixels), each drawn and then
 * waited for; a turn is 1 + ⌊|angle| / (3·s)⌋ rotations and one more update;
 * anything else (and speed 0) is one update, shown at once.
 */
export function updates(s: DrawStep, prevHeading: number, scale: readonly [number, number] = [1, 1]): { total: number; moving: number } {
  const v = s.s;
  if (!(v > 0)) return { total: 1, moving: 1 };
  if (s.k === 'move') {
    const d = Math.hypot((s.x2 - s.x1) * scale[0], (s.y2 - s.y1) * scale[1]);
    const hops = 1 + Math.floor(d / (3 * Math.pow(1.1, v) * v));
    return { total: hops, moving: hops };
  }
  if (s.k === 'turn') {
    const steps = 1 + Math.floor(Math.abs(turnDelta(prevHeading, s.h)) / (3 * v));
    return { total: steps + 1, moving: steps };
  }
  return { total: 1, moving: 1 };
}

export interface LiveMoment {
  /** Steps [0, complete) have finished. */
  complete: number;
  /** The step animating now, with its progress 0..1, if any. */
  partial: { index: number; p: number } | null;
}

export class LiveTimeline {
  readonly steps: DrawStep[] = [];
  readonly #starts: number[] = [];
  readonly #ends: number[] = [];
  /** Per step: how many updates move the turtle, and how many the step lasts in all. */
  readonly #moving: number[] = [];
  readonly #total: number[] = [];
  /** Each turtle's heading after the steps so far, for how long its next turn animates. */
  readonly #headings = new Map<number, number>();
  /** Screen pixels per world unit, for how many hops a move takes. */
  scale: readonly [number, number] = [1, 1];
  /** A frame left out steps (the host's bound): later ones cannot be placed, so nothing more is added. */
  broken = false;

  get length(): number {
    return this.steps.length;
  }

  /** When the last step received ends (0 before any). */
  get end(): number {
    return this.#ends.length ? this.#ends[this.#ends.length - 1] : 0;
  }

  /**
   * Adds a draw frame's steps, numbered from `from`, arrived at `now`. Steps
   * already held are skipped; a gap before `from` stops the timeline.
   * Returns how many steps were added.
   */
  add(steps: readonly DrawStep[], from: number, now: number): number {
    if (this.broken) return 0;
    if (from > this.steps.length) {
      this.broken = true;
      return 0;
    }
    let added = 0;
    for (let j = this.steps.length - from; j < steps.length; j++) {
      const s = steps[j];
      const d = animationMs(s);
      const start = Math.max(now, this.end);
      const t = typeof (s as { t?: unknown }).t === 'number' ? (s as { t: number }).t : -1;
      const u = updates(s, this.#headings.get(t) ?? 0, this.scale);
      if (s.k === 'turn') this.#headings.set(t, s.h);
      this.#moving.push(u.moving);
      this.#total.push(u.total);
      this.steps.push(s);
      this.#starts.push(start);
      this.#ends.push(start + d);
      added++;
    }
    return added;
  }

  /** Which steps have finished at `now`, and the one in progress. */
  at(now: number): LiveMoment {
    const ends = this.#ends;
    let lo = 0;
    let hi = ends.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (ends[mid] <= now) lo = mid + 1;
      else hi = mid;
    }
    if (lo < ends.length && now >= this.#starts[lo]) {
      // The first of the moving updates shows at the start, the last one `moving - 1` updates later.
      const d = ends[lo] - this.#starts[lo];
      const u = d / this.#total[lo];
      const p = d > 0 ? Math.min(1, (u + now - this.#starts[lo]) / (u * this.#moving[lo])) : 1;
      return { complete: lo, partial: { index: lo, p } };
    }
    return { complete: lo, partial: null };
  }

  /** Every step received has played by `now`. */
  caughtUp(now: number): boolean {
    return this.end <= now;
  }

  /** Finishes every step received at once ("skip to the end" while the program still runs). */
  skip(now: number): void {
    for (let i = 0; i < this.#ends.length; i++) {
      if (this.#starts[i] > now) this.#starts[i] = now;
      if (this.#ends[i] > now) this.#ends[i] = now;
    }
  }
}
