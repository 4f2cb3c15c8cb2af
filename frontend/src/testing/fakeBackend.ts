// A stand-in for the Go app, for `npm run dev` and the screenshot harness
// when no real backend is around. It does not run Python: it recognises a
// few shapes of program (print of a literal, input(), a counting loop, an
// endless loop, a division by zero, a turtle program) and answers the way
// the real app would, events included. Never part of a production bundle.

import type {
  Backend,
  Containment,
  Drawing,
  DrawStep,
  EventPayloads,
  Lang,
  OutcomeKey,
  RunLimits,
  RunOutcome,
  RunResult,
  SandboxLimits,
  SandboxStatus,
  Settings,
  WailsGlobals,
  WindowApp,
} from '../lib/backend';
import * as GoApp from '../lib/wailsjs/go/app/App';
import { utf8ToBase64 } from '../lib/base64';
import { defaultLimits, type TraceStep } from '../lib/contract.gen';
import { codePoints } from '../lib/stepPlayer';
import { formatSize } from '../lib/sandboxAbout';
import { createFakeLessons, type FakeLessonsOptions } from './fakeLessons';
import { EventRunDone, EventRunInputDone, EventRunLive, EventRunOutput, EventRunWaiting, EventStatus, type EventName } from '../lib/events';
import type { ControlEvent } from '../lib/live.svelte';
import { askDialog, FAKE_SCREEN, playGame, playSteps, type LiveRunPort } from './fakeLive';

export interface FakeOptions extends FakeLessonsOptions {
  lang?: Lang | '';
  systemLang?: Lang;
  /** How long the sandbox check takes before `sandbox:status` says ready. */
  checkingMs?: number;
  /** Report a broken sandbox instead. */
  broken?: boolean;
  /** Pretend the settings file was broken. */
  settingsWarning?: string;
  /** How runs are bounded: a control group (default) or per-process limits only. */
  containment?: 'cgroup2' | 'rlimits';
}

export const STAR_DEMO = `import turtle

t = turtle.Turtle()
t.speed(6)
t.pensize(3)
t.color("orange", "gold")
t.begin_fill()
for i in range(5):
    t.forward(200)
    t.right(144)
t.end_fill()
t.hideturtle()
print("⭐ 星星画好了！ The star is ready!")
`;

type Listener = (payload: unknown) => void;

/** What the Go app reports on a Linux machine, for the fake statuses. */
export function fakeContainment(kind: 'cgroup2' | 'rlimits' = 'cgroup2'): Containment {
  return kind === 'cgroup2'
    ? { mechanism: 'cgroup2', bounds: ['memory', 'processes', 'cpu'], detail: '/sys/fs/cgroup/user.slice/user-1000.slice/user@1000.service/app.slice/run-r3f9c2a.scope' }
    : { mechanism: 'rlimits', bounds: ['cpu'], detail: 'cgroup v2: systemd did not start a delegated scope' };
}

/** sandbox.DefaultPolicy as the Go app reports it; processes capped without a control group. */
export function fakeLimits(kind: 'cgroup2' | 'rlimits' = 'cgroup2'): SandboxLimits {
  return {
    wallSeconds: 10,
    idleSeconds: 300,
    cpuSeconds: 10,
    memoryBytes: 512 << 20,
    maxProcs: kind === 'cgroup2' ? 64 : 8,
    fileSizeBytes: 16 << 20,
    scratchBytes: 64 << 20,
    scratchFiles: 10000,
    outputBytes: 1 << 20,
    maxOpenFiles: 256,
    preloadedBytes: 0,
  };
}

/** The Go app's status while its self-test runs: nothing known yet. */
export function checkingStatus(): SandboxStatus {
  return {
    ready: false,
    checking: true,
    code: '',
    reason: '',
    fix: '',
    python: '',
    sandbox: '',
    version: 'dev',
    containment: { mechanism: '', bounds: null, detail: '' },
    limits: { wallSeconds: 0, idleSeconds: 0, cpuSeconds: 0, memoryBytes: 0, maxProcs: 0, fileSizeBytes: 0, scratchBytes: 0, scratchFiles: 0, outputBytes: 0, maxOpenFiles: 0, preloadedBytes: 0 },
  };
}

export function starDrawing(): Drawing {
  const steps: DrawStep[] = [{ k: 'look', t: 0, s: 6, shape: 'classic', visible: true, size: 1 }];
  let x = -100;
  let y = 35;
  let h = 0;
  steps.push({ k: 'move', t: 0, s: 0, x1: 0, y1: 0, x2: x, y2: y });
  const pts: [number, number][] = [[x, y]];
  for (let i = 0; i < 5; i++) {
    const nx = Math.round((x + 200 * Math.cos((h * Math.PI) / 180)) * 100) / 100;
    const ny = Math.round((y + 200 * Math.sin((h * Math.PI) / 180)) * 100) / 100;
    steps.push({ k: 'move', t: 0, s: 6, x1: x, y1: y, x2: nx, y2: ny, c: '#ffa500', w: 3 });
    pts.push([nx, ny]);
    x = nx;
    y = ny;
    h = (h - 144 + 360) % 360;
    steps.push({ k: 'turn', t: 0, s: 6, h });
  }
  steps.push({ k: 'fill', t: 0, s: 6, c: '#ffd700', pts, z: 2 } as DrawStep);
  steps.push({ k: 'look', t: 0, s: 6, shape: 'classic', visible: false, size: 1 });
  return {
    width: 400,
    height: 400,
    view: [-120, -140, 240, 200],
    bg: '#ffffff',
    steps,
    turtles: [{ id: 0, x, y, heading: h, shape: 'classic', visible: false, pen: '#ffa500', fill: '#ffd700', size: 1 }],
    truncated: false,
  };
}

/** A plain SVG of a drawing's fills and lines, like the runner's picture. */
export function drawingSvg(d: Drawing): string {
  const [minx, miny, w, h] = d.view;
  const body: string[] = [];
  for (const s of d.steps) {
    if (s.k === 'fill') body.push(`<polygon points="${s.pts.map(([px, py]) => `${px},${-py}`).join(' ')}" fill="${s.c}"/>`);
  }
  for (const s of d.steps) {
    if (s.k === 'move' && s.c)
      body.push(`<line x1="${s.x1}" y1="${-s.y1}" x2="${s.x2}" y2="${-s.y2}" stroke="${s.c}" stroke-width="${s.w ?? 1}" stroke-linecap="round"/>`);
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${d.width}" height="${d.height}" viewBox="${minx} ${-(miny + h)} ${w} ${h}"><rect x="${minx}" y="${-(miny + h)}" width="${w}" height="${h}" fill="${d.bg}"/>${body.join('')}</svg>`;
}

/** How the engine says a limit or a Stop ended a run (kidrun outcomeOf): the catalogue's key and the run's bounds as its values. */
export function fakeOutcome(key: OutcomeKey, l: RunLimits): RunOutcome {
  return {
    key,
    values: {
      seconds: String(l.wallSeconds),
      cpu: String(l.cpuSeconds),
      idle: String(l.idleSeconds),
      minutes: String(Math.round(l.idleSeconds / 6) / 10),
      files: String(l.scratchFiles),
      memory: formatSize(l.memoryMiB * 1024 * 1024),
      size: formatSize(l.outputKiB * 1024),
    },
  };
}

function unquote(lit: string): string {
  return lit.replace(/\\(n|r|t|x([0-9a-fA-F]{2})|\\|"|')/g, (_m, c: string, hex?: string) =>
    hex ? String.fromCharCode(parseInt(hex, 16)) : ({ n: '\n', r: '\r', t: '\t', '\\': '\\', '"': '"', "'": "'" } as Record<string, string>)[c],
  );
}

const HINTS = {
  zero: { zh: '不能除以 0：检查一下除号后面的数。', en: 'You cannot divide by 0: check the number after the /.' },
  colon: { zh: '这一行的末尾好像少了冒号“:”。', en: 'This line seems to be missing a colon ":" at the end.' },
  eof: { zh: '程序在等输入，但没有可以读的了。', en: 'The program wanted input but there was nothing to read.' },
};

export type FakeBackend = Backend & {
  emit<E extends EventName>(name: E, p: EventPayloads[E]): void;
  /** Files dropped on the window, as the Wails runtime reports them. */
  drop(paths: string[]): void;
  folder: ReturnType<typeof createFakeLessons>;
  /** Every SendEvent call, in order. */
  sent: { runId: string; ev: ControlEvent }[];
  /** The id of the latest run started. */
  lastRunId(): string | null;
  /** What copyText put on the clipboard last, or null. */
  copied(): string | null;
};

export function createFakeBackend(opts: FakeOptions = {}): FakeBackend {
  const listeners = new Map<string, Set<Listener>>();
  let settings: Settings = { lang: opts.lang ?? '', fontSize: 18, timeoutSeconds: 10, python: '', warning: opts.settingsWarning };
  const containment = fakeContainment(opts.containment);
  const limits = fakeLimits(opts.containment);
  const readyStatus: SandboxStatus = opts.broken
    ? {
        ready: false,
        checking: false,
        code: 'bwrap_missing',
        reason: 'bubblewrap (bwrap) is not installed',
        fix: 'sudo apt install bubblewrap',
        fixOthers: [
          { distro: 'Fedora', command: 'sudo dnf install bubblewrap' },
          { distro: 'Arch', command: 'sudo pacman -S bubblewrap' },
          { distro: 'openSUSE', command: 'sudo zypper install bubblewrap' },
        ],
        python: '/usr/bin/python3',
        sandbox: '',
        version: 'dev',
        containment,
        limits,
      }
    : { ready: true, checking: false, code: '', reason: '', fix: '', python: '/usr/bin/python3', sandbox: 'bwrap (fake)', version: 'dev', containment, limits };
  let status = checkingStatus();
  const runs = new Map<string, { stop(): void; input(line: string): void; event(ev: ControlEvent): void }>();
  const sent: { runId: string; ev: ControlEvent }[] = [];
  let lastRunId: string | null = null;
  let copied: string | null = null;
  const folder = createFakeLessons(opts, STAR_DEMO, () => settings, (s) => (settings = s));
  const dropListeners = new Set<(paths: string[]) => void>();

  function emit(name: string, payload: unknown) {
    for (const cb of [...(listeners.get(name) ?? [])]) cb(payload);
  }

  setTimeout(() => {
    status = readyStatus;
    emit(EventStatus, status);
  }, opts.checkingMs ?? 400);

  const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

  function startRun(runId: string, code: string, lang: Lang, traced = false): void {
    // As the Go app: the window names the run, and an id in use is refused.
    if (!/^[A-Za-z0-9_-]{1,64}$/.test(runId)) throw new Error(`a run id has 1 to 64 letters, digits, '-' and '_': ${JSON.stringify(runId)}`);
    if (runs.has(runId)) throw new Error(`that run id is in use: ${JSON.stringify(runId)}`);
    const started = Date.now();
    lastRunId = runId;
    let stopped = false;
    let pendingInput: ((line: string) => void) | null = null;
    const events: ControlEvent[] = [];
    let eventWaiter: ((ev: ControlEvent | null) => void) | null = null;
    runs.set(runId, {
      stop() {
        stopped = true;
        pendingInput?.('');
        eventWaiter?.(null);
      },
      input(line) {
        pendingInput?.(line);
      },
      event(ev) {
        if (eventWaiter) {
          const w = eventWaiter;
          eventWaiter = null;
          w(ev);
        } else if (events.length < 256) events.push(ev);
      },
    });
    let printed = 0;
    const out = (text: string, stream: 'stdout' | 'stderr' = 'stdout') => {
      if (stream === 'stdout') printed += codePoints(text);
      emit(EventRunOutput, { runId, stream, text });
    };
    // Step by step: each line the fake gets to is a step of the top level, with no names.
    const trace: TraceStep[] | null = traced ? [] : null;
    // The live run's drawing as it was sent, for the final picture.
    const drawn: DrawStep[] = [];
    const port: LiveRunPort = {
      frame(frame) {
        const f = frame as { type: string; steps?: DrawStep[] };
        if (f.type === 'draw' && f.steps) drawn.push(...f.steps.map(({ ms: _ms, ...step }) => step as DrawStep));
        emit(EventRunLive, { runId, frame });
      },
      out: (text) => out(text),
      next: () => (stopped ? Promise.resolve(null) : events.length ? Promise.resolve(events.shift()!) : new Promise((r) => (eventWaiter = r))),
      wait: async (ms) => void (await wait(ms)),
      stopped: () => stopped,
    };
    // As a window run's result: the picture, not the drawing's steps again (they came live).
    const finish = (partial: Partial<RunResult>, key?: OutcomeKey) => {
      runs.delete(runId);
      const limits: RunLimits = { ...defaultLimits, wallSeconds: settings.timeoutSeconds };
      const result: RunResult = {
        status: 'ok',
        exit_code: 0,
        duration_ms: Date.now() - started,
        stdout: '',
        stderr: '',
        truncated: false,
        error: null,
        images: [],
        drawing: null,
        limits,
        ...partial,
        ...(trace ? { trace: { steps: trace, truncated: false } } : {}),
      };
      if (stopped) {
        Object.assign(result, { status: 'killed', exit_code: -1, stopped: true });
        key = 'limit.stopped';
      }
      // The window words the outcome itself (the engine's `message` is for readers without the catalogue).
      if (key) result.outcome = fakeOutcome(key, limits);
      emit(EventRunDone, { runId, result });
    };

    void (async () => {
      await wait(60);
      const lines = code.split('\n');
      for (let i = 0; i < lines.length && !stopped; i++) {
        const line = lines[i];
        const n = i + 1;
        if (line.trim() && !line.trim().startsWith('#')) trace?.push({ i: trace.length, event: 'line', line: n, func: '<module>', depth: 0, vars: {}, out: printed, draw: drawn.length });
        const block = /^\s*(if|for|while|def|elif|else|class)\b/.test(line);
        if (block && !/:\s*(#.*)?$/.test(line)) {
          out(`  File "main.py", line ${n}\n    ${line.trim()}\nSyntaxError: expected ':'\n`, 'stderr');
          return finish({ status: 'error', exit_code: 1, error: { type: 'SyntaxError', message: "expected ':'", line: n, hint: HINTS.colon[lang] } });
        }
        if (/while\s+True/.test(line)) {
          const until = started + settings.timeoutSeconds * 1000;
          let k = 0;
          while (Date.now() < until && !stopped) {
            out(`${k++}\n`);
            await wait(100);
          }
          return finish({ status: stopped ? 'killed' : 'timeout', exit_code: 124 }, 'limit.timeout');
        }
        const loop = /for\s+(\w+)\s+in\s+range\((\d+)\)/.exec(line);
        if (loop && /print\(\s*\w+\s*\)/.test(lines[i + 1] ?? '')) {
          const total = Number(loop[2]);
          for (let k = 0; k < total && !stopped; k += 2000) {
            let chunk = '';
            for (let j = k; j < Math.min(total, k + 2000); j++) chunk += `${j}\n`;
            out(chunk);
            await wait(20);
          }
          i++;
          continue;
        }
        const dialog = /(textinput|numinput)\(\s*(["'])(.*?)\2\s*,\s*(["'])(.*?)\4/.exec(line);
        if (dialog) {
          await askDialog(port, dialog[1] === 'numinput' ? 'number' : 'text', unquote(dialog[3]), unquote(dialog[5]));
          continue;
        }
        const ask = /input\(\s*(["'])(.*?)\1\s*\)/.exec(line);
        if (ask) {
          out(unquote(ask[2]));
          emit(EventRunWaiting, { runId, prompt: unquote(ask[2]) });
          await new Promise<string>((r) => (pendingInput = r));
          pendingInput = null;
          emit(EventRunInputDone, { runId });
          continue;
        }
        if (/\/\s*0\b/.test(line)) {
          out(`Traceback (most recent call last):\n  File "main.py", line ${n}, in <module>\n    ${line.trim()}\nZeroDivisionError: division by zero\n`, 'stderr');
          return finish({ status: 'error', exit_code: 1, error: { type: 'ZeroDivisionError', message: 'division by zero', line: n, hint: HINTS.zero[lang] } });
        }
        for (const m of line.matchAll(/print\(\s*(["'])(.*?)\1\s*\)/g)) out(unquote(m[2]) + '\n');
        await wait(5);
      }
      if (stopped) return finish({});
      if (/import\s+turtle|from\s+turtle/.test(code)) {
        // Live, as every run from the window: the star drawn at the program's pace, or a game that listens.
        port.frame(FAKE_SCREEN);
        const star = starDrawing();
        if (/listen\(\)/.test(code)) {
          const n = await playSteps(port, [{ k: 'look', t: 0, s: 6, shape: 'turtle', visible: true, size: 1 }], 0);
          await playGame(port, n, { x: 0, y: 0, h: 0 });
        } else await playSteps(port, star.steps, 0);
        const d: Drawing = { ...star, view: [-200, -200, 400, 400], steps: drawn };
        return finish({ images: [{ mime: 'image/svg+xml', data: utf8ToBase64(drawingSvg(d)) }] });
      }
      finish({});
    })();
  }

  return {
    emit,
    folder,
    sent,
    lastRunId: () => lastRunId,
    copied: () => copied,
    copyText: async (text) => {
      copied = text;
      return true;
    },
    drop: (paths) => dropListeners.forEach((cb) => cb(paths)),
    ...folder.api,
    onFileDrop(cb) {
      dropListeners.add(cb);
      return () => dropListeners.delete(cb);
    },
    status: async () => status,
    run: async (req) => startRun(req.runId, req.code, req.lang, req.trace === true),
    sendInput: async (runId, line) => runs.get(runId)?.input(line),
    sendEvent: async (runId, ev) => {
      const run = runs.get(runId);
      if (!run) throw new Error(`run ${JSON.stringify(runId)} is not running`);
      sent.push({ runId, ev: ev as ControlEvent });
      run.event(ev as ControlEvent);
    },
    stop: async (runId) => runs.get(runId)?.stop(),
    starDemo: async () => STAR_DEMO,
    getSettings: async () => ({ ...settings }),
    saveSettings: async (s) => {
      settings = {
        ...s,
        fontSize: Math.min(40, Math.max(10, Math.round(s.fontSize) || 18)),
        timeoutSeconds: Math.min(60, Math.max(1, Math.round(s.timeoutSeconds) || 10)),
        warning: undefined,
      };
      return { ...settings };
    },
    systemLanguage: async () => opts.systemLang ?? 'zh',
    saveFile: async (name) => `/home/kid/Pictures/${name}`,
    on(name, cb) {
      const set = listeners.get(name) ?? new Set<Listener>();
      listeners.set(name, set);
      const l = cb as Listener;
      set.add(l);
      return () => set.delete(l);
    },
  };
}

/** Defines window.go.app.App and window.runtime over a fake backend, as the Wails runtime (or a harness) would. */
export function installFakeWails(win: WailsGlobals, opts: FakeOptions = {}): void {
  const b = createFakeBackend(opts);
  // Every bound method under its Go name, as Wails binds it: the generated
  // module names them, and the fake answers each under its window name.
  const calls = b as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
  const App = Object.fromEntries(
    Object.keys(GoApp).map((name) => [name, (...args: unknown[]) => calls[name.charAt(0).toLowerCase() + name.slice(1)](...args)]),
  ) as WindowApp;
  win.go = { app: { App } };
  win.runtime = {
    EventsOnMultiple: (name, cb) => b.on(name as EventName, cb as never),
    EventsOn: (name, cb) => b.on(name as EventName, cb as never),
    EventsOff: () => {},
    ClipboardSetText: (text) => b.copyText(text),
    // The harness calls window.__kidcoderDrop(paths) to stand in for a file dropped on the window.
    OnFileDrop: (cb) => void b.onFileDrop((paths) => cb(0, 0, paths)),
  };
  (win as WailsGlobals & { __kidcoderDrop?: (paths: string[]) => void }).__kidcoderDrop = (paths) => b.drop(paths);
  // Browser tests send live frames of the current run and read what the window sent back.
  (win as WailsGlobals & { __kidcoderFake?: unknown }).__kidcoderFake = {
    emit: (name: EventName, payload: unknown) => b.emit(name, payload as never),
    sent: b.sent,
    lastRunId: () => b.lastRunId(),
    copied: () => b.copied(),
  };
}
