import { afterEach, describe, expect, it } from 'vitest';
import { flushSync, mount, unmount } from 'svelte';
import TaskPane from './TaskPane.svelte';
import RunBar from './RunBar.svelte';
import { Classroom } from '../lib/classroom.svelte';
import { createFakeBackend } from '../testing/fakeBackend';
import { EventCheckProgress } from '../lib/events';
import type { CheckOutcome, CheckRequest } from '../lib/backend';

const settle = () => new Promise((r) => setTimeout(r, 0));
const SQUARE = 'import turtle\nt = turtle.Turtle()\nfor i in range(4):\n    t.forward(100)\n    t.left(90)\n';

let cleanups: (() => void)[] = [];
afterEach(() => {
  cleanups.forEach((c) => c());
  cleanups = [];
});

/** A classroom on a pack lesson whose check the test answers, with the task panel and the run bar shown. */
async function checking(lang: 'en' | 'zh' = 'en') {
  const backend = createFakeBackend({ checkingMs: 1_000_000, lang, packImported: true });
  const room = new Classroom(backend, { timers: { set: () => 0, clear: () => {} }, runIds: () => 'check-7' });
  cleanups.push(room.connect());
  await room.start();
  await room.lessons.open('形状练习 Shapes/01-square.py');
  await settle();
  const calls: CheckRequest[] = [];
  let answer: (o: CheckOutcome) => void = () => {};
  backend.checkLesson = (req) => {
    calls.push(req);
    return new Promise((r) => (answer = r));
  };
  const stops: string[] = [];
  backend.stop = async (id) => {
    stops.push(id);
  };
  const target = document.createElement('div');
  document.body.append(target);
  const pane = mount(TaskPane, { target, props: { room } });
  const bar = mount(RunBar, { target, props: { room } });
  cleanups.push(() => (unmount(pane), unmount(bar), target.remove()));
  const done = room.packs.check(SQUARE);
  await settle();
  flushSync();
  const progress = (run: number, runs: number) => {
    backend.emit(EventCheckProgress, { runId: 'check-7', run, runs, checks: [run - 1] });
    flushSync();
  };
  const label = () => target.querySelector('button.check')?.textContent?.trim();
  const stopButton = () => target.querySelector<HTMLButtonElement>('button.stop')!;
  return { room, calls, stops, progress, label, stopButton, done, target, answer: (o: CheckOutcome) => answer(o) };
}

const stopped = (lang: 'en' | 'zh'): CheckOutcome => ({
  report: {
    exercise: '01-square',
    passed: false,
    ended: 'stopped',
    note: lang === 'en' ? '✋ The checks were stopped, so these were not checked: 2, 3.' : '✋ 检查被叫停了，这几项没有检查：第 2、3 项。',
    budget_seconds: 60,
    results: [
      { index: 0, type: 'turtle', ok: true },
      { index: 1, type: 'source', ok: false, not_run: true, detail: '✋ Stopped: not checked.' },
      { index: 2, type: 'turtle', ok: false, not_run: true, detail: '✋ Stopped: not checked.' },
    ],
  },
  progress: { solved: false, attempts: 0, stars: 0, hints_shown: 0 },
});

describe('A check in the window', () => {
  it('says which run is going, 1 to N, in zh and en', async () => {
    const en = await checking('en');
    expect(en.calls[0].runId).toBe('check-7');
    expect(en.label()).toBe('checking…');
    for (const n of [1, 2, 3]) {
      en.progress(n, 3);
      expect(en.label()).toBe(`checking ${n} of 3…`);
    }
    en.answer(stopped('en'));
    await en.done;
    flushSync();
    expect(en.label()).toBe('✅ Check my answer');

    const zh = await checking('zh');
    zh.progress(2, 5);
    expect(zh.label()).toBe('正在检查 第 2 个，共 5 个…');
    zh.answer(stopped('zh'));
    await zh.done;
  });

  it('is stopped by Stop as a run is, and shows which checks did not run', async () => {
    const c = await checking('en');
    expect(c.stopButton().disabled).toBe(false);
    // Stop before the app has the check waits for its first run to start.
    c.stopButton().click();
    await settle();
    expect(c.stops).toEqual([]);
    c.progress(1, 3);
    expect(c.stops).toEqual(['check-7']);
    c.answer(stopped('en'));
    await c.done;
    flushSync();
    expect(c.stopButton().disabled).toBe(true);
    expect(c.target.querySelector('.results .note')?.textContent).toBe('✋ The checks were stopped, so these were not checked: 2, 3.');
    const items = [...c.target.querySelectorAll('.results li')].map((li) => li.textContent?.replace(/\s+/g, ' ').trim());
    expect(items[1]).toBe('⏸️ Not checked ✋ Stopped: not checked.');
  });

  it('is stopped by Esc while its run is going', async () => {
    const c = await checking('en');
    c.progress(2, 4);
    await c.room.stop(); // what Esc calls, in the editor and in the window
    expect(c.stops).toEqual(['check-7']);
    c.answer(stopped('en'));
    await c.done;
  });
});
