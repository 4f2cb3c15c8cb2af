// A backend driven by a test: it records calls, hands out run ids and lets
// the test emit events and answer Run(); the lessons folder is the fake one.

import type { Backend, EventPayloads, RunRequest, RunResult, SandboxStatus, Settings } from '../lib/backend';
import { defaultLimits } from '../lib/contract.gen';
import type { EventName } from '../lib/events';
import { checkingStatus, fakeContainment, fakeLimits } from './fakeBackend';
import { createFakeLessons, type FakeLessonsOptions } from './fakeLessons';

export const READY: SandboxStatus = {
  ready: true,
  checking: false,
  code: '',
  reason: '',
  fix: '',
  python: 'python3',
  sandbox: 'bwrap',
  version: 't',
  containment: fakeContainment(),
  limits: fakeLimits(),
};
export const CHECKING: SandboxStatus = { ...checkingStatus(), version: 't' };

export function deferred<T>() {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

type FolderApi = ReturnType<typeof createFakeLessons>['api'];
// The lessons methods come from the fake folder, here a missing one, so the classic start runs the built-in demo.
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export interface ScriptedBackend extends FolderApi {}

/** A backend driven by the test: it records calls, hands out run ids and lets the test emit events and answer Run(). */
export class ScriptedBackend implements Backend {
  readonly folder: ReturnType<typeof createFakeLessons>;
  constructor(folder: FakeLessonsOptions = { lessonsMissing: true }) {
    this.folder = createFakeLessons(folder, 'print("star")', () => this.settings, (s) => (this.settings = s));
    Object.assign(this, this.folder.api);
  }
  onFileDrop() {
    return () => {};
  }
  calls: string[] = [];
  listeners = new Map<string, Set<(p: unknown) => void>>();
  statusValue: SandboxStatus = READY;
  settings: Settings = { lang: 'en', fontSize: 18, timeoutSeconds: 10, python: '' };
  runAnswers: ReturnType<typeof deferred<void>>[] = [];
  /** Run() answers at once; false: the test answers through runAnswers. */
  answerRuns = true;
  /** The ids the classroom gets for its next runs; then 'run-1'. */
  ids: string[] = [];
  nextRunId = () => this.ids.shift() ?? 'run-1';
  runIds: string[] = [];
  saved: Settings[] = [];

  emit<E extends EventName>(name: E, payload: EventPayloads[E]) {
    for (const cb of [...(this.listeners.get(name) ?? [])]) cb(payload);
  }
  on<E extends EventName>(name: E, cb: (p: EventPayloads[E]) => void) {
    const set = this.listeners.get(name) ?? new Set();
    this.listeners.set(name, set);
    set.add(cb as (p: unknown) => void);
    return () => set.delete(cb as (p: unknown) => void);
  }
  async status() {
    return this.statusValue;
  }
  async run(req: RunRequest) {
    this.calls.push(`Run ${req.name} ${req.lang} ${JSON.stringify(req.code)}`);
    this.runIds.push(req.runId);
    if (this.answerRuns) return;
    const d = deferred<void>();
    this.runAnswers.push(d);
    return d.promise;
  }
  async sendInput(runId: string, line: string) {
    this.calls.push(`SendInput ${runId} ${line}`);
  }
  async stop(runId: string) {
    this.calls.push(`Stop ${runId}`);
  }
  events: unknown[] = [];
  async sendEvent(runId: string, ev: unknown) {
    this.calls.push(`SendEvent ${runId} ${JSON.stringify(ev)}`);
    this.events.push(ev);
  }
  async starDemo() {
    return 'print("star")';
  }
  async getSettings() {
    return { ...this.settings };
  }
  async saveSettings(s: Settings) {
    this.saved.push(s);
    return { ...s };
  }
  async systemLanguage() {
    return 'zh_CN';
  }
  async saveFile(name: string) {
    return `/tmp/${name}`;
  }
  copied: string[] = [];
  async copyText(text: string) {
    this.copied.push(text);
    return true;
  }
}

export function result(partial: Partial<RunResult> = {}): RunResult {
  return { status: 'ok', exit_code: 0, duration_ms: 12, stdout: '', stderr: '', truncated: false, error: null, images: [], limits: defaultLimits, ...partial };
}

