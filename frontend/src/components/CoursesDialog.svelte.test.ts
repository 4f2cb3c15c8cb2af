import { afterEach, describe, expect, it } from 'vitest';
import { flushSync, mount, unmount } from 'svelte';
import CoursesDialog from './CoursesDialog.svelte';
import { Classroom } from '../lib/classroom.svelte';
import { createFakeBackend } from '../testing/fakeBackend';

const settle = () => new Promise((r) => setTimeout(r, 0));

let cleanups: (() => void)[] = [];
afterEach(() => {
  cleanups.forEach((c) => c());
  cleanups = [];
});

describe('CoursesDialog', () => {
  it('opened by itself takes the keyboard to itself, none of its buttons, and gives it back on closing', async () => {
    const backend = createFakeBackend({ checkingMs: 1_000_000, lang: 'en', firstStart: true });
    const room = new Classroom(backend, { timers: { set: () => 0, clear: () => {} } });
    cleanups.push(room.connect());
    await room.start();
    const typing = document.createElement('textarea');
    document.body.append(typing);
    typing.focus();
    const target = document.createElement('div');
    document.body.append(target);
    cleanups.push(() => typing.remove(), () => target.remove());

    room.packs.offer();
    const dialog = mount(CoursesDialog, { target, props: { room } });
    flushSync();
    await settle();
    flushSync();
    expect(target.querySelectorAll('button.add').length).toBeGreaterThan(0);
    const focused = document.activeElement;
    expect(focused?.classList.contains('courses-dialog')).toBe(true);
    expect(focused?.closest('button')).toBeNull();

    unmount(dialog);
    expect(document.activeElement).toBe(typing);
  });
});
