import { afterEach, describe, expect, it } from 'vitest';
import { Classroom } from './classroom.svelte';
import { EventRunDone, EventRunLive, EventRunOutput, EventStatus } from './events';
import { CHECKING, READY, result, ScriptedBackend } from '../testing/scriptedBackend';

const svg = [{ mime: 'image/svg+xml' as const, data: 'PHN2Zy8+' }];
const tick = () => new Promise((r) => setTimeout(r, 0));

let cleanups: (() => void)[] = [];
afterEach(() => {
  cleanups.forEach((c) => c());
  cleanups = [];
});

/** A classroom over the fake lessons folder (1 star.py, 2 flower.py, …), started, its star demo finished. */
async function started(b = new ScriptedBackend({})) {
  const flushes: (() => void)[] = [];
  const room = new Classroom(b, { schedule: (f) => void flushes.push(f), runIds: b.nextRunId });
  cleanups.push(room.connect());
  await room.start();
  await tick();
  return { b, room, frame: () => flushes.splice(0).forEach((f) => f()) };
}

describe('Opening a lesson', () => {
  it('clears what the last run printed and drew: the star demo does not stay beside the new code', async () => {
    const { b, room, frame } = await started();
    expect(room.lessons.current?.path).toBe('1 star.py');
    b.emit(EventRunOutput, { runId: b.runIds[0], stream: 'stdout', text: 'star\n' });
    b.emit(EventRunLive, { runId: b.runIds[0], frame: { type: 'draw', from: 0, steps: [{ k: 'move', t: 0, s: 0, x1: 0, y1: 0, x2: 9, y2: 0, c: '#000000', w: 1 }] } });
    b.emit(EventRunDone, { runId: b.runIds[0], result: result({ stdout: 'star\n', images: svg, status: 'error', error: { type: 'NameError', message: 'x', line: 2, hint: '' } }) });
    frame();
    expect(room.console.text()).toBe('star');
    expect(room.drawing.svg).not.toBeNull();
    expect(room.live.showing).toBe(true);
    expect(room.editor.errorLine).toBe(2);

    await room.lessons.open('2 flower.py');
    frame();
    expect(room.console.text()).toBe('');
    expect(room.result).toBeNull();
    expect(room.outcome).toBeNull();
    expect(room.drawing.empty).toBe(true);
    expect(room.live.showing).toBe(false);
    expect(room.editor.errorLine).toBeNull();
  });

  it('reopening the lesson that is open keeps its output', async () => {
    const { b, room, frame } = await started();
    b.emit(EventRunDone, { runId: b.runIds[0], result: result({ stdout: 'star\n', images: svg }) });
    room.console.append('stdout', 'star\n');
    frame();
    await room.lessons.open('1 star.py');
    frame();
    expect(room.console.text()).toBe('star');
    expect(room.drawing.svg).not.toBeNull();
  });

  it('stops a run still going, and nothing more of it shows', async () => {
    const { b, room, frame } = await started();
    b.emit(EventRunDone, { runId: b.runIds[0], result: result() });
    b.ids = ['game'];
    await room.run();
    b.emit(EventRunLive, { runId: 'game', frame: { type: 'listen' } });
    b.emit(EventRunOutput, { runId: 'game', stream: 'stdout', text: 'ready\n' });
    frame();
    expect(room.live.keysFocused).toBe(true);

    await room.lessons.open('2 flower.py');
    expect(b.calls).toContain('Stop game');
    expect(room.running).toBe(false);
    expect(room.live.keysToProgram).toBe(false);
    b.emit(EventRunOutput, { runId: 'game', stream: 'stdout', text: 'late\n' });
    b.emit(EventRunDone, { runId: 'game', result: result({ status: 'killed', stopped: true, images: svg }) });
    frame();
    expect(room.console.text()).toBe('');
    expect(room.result).toBeNull();
    expect(room.drawing.empty).toBe(true);
  });

  it('a run forgotten before Run() answered is stopped once it has', async () => {
    const { b, room } = await started();
    b.emit(EventRunDone, { runId: b.runIds[0], result: result() });
    b.answerRuns = false;
    b.ids = ['slow'];
    const running = room.run();
    await tick();
    await room.lessons.open('2 flower.py');
    expect(b.calls).not.toContain('Stop slow');
    b.runAnswers[0].resolve();
    await running;
    expect(b.calls).toContain('Stop slow');
    expect(room.running).toBe(false);
  });

  it('the lesson of last time, put back at start, keeps the star demo drawing beside it', async () => {
    const b = new ScriptedBackend({ remembered: '2 flower.py' });
    const { room, frame } = await started(b);
    expect(room.lessons.current?.path).toBe('2 flower.py');
    expect(room.running).toBe(true);
    b.emit(EventRunOutput, { runId: b.runIds[0], stream: 'stdout', text: 'star\n' });
    b.emit(EventRunDone, { runId: b.runIds[0], result: result({ stdout: 'star\n', images: svg }) });
    frame();
    expect(room.console.text()).toBe('star');
    expect(room.drawing.svg).not.toBeNull();
  });

  it('a lesson opened before the sandbox is ready: the star demo no longer draws beside it', async () => {
    const b = new ScriptedBackend({});
    b.statusValue = CHECKING;
    const { room } = await started(b);
    await room.lessons.open('2 flower.py');
    b.emit(EventStatus, READY);
    await tick();
    expect(b.calls.filter((c) => c.startsWith('Run '))).toEqual([]);
  });
});
