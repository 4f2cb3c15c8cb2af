// Typed bindings for the Go app (docs/app-api.md), written the way Wails v2's
// generated wailsjs code calls them, behind an interface so that tests and the
// browser harness can provide their own backend.

import {
  EventLessonChanged,
  EventLessonsChanged,
  EventRunDone,
  EventRunInputDone,
  EventRunOutput,
  EventRunWaiting,
  EventStatus,
  type EventName,
} from './events';

export type Lang = 'zh' | 'en';

export interface SandboxStatus {
  ready: boolean;
  checking?: boolean;
  reason: string;
  fix: string;
  python: string;
  sandbox?: string;
  version?: string;
  /** How a whole run is bounded on this machine; empty until the check is done. */
  containment?: Containment;
  /** The bounds every run gets; zero until Python is found. */
  limits?: SandboxLimits;
  /** The star demo the app started by itself, while no run has taken it over: run with this id to show it. */
  demoRunId?: string;
}

export interface Containment {
  /** Each run in its own control group ("cgroup2", "cgroup1"), or per-process limits only ("rlimits"); "" until known. */
  mechanism: 'cgroup2' | 'cgroup1' | 'rlimits' | '';
  /** What is bounded for the run as a whole: "memory", "processes", "cpu". */
  bounds: string[] | null;
  /** Where the control groups are, or why there are none. */
  detail: string;
}

/** Seconds, bytes and counts; see docs/app-api.md. */
export interface SandboxLimits {
  /** The engine's default: runs from the window use the settings' timeoutSeconds. */
  wallSeconds: number;
  idleSeconds: number;
  cpuSeconds: number;
  /** For the run together when containment.bounds has "memory", else per process. */
  memoryBytes: number;
  maxProcs: number;
  fileSizeBytes: number;
  scratchBytes: number;
  scratchFiles: number;
  outputBytes: number;
  maxOpenFiles: number;
}

export interface RunRequest {
  /** Chosen by the window (newRunId): every event of the run carries it, and SendInput and Stop take it. */
  runId: string;
  code: string;
  name: string;
  lang: Lang;
  stdin?: string;
  /** The open lesson's path in the lessons folder, so its data files are beside the program. */
  lesson?: string;
}

export interface Settings {
  /** "" follows the system language. */
  lang: Lang | '';
  fontSize: number;
  timeoutSeconds: number;
  python: string;
  /** The lessons folder chosen in the app; "" for the default. */
  lessonsDir?: string;
  warning?: string;
}

/** Two-language text from the Go side. */
export interface Text2 {
  zh: string;
  en: string;
}

/** An error made for the child (the Go side's ProblemError). */
export interface Problem extends Text2 {
  code: string;
}

export interface LessonNode {
  name: string;
  path: string;
  kind: 'group' | 'lesson';
  instructions?: boolean;
  children?: LessonNode[];
}

export interface Position {
  scrollTop: number;
  cursor: number;
}

export interface LessonsView {
  root: string;
  tree: LessonNode | null;
  problem?: Problem | null;
  open?: string;
  positions?: Record<string, Position>;
}

export interface Lesson {
  path: string;
  name: string;
  content: string;
  version: string;
  encoding: string;
  needsConversion: boolean;
  instructions?: string;
  /** Why a NAME.md that is there was not read (a FIFO, a link out of the folder, too big). */
  instructionsProblem?: Problem | null;
  dataFiles?: string[];
}

export interface SaveRequest {
  path: string;
  content: string;
  version: string;
  convertToUtf8: boolean;
}

export interface SaveResult {
  path: string;
  version: string;
  encoding: string;
}

export interface KeptBoth extends SaveResult {
  asidePath: string;
}

export interface Deleted {
  id: string;
  paths: string[];
  when: string;
}

export interface ChangedEvent {
  root: string;
  tree: LessonNode | null;
  problem?: Problem | null;
}

export interface LessonChangedEvent {
  path: string;
  kind: 'reloaded' | 'kept-both' | 'deleted' | 'unreadable';
  lesson?: Lesson;
  version?: string;
  asidePath?: string;
  message: Text2;
  problem?: Problem;
}

export interface PackText {
  zh: string;
  en: string;
}

export interface PackPlan {
  id: string;
  version: string;
  title: PackText;
  description: PackText;
  author: string;
  folder: string;
  previous: string;
  exercises: { id: string; title: PackText; lesson: string; new: boolean }[];
  writes: string[];
  kept: string[];
}

export interface ExerciseProgress {
  solved: boolean;
  attempts: number;
  stars: number;
  hints_shown: number;
  last_attempt?: string;
  solved_at?: string;
}

export interface Hint {
  index: number;
  total: number;
  text: string;
}

export interface ExerciseView {
  packTitle: PackText;
  packFolder: string;
  id: string;
  title: PackText;
  instructions: string;
  checks: number;
  hintsTotal: number;
  hints: Hint[];
  progress: ExerciseProgress;
}

export interface CheckResult {
  index: number;
  type: string;
  ok: boolean;
  message?: string;
  detail?: string;
}

export interface CheckOutcome {
  report: { exercise: string; passed: boolean; results: CheckResult[] };
  progress: ExerciseProgress;
}

export interface PackSummary {
  folder: string;
  id: string;
  version: string;
  title: PackText;
  exercises: number;
  solved: number;
  attempts: number;
  stars: number;
  max_stars: number;
  hints_shown: number;
  last_attempt?: string;
  progress: Record<string, ExerciseProgress>;
}

export type RunStatus =
  | 'ok'
  | 'error'
  | 'timeout'
  | 'memory_limit'
  | 'output_limit'
  | 'killed'
  | 'sandbox_unavailable';

export interface RunError {
  type: string;
  message: string;
  line: number | null;
  hint: string;
}

export interface RunImage {
  mime: 'image/svg+xml' | 'image/png';
  data: string;
}

export interface RunLimits {
  wallSeconds: number;
  cpuSeconds?: number;
  idleSeconds?: number;
  memoryMiB: number;
  outputKiB: number;
  scratchFiles?: number;
}

/** The whole-run bound that ended a run, when the status alone does not say it. */
export type RunLimit = 'cpu' | 'idle' | 'files';

export type Point = [number, number];

export type DrawStep =
  | { k: 'move'; t: number; s: number; x1: number; y1: number; x2: number; y2: number; c?: string; w?: number }
  | { k: 'turn'; t: number; s: number; h: number }
  | { k: 'fill'; t: number; s: number; c: string; pts: Point[] }
  | { k: 'dot'; t: number; s: number; x: number; y: number; d: number; c: string }
  | {
      k: 'text';
      t: number;
      s: number;
      x: number;
      y: number;
      text: string;
      align: 'left' | 'center' | 'right';
      font: [string, number, string];
      c: string;
    }
  | { k: 'stamp'; t: number; s: number; id: number; x: number; y: number; h: number; shape: string; c: string; fc: string }
  | { k: 'unstamp'; t: number; s: number; id: number }
  | { k: 'clear'; t: number; s: number }
  | { k: 'bg'; s: number; c: string }
  | { k: 'look'; t: number; s: number; shape: string; visible: boolean; size: number };

export interface TurtleInfo {
  id: number;
  x: number;
  y: number;
  heading: number;
  shape: string;
  visible: boolean;
  pen: string;
  fill: string;
  size: number;
}

export interface Drawing {
  width: number;
  height: number;
  view: [number, number, number, number];
  bg: string;
  steps: DrawStep[];
  turtles: TurtleInfo[];
  truncated: boolean;
}

export interface RunResult {
  status: RunStatus;
  exit_code: number;
  duration_ms: number;
  stdout: string;
  stderr: string;
  truncated: boolean;
  error: RunError | null;
  images: RunImage[] | null;
  drawing?: Drawing | null;
  stopped?: boolean;
  limit?: RunLimit;
  limits?: RunLimits;
}

export interface OutputEvent {
  runId: string;
  stream: 'stdout' | 'stderr';
  text: string;
}
export interface WaitingEvent {
  runId: string;
  prompt: string;
}
export interface InputDoneEvent {
  runId: string;
}
export interface DoneEvent {
  runId: string;
  result: RunResult;
}

export interface EventPayloads {
  [EventRunOutput]: OutputEvent;
  [EventRunWaiting]: WaitingEvent;
  [EventRunInputDone]: InputDoneEvent;
  [EventRunDone]: DoneEvent;
  [EventStatus]: SandboxStatus;
  [EventLessonsChanged]: ChangedEvent;
  [EventLessonChanged]: LessonChangedEvent;
}

export type Unsubscribe = () => void;

export interface Backend {
  status(): Promise<SandboxStatus>;
  run(req: RunRequest): Promise<void>;
  sendInput(runId: string, line: string): Promise<void>;
  stop(runId: string): Promise<void>;
  starDemo(): Promise<string>;
  getSettings(): Promise<Settings>;
  saveSettings(s: Settings): Promise<Settings>;
  systemLanguage(): Promise<string>;
  saveFile(name: string, base64: string): Promise<string>;
  lessons(): Promise<LessonsView>;
  openLesson(path: string): Promise<Lesson>;
  setLessonDirty(path: string, dirty: boolean): Promise<void>;
  keepDraft(d: SaveRequest): Promise<void>;
  saveLesson(req: SaveRequest): Promise<SaveResult>;
  keepBothLesson(req: SaveRequest): Promise<KeptBoth>;
  newLesson(group: string, name: string): Promise<string>;
  newGroup(parent: string, name: string): Promise<string>;
  renameLesson(path: string, newName: string): Promise<string>;
  duplicateLesson(path: string): Promise<string>;
  deleteLesson(path: string): Promise<Deleted>;
  undoDelete(id: string): Promise<string[]>;
  rememberLesson(path: string, pos: Position): Promise<void>;
  /** null when the child cancelled the folder dialog. */
  chooseLessonsFolder(): Promise<Settings | null>;
  choosePackFile(): Promise<string>;
  previewPack(file: string, lang: Lang): Promise<PackPlan>;
  importPack(file: string, lang: Lang): Promise<PackPlan>;
  /** null for a lesson that is not from a pack. */
  lessonExercise(path: string, lang: Lang): Promise<ExerciseView | null>;
  checkLesson(req: { path: string; code: string; lang: Lang }): Promise<CheckOutcome>;
  revealHint(path: string, lang: Lang): Promise<Hint>;
  packProgress(): Promise<PackSummary[]>;
  /** Calls cb with the paths of files dropped on the window; returns the unsubscribe. */
  onFileDrop(cb: (paths: string[]) => void): Unsubscribe;
  on<E extends EventName>(name: E, cb: (payload: EventPayloads[E]) => void): Unsubscribe;
}

/** What Wails v2 puts on window.go.app.App: one promise-returning function per bound method. */
export interface WailsApp {
  Status(): Promise<SandboxStatus>;
  Run(req: RunRequest): Promise<void>;
  SendInput(runId: string, line: string): Promise<void>;
  Stop(runId: string): Promise<void>;
  StarDemo(): Promise<string>;
  GetSettings(): Promise<Settings>;
  SaveSettings(s: Settings): Promise<Settings>;
  SystemLanguage(): Promise<string>;
  SaveFile(name: string, base64: string): Promise<string>;
  Lessons(): Promise<LessonsView>;
  OpenLesson(path: string): Promise<Lesson>;
  SetLessonDirty(path: string, dirty: boolean): Promise<void>;
  KeepDraft(d: SaveRequest): Promise<void>;
  SaveLesson(req: SaveRequest): Promise<SaveResult>;
  KeepBothLesson(req: SaveRequest): Promise<KeptBoth>;
  NewLesson(group: string, name: string): Promise<string>;
  NewGroup(parent: string, name: string): Promise<string>;
  RenameLesson(path: string, newName: string): Promise<string>;
  DuplicateLesson(path: string): Promise<string>;
  DeleteLesson(path: string): Promise<Deleted>;
  UndoDelete(id: string): Promise<string[]>;
  RememberLesson(path: string, pos: Position): Promise<void>;
  ChooseLessonsFolder(): Promise<Settings | null>;
  ChoosePackFile(): Promise<string>;
  PreviewPack(file: string, lang: string): Promise<PackPlan>;
  ImportPack(file: string, lang: string): Promise<PackPlan>;
  LessonExercise(path: string, lang: string): Promise<ExerciseView | null>;
  CheckLesson(req: { path: string; code: string; lang: string }): Promise<CheckOutcome>;
  RevealHint(path: string, lang: string): Promise<Hint>;
  PackProgress(): Promise<PackSummary[]>;
}

/** The part of window.runtime this app uses. */
export interface WailsRuntime {
  EventsOnMultiple?(name: string, cb: (...data: unknown[]) => void, maxCallbacks: number): Unsubscribe;
  EventsOn?(name: string, cb: (...data: unknown[]) => void): Unsubscribe;
  EventsOff(name: string, ...more: string[]): void;
  /** Wails v2.8+: dropped files' paths (needs DragAndDrop.EnableFileDrop). */
  OnFileDrop?(cb: (x: number, y: number, paths: string[]) => void, useDropTarget: boolean): void;
  OnFileDropOff?(): void;
}

export interface WailsGlobals {
  go?: { app?: { App?: WailsApp } };
  runtime?: WailsRuntime;
}

/** True when something (Wails, or a harness) has defined the app bindings. */
export function hasWails(win: WailsGlobals): boolean {
  return !!win.go?.app?.App && !!win.runtime;
}

/**
 * The backend over window.go / window.runtime. Each call looks the function up
 * at call time, as the generated wailsjs code does, so a harness may define
 * the globals after this module loads.
 */
export function wailsBackend(win: WailsGlobals): Backend {
  const app = (): WailsApp => {
    const a = win.go?.app?.App;
    if (!a) throw new Error('window.go.app.App is not defined');
    return a;
  };
  const rt = (): WailsRuntime => {
    if (!win.runtime) throw new Error('window.runtime is not defined');
    return win.runtime;
  };
  return {
    status: () => app().Status(),
    run: (req) => app().Run(req),
    sendInput: (runId, line) => app().SendInput(runId, line),
    stop: (runId) => app().Stop(runId),
    starDemo: () => app().StarDemo(),
    getSettings: () => app().GetSettings(),
    saveSettings: (s) => app().SaveSettings(s),
    systemLanguage: () => app().SystemLanguage(),
    saveFile: (name, b64) => app().SaveFile(name, b64),
    lessons: () => app().Lessons(),
    openLesson: (p) => app().OpenLesson(p),
    setLessonDirty: (p, d) => app().SetLessonDirty(p, d),
    keepDraft: (d) => app().KeepDraft(d),
    saveLesson: (r) => app().SaveLesson(r),
    keepBothLesson: (r) => app().KeepBothLesson(r),
    newLesson: (g, n) => app().NewLesson(g, n),
    newGroup: (p, n) => app().NewGroup(p, n),
    renameLesson: (p, n) => app().RenameLesson(p, n),
    duplicateLesson: (p) => app().DuplicateLesson(p),
    deleteLesson: (p) => app().DeleteLesson(p),
    undoDelete: (id) => app().UndoDelete(id),
    rememberLesson: (p, pos) => app().RememberLesson(p, pos),
    chooseLessonsFolder: () => app().ChooseLessonsFolder(),
    choosePackFile: () => app().ChoosePackFile(),
    previewPack: (f, l) => app().PreviewPack(f, l),
    importPack: (f, l) => app().ImportPack(f, l),
    lessonExercise: (p, l) => app().LessonExercise(p, l),
    checkLesson: (r) => app().CheckLesson(r),
    revealHint: (p, l) => app().RevealHint(p, l),
    packProgress: () => app().PackProgress(),
    onFileDrop(cb) {
      const r = rt();
      if (!r.OnFileDrop) return () => {};
      // Any drop on the window counts, not only on marked drop targets.
      r.OnFileDrop((_x, _y, paths) => cb(paths ?? []), false);
      return () => r.OnFileDropOff?.();
    },
    on(name, cb) {
      const r = rt();
      const handler = (...data: unknown[]) => cb(data[0] as never);
      // wailsjs' EventsOn is EventsOnMultiple(name, cb, -1); a harness may only offer EventsOn.
      if (r.EventsOnMultiple) return r.EventsOnMultiple(name, handler, -1);
      if (r.EventsOn) return r.EventsOn(name, handler);
      throw new Error('window.runtime has no EventsOn');
    },
  };
}

/**
 * The child-facing problem behind a rejected call: the Go side sends its
 * ProblemError as JSON text; anything else keeps its text in both languages.
 */
export function problemOf(e: unknown): Problem {
  const text = e instanceof Error ? e.message : String(e);
  try {
    const p = JSON.parse(text) as Partial<Problem>;
    if (p && typeof p === 'object' && typeof p.code === 'string' && typeof p.zh === 'string' && typeof p.en === 'string') {
      return { code: p.code, zh: p.zh, en: p.en };
    }
  } catch {
    // not JSON: a plain error text
  }
  return { code: '', zh: text, en: text };
}
