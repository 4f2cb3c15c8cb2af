import { describe, expect, it } from 'vitest';
import type { DrawStep } from './backend';
import { LiveTimeline, MAX_STEP_MS, updates } from './liveTimeline';

const mv = (d: number, x = 0): DrawStep => ({ k: 'move', t: 0, s: 6, x1: x, y1: 0, x2: x + 10, y2: 0, c: '#000000', w: 1, d });
/** A move CPython's turtle makes in 4 hops at speed 1 (11.55 px: 1 + ⌊11.55 / 3.3⌋). */
const hop4 = (d: number): DrawStep => ({ k: 'move', t: 0, s: 1, x1: 0, y1: 0, x2: 11.55, y2: 0, c: '#000000', w: 1, d });

describe('updates', () => {
  it('counts CPython’s updates for a step, and those that move the turtle', () => {
    expect(updates(hop4(0), 0)).toEqual({ total: 4, moving: 4 });
    // on a screen with 2 pixels per unit the same move is twice as many pixels: 1 + ⌊23.1 / 3.3⌋
    expect(updates(hop4(0), 0, [2, 2])).toEqual({ total: 8, moving: 8 });
    expect(updates({ k: 'turn', t: 0, s: 1, h: 90 }, 0)).toEqual({ total: 32, moving: 31 });
    expect(updates({ k: 'turn', t: 0, s: 1, h: 350 }, 0)).toEqual({ total: 5, moving: 4 });
    expect(updates({ ...hop4(0), s: 0 }, 0)).toEqual({ total: 1, moving: 1 });
    expect(updates({ k: 'dot', t: 0, s: 3, x: 0, y: 0, d: 5, c: '#000000' }, 0)).toEqual({ total: 1, moving: 1 });
  });
});

describe('LiveTimeline', () => {
  it('a step that arrives while nothing plays starts at once: its first hop shows then, its last one update before its d is up', () => {
    const tl = new LiveTimeline();
    tl.add([hop4(100)], 0, 1000);
    expect(tl.at(999)).toEqual({ complete: 0, partial: null });
    expect(tl.at(1000)).toEqual({ complete: 0, partial: { index: 0, p: 0.25 } });
    expect(tl.at(1025)).toEqual({ complete: 0, partial: { index: 0, p: 0.5 } });
    expect(tl.at(1075)).toEqual({ complete: 0, partial: { index: 0, p: 1 } });
    expect(tl.at(1100)).toEqual({ complete: 1, partial: null });
  });

  it('an instant step (speed 0, a dot, tracer(0)) shows whole at once, then the program’s wait runs out', () => {
    const tl = new LiveTimeline();
    tl.add([{ ...hop4(10), s: 0 }], 0, 0);
    expect(tl.at(0)).toEqual({ complete: 0, partial: { index: 0, p: 1 } });
    expect(tl.at(10).complete).toBe(1);
  });

  it('a turn rotates over all but its last update', () => {
    const tl = new LiveTimeline();
    tl.add([{ k: 'turn', t: 0, s: 1, h: 90, d: 320 }], 0, 0);
    expect(tl.at(0).partial?.p).toBeCloseTo(1 / 31, 9);
    expect(tl.at(150).partial?.p).toBeCloseTo(16 / 31, 9);
    expect(tl.at(300).partial?.p).toBe(1);
    expect(tl.at(320).complete).toBe(1);
  });

  it('a burst that arrived at once plays one step after another', () => {
    const tl = new LiveTimeline();
    tl.add([hop4(100), hop4(50), mv(0), hop4(200)], 0, 0);
    expect(tl.at(50).partial).toEqual({ index: 0, p: 0.75 });
    expect(tl.at(125)).toEqual({ complete: 1, partial: { index: 1, p: 0.75 } });
    // the instant step is done the moment the one before ends
    expect(tl.at(150).complete).toBe(3);
    expect(tl.at(250).partial).toEqual({ index: 3, p: 0.75 });
    expect(tl.end).toBe(350);
  });

  it('a step arriving after the previous one ended starts at its arrival', () => {
    const tl = new LiveTimeline();
    tl.add([hop4(100)], 0, 0);
    tl.add([hop4(100)], 1, 500);
    expect(tl.at(300)).toEqual({ complete: 1, partial: null });
    expect(tl.at(550).partial).toEqual({ index: 1, p: 0.75 });
  });

  it('a step arriving while another still plays waits for it (arrival vs d)', () => {
    const tl = new LiveTimeline();
    tl.add([hop4(100)], 0, 0);
    tl.add([hop4(100)], 1, 40);
    expect(tl.at(60).partial).toEqual({ index: 0, p: 0.85 });
    expect(tl.at(150).partial).toEqual({ index: 1, p: 0.75 });
    expect(tl.end).toBe(200);
  });

  it('keeps playing after the last step arrived (a fast program that has already ended)', () => {
    const tl = new LiveTimeline();
    tl.add(Array.from({ length: 10 }, () => mv(100)), 0, 0);
    expect(tl.caughtUp(5)).toBe(false);
    expect(tl.at(550).complete).toBe(5);
    expect(tl.caughtUp(999)).toBe(false);
    expect(tl.caughtUp(1000)).toBe(true);
  });

  it('skip finishes everything received; later steps play from their arrival', () => {
    const tl = new LiveTimeline();
    tl.add([hop4(1000), hop4(1000)], 0, 0);
    tl.skip(10);
    expect(tl.at(10)).toEqual({ complete: 2, partial: null });
    expect(tl.caughtUp(10)).toBe(true);
    tl.add([hop4(100)], 2, 20);
    expect(tl.at(70).partial).toEqual({ index: 2, p: 0.75 });
  });

  it('numbers steps by from: a repeated step is kept once, a gap stops the timeline', () => {
    const tl = new LiveTimeline();
    expect(tl.add([mv(0), mv(0)], 0, 0)).toBe(2);
    expect(tl.add([mv(0, 1), mv(0, 2)], 1, 0)).toBe(1);
    expect(tl.length).toBe(3);
    expect((tl.steps[2] as { x1: number }).x1).toBe(2);
    expect(tl.add([mv(0)], 5, 0)).toBe(0);
    expect(tl.broken).toBe(true);
    expect(tl.add([mv(0)], 3, 0)).toBe(0);
  });

  it('takes the time from ms (as the runner sends it) or d; a dot’s d is its diameter', () => {
    const tl = new LiveTimeline();
    const dot = (extra: object) => ({ k: 'dot', t: 0, s: 3, x: 0, y: 0, d: 20, c: '#000000', ...extra }) as DrawStep;
    tl.add([{ ...hop4(0), d: undefined, ms: 40 } as DrawStep, dot({}), dot({ ms: 10 })], 0, 0);
    expect(tl.at(20)).toEqual({ complete: 0, partial: { index: 0, p: 0.75 } });
    expect(tl.at(39).complete).toBe(0);
    // the first dot is instant: its d is a size, not a time
    expect(tl.at(40).complete).toBe(2);
    expect(tl.end).toBe(50);
  });

  it('a missing, negative or huge d is bounded', () => {
    const tl = new LiveTimeline();
    const noD = { k: 'turn', t: 0, s: 3, h: 90 } as DrawStep;
    tl.add([noD, mv(-5), mv(Number.NaN), mv(1e12)], 0, 0);
    expect(tl.at(0).complete).toBe(3);
    expect(tl.end).toBe(MAX_STEP_MS);
  });
});
