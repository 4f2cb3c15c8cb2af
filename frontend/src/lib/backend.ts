// Typed bindings for the Go app (docs/app-api.md), written the way Wails v2's
// generated wailsjs code calls them, behind an interface so that tests and the
// browser harness can provide their own backend.

import {
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
}

export interface RunRequest {
  code: string;
  name: string;
  lang: Lang;
  stdin?: string;
}

export interface Settings {
  /** "" follows the system language. */
  lang: Lang | '';
  fontSize: number;
  timeoutSeconds: number;
  python: string;
  warning?: string;
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
  memoryMiB: number;
  outputKiB: number;
}

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
  [EventLessonsChanged]: unknown;
}

export type Unsubscribe = () => void;

export interface Backend {
  status(): Promise<SandboxStatus>;
  run(req: RunRequest): Promise<string>;
  sendInput(runId: string, line: string): Promise<void>;
  stop(runId: string): Promise<void>;
  starDemo(): Promise<string>;
  getSettings(): Promise<Settings>;
  saveSettings(s: Settings): Promise<Settings>;
  systemLanguage(): Promise<string>;
  saveFile(name: string, base64: string): Promise<string>;
  on<E extends EventName>(name: E, cb: (payload: EventPayloads[E]) => void): Unsubscribe;
}

/** What Wails v2 puts on window.go.app.App: one promise-returning function per bound method. */
export interface WailsApp {
  Status(): Promise<SandboxStatus>;
  Run(req: RunRequest): Promise<string>;
  SendInput(runId: string, line: string): Promise<void>;
  Stop(runId: string): Promise<void>;
  StarDemo(): Promise<string>;
  GetSettings(): Promise<Settings>;
  SaveSettings(s: Settings): Promise<Settings>;
  SystemLanguage(): Promise<string>;
  SaveFile(name: string, base64: string): Promise<string>;
}

/** The part of window.runtime this app uses. */
export interface WailsRuntime {
  EventsOnMultiple?(name: string, cb: (...data: unknown[]) => void, maxCallbacks: number): Unsubscribe;
  EventsOn?(name: string, cb: (...data: unknown[]) => void): Unsubscribe;
  EventsOff(name: string, ...more: string[]): void;
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
