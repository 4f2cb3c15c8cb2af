// The classroom's state: settings and language, the sandbox status, the one
// run at a time and everything it reports. Components read from it and call
// its methods; it talks to the Go app only through a Backend.

import { ConsoleState, type Scheduler } from './console.svelte';
import type { Backend, Lang, RunResult, SandboxStatus, Settings } from './backend';
import { browserClock, DrawingState, type Clock, type SaveOutcome } from './drawing.svelte';
import { CodeEditor, DEFAULT_FONT_SIZE } from './editor.svelte';
import { EventRunDone, EventRunInputDone, EventRunLive, EventRunOutput, EventRunWaiting, EventStatus } from './events';
import { toLang, translate, type MessageKey, type Params } from './i18n';
import { baseName, LessonsState, realTimers, type Notice, type Timers } from './lessons.svelte';
import { LiveState } from './live.svelte';
import { describeResult, type Outcome } from './outcome';
import { PacksState } from './packs.svelte';
import { DEFAULT_PACE, paceAt, paceIndex } from './pace';
import { StepState } from './steps.svelte';

export const MIN_FONT = 10;
export const MAX_FONT = 40;
export const PROGRAM_NAME = 'main.py';
/** The starter lesson that is also the star demo. */
export const STAR_LESSON = '1 star.py';

/** How long after the star demo the first start's course shelf opens. */
export const OFFER_DELAY_MS = 2000;
/** A key pressed while the shelf is due puts it off until the child has pressed none for this long. */
export const OFFER_IDLE_MS = 5000;

export type PanelName = 'editor' | 'console' | 'drawing' | 'lessons' | 'task' | 'vars';

export interface ClassroomOptions {
  schedule?: Scheduler;
  clock?: Clock;
  timers?: Timers;
  /** Makes the id of each new run; newRunId unless a test chooses. */
  runIds?: () => string;
}

/**
 * A fresh run id: "run-" and 128 random bits in hex, within what the Go app
 * accepts (letters, digits, '-', at most 64). getRandomValues, unlike
 * randomUUID, works outside a secure context too.
 */
export function newRunId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return 'run-' + Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

export class Classroom {
  readonly backend: Backend;
  readonly console: ConsoleState;
  readonly drawing: DrawingState;
  /** The live run's drawing, keys, pointer and dialogs. */
  readonly live: LiveState;
  readonly editor: CodeEditor;
  readonly lessons: LessonsState;
  readonly packs: PacksState;
  /** "👣 Step by step": a traced run's recording, played back. */
  readonly steps: StepState;

  lang = $state<Lang>('zh');
  settings = $state<Settings | null>(null);
  status = $state<SandboxStatus | null>(null);
  /** The run whose events are shown; events of any other run are ignored. */
  runId = $state<string | null>(null);
  running = $state(false);
  /** The prompt of the input() the program is waiting in, or null. */
  waiting = $state<string | null>(null);
  result = $state.raw<RunResult | null>(null);
  outcome = $derived(this.result ? describeResult(this.result) : null);
  /** A run that could not even start, with the reason. */
  runFailure = $state<string | null>(null);
  /** A short message after saving a file or the settings. */
  toast = $state.raw<Notice | null>(null);
  panels = $state<Record<PanelName, boolean>>({ editor: true, console: true, drawing: true, lessons: true, task: true, vars: true });
  settingsOpen = $state(false);
  /** The speed dial: live drawings go at this many times CPython's pace, and step by step plays by it. */
  pace = $state(DEFAULT_PACE);

  ready = $derived(this.status?.ready === true);
  checking = $derived(this.status === null || (!this.status.ready && !!this.status.checking));

  /** Run() has not answered yet: the run may not exist in the app, so a Stop must wait. */
  #starting = false;
  /** Stop pressed before Run() answered. */
  #stopEarly = false;
  /** The next run() of the editor's program is traced for step by step. */
  #traceNext = false;
  /** A run forgotten before Run() answered (another lesson was opened): stopped once it has. */
  #forgotten: string | null = null;
  /** The lesson the editor shows, as last opened; null for code that is no lesson. */
  #openedPath: string | null = null;
  /** start() is putting back the lesson of last time: the star demo drawing meanwhile stays. */
  #restoring = false;
  readonly #runIds: () => string;
  #demoDone = false;
  /** The demo (the star lesson, or the built-in star) is in the editor, waiting for the sandbox. */
  #demoPlanned = false;
  /** The built-in star program (the app's StarDemo), which the start and the ⭐ button run. */
  #demoCode: string | null = null;
  /** Settings and language are known: only then may the demo run, so its messages come in the right language. */
  #started = false;
  #saveChain: Promise<unknown> = Promise.resolve();
  #saveSeq = 0;

  constructor(backend: Backend, opts: ClassroomOptions = {}) {
    this.backend = backend;
    this.#runIds = opts.runIds ?? newRunId;
    this.#timers = opts.timers ?? realTimers;
    this.console = new ConsoleState({ schedule: opts.schedule });
    this.drawing = new DrawingState(backend, opts.clock);
    this.live = new LiveState(backend, opts.clock ?? browserClock, { typing: () => this.waiting !== null });
    this.editor = new CodeEditor({
      run: () => void this.run(),
      stop: () => void this.stop(),
      zoom: (step) => void this.zoom(step),
      edited: () => {
        this.lessons.edited();
        // The recording is of the code as it was run.
        this.steps.leave();
      },
    });
    this.steps = new StepState({ editor: this.editor, timers: this.#timers, pace: () => this.pace });
    const notify = (n: Notice) => (this.toast = n);
    this.lessons = new LessonsState({
      backend,
      editor: this.editor,
      lang: () => this.lang,
      t: this.t,
      notify,
      timers: opts.timers,
      opened: (l) => this.#opened(l?.path ?? null),
    });
    this.packs = new PacksState({
      backend,
      lang: () => this.lang,
      t: this.t,
      notify,
      save: () => this.lessons.flush(),
      open: (p) => this.lessons.open(p),
      refresh: () => this.lessons.refresh(),
      show: (r) => this.showResult(r),
      runId: () => this.#runIds(),
    });
  }

  t = (key: MessageKey, params?: Params): string => translate(this.lang, key, params);

  /** Subscribes to the app's events; call before start() and call the result on teardown. */
  connect(): () => void {
    const b = this.backend;
    const offs = [
      b.on(EventRunOutput, (e) =>
        this.#forRun(e.runId, () => {
          const stream = e.stream === 'stderr' ? 'stderr' : 'stdout';
          this.console.append(stream, e.text);
          this.steps.heard(stream, e.text);
        }),
      ),
      b.on(EventRunWaiting, (e) => this.#forRun(e.runId, () => (this.waiting = e.prompt ?? ''))),
      b.on(EventRunInputDone, (e) => this.#forRun(e.runId, () => (this.waiting = null))),
      b.on(EventRunLive, (e) => this.#forRun(e.runId, () => this.live.frame(e.frame))),
      b.on(EventRunDone, (e) => this.#forRun(e.runId, () => this.#finish(e.result))),
      b.on(EventStatus, (s) => this.#applyStatus(s)),
      this.lessons.connect(),
      b.onFileDrop((paths) => void this.packs.dropped(paths)),
    ];
    return () => offs.forEach((off) => off());
  }

  /**
   * Loads settings, language, sandbox status and the lessons folder. The
   * built-in star demo runs once the sandbox is ready; the lesson open last
   * time comes back where the child left it, and on a first start (nothing
   * remembered, or the star lesson) the star lesson opens.
   */
  async start(): Promise<void> {
    // The lessons folder loads meanwhile: the star does not wait for it.
    const loading = this.lessons.load().catch(() => null);
    const [settings, status, demo, systemLang] = await Promise.all([
      this.backend.getSettings(),
      this.backend.status().catch(() => null),
      this.backend.starDemo().catch(() => null),
      this.backend.systemLanguage().catch(() => ''),
    ]);
    this.#applySettings(settings);
    if (!toLang(settings.lang)) this.lang = toLang(systemLang) ?? 'zh';
    this.editor.setPlaceholder(this.t('editorPlaceholder'));
    // The status event may have arrived while we waited; a ready verdict must not be overwritten by a stale "checking".
    if (status && !(this.status?.ready && !status.ready)) this.status = status;
    // The picture at start comes from the built-in star program, which is
    // ours: it runs at once, while the lesson is still being opened, and a
    // child's own code is never run without a press of Run.
    this.#demoCode = demo;
    this.#demoPlanned = demo !== null;
    this.#started = true;
    this.#maybeRunDemo();
    const last = await loading;
    const paths = this.lessons.paths;
    const remembered = last?.open && paths.includes(last.open) ? last.open : null;
    this.#restoring = true;
    try {
      if (!(remembered && remembered !== STAR_LESSON && (await this.lessons.open(remembered)))) {
        await this.#putStarDemo();
      }
    } finally {
      this.#restoring = false;
    }
    this.editor.takeFocus();
    // A first start offers the course, once the star has drawn itself.
    if (await this.packs.shouldOffer().catch(() => false)) {
      this.#offerPending = true;
      this.#maybeOffer();
    }
  }

  #offerPending = false;
  #offerTimer: unknown = null;
  /** A key was pressed before the offer's wait began. */
  #typed = false;
  #timers: Timers;

  /**
   * The first start's course offer opens a little after the star has drawn
   * itself, so the child sees the whole star before the shelf covers it,
   * and never while the child is typing: the shelf takes the keyboard.
   */
  #maybeOffer(): void {
    if (this.#offerPending && !this.running) {
      this.#offerPending = false;
      this.#armOffer(this.#typed ? OFFER_IDLE_MS : OFFER_DELAY_MS);
      this.#typed = false;
    }
  }

  #armOffer(ms: number): void {
    this.#timers.clear(this.#offerTimer);
    this.#offerTimer = this.#timers.set(() => {
      this.#offerTimer = null;
      if (!this.running) this.packs.offer();
      else this.#offerPending = true;
    }, ms);
  }

  /**
   * Every key the window gets, before anything else sees it: the app's
   * close key goes no further, and any other puts off a shelf about to
   * open by itself.
   */
  keyDown(e: KeyboardEvent): void {
    if (this.lessons.keyArrived(e)) {
      e.preventDefault();
      e.stopImmediatePropagation();
      return;
    }
    this.keyPressed();
  }

  /** A key was pressed anywhere in the window: a shelf about to open by itself waits until the child stops. */
  keyPressed(): void {
    if (this.#offerTimer !== null) this.#armOffer(OFFER_IDLE_MS);
    else this.#typed = true;
  }

  /**
   * Runs the editor's program, or `demoCode` (the built-in star demo) without
   * touching the editor or the open lesson. The run's id is chosen here and
   * shown at once, so its events count from the first; `demoRunId` takes
   * over the star run the app started by itself instead.
   */
  async run(demoCode: string | null = null, demoRunId = ''): Promise<void> {
    const trace = this.#traceNext && demoCode === null;
    this.#traceNext = false;
    if (!this.ready) return;
    await this.lessons.flush();
    if (trace) this.steps.begin();
    else this.steps.end();
    const lesson = demoCode === null ? this.lessons.current : null;
    const code = demoCode ?? this.editor.code;
    this.editor.clearError();
    this.console.clear();
    this.result = null;
    this.runFailure = null;
    this.waiting = null;
    this.drawing.skipToEnd();
    this.running = true;
    const runId = (demoCode !== null && demoRunId) || this.#runIds();
    this.runId = runId;
    this.live.begin(runId);
    this.#starting = true;
    this.#stopEarly = false;
    try {
      await this.backend.run({
        ...(lesson
          ? { runId, code, name: `${baseName(lesson.path)}.py`, lang: this.lang, lesson: lesson.path }
          : { runId, code, name: demoCode === null ? PROGRAM_NAME : 'star.py', lang: this.lang }),
        ...(trace ? { trace: true } : {}),
      });
    } catch (e) {
      if (this.runId !== runId) return; // a newer run() has begun since
      this.#starting = false;
      this.runId = null;
      this.running = false;
      this.live.finish(false);
      this.steps.end();
      this.runFailure = String(e);
      return;
    }
    // The run exists now: it takes the speed dial. A recording for step by
    // step does not wait for the turtle at all: its steps are watched after.
    if (this.runId === runId && this.running) {
      if (trace) this.live.finishNow();
      else if (this.pace !== DEFAULT_PACE) this.live.pace(this.pace);
    }
    if (this.runId !== runId) {
      // Forgotten while it started (another lesson was opened): it stops unseen.
      if (this.#forgotten === runId) void this.backend.stop(runId).catch(() => {});
      return;
    }
    this.#starting = false;
    if (this.#stopEarly && this.running) await this.backend.stop(runId).catch(() => {});
  }

  /** Stop (and Esc): ends the run going, and a check going, as the Stop button says. */
  async stop(): Promise<void> {
    if (this.packs.checking) void this.packs.stopCheck();
    if (!this.running) return;
    if (this.#starting || !this.runId) {
      this.#stopEarly = true;
      return;
    }
    await this.backend.stop(this.runId).catch(() => {});
  }

  async sendInput(line: string): Promise<void> {
    const id = this.runId;
    if (!id || this.waiting === null) return;
    this.steps.typed(line, this.waiting);
    this.waiting = null;
    // input() read from a pipe does not echo: show what was typed, as a terminal would.
    this.console.append('input', line + '\n');
    await this.backend.sendInput(id, line).catch((e) => (this.runFailure = String(e)));
  }

  /**
   * "👣 Step by step": runs the editor's program traced; once it is over,
   * the window plays its recording back step by step.
   */
  async runSteps(): Promise<void> {
    this.#traceNext = true;
    await this.run();
  }

  /** The speed dial moved: kept in the settings, and the run going on takes it at once. */
  async setPace(pace: number): Promise<void> {
    const p = paceAt(paceIndex(pace));
    if (p === this.pace) return;
    this.pace = p;
    this.live.pace(p);
    if (this.settings) await this.saveSettings({ ...this.settings, pace: p });
  }

  /** ⏭ "Finish now": the run going on draws the rest without waiting. */
  finishNow(): void {
    this.live.finishNow();
  }

  /**
   * The ⭐ button: the star lesson opens (the built-in program when the
   * folder has none) and the built-in star program runs, as at a first
   * start. Whatever the child made of the star lesson stays as it is, and
   * the star always comes back.
   */
  async loadStarDemo(): Promise<void> {
    await this.#putStarDemo();
    this.#demoCode ??= await this.backend.starDemo().catch(() => null);
    await this.run(this.#demoCode);
  }

  /**
   * A lesson was opened (null: code that is no lesson). In place of another
   * one, what the last run printed and drew belonged to the other code:
   * it is cleared, and a run still going is stopped. The lesson start()
   * puts back keeps the star demo drawing beside it.
   */
  #opened(path: string | null): void {
    this.steps.leave();
    const other = path !== this.#openedPath;
    this.#openedPath = path;
    if (other && !this.#restoring) this.#forgetRun();
    void this.packs.lessonOpened(path);
  }

  /** Clears the run shown, its output, picture and error; a run going on is stopped and nothing more of it shows. */
  #forgetRun(): void {
    const id = this.runId;
    if (this.running && id) {
      if (this.#starting) this.#forgotten = id;
      else void this.backend.stop(id).catch(() => {});
    }
    // The star demo not started yet no longer draws beside the lesson opened.
    this.#demoDone = true;
    this.runId = null;
    this.running = false;
    this.waiting = null;
    this.result = null;
    this.runFailure = null;
    this.editor.clearError();
    this.console.clear();
    this.drawing.setResult(null);
    this.live.clear();
  }

  /** Opens the star lesson, or the built-in star program when the folder has none. */
  async #putStarDemo(): Promise<void> {
    if (this.lessons.paths.includes(STAR_LESSON) && (await this.lessons.open(STAR_LESSON))) return;
    await this.lessons.close();
    this.editor.setCode(await this.backend.starDemo());
  }

  /** "Skip to the end": the live drawing's latest state (the final picture once the run is over), or the replay's end. */
  skipToEnd(): void {
    if (this.live.showing) this.live.skip();
    else this.drawing.skipToEnd();
  }

  toggle(panel: PanelName): void {
    this.panels[panel] = !this.panels[panel];
  }

  async setLang(lang: Lang): Promise<void> {
    this.lang = lang;
    this.editor.setPlaceholder(this.t('editorPlaceholder'));
    void this.packs.lessonOpened(this.lessons.current?.path ?? null);
    if (this.settings) await this.saveSettings({ ...this.settings, lang });
  }

  async zoom(step: number): Promise<void> {
    const size = step === 0 ? DEFAULT_FONT_SIZE : Math.min(MAX_FONT, Math.max(MIN_FONT, this.editor.fontSize + step * 2));
    if (size === this.editor.fontSize) return;
    this.editor.setFontSize(size);
    if (this.settings) await this.saveSettings({ ...this.settings, fontSize: size });
  }

  /** Stores settings in call order; the answer of the latest call wins. */
  async saveSettings(s: Settings): Promise<Settings | null> {
    const seq = ++this.#saveSeq;
    const { warning: _drop, ...toStore } = s;
    const p = this.#saveChain.then(() => this.backend.saveSettings(toStore as Settings));
    this.#saveChain = p.catch(() => {});
    try {
      const stored = await p;
      if (seq === this.#saveSeq) this.#applySettings({ ...stored, warning: this.settings?.warning });
      return stored;
    } catch (e) {
      this.toast = { tone: 'error', text: String(e) };
      return null;
    }
  }

  showSaved(r: SaveOutcome): void {
    if (!r) return;
    this.toast = r.ok ? { tone: 'ok', text: this.t('saved', { path: r.path }) } : { tone: 'error', text: this.t('saveFailed', { msg: r.error }) };
  }

  #applySettings(s: Settings): void {
    this.settings = s;
    const lang = toLang(s.lang);
    if (lang) this.lang = lang;
    if (s.fontSize && s.fontSize !== this.editor.fontSize) this.editor.setFontSize(s.fontSize);
    this.pace = paceAt(paceIndex(s.pace));
  }

  #applyStatus(s: SandboxStatus): void {
    this.status = s;
    this.#maybeRunDemo();
  }

  #maybeRunDemo(): void {
    if (this.#started && this.ready && this.#demoPlanned && !this.#demoDone) {
      this.#demoDone = true;
      void this.run(this.#demoCode, this.status?.demoRunId ?? '').catch((e) => (this.runFailure = String(e)));
    }
  }

  #forRun(runId: string, apply: () => void): void {
    if (runId === this.runId) apply();
  }

  /**
   * Shows a result that came from elsewhere than a Run (the run that checked
   * the child's answer) as a Run's is shown: its output, drawing and error.
   * A run going on keeps the window.
   */
  showResult(result: RunResult): void {
    if (this.running) return;
    this.steps.end();
    this.runId = null;
    this.editor.clearError();
    this.console.clear();
    this.runFailure = null;
    if (result.stdout) this.console.append('stdout', result.stdout);
    if (result.stderr) this.console.append('stderr', result.stderr);
    this.#finish(result, false);
  }

  /** A run is over; `live`: it was this window's live run, whose drawing the window holds for "watch again". */
  #finish(result: RunResult, live = true): void {
    this.console.flush();
    this.running = false;
    this.waiting = null;
    this.result = result;
    const recording = live ? this.live.recording() : null;
    this.drawing.setResult(result, recording);
    this.live.finish(this.drawing.svg !== null);
    if (live && this.steps.recording && !this.steps.open(result, recording ?? result.drawing ?? null)) {
      this.toast = { tone: 'error', text: this.t('stepMissing') };
    }
    // Step by step shows the error at its end, in its own colours.
    const line = result.error?.line;
    if (typeof line === 'number' && line > 0 && !this.steps.active) this.editor.showError(line);
    this.#maybeOffer();
  }
}
