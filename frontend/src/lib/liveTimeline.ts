// The live drawing's timeline: steps arrive while the program runs, each
// animating over its own time (animationMs) from max(its arrival, the previous step's end),
// so a burst of steps still plays in order and a slow program is followed
// as it goes.

import type { DrawStep } from './backend';

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
      const d = ends[lo] - this.#starts[lo];
      return { complete: lo, partial: { index: lo, p: d > 0 ? (now - this.#starts[lo]) / d : 1 } };
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
