import { describe, expect, it } from 'vitest';
import { Classroom, OFFER_DELAY_MS, OFFER_IDLE_MS, STAR_LESSON } from './classroom.svelte';
import { CloseKey, EventClosing, EventLessonChanged, EventLessonsChanged, EventStatus } from './events';
import type { SaveResult } from './backend';
import { checkingStatus, createFakeBackend, STAR_DEMO, type FakeOptions } from '../testing/fakeBackend';
import { nodeLabel, type Timers } from './lessons.svelte';

/** Timers the test fires by hand, so autosave happens when the test says. */
function manualTimers() {
  let next = 1;
  const pending = new Map<number, { fn: () => void; ms: number }>();
  const timers: Timers = {
    set: (fn, ms) => {
      const id = next++;
      pending.set(id, { fn, ms });
      return id;
    },
    clear: (id) => void pending.delete(id as number),
  };
  return {
    timers,
    fireAll() {
      const fns = [...pending.values()];
      pending.clear();
      fns.forEach((p) => p.fn());
    },
    /** The delays of the timers set and not yet fired or cleared. */
    waiting: () => [...pending.values()].map((p) => p.ms),
  };
}

const settle = () => new Promise((r) => setTimeout(r, 0));

function deferred<T>() {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

async function started(opts: FakeOptions = {}) {
  const backend = createFakeBackend({ checkingMs: 1_000_000, ...opts });
  const t = manualTimers();
  const room = new Classroom(backend, { timers: t.timers });
  const off = room.connect();
  await room.start();
  return { backend, room, t, off };
}

/** Types into the editor as the child would: a change the editor reports as an edit. */
function type(room: Classroom, code: string) {
  room.editor.setCode(code);
  room.lessons.edited();
}

describe('LessonsState', () => {
  it('opens the star lesson on a first start and runs it once the sandbox is ready', async () => {
    const { backend, room } = await started();
    expect(room.lessons.current?.path).toBe(STAR_LESSON);
    expect(room.editor.code).toBe(STAR_DEMO);
    const runs: string[] = [];
    const run = backend.run;
    backend.run = async (req) => (runs.push(`${req.name} ${req.lesson ?? '-'}`), run(req));
    backend.emit(EventStatus, { ...checkingStatus(), ready: true, checking: false, python: 'p' });
    await settle();
    // The built-in star program runs, not the lesson file (which a child may have changed).
    expect(runs).toEqual(['star.py -']);
  });

  it('restores the lesson open last time without running it, and still shows the star at start', async () => {
    const { backend, room } = await started({ remembered: '2 flower.py' });
    expect(room.lessons.current?.path).toBe('2 flower.py');
    expect(room.editor.code).toContain('range(36)');
    const runs: { code: string; name: string; lesson?: string }[] = [];
    const run = backend.run;
    backend.run = async (req) => (runs.push(req), run(req));
    backend.emit(EventStatus, { ...checkingStatus(), ready: true, checking: false, python: 'p' });
    await settle();
    // The built-in star program ran; the child's lesson was neither run nor changed.
    expect(runs.map((r) => [r.code, r.name, r.lesson])).toEqual([[STAR_DEMO, 'star.py', undefined]]);
    expect(room.editor.code).toContain('range(36)');
    expect(room.lessons.current?.path).toBe('2 flower.py');
  });

  it('autosaves after typing stops, from the version it read', async () => {
    const { backend, room, t } = await started();
    type(room, 'print("mine")\n');
    expect(room.lessons.dirty).toBe(true);
    expect(backend.folder.isDirty(STAR_LESSON)).toBe(true);
    expect(backend.folder.content(STAR_LESSON)).toBe(STAR_DEMO);
    t.fireAll();
    await room.lessons.flush();
    expect(backend.folder.content(STAR_LESSON)).toBe('print("mine")\n');
    expect(room.lessons.dirty).toBe(false);
    await settle();
    expect(backend.folder.isDirty(STAR_LESSON)).toBe(false);
  });

  it('saves before switching lessons', async () => {
    const { backend, room } = await started();
    type(room, 'print(1)\n');
    await room.lessons.open('3 你好.py');
    expect(backend.folder.content(STAR_LESSON)).toBe('print(1)\n');
    expect(room.editor.code).toContain('你叫什么名字');
  });

  it('saves what is typed while the next lesson is being opened, before the editor shows it', async () => {
    const { backend, room } = await started();
    const opening = deferred<void>();
    const open = backend.openLesson;
    backend.openLesson = async (p) => (await opening.promise, open(p));
    type(room, 'print(1)\n');
    const switched = room.lessons.open('3 你好.py');
    await settle();
    type(room, 'print(1)\nprint(2)\n');
    opening.resolve();
    await switched;
    expect(backend.folder.content(STAR_LESSON)).toBe('print(1)\nprint(2)\n');
    expect(room.editor.code).toContain('你叫什么名字');
  });

  it('hands the unsaved text over when the window closes, once the keys on their way are in', async () => {
    const { backend, room, t } = await started();
    const closeReady = backend.closeReady;
    const answers: [string, boolean][] = [];
    backend.closeReady = async (d, final) => (answers.push([d.content, final]), closeReady(d, final));
    type(room, 'print("typed")\n');
    expect(backend.folder.askToClose()).toBe(true);
    backend.emit(EventClosing, { afterKey: CloseKey });
    await settle();
    // Keys that were on their way before the close come in after the event, each answered, then the close key.
    expect(backend.folder.closed()).toBe(false);
    room.keyDown(new KeyboardEvent('keydown', { key: ')' }));
    const before = t.waiting().length;
    type(room, 'print("typed just before closing")\n');
    expect(t.waiting().length).toBe(before); // no autosave to race the text shutdown writes
    await settle();
    expect(room.lessons.keyArrived({ key: 'Unidentified', keyCode: 229 })).toBe(false); // an input method's key
    // As WebKitGTK gives the key the app presses: F24's code, named "Unidentified".
    const key = new KeyboardEvent('keydown', { key: 'Unidentified', keyCode: 135, cancelable: true });
    room.keyDown(key);
    expect(key.defaultPrevented).toBe(true);
    await settle();
    expect(backend.folder.closed()).toBe(true);
    expect(answers).toEqual([
      ['print("typed")\n', false],
      ['print("typed just before closing")\n', false],
      ['print("typed just before closing")\n', true],
    ]);
    expect(backend.folder.content(STAR_LESSON)).toBe('print("typed just before closing")\n');
    expect(backend.folder.content('1 star (from disk).py')).toBeUndefined();
  });

  it('answers once, finally, when the close key came before the event, or when there is no key to wait for', async () => {
    for (const keyFirst of [true, false]) {
      const { backend, room } = await started();
      const closeReady = backend.closeReady;
      const answers: boolean[] = [];
      backend.closeReady = async (d, final) => (answers.push(final), closeReady(d, final));
      type(room, 'print(1)\n');
      backend.folder.askToClose();
      if (keyFirst) {
        room.keyDown(new KeyboardEvent('keydown', { key: CloseKey }));
        backend.emit(EventClosing, { afterKey: CloseKey });
      } else {
        backend.emit(EventClosing, {});
      }
      await settle();
      expect(answers).toEqual([true]);
      expect(backend.folder.content(STAR_LESSON)).toBe('print(1)\n');
    }
  });

  it('answers a close with nothing when all is saved', async () => {
    const { backend, room, t } = await started();
    type(room, 'print(1)\n');
    t.fireAll();
    await room.lessons.flush();
    const closeReady = backend.closeReady;
    const answers: string[] = [];
    backend.closeReady = async (d, final) => (answers.push(d.path), closeReady(d, final));
    backend.folder.askToClose();
    backend.emit(EventClosing, {});
    await settle();
    expect(answers).toEqual(['']);
    expect(backend.folder.content(STAR_LESSON)).toBe('print(1)\n');
  });

  it('lets a save under way answer before handing over the text, so it is not taken for a change elsewhere', async () => {
    const { backend, room } = await started();
    const saving = deferred<void>();
    const save = backend.saveLesson;
    backend.saveLesson = async (req): Promise<SaveResult> => (await saving.promise, save(req));
    type(room, 'print(1)\n');
    const flushed = room.lessons.flush();
    await settle();
    type(room, 'print(1)\nprint(2)\n');
    backend.folder.askToClose();
    backend.emit(EventClosing, {});
    await settle();
    expect(backend.folder.closed()).toBe(false);
    saving.resolve();
    await flushed;
    await settle();
    expect(backend.folder.closed()).toBe(true);
    expect(backend.folder.content(STAR_LESSON)).toBe('print(1)\nprint(2)\n');
    expect(backend.folder.content('1 star (from disk).py')).toBeUndefined();
  });

  it('keeps both versions when the file changed elsewhere, and says so kindly', async () => {
    const { backend, room } = await started({ lang: 'en' });
    backend.folder.changeOnDisk(STAR_LESSON, 'print("from the other editor")\n');
    type(room, 'print("mine")\n');
    await room.lessons.flush();
    expect(backend.folder.content(STAR_LESSON)).toBe('print("mine")\n');
    expect(backend.folder.content('1 star (from disk).py')).toBe('print("from the other editor")\n');
    expect(room.toast?.text).toContain('1 star (from disk).py');
    expect(room.toast?.tone).toBe('ok');
  });

  it('deletes with an Undo that brings the lesson back', async () => {
    const { room } = await started({ lang: 'zh' });
    expect(await room.lessons.delete('2 flower.py')).toBe(true);
    expect(room.lessons.paths).not.toContain('2 flower.py');
    const undo = room.toast?.action;
    expect(undo?.label).toBe('↩ 撤销');
    undo!.run();
    await settle();
    await settle();
    expect(room.lessons.paths).toContain('2 flower.py');
  });

  it('deleting the open lesson empties the editor and Undo reopens it', async () => {
    const { room } = await started();
    await room.lessons.delete(STAR_LESSON);
    expect(room.lessons.current).toBeNull();
    expect(room.editor.code).toBe('');
    room.toast!.action!.run();
    for (let i = 0; i < 5; i++) await settle();
    expect(room.lessons.current?.path).toBe(STAR_LESSON);
  });

  it('creates, renames and duplicates lessons', async () => {
    const { room } = await started();
    await room.lessons.newGroup('', '第2周');
    await room.lessons.newLesson('第2周', '乌龟');
    expect(room.lessons.current?.path).toBe('第2周/乌龟.py');
    await room.lessons.rename('第2周/乌龟.py', '海龟');
    expect(room.lessons.current?.path).toBe('第2周/海龟.py');
    await room.lessons.duplicate('第2周/海龟.py');
    expect(room.lessons.current?.path).toBe('第2周/海龟 (2).py');
    expect(await room.lessons.newLesson('', 'a/b')).toBe(false);
    expect(room.toast?.tone).toBe('error');
  });

  it('reloads on a change from outside, or keeps the child’s edits', async () => {
    const { backend, room } = await started({ lang: 'en' });
    const lesson = { ...room.lessons.current!, content: 'print("new")\n', version: 'v99' };
    backend.emit(EventLessonChanged, { path: STAR_LESSON, kind: 'reloaded', lesson, message: { zh: '已重新载入', en: 'reloaded' } });
    await settle();
    expect(room.editor.code).toBe('print("new")\n');
    expect(room.toast?.text).toBe('reloaded');

    backend.emit(EventLessonChanged, { path: STAR_LESSON, kind: 'deleted', message: { zh: '', en: '' } });
    await settle();
    expect(room.lessons.dirty).toBe(true);
    expect(room.lessons.current?.version).toBe('');
    expect(room.editor.code).toBe('print("new")\n');
  });

  it('follows a rename from outside, keeping the child’s edits, and saves under the new name', async () => {
    const { backend, room, t } = await started({ lang: 'en' });
    type(room, 'print("mine")\n');
    const version = backend.folder.renameOnDisk(STAR_LESSON, '第1周/star.py');
    backend.emit(EventLessonChanged, { path: STAR_LESSON, kind: 'renamed', newPath: '第1周/star.py', version, message: { zh: '改名了', en: 'renamed' } });
    await settle();
    expect(room.lessons.current?.path).toBe('第1周/star.py');
    expect(room.lessons.current?.name).toBe('star');
    expect(room.lessons.dirty).toBe(true);
    expect(room.editor.code).toBe('print("mine")\n');
    expect(room.toast?.text).toBe('renamed');
    t.fireAll();
    await room.lessons.flush();
    expect(backend.folder.content('第1周/star.py')).toBe('print("mine")\n');
    expect(backend.folder.content(STAR_LESSON)).toBeUndefined();
  });

  it('follows the tree and the folder’s problems from the watcher', async () => {
    const { backend, room } = await started();
    backend.emit(EventLessonsChanged, { root: '/r', tree: null, problem: { code: 'folder_missing', zh: '找不到', en: 'missing' } });
    expect(room.lessons.problem?.code).toBe('folder_missing');
    backend.emit(EventLessonsChanged, { root: '/r', tree: { name: 'r', path: '', kind: 'group', children: [{ name: 'x', path: 'x.py', kind: 'lesson' }] } });
    expect(room.lessons.problem).toBeNull();
    expect(room.lessons.paths).toEqual(['x.py']);
  });

  it('falls back to the built-in star when the folder is missing', async () => {
    const { room } = await started({ lessonsMissing: true });
    expect(room.lessons.problem?.code).toBe('folder_missing');
    expect(room.lessons.current).toBeNull();
    expect(room.editor.code).toBe(STAR_DEMO);
  });
});

describe('PacksState', () => {
  it('previews, imports and opens the first exercise', async () => {
    const { room } = await started({ lang: 'en' });
    await room.packs.choose();
    expect(room.packs.preview?.plan.exercises).toHaveLength(3);
    expect(room.packs.preview?.plan.previous).toBe('');
    await room.packs.confirmImport();
    await settle();
    expect(room.lessons.current?.path).toBe('形状练习 Shapes/01-square.py');
    expect(room.packs.exercise?.id).toBe('01-square');
    expect(room.toast?.text).toContain('Shapes');
  });

  it("lists a pack's lessons by their titles, in the window's language", async () => {
    const { room } = await started({ lang: 'zh', packImported: true });
    const pack = room.lessons.tree?.children?.find((n) => n.path === '形状练习 Shapes');
    const lesson = pack?.children?.find((n) => n.path.endsWith('01-square.py'));
    expect(lesson && nodeLabel(lesson, 'zh')).toBe('画正方形');
    expect(lesson && nodeLabel(lesson, 'en')).toBe('Draw a square');
    const starter = room.lessons.tree?.children?.find((n) => n.kind === 'lesson');
    expect(starter && nodeLabel(starter, 'zh')).toBe(starter?.name);
  });

  it('offers the course shelf on a first start, once, and imports a course with one click', async () => {
    const { room, backend, t } = await started({ lang: 'zh', firstStart: true });
    await settle();
    t.fireAll();
    expect(room.packs.shelfOpen).toBe(true);
    expect(room.packs.shelf?.courses.length).toBeGreaterThan(1);
    await room.packs.importCourse('turtle-shapes');
    await settle();
    expect(room.packs.shelfOpen).toBe(false);
    expect(room.lessons.current?.path).toBe('形状练习 Shapes/01-square.py');
    expect(room.packs.exercise?.id).toBe('01-square');
    expect((await backend.courses()).offer).toBe(false);
    await room.packs.openShelf();
    expect(room.packs.shelf?.courses[0].folder).toBe('形状练习 Shapes');
  });

  it('puts the offered shelf off while the child types, and opens it once they stop', async () => {
    const { room, t } = await started({ lang: 'en', firstStart: true });
    await settle();
    expect(t.waiting()).toContain(OFFER_DELAY_MS);
    room.keyPressed();
    room.keyPressed();
    expect(t.waiting()).not.toContain(OFFER_DELAY_MS);
    expect(t.waiting().filter((ms) => ms === OFFER_IDLE_MS)).toHaveLength(1);
    expect(room.packs.shelfOpen).toBe(false);
    t.fireAll();
    expect(room.packs.shelfOpen).toBe(true);
  });

  it('waits for the child to stop typing when they typed before the shelf was due', async () => {
    const backend = createFakeBackend({ checkingMs: 1_000_000, lang: 'en', firstStart: true });
    const t = manualTimers();
    const room = new Classroom(backend, { timers: t.timers });
    room.connect();
    room.keyPressed();
    await room.start();
    await settle();
    expect(t.waiting()).toContain(OFFER_IDLE_MS);
    expect(t.waiting()).not.toContain(OFFER_DELAY_MS);
  });

  it('does not offer the shelf again once it was closed', async () => {
    const { room, backend, t } = await started({ lang: 'en', firstStart: true });
    await settle();
    t.fireAll();
    expect(room.packs.shelfOpen).toBe(true);
    room.packs.closeShelf();
    await settle();
    expect((await backend.courses()).offer).toBe(false);
    const again = await started({ lang: 'en' });
    await settle();
    again.t.fireAll();
    expect(again.room.packs.shelfOpen).toBe(false);
  });

  it('only previews dropped .kidpack files', async () => {
    const { backend, room } = await started({ lang: 'en' });
    backend.drop(['/tmp/photo.png']);
    await settle();
    expect(room.packs.preview).toBeNull();
    expect(room.toast?.tone).toBe('error');
    backend.drop(['/tmp/photo.png', '/tmp/Shapes.KIDPACK']);
    await settle();
    expect(room.packs.preview?.file).toBe('/tmp/Shapes.KIDPACK');
  });

  it('checks an answer, reveals hints one at a time and celebrates', async () => {
    const { room } = await started({ lang: 'zh', packImported: true });
    await room.lessons.open('形状练习 Shapes/01-square.py');
    await settle();
    expect(room.packs.exercise?.hintsTotal).toBe(2);
    await room.packs.check('print(1)');
    expect(room.packs.outcome?.report.passed).toBe(false);
    expect(room.packs.celebrating).toBe(false);
    await room.packs.hint();
    expect(room.packs.hints.map((h) => h.index)).toEqual([0]);
    await room.packs.hint();
    await room.packs.hint();
    expect(room.packs.hints.map((h) => h.index)).toEqual([0, 1]);
    expect(room.toast?.text).toBe('这是最后一条提示了。');
    await room.packs.check('for i in range(4):\n    t.forward(100)\n    t.left(90)\n');
    expect(room.packs.outcome?.report.passed).toBe(true);
    expect(room.packs.celebrating).toBe(true);
    expect(room.packs.exercise?.progress.solved).toBe(true);
    await room.packs.showProgress();
    expect(room.packs.summaries?.[0].solved).toBe(1);
  });

  it('saves the lesson before checking it', async () => {
    const { backend, room } = await started({ packImported: true });
    await room.lessons.open('形状练习 Shapes/01-square.py');
    type(room, 'print("checked")\n');
    await room.packs.check(room.editor.code);
    expect(backend.folder.content('形状练习 Shapes/01-square.py')).toBe('print("checked")\n');
  });
});
