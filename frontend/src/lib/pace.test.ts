import { describe, expect, it } from 'vitest';
import { DEFAULT_PACE, PACES, paceAt, paceIndex, paceText, STEP_MS, stepMs } from './pace';

describe('the speed dial', () => {
  it('goes from slow to fast with CPython’s own timing on it', () => {
    expect([...PACES]).toEqual([...PACES].sort((a, b) => a - b));
    expect(PACES).toContain(DEFAULT_PACE);
    // The runner takes 0.1 to 100 times CPython's pace (settings.MinPace, MaxPace).
    expect(Math.min(...PACES)).toBeGreaterThanOrEqual(0.1);
    expect(Math.max(...PACES)).toBeLessThanOrEqual(100);
  });

  it.each([
    [1, 2],
    [0.25, 0],
    [10, 5],
    [3, 4], // nearer 4 than 2 on the dial's scale
    [2.5, 3],
    [0.1, 0],
    [100, 5],
    [0, 2],
    [-3, 2],
    [Number.NaN, 2],
    [undefined, 2],
    [null, 2],
  ])('pace %s sits at position %i', (pace, i) => {
    expect(paceIndex(pace)).toBe(i);
  });

  it('holds positions within the dial', () => {
    expect(paceAt(-1)).toBe(PACES[0]);
    expect(paceAt(99)).toBe(PACES[PACES.length - 1]);
    expect(paceAt(2)).toBe(1);
    expect(paceAt(Number.NaN)).toBe(PACES[0]);
  });

  it('times a step of step by step by the dial', () => {
    expect(stepMs(1)).toBe(STEP_MS);
    expect(stepMs(0.25)).toBe(STEP_MS * 4);
    expect(stepMs(10)).toBe(STEP_MS / 10);
    expect(stepMs(1000)).toBe(STEP_MS / 10);
  });

  it('writes the pace as a child reads it', () => {
    expect(PACES.map(paceText)).toEqual(['×¼', '×½', '×1', '×2', '×4', '×10']);
  });
});
