import { afterEach, describe, expect, it } from 'vitest';
import { flushSync } from 'svelte';
import { EditorView } from '@codemirror/view';
import type { Drawing, DrawStep, Settings } from './backend';
import { Classroom, newRunId } from './classroom.svelte';
import { fakeOutcome } from '../testing/fakeBackend';
import { defaultLimits } from './contract.gen';
import { headline } from './outcome';
import { Player } from './player';
import { CHECKING, READY, result, ScriptedBackend } from '../testing/scriptedBackend';
import { EventRunDone, EventRunInputDone, EventRunLive, EventRunOutput, EventRunWaiting, EventStatus } from './events';

/** Runs scheduled console flushes by hand, so tests decide when a frame happens. */
function manualFrames() {
  const queue: (() => void)[] = [];
  return {
    schedule: (f: () => void) => void queue.push(f),
    frame: () => queue.splice(0).forEach((f) => f()),
  };
}

const tick = () => new Promise((r) => setTimeout(r, 0));

let cleanups: (() => void)[] = [];
afterEach(() => {
  cleanups.forEach((c) => c());
  cleanups = [];
});

async function setup(b = new ScriptedBackend()) {
  const frames = manualFrames();
  const room = new Classroom(b, { schedule: frames.schedule, runIds: b.nextRunId });
  cleanups.push(room.connect());
  return { b, room, frames };
}

describe('Checking an answer', () => {
  it("shows the checked run's output and drawing, as after Run", async () => {
    const b = new ScriptedBackend();
    b.answerRuns = true;
    const { room, frames } = await setup(b);
    await room.start();
    await tick();
    b.emit(EventRunDone, { runId: b.runIds[0], result: result({ stdout: 'star\n' }) });
    Object.assign(b, {
      checkLesson: async () => ({
        report: { exercise: '01-square', passed: false, results: [] },
        progress: { solved: false, attempts: 1, stars: 0, hints_shown: 0 },
        run: result({ stdout: 'checked\n', stderr: 'oops\n', images: [{ mime: 'image/svg+xml', data: btoa('<svg xmlns="http://www.w3.org/2000/svg"/>') }] }),
      }),
    });
    room.packs.exercisePath = '图形/01-square.py';
    room.packs.exercise = { packTitle: { zh: '', en: '' }, packFolder: '图形', id: '01-square', title: { zh: '', en: '' }, instructions: '', checks: 1, hintsTotal: 0, hints: [], progress: { solved: false, attempts: 0, stars: 0, hints_shown: 0 } } as never;
    await room.packs.check('print("checked")');
    frames.frame();
    expect(room.console.text()).toContain('checked');
    expect(room.console.text()).toContain('oops');
    expect(room.result?.stdout).toBe('checked\n');
  });
});

describe('Classroom start-up', () => {
  it('loads settings and runs the star demo once when the sandbox is ready', async () => {
    const { b, room } = await setup();
    await room.start();
    await tick();
    expect(room.lang).toBe('en');
    expect(room.editor.code).toBe('print("star")');
    expect(b.calls).toEqual(['Run star.py en "print(\\"star\\")"']);
    b.emit(EventStatus, READY);
    await tick();
    expect(b.calls.length).toBe(1);
  });

  it('takes over the star run the app started when the status names it', async () => {
    const b = new ScriptedBackend();
    b.statusValue = { ...READY, demoRunId: 'star-demo' };
    const { room, frames } = await setup(b);
    await room.start();
    await tick();
    expect(b.calls).toEqual(['Run star.py en "print(\\"star\\")"']);
    expect(b.runIds).toEqual(['star-demo']);
    expect(room.runId).toBe('star-demo');
    b.emit(EventRunOutput, { runId: 'star-demo', stream: 'stdout', text: 'star\n' });
    b.emit(EventRunDone, { runId: 'star-demo', result: result({ stdout: 'star\n' }) });
    frames.frame();
    expect(room.console.text()).toBe('star');
    expect(room.running).toBe(false);
    // Only the demo takes it over: the child's own runs get ids of their own.
    await room.run();
    expect(b.runIds).toEqual(['star-demo', 'run-1']);
  });

  it('waits for the status event while the sandbox is being checked', async () => {
    const b = new ScriptedBackend();
    b.statusValue = CHECKING;
    const { room } = await setup(b);
    await room.start();
    expect(room.checking).toBe(true);
    expect(room.ready).toBe(false);
    await room.run();
    expect(b.calls).toEqual([]);
    b.emit(EventStatus, READY);
    await tick();
    expect(room.ready).toBe(true);
    expect(b.calls.length).toBe(1);
  });

  it('does not run when the sandbox is unavailable', async () => {
    const b = new ScriptedBackend();
    b.statusValue = { ...READY, ready: false, reason: 'no bwrap', fix: 'sudo apt-get install bubblewrap' };
    const { room } = await setup(b);
    await room.start();
    await tick();
    expect(room.ready).toBe(false);
    expect(room.checking).toBe(false);
    expect(b.calls).toEqual([]);
  });

  it('follows the system language when the settings do not choose one', async () => {
    const b = new ScriptedBackend();
    b.settings = { ...b.settings, lang: '' as never };
    b.statusValue = CHECKING;
    const { room } = await setup(b);
    await room.start();
    expect(room.lang).toBe('zh');
  });
});

describe('The ⭐ Star demo button', () => {
  it('always runs the built-in star, whatever the child typed into the star lesson, and leaves the lesson as it is', async () => {
    const b = new ScriptedBackend({});
    const { room } = await setup(b);
    await room.start();
    expect(room.lessons.current?.path).toBe('1 star.py');
    expect(b.calls).toEqual(['Run star.py en "print(\\"star\\")"']);
    b.emit(EventRunDone, { runId: b.runIds[0], result: result({ stdout: 'star\n' }) });

    // The child makes the star lesson their own and runs it.
    room.editor.setCode('print(1)');
    room.lessons.edited();
    await room.run();
    expect(b.calls.at(-1)).toBe('Run 1 star.py en "print(1)"');
    expect(b.folder.content('1 star.py')).toBe('print(1)');
    b.emit(EventRunDone, { runId: b.runIds.at(-1)!, result: result({ stdout: '1\n' }) });

    await room.loadStarDemo();
    expect(b.calls.at(-1)).toBe('Run star.py en "print(\\"star\\")"');
    expect(room.running).toBe(true);
    // The child's lesson is open and kept, not overwritten by the demo.
    expect(room.lessons.current?.path).toBe('1 star.py');
    expect(room.editor.code).toBe('print(1)');
    expect(b.folder.content('1 star.py')).toBe('print(1)');
  });

  it('runs the built-in star in the editor when the folder has no star lesson, and takes over no run the app started', async () => {
    const b = new ScriptedBackend();
    b.statusValue = { ...READY, demoRunId: 'star-demo' };
    const { room } = await setup(b);
    await room.start();
    b.emit(EventRunDone, { runId: 'star-demo', result: result() });
    room.editor.setCode('print(2)');
    await room.loadStarDemo();
    expect(room.editor.code).toBe('print("star")');
    expect(b.calls.at(-1)).toBe('Run star.py en "print(\\"star\\")"');
    expect(b.runIds).toEqual(['star-demo', 'run-1']);
  });
});

describe('Classroom runs', () => {
  async function started() {
    const b = new ScriptedBackend();
    b.statusValue = CHECKING;
    const s = await setup(b);
    await s.room.start();
    s.b.statusValue = READY;
    s.room.status = READY;
    return s;
  }

  it('shows output, asks for input, echoes it and finishes', async () => {
    const { b, room, frames } = await started();
    room.editor.setCode('name = input("Name? ")\nprint("Hi", name)');
    await room.run();
    expect(room.running).toBe(true);
    expect(room.runId).toBe('run-1');

    b.emit(EventRunOutput, { runId: 'run-1', stream: 'stdout', text: 'Name? ' });
    b.emit(EventRunWaiting, { runId: 'run-1', prompt: 'Name? ' });
    expect(room.waiting).toBe('Name? ');
    frames.frame();
    expect(room.console.openLineId).not.toBeNull();

    await room.sendInput('Ada');
    expect(b.calls).toContain('SendInput run-1 Ada');
    expect(room.waiting).toBeNull();
    b.emit(EventRunInputDone, { runId: 'run-1' });
    b.emit(EventRunOutput, { runId: 'run-1', stream: 'stdout', text: 'Hi Ada\n' });
    b.emit(EventRunOutput, { runId: 'run-1', stream: 'stderr', text: 'warn\n' });
    b.emit(EventRunDone, { runId: 'run-1', result: result({ duration_ms: 1500 }) });

    expect(room.running).toBe(false);
    expect(room.console.text()).toBe('Name? Ada\nHi Ada\nwarn');
    expect(room.console.lines[0].segs.map((s) => s.kind)).toEqual(['stdout', 'input']);
    expect(room.console.lines[2].segs[0].kind).toBe('stderr');
    expect(room.outcome?.key).toBe('doneOk');
    expect(room.outcome?.seconds).toBe('1.50');
  });

  it('batches output into one update per frame', async () => {
    const { b, room, frames } = await started();
    await room.run();
    for (let i = 0; i < 100; i++) b.emit(EventRunOutput, { runId: 'run-1', stream: 'stdout', text: `${i}\n` });
    expect(room.console.lines.length).toBe(0);
    frames.frame();
    expect(room.console.lines.length).toBe(100);
  });

  it('ignores events of other runs', async () => {
    const { b, room } = await started();
    await room.run();
    b.emit(EventRunOutput, { runId: 'old', stream: 'stdout', text: 'stale\n' });
    b.emit(EventRunWaiting, { runId: 'old', prompt: '?' });
    b.emit(EventRunDone, { runId: 'old', result: result({ status: 'timeout' }) });
    expect(room.waiting).toBeNull();
    expect(room.running).toBe(true);
    expect(room.result).toBeNull();
    expect(room.console.text()).toBe('');
  });

  it('keeps early events of the new run and drops the old run’s while Run() is pending', async () => {
    const { b, room } = await started();
    b.answerRuns = false;
    b.ids = ['new'];
    const p = room.run();
    await tick();
    b.emit(EventRunOutput, { runId: 'old', stream: 'stdout', text: 'old\n' });
    b.emit(EventRunOutput, { runId: 'new', stream: 'stdout', text: 'new\n' });
    b.emit(EventRunDone, { runId: 'old', result: result({ status: 'killed', stopped: true }) });
    b.runAnswers[0].resolve();
    await p;
    expect(room.runId).toBe('new');
    expect(room.console.text()).toBe('new');
    expect(room.running).toBe(true);
  });

  it('a second Run restarts: only the newest run counts', async () => {
    const { b, room } = await started();
    b.answerRuns = false;
    b.ids = ['one', 'two'];
    const first = room.run();
    await tick();
    const second = room.run();
    await tick();
    b.runAnswers[1].resolve();
    await second;
    b.runAnswers[0].resolve();
    await first;
    expect(room.runId).toBe('two');
    b.emit(EventRunDone, { runId: 'one', result: result() });
    expect(room.running).toBe(true);
  });

  it('Stop stops the current run and keeps the output', async () => {
    const { b, room, frames } = await started();
    await room.run();
    b.emit(EventRunOutput, { runId: 'run-1', stream: 'stdout', text: '1\n2\n' });
    frames.frame();
    await room.stop();
    expect(b.calls).toContain('Stop run-1');
    b.emit(EventRunDone, { runId: 'run-1', result: result({ status: 'killed', stopped: true, outcome: fakeOutcome('limit.stopped', defaultLimits) }) });
    expect(room.console.text()).toBe('1\n2');
    expect(room.outcome?.key).toBe('limit.stopped');
  });

  it('Stop before Run() answers stops the run once its id is known', async () => {
    const { b, room } = await started();
    b.answerRuns = false;
    b.ids = ['late'];
    const p = room.run();
    await tick();
    await room.stop();
    expect(b.calls).not.toContain('Stop late');
    b.runAnswers[0].resolve();
    await p;
    expect(b.calls).toContain('Stop late');
  });

  it('names the limit that stopped a run', async () => {
    const { b, room } = await started();
    await room.run();
    const limits = { ...defaultLimits, wallSeconds: 7 };
    b.emit(EventRunDone, { runId: 'run-1', result: result({ status: 'timeout', exit_code: 124, limits, outcome: fakeOutcome('limit.timeout', limits) }) });
    expect(room.outcome?.key).toBe('limit.timeout');
    expect(headline(room.lang, room.outcome!)).toBe('⏱️ Stopped: ran longer than 7 s. Maybe a loop never ends?');
    room.lang = 'zh';
    expect(headline(room.lang, room.outcome!)).toBe('⏱️ 已被叫停：运行超过 7 秒。是不是有个循环停不下来？');
  });

  it('a game left alone for the idle time is put away, not said to have run too long', async () => {
    const { b, room } = await started();
    await room.run();
    b.emit(EventRunDone, {
      runId: 'run-1',
      result: result({ status: 'timeout', exit_code: 124, duration_ms: 302_860, limit: 'quiet', outcome: fakeOutcome('limit.quiet', defaultLimits) }),
    });
    expect(room.outcome?.key).toBe('limit.quiet');
    expect(headline('en', room.outcome!)).toBe('😴 The game was put away: no keys or clicks for 5 minutes. Press Run to play again!');
  });

  it('reports a Run that fails to start', async () => {
    const { b, room } = await started();
    b.run = async () => {
      throw 'engine gone';
    };
    await room.run();
    expect(room.running).toBe(false);
    expect(room.runFailure).toBe('engine gone');
  });
});

describe('newRunId', () => {
  it('makes a fresh id the Go app accepts each time', () => {
    const a = newRunId();
    expect(a).toMatch(/^run-[0-9a-f]{32}$/);
    expect(newRunId()).not.toBe(a);
  });
});

describe('Classroom error line', () => {
  it('highlights the error line, and clears it on the next edit and the next run', async () => {
    const b = new ScriptedBackend();
    b.statusValue = CHECKING;
    const { room } = await setup(b);
    await room.start();
    room.status = READY;
    const host = document.createElement('div');
    document.body.append(host);
    cleanups.push(room.editor.attach(host));
    room.editor.setCode('a = 1\nprint(1/0)\nb = 2');
    await room.run();
    const err = { type: 'ZeroDivisionError', message: 'division by zero', line: 2, hint: 'no /0' };
    b.emit(EventRunDone, { runId: 'run-1', result: result({ status: 'error', exit_code: 1, error: err }) });
    flushSync();
    expect(room.editor.errorLine).toBe(2);
    expect(room.editor.hasErrorMark()).toBe(true);
    expect(host.querySelector('.cm-error-line')?.textContent).toBe('print(1/0)');
    expect(room.outcome?.key).toBe('errorTitle');

    await room.run();
    expect(room.editor.errorLine).toBeNull();
    expect(room.editor.hasErrorMark()).toBe(false);

    b.emit(EventRunDone, { runId: 'run-1', result: result({ status: 'error', exit_code: 1, error: err }) });
    expect(room.editor.hasErrorMark()).toBe(true);
    const view = EditorView.findFromDOM(host.querySelector('.cm-editor') as HTMLElement)!;
    view.dispatch({ changes: { from: 0, insert: '# hi\n' } });
    expect(room.editor.hasErrorMark()).toBe(false);
    expect(room.editor.errorLine).toBeNull();
  });
});

describe('Classroom settings', () => {
  it('zooms within bounds and stores the size', async () => {
    const { b, room } = await setup();
    await room.start();
    await room.zoom(1);
    expect(room.editor.fontSize).toBe(20);
    expect(b.saved.at(-1)?.fontSize).toBe(20);
    for (let i = 0; i < 30; i++) await room.zoom(1);
    expect(room.editor.fontSize).toBe(40);
    await room.zoom(0);
    expect(room.editor.fontSize).toBe(18);
  });

  it('switching language stores it and keeps the other settings', async () => {
    const { b, room } = await setup();
    await room.start();
    await room.setLang('zh');
    expect(room.lang).toBe('zh');
    expect(b.saved.at(-1)).toEqual({ lang: 'zh', fontSize: 18, timeoutSeconds: 10, python: '' });
  });
});

describe('Classroom live runs', () => {
  /** A clock the test moves, so the live drawing plays only when told. */
  function testClock() {
    let t = 0;
    let queue: (() => void)[] = [];
    return {
      clock: {
        now: () => t,
        frame(cb: () => void) {
          queue.push(cb);
          return () => (queue = queue.filter((f) => f !== cb));
        },
      },
      advance(ms: number) {
        t += ms;
        const due = queue;
        queue = [];
        due.forEach((f) => f());
      },
    };
  }
  const svg = [{ mime: 'image/svg+xml' as const, data: 'PHN2Zy8+' }];
  const step = (d: number): DrawStep => ({ k: 'move', t: 0, s: 5, x1: 0, y1: 0, x2: 50, y2: 0, c: '#ff0000', w: 1, d });

  async function liveSetup() {
    const b = new ScriptedBackend();
    const c = testClock();
    const frames = manualFrames();
    const room = new Classroom(b, { schedule: frames.schedule, runIds: b.nextRunId, clock: c.clock });
    cleanups.push(room.connect());
    await room.start();
    await tick();
    b.emit(EventRunDone, { runId: 'run-1', result: result() });
    b.ids = ['run-2'];
    await room.run();
    return { b, room, ...c };
  }

  it('shows the frames of its own run only, and the final picture once the drawing has caught up', async () => {
    const { b, room, advance } = await liveSetup();
    b.emit(EventRunLive, { runId: 'run-1', frame: { type: 'draw', from: 0, steps: [step(0)] } });
    expect(room.live.showing).toBe(false);
    b.emit(EventRunLive, { runId: 'run-2', frame: { type: 'draw', from: 0, steps: [step(200)] } });
    expect(room.live.showing).toBe(true);
    b.emit(EventRunDone, { runId: 'run-2', result: result({ images: svg }) });
    expect(room.running).toBe(false);
    expect(room.drawing.svg).toBe('PHN2Zy8+');
    advance(100);
    expect(room.live.showing).toBe(true);
    advance(150);
    expect(room.live.showing).toBe(false);
  });

  it('skip to the end jumps to the final picture after the run, to the latest drawing before', async () => {
    const { b, room, advance } = await liveSetup();
    b.emit(EventRunLive, { runId: 'run-2', frame: { type: 'draw', from: 0, steps: [step(5000), step(5000)] } });
    advance(10);
    room.skipToEnd();
    advance(1);
    expect(room.live.scene.items).toHaveLength(2);
    expect(room.live.showing).toBe(true);
    b.emit(EventRunLive, { runId: 'run-2', frame: { type: 'draw', from: 2, steps: [step(5000)] } });
    b.emit(EventRunDone, { runId: 'run-2', result: result({ images: svg }) });
    room.skipToEnd();
    expect(room.live.showing).toBe(false);
  });

  it('sends keys after listen() and dialog answers for its run, and the dialog closes when the run is done', async () => {
    const { b, room } = await liveSetup();
    b.emit(EventRunLive, { runId: 'run-2', frame: { type: 'listen' } });
    expect(room.live.key({ key: 'ArrowRight', code: 'ArrowRight' }, true)).toBe(true);
    b.emit(EventRunLive, { runId: 'run-2', frame: { type: 'dialog', kind: 'text', title: 'Hi', prompt: 'Name?' } });
    room.live.answer('小明');
    b.emit(EventRunLive, { runId: 'run-2', frame: { type: 'dialog', kind: 'text', title: 'Hi', prompt: 'Again?' } });
    b.emit(EventRunDone, { runId: 'run-2', result: result() });
    await tick();
    expect(room.live.dialog).toBeNull();
    expect(room.live.keysFocused).toBe(false);
    expect(b.calls.filter((c) => c.startsWith('SendEvent'))).toEqual([
      'SendEvent run-2 {"type":"key","key":"Right","down":true}',
      'SendEvent run-2 {"type":"answer","text":"小明"}',
    ]);
  });

  it('watch again replays the steps the live run drew, from the window: the result carries only the picture', async () => {
    const { b, room } = await liveSetup();
    expect(room.drawing.canReplay).toBe(false);
    b.emit(EventRunLive, { runId: 'run-2', frame: { type: 'screen', width: 300, height: 200, bg: '#000080', scale: [1, 1], view: [-150, -100, 300, 200], title: '' } });
    b.emit(EventRunLive, { runId: 'run-2', frame: { type: 'draw', from: 0, steps: [step(100), step(50)] } });
    b.emit(EventRunDone, { runId: 'run-2', result: result({ images: svg, drawing: null }) });
    expect(room.drawing.svg).toBe('PHN2Zy8+');
    expect(room.drawing.canReplay).toBe(true);
    expect(room.drawing.drawing).toMatchObject({ width: 300, height: 200, bg: '#000080', view: [-150, -100, 300, 200] });
    expect(room.drawing.drawing?.steps).toEqual([step(100), step(50)]);
    // Each step replays for the time the program spent on it.
    expect(Player.replay(room.drawing.drawing!).end).toBe(150);
    room.drawing.startReplay();
    expect(room.drawing.replaying).toBe(true);
  });

  it('a live run that drew nothing, or lost a frame, offers no watch again', async () => {
    const { b, room } = await liveSetup();
    b.emit(EventRunDone, { runId: 'run-2', result: result({ images: svg }) });
    expect(room.drawing.canReplay).toBe(false);
    b.ids = ['run-3'];
    await room.run();
    b.emit(EventRunLive, { runId: 'run-3', frame: { type: 'draw', from: 0, steps: [step(0)] } });
    b.emit(EventRunLive, { runId: 'run-3', frame: { type: 'draw', from: 5, steps: [step(0)] } });
    b.emit(EventRunDone, { runId: 'run-3', result: result({ images: svg }) });
    expect(room.drawing.canReplay).toBe(false);
  });

  it('a run shown from elsewhere (a pack check) replays its own drawing, not the last live run’s', async () => {
    const { b, room } = await liveSetup();
    b.emit(EventRunLive, { runId: 'run-2', frame: { type: 'draw', from: 0, steps: [step(100)] } });
    b.emit(EventRunDone, { runId: 'run-2', result: result({ images: svg }) });
    const checked: Drawing = { width: 400, height: 400, view: [-200, -200, 400, 400], bg: '#ffffff', steps: [step(0), step(0), step(0)], turtles: [], truncated: true };
    room.showResult(result({ images: svg, drawing: checked }));
    expect(room.drawing.drawing?.steps).toHaveLength(3);
    expect(room.drawing.truncated).toBe(true);
    room.showResult(result({ images: svg }));
    expect(room.drawing.canReplay).toBe(false);
  });

  it('a new run starts with a clean live drawing', async () => {
    const { b, room } = await liveSetup();
    b.emit(EventRunLive, { runId: 'run-2', frame: { type: 'listen' } });
    b.emit(EventRunLive, { runId: 'run-2', frame: { type: 'draw', from: 0, steps: [step(0)] } });
    b.ids = ['run-3'];
    await room.run();
    expect(room.live.runId).toBe('run-3');
    expect(room.live.showing).toBe(false);
    expect(room.live.listened).toBe(false);
    expect(room.live.steps).toBe(0);
  });
});
