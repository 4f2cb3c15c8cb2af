import { describe, expect, it } from 'vitest';
import { ConsoleModel } from './consoleModel';
import { indexOfId, lineAt, lineColumns, lineRows, rowsFor, stackOffsets, textColumns, visibleSlice } from './consoleWindow';

describe('textColumns', () => {
  it.each([
    ['', 0],
    ['hello', 5],
    ['你好', 4],
    ['🐢ok', 4],
    ['ｆｕｌｌ', 8],
    ['a\tb', 5],
    ['\t', 4],
    ['abcd\t', 8],
    ['한글', 4],
    ['é', 1],
  ])('%j is %i columns', (text, want) => {
    expect(textColumns(text)).toBe(want);
  });
});

describe('rowsFor', () => {
  it.each([
    [0, 80, 1],
    [1, 80, 1],
    [80, 80, 1],
    [81, 80, 2],
    [3000, 80, 38],
    [5, 0, 5],
  ])('%i columns at %i a row take %i rows', (cols, perRow, want) => {
    expect(rowsFor(cols, perRow)).toBe(want);
  });
});

describe('lineRows', () => {
  const line = (...texts: string[]) => ({ id: 1, segs: texts.map((text) => ({ kind: 'stdout' as const, text })) });
  it.each([
    ['an empty line', line(), 10, 1],
    ['a short line', line('12345'), 10, 1],
    ['a line just too long for the quick answer', line('123456'), 10, 1],
    ['a long line', line('x'.repeat(25)), 10, 3],
    ['wide characters', line('你好你好你好'), 10, 2],
    ['a tab', line('a\tb\tc\td'), 10, 2],
    ['two colours', line('ab', 'cdefghijk'), 10, 2],
  ])('%s', (_name, l, perRow, want) => {
    expect(lineRows(l, perRow)).toBe(want);
  });
});

describe('the virtual window', () => {
  const rows = (heights: number[]) => stackOffsets(heights.length, (i) => heights[i]);

  it('stacks heights into offsets', () => {
    expect([...rows([10, 20, 30])]).toEqual([0, 10, 30, 60]);
    expect([...rows([])]).toEqual([0]);
  });

  it('finds the line under a point', () => {
    const o = rows([10, 20, 30]);
    expect([0, 9.9, 10, 29, 30, 59, 60, 1000].map((y) => lineAt(o, y))).toEqual([0, 0, 1, 1, 2, 2, 3, 3]);
  });

  it('renders the visible lines and a margin, not the rest', () => {
    const o = stackOffsets(100000, () => 20);
    // A 300 px view in the middle with 100 px of margin each side: 25 lines, and the one starting at its edge.
    expect(visibleSlice(o, 1000000, 300, 100)).toEqual({ start: 49995, end: 50021 });
    // At the bottom the slice ends with the last line.
    expect(visibleSlice(o, 2000000 - 300, 300, 100)).toEqual({ start: 99980, end: 100000 });
    // Above the top (the view starts before the lines do).
    expect(visibleSlice(o, -50, 300, 0)).toEqual({ start: 0, end: 13 });
  });

  it('keeps one line when the view is past the end or empty', () => {
    expect(visibleSlice(stackOffsets(3, () => 20), 5000, 300, 0)).toEqual({ start: 2, end: 3 });
    expect(visibleSlice(stackOffsets(0, () => 20), 0, 300, 0)).toEqual({ start: 0, end: 0 });
  });

  it('shows a line taller than the view on its own', () => {
    const o = rows([20, 2000, 20]);
    expect(visibleSlice(o, 500, 300, 0)).toEqual({ start: 1, end: 2 });
  });
});

describe('lines of a real console', () => {
  it('measure and find by id after old lines are dropped', () => {
    const m = new ConsoleModel({ maxLines: 100 });
    for (let i = 0; i < 1000; i++) m.write('stdout', `${i}\n`);
    m.write('stdout', '你好 🐢');
    const lines = m.lines();
    expect(lines.length).toBe(101);
    expect(indexOfId(lines, lines[0].id)).toBe(0);
    expect(indexOfId(lines, lines[57].id)).toBe(57);
    expect(indexOfId(lines, lines[100].id)).toBe(100);
    expect(indexOfId(lines, lines[0].id - 1)).toBe(-1);
    expect(indexOfId(lines, lines[100].id + 1)).toBe(-1);
    expect(lineColumns(lines[0])).toBe(3);
    expect(lineColumns(lines[100])).toBe(7);
  });
});
