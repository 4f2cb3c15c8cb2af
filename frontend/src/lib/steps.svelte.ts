// "👣 Step by step" in the window. The program runs once, traced: its
// output, the lines typed for input() and its drawing come as in any live
// run, and are kept. Then the window plays the recording: ▶/⏸ at the speed
// dial's pace, one step forward or back, the scrubber, and keys. Going back
// shows the recording again, line, names, output and drawing together; the
// program never runs again.

import type { RunResult } from './backend';
import type { StepMark } from './editor.svelte';
import type { Timers } from './lessons.svelte';
import { stepMs } from './pace';
import { canvasLayers, type Blit2D, type Layers } from './paint';
import { Player, type Recording } from './player';
import { codePoints, StepRecording, type Answer, type StepView } from './stepPlayer';
import type { SegKind } from './consoleModel';

export interface StepDeps {
  /** Where the line about to run is highlighted. */
  editor: { showStep(mark: StepMark | null): void };
  timers: Timers;
  /** The speed dial's pace, read at every step while playing. */
  pace: () => number;
}

/** What a key does in step by step; null: not a step key. */
export type StepAction = 'back' | 'forward' | 'toggle' | 'first' | 'last' | 'leave';

/** The key's action in step by step (the labels in i18n's stepKeys say the same). */
export function stepKey(e: { key: string; ctrlKey?: boolean; metaKey?: boolean; altKey?: boolean }): StepAction | null {
  if (e.ctrlKey || e.metaKey || e.altKey) return null;
  switch (e.key) {
    case 'ArrowLeft':
      return 'back';
    case 'ArrowRight':
      return 'forward';
    case ' ':
    case 'Spacebar':
      return 'toggle';
    case 'Home':
      return 'first';
    case 'End':
      return 'last';
    case 'Escape':
      return 'leave';
    default:
      return null;
  }
}

export class StepState {
  /** A traced run is going: what it prints and what is typed for input() is kept. */
  recording = $state(false);
  /** The recording played back; null outside step by step. */
  rec = $state.raw<StepRecording | null>(null);
  /** The step shown. */
  index = $state(0);
  playing = $state(false);
  /** The last traced run gave no recording to play (it could not start tracing). */
  missing = $state(false);
  /** The drawing the run made, when it made one. */
  drawing = $state.raw<Recording | null>(null);

  view = $derived<StepView | null>(this.rec ? this.rec.at(this.index) : null);
  output = $derived<[SegKind, string][]>(this.rec ? this.rec.outputAt(this.index) : []);

  readonly #deps: StepDeps;
  #stdoutPoints = 0;
  #answers: Answer[] = [];
  #timer: unknown = null;
  #player: Player | null = null;
  #layers: Layers<CanvasImageSource> | null = null;

  constructor(deps: StepDeps) {
    this.#deps = deps;
  }

  get active(): boolean {
    return this.rec !== null;
  }

  get length(): number {
    return this.rec?.length ?? 0;
  }

  get atEnd(): boolean {
    return !!this.rec && this.index >= this.rec.length - 1;
  }

  /** A traced run starts: step by step of any earlier run ends, and this one's output is kept. */
  begin(): void {
    this.leave();
    this.recording = true;
    this.missing = false;
    this.#stdoutPoints = 0;
    this.#answers = [];
  }

  /** A run that is not traced starts: step by step ends. */
  end(): void {
    this.leave();
    this.missing = false;
  }

  /** Output of the traced run as it comes. */
  heard(stream: 'stdout' | 'stderr', text: string): void {
    if (this.recording && stream === 'stdout') this.#stdoutPoints += codePoints(text);
  }

  /** A line the child typed for input(), whose prompt was `prompt`. */
  typed(line: string, prompt: string): void {
    if (this.recording) this.#answers.push({ at: this.#stdoutPoints, text: line, prompted: prompt !== '' });
  }

  /**
   * The traced run is over: step by step opens at its first step, with the
   * drawing the window holds for it (the live run's, else the result's).
   * Returns false when the result holds no recording.
   */
  open(result: RunResult, drawing: Recording | null): boolean {
    if (!this.recording) return false;
    this.recording = false;
    const trace = result.trace;
    if (!trace || !Array.isArray(trace.steps)) {
      this.missing = true;
      return false;
    }
    this.drawing = drawing;
    this.#player = drawing ? Player.replay(drawing) : null;
    this.#layers = null;
    this.rec = new StepRecording({
      steps: trace.steps,
      truncated: trace.truncated,
      stdout: result.stdout,
      stderr: result.stderr,
      answers: this.#answers,
      drawSteps: drawing?.steps.length ?? 0,
      error: result.error,
    });
    this.index = 0;
    this.#show();
    return true;
  }

  /** Leaves step by step (the child pressed ✖ or Esc, edited the code or ran it again). */
  leave(): void {
    this.pause();
    this.recording = false;
    if (this.rec) {
      this.rec = null;
      this.#player = null;
      this.#layers = null;
      this.drawing = null;
      this.#deps.editor.showStep(null);
    }
  }

  /** Shows step i (the scrubber). */
  seek(i: number): void {
    if (!this.rec) return;
    const k = this.rec.clamp(i);
    if (k === this.index) return;
    this.index = k;
    this.#show();
  }

  forward(): void {
    this.pause();
    this.seek(this.index + 1);
  }

  back(): void {
    this.pause();
    this.seek(this.index - 1);
  }

  first(): void {
    this.pause();
    this.seek(0);
  }

  last(): void {
    this.pause();
    this.seek(this.length - 1);
  }

  toggle(): void {
    if (this.playing) this.pause();
    else this.play();
  }

  /** Plays on from here at the dial's pace (from the start again when at the end). */
  play(): void {
    if (!this.rec || this.playing) return;
    if (this.atEnd) this.seek(0);
    this.playing = true;
    this.#next();
  }

  pause(): void {
    this.playing = false;
    if (this.#timer !== null) {
      this.#deps.timers.clear(this.#timer);
      this.#timer = null;
    }
  }

  /** Does what a step key asks. */
  act(action: StepAction): void {
    if (action === 'leave') this.leave();
    else this[action]();
  }

  #next(): void {
    this.#timer = this.#deps.timers.set(() => {
      this.#timer = null;
      if (!this.playing || !this.rec) return;
      this.seek(this.index + 1);
      if (this.atEnd) this.playing = false;
      else this.#next();
    }, stepMs(this.#deps.pace()));
  }

  #show(): void {
    const v = this.view;
    this.#deps.editor.showStep(v && v.line !== null ? { line: v.line, error: v.kind === 'error' } : null);
  }

  /** The drawing as it was before the step shown: its first `view.draw` steps. */
  showDrawing(): Player | null {
    const p = this.#player;
    if (p && this.view) p.showSteps(this.view.draw);
    return p;
  }

  /** Paints the drawing at the step shown on `canvas`, at the canvas's size. */
  paint(canvas: HTMLCanvasElement): void {
    const player = this.showDrawing();
    if (!player) return;
    const ctx = canvas.getContext('2d') as Blit2D<CanvasImageSource> | null;
    if (!ctx) return;
    const dpr = window.devicePixelRatio || 1;
    const w = Math.max(1, Math.round(canvas.clientWidth * dpr));
    const h = Math.max(1, Math.round(canvas.clientHeight * dpr));
    if (canvas.width !== w || canvas.height !== h) {
      canvas.width = w;
      canvas.height = h;
    }
    this.#layers ??= canvasLayers();
    this.#layers.render(ctx, player.fit(w, h), player.scene, null, w, h);
  }
}
