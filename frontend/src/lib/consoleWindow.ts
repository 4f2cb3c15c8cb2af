// The console's virtual window: which lines to put in the page so that only
// what is on screen (and a margin) is rendered, however many lines a program
// printed. Heights are estimated from a line's width in columns and replaced
// by the measured height once a line has been on screen.

import type { Line } from './consoleModel';

// East Asian wide and fullwidth characters and emoji take two columns in a
// monospace font; everything else one (combining marks are rare in output).
const WIDE =
  /[\u1100-\u115F\u2E80-\u303E\u3041-\u33FF\u3400-\u4DBF\u4E00-\u9FFF\uA000-\uA4CF\uAC00-\uD7A3\uF900-\uFAFF\uFE30-\uFE4F\uFF00-\uFF60\uFFE0-\uFFE6\u{1F300}-\u{1F64F}\u{1F900}-\u{1F9FF}\u{1FA70}-\u{1FAFF}\u{20000}-\u{3FFFD}]/u;

const TAB = 4;

/** The width of text in monospace columns. */
export function textColumns(text: string): number {
  let cols = 0;
  for (const ch of text) {
    if (ch === '\t') cols += TAB - (cols % TAB);
    else if (ch.charCodeAt(0) < 0x1100) cols++;
    else cols += WIDE.test(ch) ? 2 : 1;
  }
  return cols;
}

const columnsOf = new WeakMap<Line, number>();

/** textColumns of a whole line, remembered: finished lines never change. */
export function lineColumns(line: Line): number {
  let n = columnsOf.get(line);
  if (n === undefined) {
    n = 0;
    for (const s of line.segs) n += textColumns(s.text);
    columnsOf.set(line, n);
  }
  return n;
}

/**
 * Rows a line wraps onto at perRow columns a row. A short line of one
 * colour is one row without counting its columns: floods are made of them,
 * and every line is estimated again each time output arrives.
 */
export function lineRows(line: Line, perRow: number): number {
  const segs = line.segs;
  if (segs.length === 0) return 1;
  if (segs.length === 1) {
    const t = segs[0].text;
    // Each UTF-16 unit is at most two columns unless it is a tab.
    if (t.length * 2 <= perRow && t.indexOf('\t') < 0) return 1;
  }
  return rowsFor(lineColumns(line), perRow);
}

/** Rows a line of this many columns wraps onto at perRow columns a row; an empty line still takes one. */
export function rowsFor(columns: number, perRow: number): number {
  return Math.max(1, Math.ceil(columns / Math.max(1, perRow)));
}

/**
 * Top offsets of n lines stacked without gaps: offsets[i] is where line i
 * starts, offsets[n] the total height.
 */
export function stackOffsets(n: number, heightOf: (i: number) => number): Float64Array {
  const out = new Float64Array(n + 1);
  for (let i = 0; i < n; i++) out[i + 1] = out[i] + heightOf(i);
  return out;
}

/** The first line whose bottom is below y (n when y is past the end). */
export function lineAt(offsets: Float64Array, y: number): number {
  const n = offsets.length - 1;
  let lo = 0;
  let hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (offsets[mid + 1] <= y) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export interface Slice {
  /** First line rendered. */
  start: number;
  /** One past the last line rendered. */
  end: number;
}

/**
 * The lines to render for a view from top to top+height (both in the lines'
 * own coordinates), with margin pixels more above and below.
 */
export function visibleSlice(offsets: Float64Array, top: number, height: number, margin: number): Slice {
  const n = offsets.length - 1;
  if (n === 0) return { start: 0, end: 0 };
  const start = Math.min(n - 1, lineAt(offsets, Math.max(0, top - margin)));
  const end = Math.min(n, Math.max(start + 1, lineAt(offsets, top + height + margin) + 1));
  return { start, end };
}

/** Where the line with this id is; ids grow down the console. -1 if it is gone. */
export function indexOfId(lines: readonly Line[], id: number): number {
  let lo = 0;
  let hi = lines.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const v = lines[mid].id;
    if (v === id) return mid;
    if (v < id) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}
