import { describe, expect, it } from 'vitest';
import type { RunResult, TraceStep } from './contract.gen';
import { defaultLimits } from './contract.gen';
import type { DrawStep } from './drawingTypes';
import type { StepMark } from './editor.svelte';
import type { Recording } from './player';
import { stepKey, StepState } from './steps.svelte';

/** Timers that fire only when the test says, remembering each delay asked for. */
function manualTimers() {
  let queue: { fn: () => void; ms: number; id: number }[] = [];
  let next = 1;
  return {
    timers: {
      set(fn: () => void, ms: number) {
        queue.push({ fn, ms, id: next });
        return next++;
      },
      clear(id: unknown) {
        queue = queue.filter((t) => t.id !== id);
      },
    },
    /** Fires the timer waiting now; returns the delay it was set for. */
    fire(): number {
      const t = queue.shift();
      if (!t) throw new Error('no timer is waiting');
      t.fn();
      return t.ms;
    },
    waiting: () => queue.length,
  };
}

const line = (l: number, vars: Record<string, string>, out: number, draw: number, depth = 0, func = '<module>'): TraceStep => ({
  i: 0,
  event: 'line',
  line: l,
  func,
  depth,
  vars,
  out,
  draw,
});

// 1 import turtle / 2 t = turtle.Turtle() / 3 for i in range(3): / 4 t.forward(50) / 5 print(i) / 6 t.left(120)
const STEPS: TraceStep[] = [
  line(1, {}, 0, 0),
  line(2, {}, 0, 0),
  line(3, { t: '<Turtle object>' }, 0, 1),
  line(4, { t: '<Turtle object>', i: '0' }, 0, 1),
  line(5, { t: '<Turtle object>', i: '0' }, 0, 2),
  line(6, { t: '<Turtle object>', i: '0' }, 2, 2),
  line(3, { t: '<Turtle object>', i: '0' }, 2, 3),
  line(4, { t: '<Turtle object>', i: '1' }, 2, 3),
  line(5, { t: '<Turtle object>', i: '1' }, 2, 4),
  line(6, { t: '<Turtle object>', i: '1' }, 4, 4),
  line(3, { t: '<Turtle object>', i: '1' }, 4, 5),
].map((s, i) => ({ ...s, i }));

const DRAW: DrawStep[] = [
  { k: 'look', t: 0, s: 3, shape: 'classic', visible: true, size: 1 },
  { k: 'move', t: 0, s: 3, x1: 0, y1: 0, x2: 50, y2: 0, c: '#ff0000', w: 2 },
  { k: 'turn', t: 0, s: 3, h: 120 },
  { k: 'move', t: 0, s: 3, x1: 50, y1: 0, x2: 25, y2: 43.3, c: '#ff0000', w: 2 },
  { k: 'turn', t: 0, s: 3, h: 240 },
];
const RECORDING: Recording = { width: 400, height: 400, view: [-200, -200, 400, 400], bg: '#ffffff', steps: DRAW };

function result(extra: Partial<RunResult> = {}): RunResult {
  return {
    status: 'ok',
    exit_code: 0,
    duration_ms: 10,
    stdout: '0\n1\n',
    stderr: '',
    truncated: false,
    error: null,
    images: null,
    limits: defaultLimits,
    trace: { steps: STEPS, truncated: false },
    ...extra,
  };
}

function setup(pace = 1) {
  const marks: (StepMark | null)[] = [];
  const t = manualTimers();
  const speed = { pace };
  const steps = new StepState({ editor: { showStep: (m) => marks.push(m) }, timers: t.timers, pace: () => speed.pace });
  return { steps, marks, speed, ...t };
}

/** Everything the window shows at the step it is at: line, names, changes, calls, output and the drawing's items. */
function shown(steps: StepState, marks: (StepMark | null)[]) {
  const player = steps.showDrawing();
  return {
    mark: marks.at(-1),
    view: steps.view,
    output: steps.output,
    items: player ? player.scene.items.length : -1,
    drawn: player ? JSON.stringify(player.scene.items) : '',
    turtle: player ? JSON.stringify([...player.scene.looks]) : '',
  };
}

describe('StepState: a recording played back', () => {
  it('opens at the first step, with the line about to run highlighted', () => {
    const { steps, marks } = setup();
    steps.begin();
    expect(steps.open(result(), RECORDING)).toBe(true);
    expect(steps.active).toBe(true);
    expect(steps.index).toBe(0);
    expect(steps.length).toBe(STEPS.length + 1);
    expect(marks.at(-1)).toEqual({ line: 1, error: false });
  });

  it('steps forward and back: line, names, changes, output and drawing go together', () => {
    const { steps, marks } = setup();
    steps.begin();
    steps.open(result(), RECORDING);
    for (let k = 0; k < 5; k++) steps.forward();
    expect(steps.index).toBe(5);
    expect(marks.at(-1)).toEqual({ line: 6, error: false });
    expect(steps.view?.frames.at(-1)?.vars).toEqual([
      ['t', '<Turtle object>'],
      ['i', '0'],
    ]);
    expect(steps.output).toEqual([['stdout', '0\n']]);
    expect(steps.view?.draw).toBe(2);
    const at5 = shown(steps, marks);
    expect(at5.items).toBe(1); // the first red line; the look step places the turtle
    steps.forward();
    steps.forward();
    expect(steps.view?.changed).toEqual(['i']);
    steps.back();
    steps.back();
    expect(shown(steps, marks)).toEqual(at5);
  });

  it('gives identical states at a step however the scrubber reached it', () => {
    const { steps, marks } = setup();
    steps.begin();
    steps.open(result(), RECORDING);
    const states: ReturnType<typeof shown>[] = [];
    for (let i = 0; i < steps.length; i++) {
      steps.seek(i);
      states.push(shown(steps, marks));
    }
    for (const i of [11, 0, 7, 3, 3, 10, 1, 9, 4, 11, 2, 8, 5, 6, 0]) {
      steps.seek(i);
      expect(shown(steps, marks), `step ${i}`).toEqual(states[i]);
    }
    // The end shows everything: all output, the whole drawing, no line.
    expect(states[11]).toMatchObject({ mark: null, output: [['stdout', '0\n1\n']], items: 2 });
    expect(states[11].view?.kind).toBe('end');
    steps.first();
    expect(steps.index).toBe(0);
    steps.last();
    expect(steps.index).toBe(11);
  });

  it('plays at the dial’s pace, reading the dial at every step, and stops at the end', () => {
    const { steps, speed, fire, waiting } = setup(1);
    steps.begin();
    steps.open(result(), RECORDING);
    steps.play();
    expect(steps.playing).toBe(true);
    expect(fire()).toBe(600);
    expect(steps.index).toBe(1);
    speed.pace = 4;
    expect(fire()).toBe(600); // set before the dial moved
    expect(fire()).toBe(150);
    expect(steps.index).toBe(3);
    speed.pace = 0.25;
    while (waiting()) fire();
    expect(steps.index).toBe(11);
    expect(steps.playing).toBe(false);
    // ▶ at the end plays from the start again
    steps.play();
    expect(steps.index).toBe(0);
    expect(fire()).toBe(2400);
  });

  it('pauses, and a step by hand pauses too', () => {
    const { steps, fire, waiting } = setup();
    steps.begin();
    steps.open(result(), RECORDING);
    steps.toggle();
    fire();
    steps.toggle();
    expect(steps.playing).toBe(false);
    expect(waiting()).toBe(0);
    steps.play();
    steps.back();
    expect(steps.playing).toBe(false);
    expect(waiting()).toBe(0);
    expect(steps.index).toBe(0);
  });

  it('leaves: no line highlighted, nothing plays', () => {
    const { steps, marks, waiting } = setup();
    steps.begin();
    steps.open(result(), RECORDING);
    steps.play();
    steps.act('leave');
    expect(steps.active).toBe(false);
    expect(steps.playing).toBe(false);
    expect(waiting()).toBe(0);
    expect(marks.at(-1)).toBeNull();
  });

  it('ends on the error, at its line, in the error’s colours', () => {
    const { steps, marks } = setup();
    steps.begin();
    steps.open(
      result({
        status: 'error',
        error: { type: 'NameError', message: "name 'x' is not defined", line: 4, hint: 'x has no value yet' },
        trace: {
          steps: [line(1, {}, 0, 0), line(4, {}, 0, 0), { ...line(4, {}, 0, 0), event: 'exception', error: 'NameError' }],
          truncated: false,
        },
      }),
      null,
    );
    steps.last();
    expect(marks.at(-1)).toEqual({ line: 4, error: true });
    expect(steps.view).toMatchObject({ kind: 'error', error: 'NameError' });
    expect(steps.showDrawing()).toBeNull();
  });

  it('keeps the answers typed during the recording where the output was', () => {
    const { steps } = setup();
    steps.begin();
    steps.heard('stdout', 'Name? ');
    steps.heard('stderr', 'warning\n');
    steps.typed('小明', 'Name? ');
    steps.heard('stdout', 'Hi 小明\n');
    steps.open(
      result({
        stdout: 'Name? Hi 小明\n',
        trace: { steps: [line(1, {}, 0, 0), line(2, { name: "'小明'" }, 6, 0), line(3, { name: "'小明'" }, 13, 0)], truncated: false },
      }),
      null,
    );
    steps.seek(1);
    expect(steps.output).toEqual([
      ['stdout', 'Name? '],
      ['input', '小明\n'],
    ]);
    steps.seek(0);
    expect(steps.output).toEqual([]);
  });

  it('says when a traced run gave no recording, and opens nothing then', () => {
    const { steps } = setup();
    steps.begin();
    expect(steps.open(result({ trace: null }), null)).toBe(false);
    expect(steps.missing).toBe(true);
    expect(steps.active).toBe(false);
    // a run that was not traced does not open step by step
    expect(steps.open(result(), null)).toBe(false);
  });
});

describe('stepKey', () => {
  it.each([
    [{ key: 'ArrowLeft' }, 'back'],
    [{ key: 'ArrowRight' }, 'forward'],
    [{ key: ' ' }, 'toggle'],
    [{ key: 'Home' }, 'first'],
    [{ key: 'End' }, 'last'],
    [{ key: 'Escape' }, 'leave'],
    [{ key: 'ArrowRight', ctrlKey: true }, null],
    [{ key: 'a' }, null],
    [{ key: 'Enter' }, null],
  ])('%j → %s', (e, want) => {
    expect(stepKey(e)).toBe(want);
  });
});
