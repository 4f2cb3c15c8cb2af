import { describe, expect, it } from 'vitest';
import type { Backend, DrawStep } from './backend';
import type { Clock } from './drawing.svelte';
import { LiveState, tkButton } from './live.svelte';

/** Time moves only when the test says; frames run when the test advances. */
function manualClock() {
  let t = 0;
  let queue: (() => void)[] = [];
  const clock: Clock = {
    now: () => t,
    frame(cb) {
      queue.push(cb);
      return () => (queue = queue.filter((f) => f !== cb));
    },
  };
  return {
    clock,
    /** Advances time by ms and runs the frames due. */
    advance(ms: number) {
      t += ms;
      const due = queue;
      queue = [];
      due.forEach((f) => f());
    },
    pending: () => queue.length,
  };
}

function setup(opts: { typing?: () => boolean } = {}) {
  const sent: unknown[] = [];
  let fail = false;
  const setFail = (v: boolean) => (fail = v);
  const backend = {
    sendEvent: async (runId: string, ev: unknown) => {
      if (fail) throw new Error('run is not running');
      sent.push({ runId, ...(ev as object) });
    },
  } as unknown as Backend;
  const c = manualClock();
  const live = new LiveState(backend, c.clock, opts);
  live.begin('run-1');
  return { live, sent, ...c, setFail };
}

const mv = (d: number, i: number): DrawStep => ({ k: 'move', t: 0, s: 3, x1: i, y1: 0, x2: i + 1, y2: 0, c: '#000000', w: 1, d });
const draw = (from: number, steps: DrawStep[]) => ({ type: 'draw', from, steps });
const flush = () => new Promise((r) => setTimeout(r, 0));

describe('LiveState drawing', () => {
  it('shows the canvas from the first screen frame and takes its size, view and background', () => {
    const { live } = setup();
    expect(live.showing).toBe(false);
    live.frame({ type: 'screen', width: 600, height: 400, bg: '#000080', scale: [1, 1], view: [-300, -200, 600, 400], title: 'Snake' });
    expect(live.showing).toBe(true);
    expect(live.screen.view).toEqual([-300, -200, 600, 400]);
    expect(live.scene.bg).toBe('#000080');
    expect(live.fit(600, 400).px).toBe(1);
  });

  it('plays steps as time passes, at their d, after they arrive', () => {
    const { live, advance } = setup();
    live.frame(draw(0, [mv(100, 0), mv(100, 1)]));
    expect(live.behind).toBe(false);
    advance(50);
    expect(live.scene.items).toHaveLength(0);
    expect(live.behind).toBe(true);
    advance(60);
    expect(live.scene.items).toHaveLength(1);
    advance(100);
    expect(live.scene.items).toHaveLength(2);
    expect(live.behind).toBe(false);
  });

  it('offers skip to the end while a quarter second or more waits to play, until caught up', () => {
    const { live, advance } = setup();
    // short steps as a game or a program at its own pace sends them: nothing worth skipping
    live.frame(draw(0, [mv(10, 0)]));
    advance(1);
    expect(live.behind).toBe(true);
    expect(live.skippable).toBe(false);
    advance(20);
    live.frame(draw(1, [mv(100, 1), mv(100, 2), mv(100, 3)]));
    advance(1);
    expect(live.skippable).toBe(true);
    advance(200);
    expect(live.skippable).toBe(true);
    advance(200);
    expect(live.skippable).toBe(false);
    live.frame(draw(4, [mv(1000, 4)]));
    advance(1);
    expect(live.skippable).toBe(true);
    live.skip();
    expect(live.skippable).toBe(false);
  });

  it('a step arriving when everything has played shows at once, without waiting for the next frame', () => {
    const { live, advance } = setup();
    live.frame(draw(0, [mv(0, 0)]));
    expect(live.scene.items).toHaveLength(1);
    advance(100);
    live.frame(draw(1, [mv(0, 1), mv(50, 2), mv(0, 3)]));
    // the instant step is in; the animated one and the one after it wait for their time
    expect(live.scene.items).toHaveLength(2);
    advance(50);
    expect(live.scene.items).toHaveLength(4);
  });

  it('after the run ends, keeps playing until caught up, then hands over to the final picture', () => {
    const { live, advance, pending } = setup();
    live.frame(draw(0, [mv(300, 0), mv(300, 1)]));
    live.finish(true);
    expect(live.running).toBe(false);
    advance(100);
    expect(live.showing).toBe(true);
    advance(400);
    expect(live.showing).toBe(true);
    expect(live.scene.items).toHaveLength(1);
    advance(200);
    expect(live.scene.items).toHaveLength(2);
    expect(live.showing).toBe(false);
    expect(pending()).toBe(0);
  });

  it('without a final picture (the run was killed) the last live state stays', () => {
    const { live, advance } = setup();
    live.frame(draw(0, [mv(10, 0)]));
    live.finish(false);
    advance(50);
    expect(live.showing).toBe(true);
    expect(live.scene.items).toHaveLength(1);
  });

  it('skip to the end while running plays everything received at once; later steps still animate', () => {
    const { live, advance } = setup();
    live.frame(draw(0, [mv(1000, 0), mv(1000, 1)]));
    advance(10);
    live.skip();
    advance(1);
    expect(live.scene.items).toHaveLength(2);
    expect(live.showing).toBe(true);
    live.frame(draw(2, [mv(100, 2)]));
    advance(50);
    expect(live.scene.items).toHaveLength(2);
    advance(60);
    expect(live.scene.items).toHaveLength(3);
  });

  it('skip to the end after the run shows the final picture at once', () => {
    const { live, advance } = setup();
    live.frame(draw(0, [mv(5000, 0)]));
    live.finish(true);
    advance(10);
    live.skip();
    expect(live.showing).toBe(false);
    expect(live.behind).toBe(false);
  });

  it('del, clear and fill steps reach the scene by their numbers', () => {
    const { live, advance } = setup();
    live.frame(draw(0, [mv(0, 0), mv(0, 1), mv(0, 2)]));
    live.frame(draw(3, [{ k: 'del', t: 0, s: 0, i: 1, d: 0 }, { k: 'fill', t: 0, s: 0, c: '#ffd700', pts: [[0, 0], [1, 0], [1, 1]], z: 2, d: 0 }]));
    advance(1);
    expect(live.scene.items.map((it) => `${it.k}${it.step}`)).toEqual(['line0', 'fill4', 'line2']);
    live.frame(draw(5, [{ k: 'clear', t: 0, s: 0, d: 0 }]));
    advance(1);
    expect(live.scene.items).toEqual([]);
  });

  it('a new run forgets the last one; frames after the end are ignored', () => {
    const { live } = setup();
    live.frame(draw(0, [mv(0, 0)]));
    live.finish(true);
    live.frame(draw(1, [mv(0, 1)]));
    expect(live.steps).toBe(1);
    live.begin('run-2');
    expect(live.steps).toBe(0);
    expect(live.showing).toBe(false);
    expect(live.scene.items).toEqual([]);
  });

  it('ignores malformed frames', () => {
    const { live } = setup();
    for (const f of [null, 'draw', { type: 'draw', from: -1, steps: [] }, { type: 'draw', from: 0 }, { type: 'nope' }]) live.frame(f);
    expect(live.showing).toBe(false);
    expect(live.steps).toBe(0);
  });
});

describe('LiveState keys and focus', () => {
  it('keys go nowhere before listen(), to the program after it', async () => {
    const { live, sent } = setup();
    expect(live.key({ key: 'ArrowUp', code: 'ArrowUp' }, true)).toBe(false);
    live.frame({ type: 'listen' });
    expect(live.keysFocused).toBe(true);
    // listen() made the screen: the drawing shows, so the child sees where the keys go
    expect(live.showing).toBe(true);
    expect(live.key({ key: 'ArrowUp', code: 'ArrowUp' }, true)).toBe(true);
    expect(live.key({ key: 'ArrowUp', code: 'ArrowUp' }, false)).toBe(true);
    await flush();
    expect(sent).toEqual([
      { runId: 'run-1', type: 'key', key: 'Up', down: true },
      { runId: 'run-1', type: 'key', key: 'Up', down: false },
    ]);
  });

  it('a held key repeats as release then press', async () => {
    const { live, sent } = setup();
    live.frame({ type: 'listen' });
    live.key({ key: 'a', code: 'KeyA', repeat: true }, true);
    await flush();
    expect(sent).toEqual([
      { runId: 'run-1', type: 'key', key: 'a', down: false },
      { runId: 'run-1', type: 'key', key: 'a', down: true },
    ]);
  });

  it('clicking outside takes the keys back; clicking the drawing gives them again, only if the program listened', () => {
    const { live } = setup();
    live.focusKeys();
    expect(live.keysFocused).toBe(false);
    live.frame({ type: 'listen' });
    live.blurKeys();
    expect(live.keysFocused).toBe(false);
    expect(live.key({ key: 'ArrowLeft', code: 'ArrowLeft' }, true)).toBe(false);
    live.focusKeys();
    expect(live.keysFocused).toBe(true);
  });

  it('the run ending or bye ends the focus for good', () => {
    const a = setup();
    a.live.frame({ type: 'listen' });
    a.live.frame({ type: 'bye' });
    expect(a.live.keysFocused).toBe(false);
    a.live.focusKeys();
    expect(a.live.keysFocused).toBe(false);
    a.live.frame({ type: 'listen' });
    expect(a.live.keysFocused).toBe(false);

    const b = setup();
    b.live.frame({ type: 'listen' });
    b.live.finish(true);
    expect(b.live.keysFocused).toBe(false);
    b.live.focusKeys();
    expect(b.live.keysFocused).toBe(false);
    expect(b.live.key({ key: 'ArrowUp', code: 'ArrowUp' }, true)).toBe(false);
  });

  it('an input() waiting in the console gets the typing, and the keys come back to the game once it is answered', async () => {
    let typing = false;
    const { live, sent } = setup({ typing: () => typing });
    live.frame({ type: 'listen' });
    expect(live.keysToProgram).toBe(true);
    typing = true;
    expect(live.keysToProgram).toBe(false);
    expect(live.key({ key: 'b', code: 'KeyB' }, true)).toBe(false);
    expect(live.key({ key: 'b', code: 'KeyB' }, false)).toBe(false);
    typing = false;
    expect(live.keysToProgram).toBe(true);
    expect(live.key({ key: 'ArrowUp', code: 'ArrowUp' }, true)).toBe(true);
    await flush();
    expect(sent).toEqual([{ runId: 'run-1', type: 'key', key: 'Up', down: true }]);
  });

  it('Escape and Ctrl+Enter stay the window\'s while a game has the keys, releases included', async () => {
    const { live, sent } = setup();
    live.frame({ type: 'listen' });
    expect(live.key({ key: 'Escape', code: 'Escape' }, true)).toBe(false);
    expect(live.key({ key: 'Escape', code: 'Escape' }, false)).toBe(false);
    expect(live.key({ key: 'Enter', code: 'Enter', ctrlKey: true }, true)).toBe(false);
    // Ctrl let go first: the Enter's release still is not the program's
    expect(live.key({ key: 'Enter', code: 'Enter' }, false)).toBe(false);
    expect(live.key({ key: 'Enter', code: 'Enter', metaKey: true }, true)).toBe(false);
    expect(live.key({ key: 'Enter', code: 'Enter', metaKey: true }, false)).toBe(false);
    // a plain Enter is the game's
    expect(live.key({ key: 'Enter', code: 'Enter' }, true)).toBe(true);
    expect(live.key({ key: 'Enter', code: 'Enter' }, false)).toBe(true);
    await flush();
    expect(sent).toEqual([
      { runId: 'run-1', type: 'key', key: 'Return', down: true },
      { runId: 'run-1', type: 'key', key: 'Return', down: false },
    ]);
  });

  it('keys go to an open dialog, not the turtle', () => {
    const { live } = setup();
    live.frame({ type: 'listen' });
    live.frame({ type: 'dialog', kind: 'text', title: 'Name', prompt: 'Your name?' });
    expect(live.key({ key: 'a', code: 'KeyA' }, true)).toBe(false);
    live.answer('Li');
    expect(live.key({ key: 'a', code: 'KeyA' }, true)).toBe(true);
  });
});

describe('LiveState pointer, close and dialogs', () => {
  it('sends presses and releases with the Tk button', async () => {
    const { live, sent } = setup();
    live.pointer('down', 12.5, -40, tkButton(0));
    live.pointer('up', 13, -41, tkButton(2));
    await flush();
    expect(sent).toEqual([
      { runId: 'run-1', type: 'mouse', action: 'down', x: 12.5, y: -40, button: 1 },
      { runId: 'run-1', type: 'mouse', action: 'up', x: 13, y: -41, button: 3 },
    ]);
    expect(tkButton(1)).toBe(2);
  });

  it('keeps one move on its way at a time and sends the latest after it', async () => {
    const { live, sent } = setup();
    live.pointer('move', 1, 1, 1);
    live.pointer('move', 2, 2, 1);
    live.pointer('move', 3, 3, 1);
    await flush();
    await flush();
    expect(sent.map((e) => (e as { x: number }).x)).toEqual([1, 3]);
  });

  it('sends nothing after the window closed or the run ended', async () => {
    const { live, sent } = setup();
    live.close();
    live.close();
    live.pointer('down', 0, 0, 1);
    await flush();
    expect(sent).toEqual([{ runId: 'run-1', type: 'close' }]);
    expect(live.closed).toBe(true);
    live.finish(false);
    live.answer('x');
    await flush();
    expect(sent).toHaveLength(1);
  });

  it('a dialog is answered with the text, or null when cancelled, and closes', async () => {
    const { live, sent } = setup();
    live.frame({ type: 'dialog', kind: 'number', title: 'Size', prompt: 'How big?', default: 5, min: 1, max: 10, error: false });
    expect(live.dialog).toMatchObject({ kind: 'number', default: 5, min: 1, max: 10, error: false });
    expect(live.dialogStart).toBe('5');
    live.answer('7');
    expect(live.dialog).toBeNull();
    live.frame({ type: 'dialog', kind: 'number', title: 'Size', prompt: 'How big?', default: 5, min: 1, max: 10, error: true });
    expect(live.dialog?.error).toBe(true);
    // asked again: the answer that did not fit is there to fix
    expect(live.dialogStart).toBe('7');
    live.answer(null);
    await flush();
    expect(sent).toEqual([
      { runId: 'run-1', type: 'answer', text: '7' },
      { runId: 'run-1', type: 'answer', text: null },
    ]);
  });

  it('the dialog closes when the run is done', () => {
    const { live } = setup();
    live.frame({ type: 'dialog', kind: 'text', title: 'T', prompt: 'P' });
    live.finish(false);
    expect(live.dialog).toBeNull();
  });

  it('a send the app refuses (the run just ended) is dropped quietly, and later ones still go', async () => {
    const { live, sent, setFail } = setup();
    setFail(true);
    live.pointer('move', 0, 0, 1);
    await flush();
    setFail(false);
    live.pointer('move', 5, 5, 1);
    await flush();
    expect(sent).toEqual([{ runId: 'run-1', type: 'mouse', action: 'move', x: 5, y: 5, button: 1 }]);
  });
});

describe('LiveState pause', () => {
  it('⏸ and ▶ reach the program; a paused game takes no keys or clicks; Stop and ✖ still do', async () => {
    const { live, sent } = setup();
    live.frame({ type: 'listen' });
    live.setPaused(true);
    live.setPaused(true); // said once
    expect(live.paused).toBe(true);
    expect(live.keysToProgram).toBe(false);
    expect(live.key({ key: 'ArrowUp', code: 'ArrowUp' }, true)).toBe(false);
    live.pointer('down', 1, 2, 1);
    live.setPaused(false);
    expect(live.key({ key: 'ArrowUp', code: 'ArrowUp' }, true)).toBe(true);
    live.setPaused(true);
    live.close();
    await flush();
    expect(sent).toEqual([
      { runId: 'run-1', type: 'pause' },
      { runId: 'run-1', type: 'resume' },
      { runId: 'run-1', type: 'key', key: 'Up', down: true },
      { runId: 'run-1', type: 'pause' },
      { runId: 'run-1', type: 'close' },
    ]);
  });

  it('a run that ends, or a new run, is not paused; nothing is sent once the run is over', async () => {
    const { live, sent } = setup();
    live.setPaused(true);
    live.finish(false);
    expect(live.paused).toBe(false);
    live.setPaused(true);
    expect(live.paused).toBe(false);
    live.begin('run-2');
    expect(live.paused).toBe(false);
    await flush();
    expect(sent).toEqual([{ runId: 'run-1', type: 'pause' }]);
  });
});
