import { afterEach, describe, expect, it } from 'vitest';
import { flushSync } from 'svelte';
import { EditorView } from '@codemirror/view';
import type { DrawStep, RunRequest } from './backend';
import type { TraceStep } from './contract.gen';
import { Classroom } from './classroom.svelte';
import { EventRunDone, EventRunLive, EventRunOutput, EventRunWaiting } from './events';
import { result, ScriptedBackend } from '../testing/scriptedBackend';

/** The scripted backend, keeping every run request whole. */
class Backend extends ScriptedBackend {
  requests: RunRequest[] = [];
  async run(req: RunRequest) {
    this.requests.push(req);
    return super.run(req);
  }
}

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

const tick = () => new Promise((r) => setTimeout(r, 0));
let cleanups: (() => void)[] = [];
afterEach(() => {
  cleanups.forEach((c) => c());
  cleanups = [];
});

async function setup(settings: Partial<Backend['settings']> = {}) {
  const b = new Backend();
  Object.assign(b.settings, settings);
  const c = testClock();
  const room = new Classroom(b, { schedule: (f) => f(), runIds: b.nextRunId, clock: c.clock });
  cleanups.push(room.connect());
  await room.start();
  await tick();
  // The star demo has run and ended.
  b.emit(EventRunDone, { runId: 'run-1', result: result() });
  b.events = [];
  const host = document.createElement('div');
  document.body.append(host);
  cleanups.push(room.editor.attach(host), () => host.remove());
  return { b, room, host, ...c };
}

const step = (event: TraceStep['event'], line: number, vars: Record<string, string>, out: number, draw: number, extra = {}): TraceStep => ({
  i: 0,
  event,
  line,
  func: '<module>',
  depth: 0,
  vars,
  out,
  draw,
  ...extra,
});
const move = (x2: number, ms: number): DrawStep => ({ k: 'move', t: 0, s: 3, x1: 0, y1: 0, x2, y2: 0, c: '#ff0000', w: 2, ms });

describe('👣 Step by step in the classroom', () => {
  const CODE = 'import turtle\nname = input("Name? ")\nturtle.forward(100)\nprint(10 / 0)';

  it('runs the program traced and unpaced, then plays its recording: line, output, answers and drawing', async () => {
    const { b, room, host } = await setup();
    room.editor.setCode(CODE);
    b.ids = ['run-2'];
    await room.runSteps();
    expect(b.requests.at(-1)).toMatchObject({ runId: 'run-2', code: CODE, trace: true });
    // The recording does not wait for the turtle: its steps are watched after.
    expect(b.events).toEqual([{ type: 'finish' }]);
    expect(room.steps.recording).toBe(true);

    b.emit(EventRunOutput, { runId: 'run-2', stream: 'stdout', text: 'Name? ' });
    b.emit(EventRunWaiting, { runId: 'run-2', prompt: 'Name? ' });
    await room.sendInput('小明');
    b.emit(EventRunLive, { runId: 'run-2', frame: { type: 'draw', from: 0, steps: [move(100, 0)] } });
    const error = { type: 'ZeroDivisionError', message: 'division by zero', line: 4, hint: 'Not by 0!' };
    b.emit(EventRunDone, {
      runId: 'run-2',
      result: result({
        status: 'error',
        stdout: 'Name? ',
        stderr: 'ZeroDivisionError: division by zero\n',
        error,
        trace: {
          steps: [
            step('line', 1, {}, 0, 0),
            step('line', 2, {}, 0, 0),
            step('line', 3, { name: "'小明'" }, 6, 0),
            step('line', 4, { name: "'小明'" }, 6, 1),
            step('exception', 4, { name: "'小明'" }, 6, 1, { error: 'ZeroDivisionError' }),
          ],
          truncated: false,
        },
      }),
    });
    flushSync();
    expect(room.steps.active).toBe(true);
    expect(room.steps.index).toBe(0);
    // The error shows at the recording's end, not over its first step.
    expect(room.editor.hasErrorMark()).toBe(false);
    expect(host.querySelector('.cm-step-line')?.textContent).toBe('import turtle');

    room.steps.forward();
    room.steps.forward();
    flushSync();
    expect(host.querySelector('.cm-step-line')?.textContent).toBe('turtle.forward(100)');
    expect(room.steps.view?.changed).toEqual(['name']);
    expect(room.steps.output).toEqual([
      ['stdout', 'Name? '],
      ['input', '小明\n'],
    ]);
    expect(room.steps.showDrawing()?.scene.items.length).toBe(0);
    room.steps.forward();
    expect(room.steps.showDrawing()?.scene.items.length).toBe(1);

    room.steps.last();
    flushSync();
    expect(room.steps.view).toMatchObject({ kind: 'error', line: 4 });
    expect(host.querySelector('.cm-step-error')?.textContent).toBe('print(10 / 0)');
    room.steps.first();
    expect(room.steps.showDrawing()?.scene.items.length).toBe(0);

    // An edit leaves step by step: the recording is of the code as it ran.
    const view = EditorView.findFromDOM(host.querySelector('.cm-editor') as HTMLElement)!;
    view.dispatch({ changes: { from: 0, insert: '# hi\n' } });
    expect(room.steps.active).toBe(false);
    expect(host.querySelector('.cm-step-line')).toBeNull();
  });

  it('a plain run leaves step by step and asks for no trace', async () => {
    const { b, room } = await setup();
    room.editor.setCode('print(1)');
    b.ids = ['run-2'];
    await room.runSteps();
    b.emit(EventRunDone, { runId: 'run-2', result: result({ stdout: '1\n', trace: { steps: [step('line', 1, {}, 0, 0)], truncated: false } }) });
    expect(room.steps.active).toBe(true);
    b.ids = ['run-3'];
    await room.run();
    expect(room.steps.active).toBe(false);
    expect(b.requests.at(-1)).not.toHaveProperty('trace');
    b.emit(EventRunDone, { runId: 'run-3', result: result({ stdout: '1\n' }) });
    expect(room.steps.active).toBe(false);
  });

  it('says so when the run gave no recording', async () => {
    const { b, room } = await setup();
    b.ids = ['run-2'];
    await room.runSteps();
    b.emit(EventRunDone, { runId: 'run-2', result: result() });
    expect(room.steps.active).toBe(false);
    expect(room.toast?.text).toBe(room.t('stepMissing'));
  });
});

describe('The speed dial in the classroom', () => {
  it('comes from the settings, goes to each run as it starts, and is kept when moved', async () => {
    const { b, room } = await setup({ pace: 4 });
    expect(room.pace).toBe(4);
    b.ids = ['run-2'];
    await room.run();
    expect(b.events).toEqual([{ type: 'pace', speed: 4 }]);

    await room.setPace(0.5);
    expect(room.pace).toBe(0.5);
    expect(b.events.at(-1)).toEqual({ type: 'pace', speed: 0.5 });
    expect(b.saved.at(-1)?.pace).toBe(0.5);
    // A pace between the dial's positions goes to the nearest one.
    await room.setPace(3);
    expect(room.pace).toBe(4);
  });

  it('CPython’s own timing sends nothing; ⏭ finishes now, and holds for the rest of the run', async () => {
    const { b, room, advance } = await setup();
    b.ids = ['run-2'];
    await room.run();
    expect(b.events).toEqual([]);
    b.emit(EventRunLive, { runId: 'run-2', frame: { type: 'draw', from: 0, steps: [move(100, 3000), move(50, 3000)] } });
    advance(1000);
    expect(room.live.scene.items.length).toBe(0);
    room.finishNow();
    expect(b.events).toEqual([{ type: 'finish' }]);
    expect(room.live.hurried).toBe(true);
    advance(16);
    expect(room.live.scene.items.length).toBe(2);
    // Steps the program still sends show at once, whatever time they carry.
    b.emit(EventRunLive, { runId: 'run-2', frame: { type: 'draw', from: 2, steps: [move(80, 3000)] } });
    advance(16);
    expect(room.live.scene.items.length).toBe(3);
    await room.setPace(2);
    expect(b.events).toEqual([{ type: 'finish' }]);
    expect(b.saved.at(-1)?.pace).toBe(2);
  });

  it('retimes what the drawing holds when the dial moves mid-run', async () => {
    const { b, room, advance } = await setup();
    b.ids = ['run-2'];
    await room.run();
    b.emit(EventRunLive, { runId: 'run-2', frame: { type: 'draw', from: 0, steps: [move(100, 1000), move(50, 1000)] } });
    advance(500);
    expect(room.live.scene.items.length).toBe(0);
    // Four times faster: the 1500 ms still to play take 375 (the first step ends at 625, the second at 875).
    await room.setPace(4);
    advance(130);
    expect(room.live.scene.items.length).toBe(1);
    advance(240);
    expect(room.live.scene.items.length).toBe(1);
    advance(10);
    expect(room.live.scene.items.length).toBe(2);
  });
});
