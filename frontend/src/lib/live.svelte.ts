// The window's side of a live run: the drawing as it grows (screen and draw
// frames on the Player, played on a canvas), where keys go (after the
// program listens), the pointer, the close control and textinput/numinput
// dialogs, all sent to the program through Backend.sendEvent.

import type { Backend } from './backend';
import type { Clock } from './drawing.svelte';
import { isWindowShortcut, keyControls, type ShortcutLike } from './keys';
import { parseLiveFrame, type DialogFrame, type ScreenFrame } from './liveFrames';
import { canvasLayers, type Blit2D, type InProgress, type Layers } from './paint';
import { Player, type Recording } from './player';
import type { Scene } from './scene';
import type { ViewFit } from './view';

/** A control event for the runner (docs/runner-protocol.md, "Control lines"). */
export type ControlEvent =
  | { type: 'key'; key: string; down: boolean }
  | { type: 'mouse'; action: 'down' | 'up' | 'move'; x: number; y: number; button: number }
  | { type: 'close' }
  | { type: 'answer'; text: string | null }
  /** The speed dial: the turtle draws at `speed` times CPython's pace from now on. */
  | { type: 'pace'; speed: number }
  /** "Finish now": no turtle waits for the rest of the run. */
  | { type: 'finish' }
  /** The pause: the program's clock (timers, sleeps, turtle waits) stands still until `resume`. */
  | { type: 'pause' }
  | { type: 'resume' };

/** The screen before the program says otherwise: CPython's 400 × 400 window, standard mode. */
export const DEFAULT_SCREEN: ScreenFrame = {
  type: 'screen',
  width: 400,
  height: 400,
  bg: '#ffffff',
  scale: [1, 1],
  view: [-200, -200, 400, 400],
  area: null,
  title: '',
};

/** How much drawing must wait to play before "skip to the end" is offered: less is over before a click. */
export const SKIP_MS = 250;

/** Mouse buttons as Tk numbers them (1 left, 2 middle, 3 right) from a PointerEvent's button. */
export function tkButton(domButton: number): number {
  return domButton === 1 ? 2 : domButton === 2 ? 3 : 1;
}

export interface LiveOptions {
  /**
   * The program waits in input() for a line typed into the console: until
   * it is answered the keys are the console's, as a terminal has them while
   * Tk's window waits.
   */
  typing?: () => boolean;
}

export class LiveState {
  /** The run these frames belong to; null before the first run. */
  runId = $state<string | null>(null);
  /** The program is still going. */
  running = $state(false);
  screen = $state.raw<ScreenFrame>(DEFAULT_SCREEN);
  /** The live canvas stands in for the final picture (from the first screen or draw frame until caught up after the end). */
  showing = $state(false);
  /** Steps that arrived have not all played yet. */
  behind = $state(false);
  /** Enough drawing is waiting to play (SKIP_MS or more) that "skip to the end" is offered, until caught up. */
  skippable = $state(false);
  /** The program called listen() in this run. */
  listened = $state(false);
  /** Key presses go to the drawing. */
  keysFocused = $state(false);
  /** The textinput/numinput waiting for an answer, or null. */
  dialog = $state.raw<DialogFrame | null>(null);
  /** The program closed its window (bye, exitonclick) or the child did. */
  closed = $state(false);
  /** Steps received in this run. */
  steps = $state(0);
  /** "Finish now" was pressed in this run: the program draws without waiting, and so does the drawing here. */
  hurried = $state(false);
  /** ⏸ was pressed: the program's timers, sleeps and turtle wait, and it takes no keys or clicks, until ▶. */
  paused = $state(false);

  readonly #backend: Backend;
  readonly #clock: Clock;
  /** The pace the program draws at in this run, as the speed dial last sent it (1: CPython's own). */
  #speed = 1;
  readonly #typing: () => boolean;
  /** Window shortcuts pressed while the program had the keys: their releases are not the program's either. */
  #shortcutsDown = new Set<string>();
  #player = new Player(DEFAULT_SCREEN);
  /** The run has ended and the runner's final picture can replace the canvas. */
  #ended = false;
  #hasFinal = false;
  #cancelFrame: (() => void) | null = null;
  #canvas: HTMLCanvasElement | null = null;
  #layers: Layers<CanvasImageSource> | null = null;
  #moveInFlight = false;
  #pendingMove: ControlEvent | null = null;
  #lastAnswer: string | null = null;

  constructor(backend: Backend, clock: Clock, opts: LiveOptions = {}) {
    this.#backend = backend;
    this.#clock = clock;
    this.#typing = opts.typing ?? (() => false);
  }

  /**
   * Key presses go to the program now: it listens and has the focus, and
   * neither its dialog nor an input() in the console is waiting for typing.
   */
  get keysToProgram(): boolean {
    return this.keysFocused && this.running && !this.paused && !this.dialog && !this.#typing();
  }

  /** The scene as far as it has played (for tests and painting). */
  get scene(): Scene {
    return this.#player.scene;
  }

  /**
   * What this run drew, for "watch again": every step as it came, with its
   * time, on the run's last screen; null when nothing was drawn or a frame
   * was lost (the steps after it could not be placed).
   */
  recording(): Recording | null {
    const tl = this.#player.timeline;
    if (tl.length === 0 || tl.broken) return null;
    const { width, height, view, scale, bg, area } = this.screen;
    return { width, height, view, scale, bg, area, steps: tl.steps };
  }

  /** A new run: forget the last one's drawing, focus and dialog. */
  begin(runId: string): void {
    this.#stopLoop();
    this.runId = runId;
    this.running = true;
    this.screen = DEFAULT_SCREEN;
    this.showing = false;
    this.behind = false;
    this.skippable = false;
    this.listened = false;
    this.keysFocused = false;
    this.dialog = null;
    this.closed = false;
    this.steps = 0;
    this.hurried = false;
    this.paused = false;
    this.#speed = 1;
    this.#player = new Player(DEFAULT_SCREEN);
    this.#ended = false;
    this.#hasFinal = false;
    this.#pendingMove = null;
    this.#layers?.invalidate();
  }

  /**
   * Shows nothing: the window moved on to other code (another lesson was
   * opened). The run's frames, if it still sends any, are not shown.
   */
  clear(): void {
    this.begin('');
    this.runId = null;
    this.running = false;
    this.#ended = true;
  }

  /** One run:live frame of the current run. */
  frame(raw: unknown): void {
    const f = parseLiveFrame(raw);
    if (!f || !this.running) return;
    switch (f.type) {
      case 'screen':
        this.screen = f;
        this.#player.setScreen(f);
        this.showing = true;
        this.#kick();
        break;
      case 'draw': {
        const now = this.#clock.now();
        const timeline = this.#player.timeline;
        const waiting = timeline.caughtUp(now);
        const added = timeline.add(f.steps, f.from, now);
        this.steps = timeline.length;
        this.showing = true;
        if (!added) break;
        // Nothing was left to play (a game answering a key): paint now, a frame sooner than the next tick.
        if (waiting) this.#paint(this.#advance(now));
        this.#kick();
        break;
      }
      case 'listen':
        // listen() made the turtle screen, so the drawing shows even before anything is drawn.
        if (!this.closed) {
          this.listened = true;
          this.keysFocused = true;
          this.showing = true;
          this.#kick();
        }
        break;
      case 'dialog':
        this.dialog = f;
        break;
      case 'bye':
        this.closed = true;
        this.listened = false;
        this.keysFocused = false;
        break;
    }
  }

  /**
   * The run is over: keys and dialog are done with, and once every step
   * received has played the final picture (when there is one) takes over.
   */
  finish(hasFinal: boolean): void {
    this.running = false;
    this.paused = false;
    this.keysFocused = false;
    this.dialog = null;
    this.#ended = true;
    this.#hasFinal = hasFinal;
    this.#pendingMove = null;
    this.#kick();
  }

  /**
   * The speed dial moved: the program paces its turtle at `speed` times
   * CPython's from now on (the pacing happens in the program, which waits),
   * and what the drawing still has to play of the steps it holds is
   * retimed the same way, so it keeps with the program.
   */
  pace(speed: number): void {
    if (!this.running || this.hurried || !(speed > 0) || speed === this.#speed) return;
    this.#player.timeline.retime(this.#clock.now(), this.#speed / speed);
    this.#speed = speed;
    this.#send({ type: 'pace', speed });
    this.#kick();
  }

  /**
   * "Finish now": the program stops waiting for its turtle for the rest of
   * the run, so the drawing completes as fast as the program can make it;
   * what the drawing holds plays at once, and so does every step after.
   */
  finishNow(): void {
    if (!this.running || this.hurried) return;
    this.hurried = true;
    this.#player.timeline.instant = true;
    this.#send({ type: 'finish' });
    this.skip();
  }

  /**
   * ⏸ / ▶: the program's clock stands still while paused (its ontimer
   * timers, time.sleep and the turtle's waits hold and go on from where
   * they were), and the drawing takes no keys or clicks meanwhile. Stop
   * and ✖ still work.
   */
  setPaused(on: boolean): void {
    if (!this.running || this.closed || on === this.paused) return;
    this.paused = on;
    this.#send({ type: on ? 'pause' : 'resume' });
  }

  /** "Skip to the end": every step received plays at once; after the run, the final picture shows. */
  skip(): void {
    this.#player.timeline.skip(this.#clock.now());
    this.skippable = false;
    if (this.#ended && this.#hasFinal) {
      this.#stopLoop();
      this.#advance(this.#clock.now());
      this.behind = false;
      this.showing = false;
      return;
    }
    this.#kick();
  }

  /** Brings the scene up to `now`; returns the step in progress. */
  #advance(now: number): InProgress | null {
    return this.#player.advanceTo(now).partial;
  }

  /** Plays frames until caught up with what arrived (and, after the run, hands over to the final picture). */
  #kick(): void {
    if (this.#cancelFrame) return;
    this.#cancelFrame = this.#clock.frame(this.#tick);
  }

  #stopLoop(): void {
    this.#cancelFrame?.();
    this.#cancelFrame = null;
  }

  #tick = (): void => {
    this.#cancelFrame = null;
    const now = this.#clock.now();
    const partial = this.#advance(now);
    this.#paint(partial);
    const caughtUp = this.#player.timeline.caughtUp(now);
    this.behind = !caughtUp;
    if (caughtUp) this.skippable = false;
    else if (this.#player.end - now >= SKIP_MS) this.skippable = true;
    if (!caughtUp) {
      this.#kick();
      return;
    }
    if (this.#ended && this.#hasFinal) this.showing = false;
  };

  /** Shows the live drawing on `canvas` while it is attached; returns the detach (use as an $effect cleanup). */
  attach(canvas: HTMLCanvasElement, layers: Layers<CanvasImageSource> = canvasLayers()): () => void {
    this.#canvas = canvas;
    this.#layers = layers;
    this.#kick();
    return () => {
      if (this.#canvas === canvas) {
        this.#canvas = null;
        this.#layers = null;
      }
    };
  }

  /** Paints again (the canvas was resized). */
  repaint(): void {
    this.#kick();
  }

  /** Where the world lands on a canvas of cw × ch pixels. */
  fit(cw: number, ch: number): ViewFit {
    return this.#player.fit(cw, ch);
  }

  #paint(partial: InProgress | null): void {
    const canvas = this.#canvas;
    const layers = this.#layers;
    if (!canvas || !layers) return;
    const ctx = canvas.getContext('2d') as Blit2D<CanvasImageSource> | null;
    if (!ctx) return;
    const dpr = window.devicePixelRatio || 1;
    const w = Math.max(1, Math.round(canvas.clientWidth * dpr));
    const h = Math.max(1, Math.round(canvas.clientHeight * dpr));
    if (canvas.width !== w || canvas.height !== h) {
      canvas.width = w;
      canvas.height = h;
    }
    layers.render(ctx, this.fit(w, h), this.#player.scene, partial, w, h);
  }

  // ---- Keys and focus

  /** The program listens and the child clicked the drawing: keys go to it again. */
  focusKeys(): void {
    if (this.running && this.listened && !this.closed) this.keysFocused = true;
  }

  /** The child clicked the editor or anywhere outside the drawing. */
  blurKeys(): void {
    this.keysFocused = false;
  }

  /**
   * A keydown (down) or keyup of the window while keys go to the drawing:
   * sends it as Tk would see it and returns true (the caller then prevents
   * the browser's default, so no key moves the editor's cursor or scrolls).
   * Returns false when keys do not go to the drawing (a dialog or input()
   * has them), and for the window's own shortcuts, Escape and Ctrl+Enter,
   * which stay the window's.
   */
  key(e: ShortcutLike & { repeat?: boolean }, down: boolean): boolean {
    if (down && isWindowShortcut(e)) {
      this.#shortcutsDown.add(e.key);
      return false;
    }
    if (!down && this.#shortcutsDown.delete(e.key)) return false;
    if (!this.keysToProgram) return false;
    for (const ev of keyControls(e, down)) this.#send(ev);
    return true;
  }

  // ---- Pointer, close, dialogs

  /** A pointer press, release or (with a button held) move at world (x, y); sent while the program runs with its window open. */
  pointer(action: 'down' | 'up' | 'move', x: number, y: number, button: number): void {
    if (!this.running || this.closed || this.paused) return;
    const ev: ControlEvent = { type: 'mouse', action, x, y, button };
    if (action !== 'move') {
      this.#pendingMove = null;
      this.#send(ev);
      return;
    }
    // One move on its way at a time; while it is, only the latest waits.
    if (this.#moveInFlight) {
      this.#pendingMove = ev;
      return;
    }
    this.#moveInFlight = true;
    const runId = this.runId;
    void this.#send(ev).finally(() => {
      this.#moveInFlight = false;
      const next = this.#pendingMove;
      this.#pendingMove = null;
      if (next && next.type === 'mouse' && this.runId === runId) this.pointer('move', next.x, next.y, next.button);
    });
  }

  /** The close control: ends mainloop() as closing the Tk window does. */
  close(): void {
    if (!this.running || this.closed) return;
    this.closed = true;
    this.keysFocused = false;
    this.#send({ type: 'close' });
  }

  /** The text a dialog starts with: the answer that was not valid when asked again, else the default. */
  get dialogStart(): string {
    const d = this.dialog;
    if (!d) return '';
    if (d.error && this.#lastAnswer !== null) return this.#lastAnswer;
    return d.kind === 'number' && d.default !== null ? String(d.default) : '';
  }

  /** Answers the dialog: the text typed (OK), or null (Cancel). */
  answer(text: string | null): void {
    if (!this.dialog || !this.running) return;
    this.dialog = null;
    this.#lastAnswer = text;
    this.#send({ type: 'answer', text });
  }

  #send(ev: ControlEvent): Promise<void> {
    const id = this.runId;
    if (!id) return Promise.resolve();
    // Go's *string takes null for a cancelled answer; the generated type only says optional.
    return this.#backend.sendEvent(id, ev as Parameters<Backend['sendEvent']>[1]).catch(() => {
      // the run ended meanwhile: nothing to tell the child
    });
  }
}
