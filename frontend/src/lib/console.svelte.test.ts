import { describe, expect, it } from 'vitest';
import { ConsoleState, FRAME_CHARS } from './console.svelte';

/** A console whose frames the test runs by hand. */
function manual() {
  const queue: (() => void)[] = [];
  const c = new ConsoleState({ schedule: (f) => void queue.push(f) });
  const frame = () => {
    const run = queue.splice(0);
    run.forEach((f) => f());
    return run.length;
  };
  return { c, frame };
}

describe('ConsoleState frames', () => {
  it('applies a flood a frame at a time, in order, until all of it shows', () => {
    const { c, frame } = manual();
    let want = '';
    for (let k = 0; k < 4; k++) {
      let chunk = '';
      for (let i = k * 5000; i < (k + 1) * 5000; i++) chunk += `${i}\n`;
      want += chunk;
      c.append('stdout', chunk);
    }
    const total = want.length;
    expect(total).toBeGreaterThan(3 * FRAME_CHARS);
    frame();
    expect(c.pendingChars).toBe(total - FRAME_CHARS);
    expect(c.lines.length).toBeGreaterThan(0);
    let frames = 1;
    while (frame() > 0) frames++;
    expect(frames).toBe(Math.ceil(total / FRAME_CHARS));
    expect(c.pendingChars).toBe(0);
    expect(c.lines.at(-1)?.segs[0].text).toBe('19999');
    expect(c.dropped + c.lines.length).toBe(20000);
  });

  it('never splits a surrogate pair between frames', () => {
    const { c, frame } = manual();
    // The pair's first half is the frame's last character.
    const before = 'x\n'.repeat((FRAME_CHARS - 2) / 2) + 'x';
    expect(before.length).toBe(FRAME_CHARS - 1);
    c.append('stdout', before + '🐢b\n');
    frame();
    expect(c.lines.at(-1)?.segs[0].text).toBe('x🐢');
    while (frame() > 0);
    expect(c.lines.at(-1)?.segs[0].text).toBe('x🐢b');
  });

  it('flush applies everything at once', () => {
    const { c } = manual();
    c.append('stdout', 'x\n'.repeat(FRAME_CHARS));
    c.append('stderr', 'end');
    c.flush();
    expect(c.pendingChars).toBe(0);
    expect(c.lines.at(-1)?.segs).toEqual([{ kind: 'stderr', text: 'end' }]);
  });
});
