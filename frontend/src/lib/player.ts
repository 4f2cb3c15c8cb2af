// The one player of a turtle drawing (docs/runner-protocol.md, "Drawing
// model"): a timeline of its steps and the scene they make at any moment of
// it, painted on a 2D canvas. It plays a live run's steps as they arrive,
// and replays steps already held from their start: those a live run left
// ("watch again"), or a result's drawing where the steps were not seen live
// (a pack's check run, the card's run_python).
//
// Each step takes its own time when it carries one (a live step's `ms`, the
// time the program spent animating it) and moves as CPython's turtle does:
// its first hop shows at once, its last one update before its time is up.
// A step without a time of its own (a result's drawing) takes the time
// CPython's turtle would at its speed and glides over it.

import type { DrawStep, TurtleInfo } from './drawingTypes';
import { paintScene, type InProgress, type Paint2D } from './paint';
import { Scene, turnDelta } from './scene';
import { fitView, type ViewBox, type ViewFit } from './view';

/** CPython's default screen delay: every turtle update waits this long. */
export const UPDATE_MS = 10;

/** The longest one step may animate: a forged `ms` cannot hold the drawing up for ever. */
export const MAX_STEP_MS = 60_000;

/** The step carries the time the program spent on it: `ms`, or `d` as the protocol first named it (a dot's `d` is its diameter). */
function hasOwnTime(s: DrawStep): boolean {
  return typeof s.ms === 'number' || (s.k !== 'dot' && typeof s.d === 'number');
}

/**
 * How long a live step animates: its `ms` as the runner sends it, or `d` as
 * the protocol names it, except on a dot, where `d` is the diameter.
 * Bounded to 0..MAX_STEP_MS.
 */
export function animationMs(s: DrawStep): number {
  return boundedMs(typeof s.ms === 'number' ? s.ms : s.k === 'dot' ? 0 : s.d);
}

/**
 * How long a step replays ("watch again"): CPython's own time for it, `d`
 * as a live run sends it whatever the speed dial or ⏭ made the run wait
 * (a dot's `d` is its diameter: its `ms`), bounded as animationMs.
 */
export function replayMs(s: DrawStep): number {
  return s.k === 'dot' || typeof s.d !== 'number' ? animationMs(s) : boundedMs(s.d);
}

/** A step's time as the program said it, within 0..MAX_STEP_MS (0 for anything but a positive number). */
function boundedMs(raw: unknown): number {
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

/** How long a step takes in CPython's turtle at its speed: one UPDATE_MS per update; speed 0 is instant. */
export function stepDuration(step: DrawStep, prevHeading: number, scale: readonly [number, number] = [1, 1]): number {
  return step.s > 0 ? updates(step, prevHeading, scale).total * UPDATE_MS : 0;
}

export interface Moment {
  /** Steps [0, complete) have finished. */
  complete: number;
  /** The step animating now, with its progress 0..1, if any. */
  partial: { index: number; p: number } | null;
}

/**
 * When each step plays: from max(its arrival, the previous step's end), for
 * its own time (or CPython's at its speed), so a burst of steps still plays
 * in order and a slow program is followed as it goes.
 */
export class Timeline {
  readonly steps: DrawStep[] = [];
  readonly #starts: number[] = [];
  readonly #ends: number[] = [];
  /** Per step: how many updates move the turtle (0: it glides), and how many the step lasts in all. */
  readonly #moving: number[] = [];
  readonly #total: number[] = [];
  /** Each turtle's heading after the steps so far, for how long its next turn animates. */
  readonly #headings = new Map<number, number>();
  /** Screen pixels per world unit, for how many hops a move takes. */
  scale: readonly [number, number] = [1, 1];
  /** A frame left out steps (the host's bound): later ones cannot be placed, so nothing more is added. */
  broken = false;
  /** Steps added from now on take no time: "finish now" was asked, and the program no longer waits either. */
  instant = false;

  /** Steps held already, played from time 0 one after another (a replay). */
  static of(steps: readonly DrawStep[], scale: readonly [number, number] = [1, 1]): Timeline {
    const tl = new Timeline();
    tl.scale = scale;
    for (const s of steps) {
      if (hasOwnTime(s)) tl.#push(s, replayMs(s), false, 0);
      else tl.#push(s, stepDuration(s, tl.#heading(s), scale), true, 0);
    }
    return tl;
  }

  get length(): number {
    return this.steps.length;
  }

  /** When the last step held ends (0 before any). */
  get end(): number {
    return this.#ends.length ? this.#ends[this.#ends.length - 1] : 0;
  }

  /** When each step begins. */
  get starts(): readonly number[] {
    return this.#starts;
  }

  /** How long each step plays. */
  get durations(): number[] {
    return this.#ends.map((e, i) => e - this.#starts[i]);
  }

  /**
   * Adds a live draw frame's steps, numbered from `from`, arrived at `now`,
   * each for its own time (none: instant). Steps already held are skipped; a
   * gap before `from` stops the timeline. Returns how many steps were added.
   */
  add(steps: readonly DrawStep[], from: number, now: number): number {
    if (this.broken) return 0;
    if (from > this.steps.length) {
      this.broken = true;
      return 0;
    }
    let added = 0;
    for (let j = this.steps.length - from; j < steps.length; j++) {
      this.#push(steps[j], this.instant ? 0 : animationMs(steps[j]), false, now);
      added++;
    }
    return added;
  }

  #heading(s: DrawStep): number {
    return this.#headings.get(turtleOf(s)) ?? 0;
  }

  #push(s: DrawStep, d: number, glide: boolean, now: number): void {
    const start = Math.max(now, this.end);
    const u = updates(s, this.#heading(s), this.scale);
    if (s.k === 'turn') this.#headings.set(turtleOf(s), s.h);
    this.#moving.push(glide ? 0 : u.moving);
    this.#total.push(u.total);
    this.steps.push(s);
    this.#starts.push(start);
    this.#ends.push(start + d);
  }

  /** Which steps have finished at `now`, and the one in progress. */
  at(now: number): Moment {
    const ends = this.#ends;
    // Bisection: a drawing may be 100k steps long.
    let lo = 0;
    let hi = ends.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (ends[mid] <= now) lo = mid + 1;
      else hi = mid;
    }
    if (lo < ends.length && now >= this.#starts[lo]) {
      const d = ends[lo] - this.#starts[lo];
      const moving = this.#moving[lo];
      if (moving === 0) return { complete: lo, partial: { index: lo, p: d > 0 ? (now - this.#starts[lo]) / d : 1 } };
      // The first of the moving updates shows at the start, the last one `moving - 1` updates later.
      const u = d / this.#total[lo];
      const p = d > 0 ? Math.min(1, (u + now - this.#starts[lo]) / (u * moving)) : 1;
      return { complete: lo, partial: { index: lo, p } };
    }
    return { complete: lo, partial: null };
  }

  /** Every step held has played by `now`. */
  caughtUp(now: number): boolean {
    return this.end <= now;
  }

  /**
   * The program's pace changed by `k` (its waits take k times as long from
   * `now`, as the speed dial asked): what is still to play of the steps held
   * plays k times as long, so the drawing keeps with the program. k = 0
   * finishes them at once.
   */
  retime(now: number, k: number): void {
    if (!(k >= 0) || !Number.isFinite(k)) return;
    const at = (t: number) => (t > now ? now + (t - now) * k : t);
    for (let i = this.#ends.length - 1; i >= 0 && this.#ends[i] > now; i--) {
      this.#starts[i] = at(this.#starts[i]);
      this.#ends[i] = at(this.#ends[i]);
    }
  }

  /** Finishes every step held at once ("skip to the end" while the program still runs). */
  skip(now: number): void {
    for (let i = 0; i < this.#ends.length; i++) {
      if (this.#starts[i] > now) this.#starts[i] = now;
      if (this.#ends[i] > now) this.#ends[i] = now;
    }
  }
}

function turtleOf(s: DrawStep): number {
  return typeof (s as { t?: unknown }).t === 'number' ? (s as { t: number }).t : -1;
}

/** Steps held with the screen they were drawn on: a result's drawing, or what a live run drew. */
export interface Recording {
  width: number;
  height: number;
  view: ViewBox;
  /** Pixels per world unit (x, y); [1, 1] when left out. */
  scale?: readonly [number, number];
  bg: string;
  /** The program's own window, where the background goes (docs/runner-protocol.md, "area"); null or absent: everywhere. */
  area?: ViewBox | null;
  steps: readonly DrawStep[];
  /** Where each turtle ended (a result's drawing): a replay starts them where their first move does. */
  turtles?: readonly TurtleInfo[];
}

/** A replay starts from the background the drawing had before its first step, or white when its steps change it. */
function startBackground(r: Recording): string {
  return r.steps.some((s) => s.k === 'bg') ? '#ffffff' : r.bg || '#ffffff';
}

/** A timeline and the scene it has made at the last moment asked for. */
export class Player {
  readonly timeline: Timeline;
  /** The world window shown, and pixels per world unit (a live run's screen frames change them). */
  view: ViewBox;
  scale: readonly [number, number];
  readonly #bg: string;
  #area: ViewBox | null;
  readonly #turtles: readonly TurtleInfo[];
  #scene!: Scene;
  /** Steps [0, applied) are in the scene. */
  #applied = 0;

  /** A live run's player: steps are added to its timeline as they arrive. */
  constructor(screen: { view: ViewBox; scale?: readonly [number, number]; bg: string; area?: ViewBox | null }, timeline = new Timeline(), turtles: readonly TurtleInfo[] = []) {
    this.view = screen.view;
    this.scale = screen.scale ?? [1, 1];
    this.timeline = timeline;
    this.timeline.scale = this.scale;
    this.#bg = screen.bg;
    this.#area = screen.area ?? null;
    this.#turtles = turtles;
    this.#reset();
  }

  /** Replays a recording from its start. */
  static replay(r: Recording): Player {
    return new Player({ view: r.view, scale: r.scale, bg: startBackground(r), area: r.area }, Timeline.of(r.steps, r.scale), r.turtles ?? []);
  }

  /** A live run's screen frame: the world window, its scale and the background from now on. */
  setScreen(screen: { view: ViewBox; scale: readonly [number, number]; bg: string; area?: ViewBox | null }): void {
    this.view = screen.view;
    this.scale = screen.scale;
    this.timeline.scale = screen.scale;
    this.#area = screen.area ?? null;
    this.#scene.setBackground(screen.bg);
    this.#scene.setArea(this.#area);
  }

  /** The scene as it is after the last advanceTo. */
  get scene(): Scene {
    return this.#scene;
  }

  /** When the last step held ends. */
  get end(): number {
    return this.timeline.end;
  }

  /** Where the drawing's world lands on a canvas of cw × ch pixels. */
  fit(cw: number, ch: number): ViewFit {
    return fitView(this.view, cw, ch, this.scale);
  }

  /**
   * Brings the scene to `now` (going back starts it again); returns the step
   * in progress (or null) and whether every step held has played.
   */
  advanceTo(now: number): { partial: InProgress | null; complete: boolean } {
    const m = this.timeline.at(now);
    const steps = this.timeline.steps;
    if (m.complete < this.#applied) this.#reset();
    while (this.#applied < m.complete) {
      this.#scene.apply(steps[this.#applied], this.#applied);
      this.#applied++;
    }
    const partial = m.partial ? { step: steps[m.partial.index], p: m.partial.p } : null;
    return { partial, complete: m.complete >= steps.length };
  }

  /**
   * Brings the scene to the moment the first `n` steps were drawn, none in
   * progress (step by step: a trace step's `draw`); going back starts it again.
   */
  showSteps(n: number): void {
    const steps = this.timeline.steps;
    const k = Math.max(0, Math.min(Math.floor(n) || 0, steps.length));
    if (k < this.#applied) this.#reset();
    while (this.#applied < k) {
      this.#scene.apply(steps[this.#applied], this.#applied);
      this.#applied++;
    }
  }

  /** Paints the drawing as it looks at `ms`; returns true once every step has played. */
  paintAt(ctx: Paint2D, ms: number, cw: number, ch: number): boolean {
    const { partial, complete } = this.advanceTo(ms);
    paintScene(ctx, this.fit(cw, ch), this.#scene, partial, cw, ch);
    return complete;
  }

  /** Paints the finished drawing. */
  paintFinal(ctx: Paint2D, cw: number, ch: number): void {
    this.paintAt(ctx, this.end, cw, ch);
  }

  #reset(): void {
    this.#scene = new Scene(this.#bg, this.#area);
    if (this.#turtles.length) this.#scene.placeTurtles(this.#turtles, this.timeline.steps);
    this.#applied = 0;
  }
}
