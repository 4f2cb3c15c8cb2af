import { describe, expect, it } from 'vitest';
import { Classroom } from './classroom.svelte';
import { createFakeBackend, type FakeOptions } from '../testing/fakeBackend';
import { firstOpen, stepAfter } from './packs.svelte';

const settle = () => new Promise((r) => setTimeout(r, 0));

/** A classroom over the fake backend, whose example course has three exercises. */
async function started(opts: FakeOptions = {}) {
  const backend = createFakeBackend({ checkingMs: 1_000_000, lang: 'en', ...opts });
  const room = new Classroom(backend, { timers: { set: () => 0, clear: () => {} } });
  const off = room.connect();
  await room.start();
  return { backend, room, off };
}

const SQUARE = 'import turtle\nt = turtle.Turtle()\nfor i in range(4):\n    t.forward(100)\n    t.left(90)\n';
const step = (id: string, solved = false) => ({ id, title: { zh: id, en: id }, solved, stars: solved ? 3 : 0 });

describe('Where a course goes on', () => {
  it('firstOpen is the first exercise not solved, or the first when all are', () => {
    expect(firstOpen([step('a', true), step('b'), step('c')])?.id).toBe('b');
    expect(firstOpen([step('a', true), step('b', true)])?.id).toBe('a');
    expect(firstOpen([])).toBeNull();
  });

  it('stepAfter is the next exercise in order, none after the last', () => {
    const s = [step('a'), step('b', true), step('c')];
    expect(stepAfter(s, 'a')?.id).toBe('b');
    expect(stepAfter(s, 'c')).toBeNull();
    expect(stepAfter(s, 'x')).toBeNull();
  });
});

describe('The course leads on', () => {
  it('Continue opens the first exercise not solved, not exercise 1', async () => {
    const { room } = await started({ packImported: true });
    await room.lessons.open('形状练习 Shapes/01-square.py');
    await settle();
    await room.packs.check(SQUARE);
    expect(room.packs.outcome?.report.passed).toBe(true);

    await room.packs.openShelf();
    expect(room.packs.shelf?.courses[0].steps.map((s) => s.solved)).toEqual([true, false, false]);
    await room.lessons.open('2 flower.py');
    await room.packs.importCourse('turtle-shapes');
    await settle();
    expect(room.lessons.current?.path).toBe('形状练习 Shapes/02-triangle.py');
    expect(room.packs.exercise?.id).toBe('02-triangle');
  });

  it('a stop on the shelf’s map opens that exercise', async () => {
    const { room } = await started();
    await room.packs.openShelf();
    await room.packs.importCourse('turtle-shapes', '03-big-square');
    await settle();
    expect(room.lessons.current?.path).toBe('形状练习 Shapes/03-big-square.py');
  });

  it('after a success the next exercise is offered and opens; the map shows the new stars', async () => {
    const { room } = await started({ packImported: true });
    await room.lessons.open('形状练习 Shapes/01-square.py');
    await settle();
    expect(room.packs.next?.id).toBe('02-triangle');
    await room.packs.check(SQUARE);
    expect(room.packs.exercise?.steps.map((s) => [s.id, s.solved, s.stars])).toEqual([
      ['01-square', true, 3],
      ['02-triangle', false, 0],
      ['03-big-square', false, 0],
    ]);
    room.console.append('stdout', 'from the square\n');
    await room.packs.goNext();
    await settle();
    expect(room.lessons.current?.path).toBe('形状练习 Shapes/02-triangle.py');
    expect(room.packs.exercise?.id).toBe('02-triangle');
    // The square's output and picture do not stay beside the triangle.
    expect(room.console.text()).toBe('');
    expect(room.packs.outcome).toBeNull();
  });

  it('the last exercise has no next one', async () => {
    const { room } = await started({ packImported: true });
    await room.lessons.open('形状练习 Shapes/03-big-square.py');
    await settle();
    expect(room.packs.exercise?.id).toBe('03-big-square');
    expect(room.packs.next).toBeNull();
  });
});
