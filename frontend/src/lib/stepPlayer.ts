// "👣 Step by step": what the window shows at each step of a traced run
// (docs/contracts.md §5), worked out from the recording alone, so going
// back and forth never runs the program again. A step is the moment before
// its line runs: the line, the frame's names as they are then, the calls
// in progress, and how far the output and the drawing had got.
//
// The trace is the program's own word: every field is checked here, and
// nothing in it decides more than what is shown.

import type { RunError, TraceEvent, TraceStep } from './contract.gen';
import type { SegKind } from './consoleModel';

/** A step as the window shows it: a traced one, or the run's end (the error, when it raised). */
export type StepKind = TraceEvent | 'end' | 'error';

/** One call in progress: the module at the top level, then each function called. */
export interface FrameView {
  /** Identifies the call across steps (for keyed rendering). */
  id: number;
  func: string;
  /** The line it is at: about to run, or the one that made the call below it. */
  line: number | null;
  /** Its names and their values as text, in the order Python keeps them. */
  vars: [string, string][];
}

export interface StepView {
  index: number;
  kind: StepKind;
  /** The line about to run (or raising, returning, calling); null at the end of a run that did not fail. */
  line: number | null;
  /** The calls in progress, outermost first; the last is the frame this step is in. */
  frames: FrameView[];
  /** Names of the current frame whose value changed since its previous step (or appeared). */
  changed: string[];
  /** What a return step gives back, as text. */
  value?: string;
  /** The exception's type name on an exception step, or the run's error at the end. */
  error?: string;
  /** A return step of a call the exception is leaving (CPython reports its value as None). */
  unwinding?: boolean;
  /** Characters (code points) of standard output written before the step. */
  out: number;
  /** Drawing steps recorded before the step. */
  draw: number;
}

/**
 * A line the child typed for input(), after `at` code points of standard
 * output. Its input() had returned by a step whose output is past `at`, or
 * has reached it after a prompt (the prompt was printed by the step before);
 * an input() with no prompt is placed no sooner than the output after it.
 */
export interface Answer {
  at: number;
  text: string;
  prompted: boolean;
}

export interface StepSource {
  steps: readonly unknown[];
  truncated?: boolean;
  /** The run's whole standard output and error, as the result has them. */
  stdout: string;
  stderr?: string;
  /** Lines typed during the recording. */
  answers?: readonly Answer[];
  /** The drawing steps the window holds for this run. */
  drawSteps: number;
  /** The run's error, when it raised: the last step shows it at its line. */
  error?: RunError | null;
}

const EVENTS: ReadonlySet<string> = new Set(['line', 'call', 'return', 'exception']);
const MAX_TEXT = 200;
const MAX_VARS = 200;

const count = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? Math.floor(v) : 0);
const text = (v: unknown, max = MAX_TEXT): string | undefined => (typeof v === 'string' ? v.slice(0, max) : undefined);

/** A trace step as the window can use it, or null for one it cannot. */
export function parseTraceStep(raw: unknown): TraceStep | null {
  if (!raw || typeof raw !== 'object') return null;
  const s = raw as Record<string, unknown>;
  if (typeof s.event !== 'string' || !EVENTS.has(s.event)) return null;
  const vars: Record<string, string> = {};
  if (s.vars && typeof s.vars === 'object' && !Array.isArray(s.vars)) {
    let n = 0;
    for (const [k, v] of Object.entries(s.vars as Record<string, unknown>)) {
      if (typeof v !== 'string' || !k || k.length > 100) continue;
      if (++n > MAX_VARS) break;
      vars[k] = v.slice(0, MAX_TEXT);
    }
  }
  const step: TraceStep = {
    i: count(s.i),
    event: s.event as TraceEvent,
    line: count(s.line),
    func: text(s.func, 100) ?? '?',
    depth: count(s.depth),
    vars,
    out: count(s.out),
    draw: count(s.draw),
  };
  const value = text(s.value);
  const error = text(s.error, 100);
  if (value !== undefined) step.value = value;
  if (error !== undefined) step.error = error;
  return step;
}

interface Frame {
  func: string;
  depth: number;
  parent: number;
  /** The parent's last step before this call: where the parent stands while this runs. */
  callerStep: number;
  returned: boolean;
}

/** The recording of one traced run, with the state at every step. */
export class StepRecording {
  readonly steps: readonly TraceStep[];
  readonly truncated: boolean;
  readonly error: RunError | null;
  /** Steps in all: the traced ones, then the run's end. */
  readonly length: number;
  readonly #frames: Frame[] = [];
  readonly #frameOf: Int32Array;
  readonly #prevInFrame: Int32Array;
  readonly #stdout: CodePoints;
  readonly #stderr: string;
  readonly #answers: Answer[];
  readonly #drawSteps: number;
  /** The traced step the end stands on: where the error was raised, or the top level's last. */
  readonly #endBase: number;

  constructor(src: StepSource) {
    const steps: TraceStep[] = [];
    for (const raw of src.steps) {
      const s = parseTraceStep(raw);
      if (s) steps.push(s);
    }
    this.steps = steps;
    this.truncated = !!src.truncated;
    this.error = src.error ?? null;
    this.length = steps.length + 1;
    this.#stdout = new CodePoints(src.stdout ?? '');
    this.#stderr = src.stderr ?? '';
    this.#drawSteps = count(src.drawSteps);
    this.#answers = (src.answers ?? []).filter((a) => typeof a.text === 'string').map((a) => ({ at: count(a.at), text: a.text, prompted: !!a.prompted }));
    this.#frameOf = new Int32Array(steps.length);
    this.#prevInFrame = new Int32Array(steps.length);
    this.#placeFrames();
    this.#endBase = this.#findEndBase();
  }

  /**
   * Which call each step is in. The trace gives each step its depth and
   * event; a call opens a frame below the one it came from, a return
   * closes it. A step that fits no open frame (the recording began or was
   * cut mid-call) opens one of its own, so the walk never fails.
   */
  #placeFrames(): void {
    const frames = this.#frames;
    const last: number[] = [];
    const stack: number[] = [];
    const top = () => (stack.length ? stack[stack.length - 1] : -1);
    const open = (s: TraceStep) => {
      const parent = top();
      frames.push({ func: s.func, depth: s.depth, parent, callerStep: parent >= 0 ? last[parent] : -1, returned: false });
      last.push(-1);
      stack.push(frames.length - 1);
    };
    this.steps.forEach((s, i) => {
      if (s.event === 'call') {
        while (stack.length && frames[top()].depth >= s.depth) stack.pop();
        open(s);
      } else {
        while (stack.length && frames[top()].depth > s.depth) stack.pop();
        const f = top();
        if (f < 0 || frames[f].depth < s.depth || frames[f].returned || frames[f].func !== s.func) {
          if (f >= 0 && frames[f].depth === s.depth) stack.pop();
          open(s);
        }
      }
      const f = top();
      this.#frameOf[i] = f;
      this.#prevInFrame[i] = last[f];
      last[f] = i;
      if (s.event === 'return') frames[f].returned = true;
    });
  }

  #findEndBase(): number {
    const steps = this.steps;
    const line = this.error?.line;
    if (this.error) {
      for (let i = steps.length - 1; i >= 0; i--) {
        if (steps[i].event === 'exception' && (typeof line !== 'number' || steps[i].line === line)) return i;
      }
    }
    for (let i = steps.length - 1; i >= 0; i--) if (steps[i].depth === 0) return i;
    return steps.length - 1;
  }

  /** The step index held within the recording. */
  clamp(i: number): number {
    return Math.max(0, Math.min(this.length - 1, Math.floor(i) || 0));
  }

  /** The state at step i (0 ≤ i < length). */
  at(index: number): StepView {
    const i = this.clamp(index);
    if (i === this.steps.length) return this.#end(i);
    const s = this.steps[i];
    const prev = this.#prevInFrame[i];
    const view: StepView = {
      index: i,
      kind: s.event,
      line: s.line || null,
      frames: this.#stack(i),
      changed: changedNames(s.vars, prev >= 0 ? this.steps[prev].vars : null),
      out: Math.min(s.out, this.#stdout.length),
      draw: Math.min(s.draw, this.#drawSteps),
    };
    if (s.event === 'return') {
      view.value = s.value ?? 'None';
      if (prev >= 0 && this.steps[prev].event === 'exception') view.unwinding = true;
    }
    if (s.event === 'exception') view.error = s.error ?? 'Exception';
    return view;
  }

  /** The run's end: everything printed and drawn, and the error at its line when it raised. */
  #end(i: number): StepView {
    const base = this.#endBase;
    const err = this.error;
    const b = base >= 0 ? this.steps[base] : null;
    return {
      index: i,
      kind: err ? 'error' : 'end',
      line: err ? (err.line ?? b?.line ?? null) : null,
      frames: b ? this.#stack(base) : [],
      changed: [],
      error: err ? err.type : undefined,
      out: this.#stdout.length,
      draw: this.#drawSteps,
    };
  }

  /** The calls in progress at traced step i, outermost first. */
  #stack(i: number): FrameView[] {
    const out: FrameView[] = [];
    let f = this.#frameOf[i];
    let at = i;
    while (f >= 0) {
      const s = at >= 0 ? this.steps[at] : null;
      out.push({ id: f, func: this.#frames[f].func, line: s ? s.line || null : null, vars: s ? Object.entries(s.vars) : [] });
      at = this.#frames[f].callerStep;
      f = this.#frames[f].parent;
    }
    return out.reverse();
  }

  /**
   * The console at step i, in order: what the program printed before it,
   * the lines typed for input() on the way, and at the end its error output.
   */
  outputAt(index: number): [SegKind, string][] {
    const i = this.clamp(index);
    const end = i === this.steps.length;
    const out = end ? this.#stdout.length : Math.min(this.steps[i].out, this.#stdout.length);
    const segs: [SegKind, string][] = [];
    let from = 0;
    for (const a of this.#answers) {
      if (!(end || a.at < out || (a.prompted && a.at === out))) break;
      if (a.at > from) segs.push(['stdout', this.#stdout.slice(from, a.at)]);
      segs.push(['input', a.text + '\n']);
      from = Math.max(from, a.at);
    }
    if (out > from) segs.push(['stdout', this.#stdout.slice(from, out)]);
    if (end && this.#stderr) segs.push(['stderr', this.#stderr]);
    return segs;
  }
}

/** Names whose value differs from the frame's previous step, or that are new (all of them at a call). */
export function changedNames(now: Record<string, string>, before: Record<string, string> | null): string[] {
  const out: string[] = [];
  for (const [k, v] of Object.entries(now)) {
    if (!before || before[k] !== v) out.push(k);
  }
  return out;
}

/** A text indexed by code points, as Python counts characters. */
export class CodePoints {
  readonly text: string;
  readonly length: number;
  /** UTF-16 offset of every code point, when the text has any outside the BMP. */
  readonly #offsets: Uint32Array | null;

  constructor(text: string) {
    this.text = text;
    if (!/[\uD800-\uDFFF]/.test(text)) {
      this.#offsets = null;
      this.length = text.length;
      return;
    }
    const offsets: number[] = [];
    for (let j = 0; j < text.length; j++) {
      offsets.push(j);
      const c = text.charCodeAt(j);
      if (c >= 0xd800 && c <= 0xdbff && j + 1 < text.length) {
        const d = text.charCodeAt(j + 1);
        if (d >= 0xdc00 && d <= 0xdfff) j++;
      }
    }
    offsets.push(text.length);
    this.#offsets = Uint32Array.from(offsets);
    this.length = offsets.length - 1;
  }

  /** Code points [from, to). */
  slice(from: number, to: number): string {
    const a = Math.max(0, Math.min(from, this.length));
    const b = Math.max(a, Math.min(to, this.length));
    if (!this.#offsets) return this.text.slice(a, b);
    return this.text.slice(this.#offsets[a], this.#offsets[b]);
  }
}

/** How many code points a text holds (for counting output as Python does). */
export function codePoints(s: string): number {
  let n = s.length;
  for (let j = 0; j < s.length - 1; j++) {
    const c = s.charCodeAt(j);
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = s.charCodeAt(j + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n--;
        j++;
      }
    }
  }
  return n;
}
