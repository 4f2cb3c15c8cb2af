import { afterEach, describe, expect, it } from 'vitest';
import { flushSync, mount, unmount } from 'svelte';
import TaskPane from './TaskPane.svelte';
import { Classroom } from '../lib/classroom.svelte';
import { MAX_INSTRUCTIONS } from '../lib/markdown';
import { createFakeBackend } from '../testing/fakeBackend';

let cleanups: (() => void)[] = [];
afterEach(() => {
  cleanups.forEach((c) => c());
  cleanups = [];
});

function show(instructions: string) {
  const room = new Classroom(createFakeBackend({ lang: 'en' }), { timers: { set: () => 0, clear: () => {} } });
  room.lang = 'en';
  room.packs.exercise = {
    packTitle: { zh: '', en: '' },
    packFolder: 'p',
    id: '01',
    title: { zh: '', en: '' },
    instructions,
    checks: 1,
    hintsTotal: 0,
    hints: [],
    steps: [],
    progress: { solved: false, attempts: 0, stars: 0, hints_shown: 0 },
  } as never;
  const target = document.createElement('div');
  document.body.append(target);
  const pane = mount(TaskPane, { target, props: { room } });
  cleanups.push(() => unmount(pane), () => target.remove());
  flushSync();
  return { room, target };
}

describe('TaskPane', () => {
  it('shows the start of a hostile text of 300,000 characters and says the rest is left out', () => {
    const { room, target } = show('x * *['.repeat(50_000));
    const md = target.querySelector('.md')!;
    expect(md.textContent!.length).toBeGreaterThan(MAX_INSTRUCTIONS / 2);
    expect(md.textContent!.length).toBeLessThanOrEqual(MAX_INSTRUCTIONS);
    const note = target.querySelector('.cut-note');
    expect(note?.textContent).toBe('✂️ These instructions are long: only the first 50,000 characters are shown here.');
    room.lang = 'zh';
    flushSync();
    expect(target.querySelector('.cut-note')?.textContent).toBe('✂️ 这段说明太长了，这里只显示了前 50,000 个字。');
  });

  it('says nothing of the kind for a lesson of ordinary length', () => {
    const { target } = show('# Step 1\n\nPress **Run**.\n');
    expect(target.querySelector('.md')!.textContent).toBe('Step 1Press Run.');
    expect(target.querySelector('.cut-note')).toBeNull();
  });
});
