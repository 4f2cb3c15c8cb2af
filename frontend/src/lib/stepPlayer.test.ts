import { describe, expect, it } from 'vitest';
import type { TraceStep } from './contract.gen';
import { changedNames, CodePoints, codePoints, parseTraceStep, StepRecording, type StepSource } from './stepPlayer';

type Compact = [string, number, string, number, Record<string, string>, number, number, string?];
const EVENT: Record<string, TraceStep['event']> = { l: 'line', c: 'call', r: 'return', e: 'exception' };

/** Steps as the runner's tracer records them (python/kidtrace.py), made into §5 steps as the host does. */
function trace(rows: Compact[]): TraceStep[] {
  return rows.map(([e, line, func, depth, vars, out, draw, extra], i) => {
    const s: TraceStep = { i, event: EVENT[e], line, func, depth, vars, out, draw };
    if (e === 'r') s.value = extra;
    if (e === 'e') s.error = extra;
    return s;
  });
}

// python/kidtrace.py's recording of this program, with "Lily" typed:
//  1 def fact(n):
//  2     if n <= 1:
//  3         return 1
//  4     return n * fact(n - 1)
//  5
//  6 total = 0
//  7 for i in range(3):
//  8     total = total + i
//  9 print("fact", fact(3))
// 10 name = input("Name? ")
// 11 print("Hi", name)
// 12 x = 1 / (total - 3)
const FACT = trace([
  ['l', 1, '<module>', 0, {}, 0, 0],
  ['l', 6, '<module>', 0, {}, 0, 0],
  ['l', 7, '<module>', 0, { total: '0' }, 0, 0],
  ['l', 8, '<module>', 0, { total: '0', i: '0' }, 0, 0],
  ['l', 7, '<module>', 0, { total: '0', i: '0' }, 0, 0],
  ['l', 8, '<module>', 0, { total: '0', i: '1' }, 0, 0],
  ['l', 7, '<module>', 0, { total: '1', i: '1' }, 0, 0],
  ['l', 8, '<module>', 0, { total: '1', i: '2' }, 0, 0],
  ['l', 7, '<module>', 0, { total: '3', i: '2' }, 0, 0],
  ['l', 9, '<module>', 0, { total: '3', i: '2' }, 0, 0],
  ['c', 1, 'fact', 1, { n: '3' }, 0, 0],
  ['l', 2, 'fact', 1, { n: '3' }, 0, 0],
  ['l', 4, 'fact', 1, { n: '3' }, 0, 0],
  ['c', 1, 'fact', 2, { n: '2' }, 0, 0],
  ['l', 2, 'fact', 2, { n: '2' }, 0, 0],
  ['l', 4, 'fact', 2, { n: '2' }, 0, 0],
  ['c', 1, 'fact', 3, { n: '1' }, 0, 0],
  ['l', 2, 'fact', 3, { n: '1' }, 0, 0],
  ['l', 3, 'fact', 3, { n: '1' }, 0, 0],
  ['r', 3, 'fact', 3, { n: '1' }, 0, 0, '1'],
  ['r', 4, 'fact', 2, { n: '2' }, 0, 0, '2'],
  ['r', 4, 'fact', 1, { n: '3' }, 0, 0, '6'],
  ['l', 10, '<module>', 0, { total: '3', i: '2' }, 7, 0],
  ['l', 11, '<module>', 0, { total: '3', i: '2', name: "'Lily'" }, 13, 0],
  ['l', 12, '<module>', 0, { total: '3', i: '2', name: "'Lily'" }, 21, 0],
  ['e', 12, '<module>', 0, { total: '3', i: '2', name: "'Lily'" }, 21, 0, 'ZeroDivisionError'],
]);
const FACT_RUN: StepSource = {
  steps: FACT,
  stdout: 'fact 6\nName? Hi Lily\n',
  stderr: 'Traceback (most recent call last):\n  File "main.py", line 12, in <module>\nZeroDivisionError: division by zero\n',
  answers: [{ at: 13, text: 'Lily', prompted: true }],
  drawSteps: 0,
  error: { type: 'ZeroDivisionError', message: 'division by zero', line: 12, hint: 'You cannot divide by 0!' },
};

// A turtle square's first half: the drawing's steps grow between the lines.
//  1 import turtle / 2 t = turtle.Turtle() / 3 for i in range(2): / 4 t.forward(50) / 5 t.left(90) / 6 print("done")
const TURTLE = trace([
  ['l', 1, '<module>', 0, {}, 0, 0],
  ['l', 2, '<module>', 0, {}, 0, 0],
  ['l', 3, '<module>', 0, { t: '<Turtle object>' }, 0, 2],
  ['l', 4, '<module>', 0, { t: '<Turtle object>', i: '0' }, 0, 2],
  ['l', 5, '<module>', 0, { t: '<Turtle object>', i: '0' }, 0, 3],
  ['l', 3, '<module>', 0, { t: '<Turtle object>', i: '0' }, 0, 4],
  ['l', 4, '<module>', 0, { t: '<Turtle object>', i: '1' }, 0, 4],
  ['l', 5, '<module>', 0, { t: '<Turtle object>', i: '1' }, 0, 5],
  ['l', 3, '<module>', 0, { t: '<Turtle object>', i: '1' }, 0, 6],
  ['l', 6, '<module>', 0, { t: '<Turtle object>', i: '1' }, 0, 6],
]);

// An error two calls deep: 1 def half(x): / 2 return 10 / x / 4 def go(n): / 5 return half(n - 2) / 7 print("start") / 8 go(2)
const UNWIND = trace([
  ['l', 1, '<module>', 0, {}, 0, 0],
  ['l', 4, '<module>', 0, {}, 0, 0],
  ['l', 7, '<module>', 0, {}, 0, 0],
  ['l', 8, '<module>', 0, {}, 6, 0],
  ['c', 4, 'go', 1, { n: '2' }, 6, 0],
  ['l', 5, 'go', 1, { n: '2' }, 6, 0],
  ['c', 1, 'half', 2, { x: '0' }, 6, 0],
  ['l', 2, 'half', 2, { x: '0' }, 6, 0],
  ['e', 2, 'half', 2, { x: '0' }, 6, 0, 'ZeroDivisionError'],
  ['r', 2, 'half', 2, { x: '0' }, 6, 0, 'None'],
  ['e', 5, 'go', 1, { n: '2' }, 6, 0, 'ZeroDivisionError'],
  ['r', 5, 'go', 1, { n: '2' }, 6, 0, 'None'],
  ['e', 8, '<module>', 0, {}, 6, 0, 'ZeroDivisionError'],
]);

const text = (segs: [string, string][]) => segs.map(([k, t]) => (k === 'stdout' ? t : `[${k}:${t}]`)).join('');
const frames = (r: StepRecording, i: number) => r.at(i).frames.map((f) => `${f.func}@${f.line} ${f.vars.map(([k, v]) => `${k}=${v}`).join(',')}`);

describe('StepRecording: the state at each step', () => {
  const rec = new StepRecording(FACT_RUN);

  it('has every traced step and then the end', () => {
    expect(rec.length).toBe(FACT.length + 1);
    expect(rec.at(0)).toMatchObject({ index: 0, kind: 'line', line: 1, out: 0, draw: 0, changed: [] });
    expect(frames(rec, 0)).toEqual(['<module>@1 ']);
  });

  it('marks what the line before changed in a loop', () => {
    expect(rec.at(3).changed).toEqual(['i']); // i = 0 appeared
    expect(rec.at(4).changed).toEqual([]); // back to the for line: nothing changed
    expect(rec.at(5).changed).toEqual(['i']);
    expect(rec.at(6).changed).toEqual(['total']);
    expect(rec.at(8)).toMatchObject({ line: 7, changed: ['total'] });
    expect(frames(rec, 8)).toEqual(['<module>@7 total=3,i=2']);
  });

  it('shows recursion as calls inside calls, each where it stands', () => {
    const call = rec.at(16);
    expect(call).toMatchObject({ kind: 'call', line: 1, changed: ['n'] });
    expect(frames(rec, 16)).toEqual(['<module>@9 total=3,i=2', 'fact@4 n=3', 'fact@4 n=2', 'fact@1 n=1']);
    expect(new Set(call.frames.map((f) => f.id)).size).toBe(4);
    // the same call keeps its id from step to step
    expect(rec.at(18).frames.map((f) => f.id)).toEqual(call.frames.map((f) => f.id));
    expect(rec.at(18)).toMatchObject({ line: 3, changed: [] });
  });

  it('gives what each call returns, and the caller again after it', () => {
    expect(rec.at(19)).toMatchObject({ kind: 'return', line: 3, value: '1' });
    expect(rec.at(19).unwinding).toBeUndefined();
    expect(frames(rec, 20)).toEqual(['<module>@9 total=3,i=2', 'fact@4 n=3', 'fact@4 n=2']);
    expect(rec.at(21)).toMatchObject({ kind: 'return', value: '6' });
    expect(frames(rec, 22)).toEqual(['<module>@10 total=3,i=2']);
    expect(rec.at(23).changed).toEqual(['name']);
  });

  it('shows the output printed before each step, with the answer typed once input() has returned', () => {
    expect(text(rec.outputAt(9))).toBe('');
    expect(text(rec.outputAt(22))).toBe('fact 6\n');
    expect(text(rec.outputAt(23))).toBe('fact 6\nName? [input:Lily\n]');
    expect(text(rec.outputAt(24))).toBe('fact 6\nName? [input:Lily\n]Hi Lily\n');
  });

  it('ends with the error at its line, all the output and the error output', () => {
    const end = rec.at(rec.length - 1);
    expect(end).toMatchObject({ kind: 'error', line: 12, error: 'ZeroDivisionError', out: 21 });
    expect(frames(rec, rec.length - 1)).toEqual(["<module>@12 total=3,i=2,name='Lily'"]);
    expect(text(rec.outputAt(rec.length - 1))).toBe(
      'fact 6\nName? [input:Lily\n]Hi Lily\n[stderr:Traceback (most recent call last):\n  File "main.py", line 12, in <module>\nZeroDivisionError: division by zero\n]',
    );
  });

  it('gives the same state at a step however it was reached: scrubbing back and forth', () => {
    const forward = Array.from({ length: rec.length }, (_, i) => [rec.at(i), rec.outputAt(i)]);
    const order = [25, 3, 16, 16, 0, 26, 12, 20, 1, 23, 19, 8, 22];
    for (const i of order) expect([rec.at(i), rec.outputAt(i)]).toEqual(forward[i]);
    for (let i = rec.length - 1; i >= 0; i--) expect([rec.at(i), rec.outputAt(i)]).toEqual(forward[i]);
    // out of range is held within the recording
    expect(rec.at(-4)).toEqual(forward[0][0]);
    expect(rec.at(1e9)).toEqual(forward[rec.length - 1][0]);
  });
});

describe('StepRecording: an error deep in calls', () => {
  const rec = new StepRecording({
    steps: UNWIND,
    stdout: 'start\n',
    drawSteps: 0,
    error: { type: 'ZeroDivisionError', message: 'division by zero', line: 2, hint: '' },
  });

  it('says the exception where it is raised, and that the calls it leaves return nothing of their own', () => {
    expect(rec.at(8)).toMatchObject({ kind: 'exception', error: 'ZeroDivisionError', line: 2 });
    expect(rec.at(9)).toMatchObject({ kind: 'return', unwinding: true });
    expect(frames(rec, 10)).toEqual(['<module>@8 ', 'go@5 n=2']);
  });

  it('ends inside the call that raised, at the error’s line', () => {
    const end = rec.at(rec.length - 1);
    expect(end).toMatchObject({ kind: 'error', line: 2, error: 'ZeroDivisionError', out: 6 });
    expect(frames(rec, rec.length - 1)).toEqual(['<module>@8 ', 'go@5 n=2', 'half@2 x=0']);
  });
});

describe('StepRecording: a turtle drawing', () => {
  const rec = new StepRecording({ steps: TURTLE, stdout: 'done\n', drawSteps: 7 });

  it('gives the drawing steps made before each step, and all of them at the end', () => {
    expect(Array.from({ length: rec.length }, (_, i) => rec.at(i).draw)).toEqual([0, 0, 2, 2, 3, 4, 4, 5, 6, 6, 7]);
    expect(rec.at(rec.length - 1)).toMatchObject({ kind: 'end', line: null, out: 5 });
    expect(text(rec.outputAt(rec.length - 1))).toBe('done\n');
    expect(text(rec.outputAt(rec.length - 2))).toBe('');
  });

  it('never asks for more drawing or output than the window holds', () => {
    const cut = new StepRecording({ steps: TURTLE, stdout: '', drawSteps: 3 });
    expect(cut.at(8).draw).toBe(3);
    expect(cut.at(10).draw).toBe(3);
  });
});

describe('StepRecording: untrusted and unusual recordings', () => {
  it('drops what is not a step and bounds what is', () => {
    const long = 'x'.repeat(5000);
    const rec = new StepRecording({
      steps: [
        null,
        7,
        { event: 'jump', line: 3 },
        { event: 'line', line: -2, func: 5, depth: 'deep', vars: { a: '1', b: 2, '': '3', [long]: '4', c: long }, out: -1, draw: Number.NaN },
        ['l', 1, '<module>', 0, {}, 0, 0],
      ],
      stdout: '',
      drawSteps: 0,
    });
    expect(rec.length).toBe(2);
    expect(rec.steps[0]).toEqual({ i: 0, event: 'line', line: 0, func: '?', depth: 0, vars: { a: '1', c: 'x'.repeat(200) }, out: 0, draw: 0 });
    expect(rec.at(0).line).toBeNull();
  });

  it('an empty recording still has its end', () => {
    const rec = new StepRecording({ steps: [], stdout: 'hi\n', drawSteps: 0 });
    expect(rec.length).toBe(1);
    expect(rec.at(0)).toMatchObject({ kind: 'end', frames: [], out: 3 });
    expect(text(rec.outputAt(0))).toBe('hi\n');
  });

  it('a recording that begins inside a call, or skips a call, still places every step', () => {
    const rec = new StepRecording({
      steps: trace([
        ['l', 2, 'f', 1, { a: '1' }, 0, 0],
        ['r', 2, 'f', 1, { a: '1' }, 0, 0, '1'],
        ['l', 5, '<module>', 0, {}, 0, 0],
        ['l', 9, 'g', 2, { b: '2' }, 0, 0],
        ['l', 6, '<module>', 0, { y: '2' }, 0, 0],
      ]),
      stdout: '',
      drawSteps: 0,
    });
    expect(frames(rec, 0)).toEqual(['f@2 a=1']);
    expect(frames(rec, 2)).toEqual(['<module>@5 ']);
    expect(frames(rec, 3)).toEqual(['<module>@5 ', 'g@9 b=2']);
    expect(rec.at(4)).toMatchObject({ changed: ['y'] });
  });

  it('a deep recursion is as deep as the recording', () => {
    const rows: Compact[] = [['l', 3, '<module>', 0, {}, 0, 0]];
    for (let d = 1; d <= 500; d++) rows.push(['c', 1, 'down', d, { n: String(d) }, 0, 0]);
    const rec = new StepRecording({ steps: trace(rows), stdout: '', drawSteps: 0 });
    const deepest = rec.at(500);
    expect(deepest.frames.length).toBe(501);
    expect(deepest.frames[500].vars).toEqual([['n', '500']]);
    expect(deepest.frames[1].line).toBe(1);
  });
});

describe('output counted as Python counts characters', () => {
  it('cuts by code points, emoji and all', () => {
    const s = new CodePoints('a🐢b😀c');
    expect(s.length).toBe(5);
    expect(s.slice(0, 2)).toBe('a🐢');
    expect(s.slice(1, 4)).toBe('🐢b😀');
    expect(s.slice(3, 99)).toBe('😀c');
    expect(new CodePoints('你好').slice(1, 2)).toBe('好');
    expect(codePoints('a🐢b😀c')).toBe(5);
    expect(codePoints('你好\n')).toBe(3);
  });

  it('places output and answers by code points', () => {
    const rec = new StepRecording({
      steps: trace([
        ['l', 1, '<module>', 0, {}, 0, 0],
        ['l', 2, '<module>', 0, {}, 2, 0],
        ['l', 3, '<module>', 0, { a: "'x'" }, 2, 0],
      ]),
      stdout: '🐢\n',
      answers: [{ at: 2, text: 'x', prompted: false }],
      drawSteps: 0,
    });
    expect(text(rec.outputAt(1))).toBe('🐢\n');
    // input() with no prompt: the answer shows once the output goes past it, or at the end
    expect(text(rec.outputAt(2))).toBe('🐢\n');
    expect(text(rec.outputAt(3))).toBe('🐢\n[input:x\n]');
  });
});

describe('helpers', () => {
  it('changedNames: new or different values, all of them for a new frame', () => {
    expect(changedNames({ a: '1', b: '2' }, { a: '1', b: '3' })).toEqual(['b']);
    expect(changedNames({ a: '1', c: '2' }, { a: '1' })).toEqual(['c']);
    expect(changedNames({ a: '1' }, null)).toEqual(['a']);
  });

  it('parseTraceStep keeps a return’s value and an exception’s type', () => {
    expect(parseTraceStep({ event: 'return', line: 2, func: 'f', depth: 1, vars: {}, value: '5', out: 0, draw: 0 })?.value).toBe('5');
    expect(parseTraceStep({ event: 'exception', line: 2, func: 'f', depth: 1, vars: {}, error: 'KeyError', out: 0, draw: 0 })?.error).toBe('KeyError');
  });
});
