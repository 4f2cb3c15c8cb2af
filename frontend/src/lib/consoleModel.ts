// The console's text model: what a child's program printed, as lines of
// coloured segments. It behaves like a simple terminal for the few controls
// programs really use (newline, carriage return, backspace, tab) and never
// interprets anything else: ANSI CSI/OSC/DCS sequences and other control
// characters are removed, so printed text can never restyle or script the page.

export type SegKind = 'stdout' | 'stderr' | 'input';

export interface Seg {
  readonly kind: SegKind;
  readonly text: string;
}

export interface Line {
  /** Stable per line, for keyed rendering. */
  readonly id: number;
  readonly segs: readonly Seg[];
}

export interface ConsoleOptions {
  /** Finished lines kept; older ones are dropped and counted in `dropped`. */
  maxLines?: number;
  /** Finished lines kept while the reader holds one (`hold`): past this, even those go. */
  maxHeldLines?: number;
  /** A longer line is wrapped onto a new line so each update stays small. */
  maxLineChars?: number;
}

const ESC = '\x1b';
// A sequence that never ends (a stray ESC [ or ESC ]) must not swallow the
// rest of the output; past these lengths it is abandoned.
const MAX_CSI = 64;
const MAX_STRING = 4096;

// Characters the filter has to look at: C0 controls but tab and newline, DEL and C1.
const NEEDS_FILTER = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/;

const CURSOR_MOVES = /[\r\b]/;

type ParseState = 'text' | 'esc' | 'escInter' | 'csi' | 'str' | 'strEsc';

class EscapeFilter {
  state: ParseState = 'text';
  seqLen = 0;

  /** Returns the text with escape sequences and unsupported controls removed. */
  filter(input: string): string {
    // Most output has no control but newline and tab: nothing to remove.
    if (this.state === 'text' && !NEEDS_FILTER.test(input)) return input;
    let out = '';
    for (let i = 0; i < input.length; i++) {
      const ch = input[i];
      const code = ch.charCodeAt(0);
      switch (this.state) {
        case 'text':
          if (ch === ESC) {
            this.enter('esc');
          } else if (code === 0x9b) {
            this.enter('csi');
          } else if (code === 0x9d || code === 0x90 || code === 0x98 || code === 0x9e || code === 0x9f) {
            this.enter('str');
          } else if (code === 0x0a || code === 0x0d || code === 0x08 || code === 0x09) {
            out += ch;
          } else if (code < 0x20 || code === 0x7f || (code >= 0x80 && code <= 0x9f)) {
            // other C0/C1 controls: dropped
          } else {
            out += ch;
          }
          break;
        case 'esc':
          if (ch === '[') this.enter('csi');
          else if (ch === ']' || ch === 'P' || ch === 'X' || ch === '^' || ch === '_') this.enter('str');
          else if (code >= 0x20 && code <= 0x2f) this.enter('escInter');
          else if (code >= 0x30 && code <= 0x7e) this.state = 'text';
          else {
            this.state = 'text';
            i--; // not a sequence: let the character be handled as text
          }
          break;
        case 'escInter':
          if (code >= 0x20 && code <= 0x2f && ++this.seqLen < MAX_CSI) break;
          this.state = 'text';
          if (!(code >= 0x30 && code <= 0x7e)) i--;
          break;
        case 'csi':
          if (code >= 0x20 && code <= 0x3f && ++this.seqLen < MAX_CSI) break;
          this.state = 'text';
          if (!(code >= 0x40 && code <= 0x7e)) i--;
          break;
        case 'str':
          if (ch === '\x07' || code === 0x9c) this.state = 'text';
          else if (ch === ESC) this.state = 'strEsc';
          else if (ch === '\n' || ++this.seqLen >= MAX_STRING) {
            this.state = 'text';
            if (ch === '\n') i--;
          }
          break;
        case 'strEsc':
          this.state = 'text';
          if (ch !== '\\') i--; // ESC ends the string; anything else starts over as text
          break;
      }
    }
    return out;
  }

  private enter(s: ParseState) {
    this.state = s;
    this.seqLen = 0;
  }
}

interface OpenLine {
  id: number;
  segs: Seg[];
  len: number;
}

export class ConsoleModel {
  readonly maxLines: number;
  readonly maxHeldLines: number;
  readonly maxLineChars: number;
  private droppedLines = 0;
  /** The line the reader is on (see hold), or null. */
  private held: number | null = null;

  private done: Line[] = [];
  private cur: OpenLine;
  private col = 0;
  private nextId = 1;
  private filters: Record<SegKind, EscapeFilter> = {
    stdout: new EscapeFilter(),
    stderr: new EscapeFilter(),
    input: new EscapeFilter(),
  };

  constructor(opts: ConsoleOptions = {}) {
    this.maxLines = opts.maxLines ?? 5000;
    this.maxHeldLines = Math.max(this.maxLines, opts.maxHeldLines ?? 4 * this.maxLines);
    this.maxLineChars = opts.maxLineChars ?? 4000;
    this.cur = this.newLine();
  }

  write(kind: SegKind, raw: string): void {
    const text = this.filters[kind].filter(raw);
    if (!CURSOR_MOVES.test(text)) {
      // Plain lines, as floods are: whole runs between newlines at once.
      const parts = text.split('\n');
      for (let i = 0; i < parts.length; i++) {
        if (i > 0) this.endLine();
        if (parts[i]) this.put(kind, parts[i]);
      }
      return;
    }
    let run = '';
    const flush = () => {
      if (run) this.put(kind, run);
      run = '';
    };
    for (const ch of text) {
      if (ch === '\n') {
        flush();
        this.endLine();
      } else if (ch === '\r') {
        flush();
        this.col = 0;
      } else if (ch === '\b') {
        flush();
        if (this.col > 0) this.col--;
      } else {
        run += ch;
      }
    }
    flush();
  }

  /** Finished lines dropped from the top because of maxLines. */
  get dropped(): number {
    this.trim();
    return this.droppedLines;
  }

  /**
   * The reader scrolled up to the line with this id (null: they follow the
   * end again). Old lines are dropped above it only: it and the lines after
   * it stay, so what is being read does not go away, until maxHeldLines
   * are kept.
   */
  hold(id: number | null): void {
    this.held = id;
  }

  clear(): void {
    this.done = [];
    this.droppedLines = 0;
    this.held = null;
    this.cur = this.newLine();
    this.col = 0;
    for (const f of Object.values(this.filters)) f.state = 'text';
  }

  /** All lines, the open (unfinished) one last if it has any text. Finished lines keep their identity between calls. */
  lines(): Line[] {
    this.trim();
    const out = this.done.slice();
    if (this.cur.len > 0) out.push({ id: this.cur.id, segs: this.cur.segs.slice() });
    return out;
  }

  /** The id of the unfinished last line, or null when the cursor is at the start of a fresh line. */
  openLineId(): number | null {
    return this.cur.len > 0 ? this.cur.id : null;
  }

  /** Plain text of everything kept, for tests and copying. */
  text(): string {
    return this.lines()
      .map((l) => l.segs.map((s) => s.text).join(''))
      .join('\n');
  }

  private trim(): void {
    let extra = this.done.length - this.maxLines;
    if (extra > 0 && this.held !== null) {
      // Only the lines above the held one may go (ids grow down the console).
      const held = this.held;
      let lo = 0;
      let hi = this.done.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (this.done[mid].id < held) lo = mid + 1;
        else hi = mid;
      }
      extra = Math.max(Math.min(extra, lo), this.done.length - this.maxHeldLines);
    }
    if (extra > 0) {
      this.done.splice(0, extra);
      this.droppedLines += extra;
    }
  }

  private newLine(): OpenLine {
    return { id: this.nextId++, segs: [], len: 0 };
  }

  private endLine(): void {
    this.done.push({ id: this.cur.id, segs: this.cur.segs });
    // Trimming in batches keeps a flood linear: one splice per maxLines lines.
    if (this.done.length >= (this.held === null ? 2 * this.maxLines : this.maxHeldLines + this.maxLines)) this.trim();
    this.cur = this.newLine();
    this.col = 0;
  }

  private put(kind: SegKind, text: string): void {
    while (text.length > 0) {
      const room = this.maxLineChars - this.col;
      if (room <= 0) {
        this.endLine();
        continue;
      }
      const part = text.slice(0, room);
      text = text.slice(part.length);
      this.overwrite(kind, part);
    }
  }

  /** Writes at the cursor, replacing what is under it (what a terminal does after \r). */
  private overwrite(kind: SegKind, text: string): void {
    const line = this.cur;
    const start = this.col;
    const end = start + text.length;
    if (start === line.len) {
      const last = line.segs[line.segs.length - 1];
      if (last && last.kind === kind) line.segs[line.segs.length - 1] = { kind, text: last.text + text };
      else line.segs.push({ kind, text });
    } else {
      const before = sliceSegs(line.segs, 0, start);
      const after = sliceSegs(line.segs, end, line.len);
      line.segs = mergeSegs([...before, { kind, text }, ...after]);
    }
    line.len = Math.max(line.len, end);
    this.col = end;
  }
}

function sliceSegs(segs: readonly Seg[], from: number, to: number): Seg[] {
  const out: Seg[] = [];
  let pos = 0;
  for (const s of segs) {
    const a = Math.max(from, pos);
    const b = Math.min(to, pos + s.text.length);
    if (a < b) out.push({ kind: s.kind, text: s.text.slice(a - pos, b - pos) });
    pos += s.text.length;
  }
  return out;
}

function mergeSegs(segs: Seg[]): Seg[] {
  const out: Seg[] = [];
  for (const s of segs) {
    const last = out[out.length - 1];
    if (last && last.kind === s.kind) out[out.length - 1] = { kind: s.kind, text: last.text + s.text };
    else if (s.text) out.push(s);
  }
  return out;
}
