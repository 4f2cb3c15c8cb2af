import { describe, expect, it } from 'vitest';
import type { DrawStep } from './backend';
import { LiveTimeline, MAX_STEP_MS } from './liveTimeline';

const mv = (d: number, x = 0): DrawStep => ({ k: 'move', t: 0, s: 6, x1: x, y1: 0, x2: x + 10, y2: 0, c: '#000000', w: 1, d });

describe('LiveTimeline', () => {
  it('a step that arrives while nothing plays starts at once and lasts its d', () => {
    const tl = new LiveTimeline();
    tl.add([mv(100)], 0, 1000);
    expect(tl.at(999)).toEqual({ complete: 0, partial: null });
    expect(tl.at(1000)).toEqual({ complete: 0, partial: { index: 0, p: 0 } });
    expect(tl.at(1025)).toEqual({ complete: 0, partial: { index: 0, p: 0.25 } });
    expect(tl.at(1100)).toEqual({ complete: 1, partial: null });
  });

  it('a burst that arrived at once plays one step after another', () => {
    const tl = new LiveTimeline();
    tl.add([mv(100), mv(50), mv(0), mv(200)], 0, 0);
    expect(tl.at(50).partial).toEqual({ index: 0, p: 0.5 });
    expect(tl.at(125)).toEqual({ complete: 1, partial: { index: 1, p: 0.5 } });
    // the instant step is done the moment the one before ends
    expect(tl.at(150).complete).toBe(3);
    expect(tl.at(250).partial).toEqual({ index: 3, p: 0.5 });
    expect(tl.end).toBe(350);
  });

  it('a step arriving after the previous one ended starts at its arrival', () => {
    const tl = new LiveTimeline();
    tl.add([mv(100)], 0, 0);
    tl.add([mv(100)], 1, 500);
    expect(tl.at(300)).toEqual({ complete: 1, partial: null });
    expect(tl.at(550).partial).toEqual({ index: 1, p: 0.5 });
  });

  it('a step arriving while another still plays waits for it (arrival vs d)', () => {
    const tl = new LiveTimeline();
    tl.add([mv(100)], 0, 0);
    tl.add([mv(100)], 1, 40);
    expect(tl.at(90).partial).toEqual({ index: 0, p: 0.9 });
    expect(tl.at(150).partial).toEqual({ index: 1, p: 0.5 });
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
    tl.add([mv(1000), mv(1000)], 0, 0);
    tl.skip(10);
    expect(tl.at(10)).toEqual({ complete: 2, partial: null });
    expect(tl.caughtUp(10)).toBe(true);
    tl.add([mv(100)], 2, 20);
    expect(tl.at(70).partial).toEqual({ index: 2, p: 0.5 });
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
    tl.add([{ ...mv(0), d: undefined, ms: 40 } as DrawStep, dot({}), dot({ ms: 10 })], 0, 0);
    expect(tl.at(39)).toEqual({ complete: 0, partial: { index: 0, p: 39 / 40 } });
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
