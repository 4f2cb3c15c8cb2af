// A small Markdown renderer for lesson instructions, which come from files
// anyone may have written (a pack from the internet, say). It parses into a
// tiny tree and builds DOM nodes from it with createElement/textContent, so
// nothing in the text is ever interpreted as HTML: raw HTML shows as text,
// links show only their words, images only their description. No element
// gets an attribute other than the class names chosen here and a numbered
// list's start number. Parsing is linear in the text's length, whatever the
// text, so no lesson can freeze the window.

export type Inline =
  | { t: 'text'; text: string }
  | { t: 'code'; text: string }
  | { t: 'strong'; children: Inline[] }
  | { t: 'em'; children: Inline[] }
  | { t: 'link'; children: Inline[] }
  | { t: 'image'; alt: string }
  | { t: 'br' };

export type Block =
  | { t: 'heading'; level: number; children: Inline[] }
  | { t: 'paragraph'; children: Inline[] }
  | { t: 'code'; text: string }
  | { t: 'list'; ordered: boolean; start: number; items: Block[][] }
  | { t: 'quote'; children: Block[] }
  | { t: 'hr' };

/**
 * The most of a lesson's instructions the task panel shows, in characters:
 * the longest lesson shipped has under 1,000 and a long one a teacher writes
 * about 5,000, so ten times that is room to spare. The rest is left out, and
 * the panel says so (docs/sandbox-limits.md).
 */
export const MAX_INSTRUCTIONS = 50_000;
const MAX_DEPTH = 6;

/**
 * The parser's work: one step per character or node it looks at, native
 * scans counted by the characters they pass. Every pass below is linear, so
 * steps stay within a small multiple of the text's length for any text;
 * tests read this to prove it without a clock.
 */
export const parseWork = { steps: 0 };

/** The first `max` characters (code points, a pair never split) of src, and whether any were left out. */
export function clipInstructions(src: string, max = MAX_INSTRUCTIONS): { text: string; cut: boolean } {
  if (src.length <= max) return { text: src, cut: false };
  let i = 0;
  for (let n = 0; n < max && i < src.length; n++) {
    const c = src.charCodeAt(i);
    const low = src.charCodeAt(i + 1);
    i += c >= 0xd800 && c < 0xdc00 && low >= 0xdc00 && low < 0xe000 ? 2 : 1;
  }
  parseWork.steps += i;
  return i >= src.length ? { text: src, cut: false } : { text: src.slice(0, i), cut: true };
}

// The block patterns below are each linear in the line: anchored, with no
// two unbounded repeats that can share characters. A heading is read by
// hand, as its pattern would not be (headingAt).
const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const HR = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/;
const QUOTE = /^ {0,3}> ?(.*)$/;
const ITEM = /^( {0,3})([-*+]|(\d{1,9})[.)])(?:[ \t]+(.*)|$)/;
const INDENTED = /^\s{2,}\S/;

/** Counts a pattern's pass over a line. */
function scan(line: string): string {
  parseWork.steps += line.length + 1;
  return line;
}

/** Parses instructions (at most [MAX_INSTRUCTIONS] characters of them) into blocks. */
export function parseMarkdown(src: string): Block[] {
  return parseBlocks(clipInstructions(src).text, 0);
}

function parseBlocks(src: string, depth: number): Block[] {
  parseWork.steps += src.length;
  const lines = src.replace(/\r\n?/g, '\n').split('\n');
  const blocks: Block[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = scan(lines[i]);
    if (line.trim() === '') {
      i++;
      continue;
    }
    const fence = FENCE.exec(line);
    if (fence) {
      const body: string[] = [];
      i++;
      while (i < lines.length && !scan(lines[i]).trimStart().startsWith(fence[1])) body.push(lines[i++]);
      i++; // the closing fence, or past the end
      blocks.push({ t: 'code', text: body.join('\n') });
      continue;
    }
    const h = headingAt(line);
    if (h) {
      blocks.push({ t: 'heading', level: h.level, children: parseInline(h.text) });
      i++;
      continue;
    }
    if (HR.test(line)) {
      blocks.push({ t: 'hr' });
      i++;
      continue;
    }
    if (QUOTE.test(line)) {
      const inner: string[] = [];
      while (i < lines.length && scan(lines[i]).trim() !== '') {
        const q = QUOTE.exec(lines[i]);
        inner.push(q ? q[1] : lines[i]);
        i++;
      }
      blocks.push(depth < MAX_DEPTH ? { t: 'quote', children: parseBlocks(inner.join('\n'), depth + 1) } : paragraph(inner));
      continue;
    }
    const item = ITEM.exec(line);
    if (item) {
      const ordered = item[3] !== undefined;
      const start = ordered ? Number(item[3]) : 1;
      const items: string[][] = [];
      while (i < lines.length) {
        const m = ITEM.exec(scan(lines[i]));
        if (m && (m[3] !== undefined) === ordered && m[1].length <= item[1].length + 1) {
          items.push([m[4] ?? '']);
          i++;
          continue;
        }
        // Indented lines (and blank lines followed by them) continue the item.
        if (lines[i].trim() === '') {
          if (i + 1 < lines.length && INDENTED.test(scan(lines[i + 1]))) {
            items[items.length - 1].push('');
            i++;
            continue;
          }
          break;
        }
        if (INDENTED.test(lines[i]) || (!ITEM.test(lines[i]) && !startsBlock(lines[i]))) {
          items[items.length - 1].push(lines[i].replace(/^\s{1,4}/, ''));
          i++;
          continue;
        }
        break;
      }
      blocks.push({
        t: 'list',
        ordered,
        start,
        items: items.map((it) => (depth < MAX_DEPTH ? parseBlocks(it.join('\n'), depth + 1) : [paragraph(it)])),
      });
      continue;
    }
    const para: string[] = [];
    while (i < lines.length && scan(lines[i]).trim() !== '' && (para.length === 0 || !startsBlock(lines[i]))) para.push(lines[i++]);
    blocks.push(paragraph(para));
  }
  return blocks;
}

function startsBlock(line: string): boolean {
  scan(line);
  return FENCE.test(line) || headingAt(line) !== null || HR.test(line) || QUOTE.test(line) || ITEM.test(line);
}

/**
 * A heading line: up to three spaces, one to six `#`, then a space or tab
 * and the words, or nothing; trailing spaces, tabs and `#` are not part of
 * the words. It reads a line as /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?[ \t#]*$/
 * does, in one pass: that pattern's lazy words against the trailing run
 * took minutes on one long line.
 */
export function headingAt(line: string): { level: number; text: string } | null {
  scan(line);
  let p = 0;
  while (p < 3 && line[p] === ' ') p++;
  let r = p;
  while (line[r] === '#') r++;
  const run = r - p;
  if (run === 0) return null;
  const isTail = (c: string) => c === ' ' || c === '\t' || c === '#';
  if (run > 6) {
    // Six make the heading; the rest may be only more of the tail.
    for (let k = p + 6; k < line.length; k++) if (!isTail(line[k])) return null;
    return { level: 6, text: '' };
  }
  if (r === line.length) return { level: run, text: '' };
  if (line[r] !== ' ' && line[r] !== '\t') return null;
  let s = r;
  while (line[s] === ' ' || line[s] === '\t') s++;
  let e = line.length;
  while (e > s && isTail(line[e - 1])) e--;
  // The pattern's `.` stops at these two line separators: such a line is no heading.
  for (let k = s; k < line.length; k++) if (line[k] === '\u2028' || line[k] === '\u2029') return null;
  return { level: run, text: line.slice(s, e) };
}

function paragraph(lines: string[]): Block {
  return { t: 'paragraph', children: parseInline(lines.map((l) => l.trim()).join('\n')) };
}

const ESCAPABLE = '\\`*_{}[]()#+-.!<>|~"\'';
const WORD = /\w/;
const SPACE = /\s/;

// The inline parser is CommonMark's (spec.commonmark.org, "Phase 2: inline
// structure"): one pass left to right puts text, code spans and delimiter
// runs into a linked list and keeps a stack of `*`/`_` runs and one of
// brackets; a `]` makes a link of what follows its bracket, and emphasis is
// matched once per link and once at the end, each opener search stopping
// where the last failed one for that kind of closer stopped. A code span
// ends at the next backtick run of its length, found from lists of the runs
// made once. Each character, run and bracket is looked at a bounded number
// of times, so the work is linear in the text.
//
// Where a run may open or close is this renderer's own rule, kinder to
// Chinese than the spec's (which leaves 点**“运行”**按钮 without bold): a
// run opens when no space follows it and closes when no space comes before
// it; an `_` inside a word (snake_case) does neither.

type Kind = 'text' | 'code' | 'br' | 'em' | 'strong' | 'link' | 'image' | 'delim';

/** One node of the list; containers (em, strong, link) hold a sub-list. */
interface Item {
  k: Kind;
  text: string; // text, code; an em's or strong's delimiter character
  prev: Item | null;
  next: Item | null;
  first: Item | null;
  last: Item | null;
  a: number; // image: its description [a, b); link, image: its target [c, d)
  b: number;
  c: number;
  d: number;
  delim: Delim | null; // delim: its entry on the stack
}

interface Delim {
  node: Item;
  ch: string;
  count: number; // delimiters not yet used
  orig: number;
  canOpen: boolean;
  canClose: boolean;
  seq: number; // order of pushing, delimiters and brackets alike
  prev: Delim | null;
  next: Delim | null;
}

interface Bracket {
  node: Item;
  image: boolean;
  from: number; // where its label starts
  bottom: Delim | null; // the delimiter stack's top when it was pushed
  seq: number;
  prev: Bracket | null;
}

function mk(k: Kind, text = ''): Item {
  return { k, text, prev: null, next: null, first: null, last: null, a: 0, b: 0, c: 0, d: 0, delim: null };
}

class InlineParser {
  private head: Item | null = null;
  private tail: Item | null = null;
  private delims: Delim | null = null;
  private brackets: Bracket | null = null;
  private seq = 0;
  /** Link brackets pushed before this one are inactive: links hold no links. */
  private linkFloor = 0;
  private pending: string[] = [];
  private trailingSpaces = 0;
  /** Starts of backtick runs by length, and how far each list has been passed. */
  private ticks = new Map<number, { at: number[]; next: number }>();
  private paren = -1; // the next `)` at or after parenFrom, or -1 for none
  private parenFrom = -1;

  constructor(private readonly src: string) {}

  parse(): Inline[] {
    const src = this.src;
    this.indexTicks();
    let i = 0;
    while (i < src.length) {
      parseWork.steps++;
      const c = src[i];
      if (c === '\\' && i + 1 < src.length && ESCAPABLE.includes(src[i + 1])) {
        this.addText(src[i + 1]);
        i += 2;
      } else if (c === '\n') {
        // Two trailing spaces make a hard break; otherwise a space.
        if (this.trailingSpaces >= 2) {
          this.dropTrailingSpaces();
          this.append(mk('br'));
        } else this.addText(' ');
        i++;
      } else if (c === '`') i = this.codeSpan(i);
      else if (c === '*' || c === '_') i = this.delimRun(i);
      else if (c === '[' || (c === '!' && src[i + 1] === '[')) {
        const image = c === '!';
        const node = mk('text', image ? '![' : '[');
        this.append(node);
        i += image ? 2 : 1;
        this.brackets = { node, image, from: i, bottom: this.delims, seq: this.seq++, prev: this.brackets };
      } else if (c === ']') i = this.closeBracket(i);
      else {
        let j = i + 1;
        while (j < src.length && !SPECIAL.has(src[j])) j++;
        parseWork.steps += j - i;
        this.addText(src.slice(i, j));
        i = j;
      }
    }
    this.flush();
    this.processEmphasis(null);
    return this.toInlines();
  }

  private indexTicks(): void {
    const src = this.src;
    for (let i = src.indexOf('`'); i >= 0; i = src.indexOf('`', i)) {
      let j = i;
      while (src[j] === '`') j++;
      let list = this.ticks.get(j - i);
      if (!list) this.ticks.set(j - i, (list = { at: [], next: 0 }));
      list.at.push(i);
      i = j;
    }
    parseWork.steps += src.length;
  }

  /** A run of n backticks opens a code span that the next run of exactly n closes. */
  private codeSpan(i: number): number {
    const src = this.src;
    let j = i;
    while (src[j] === '`') j++;
    const n = j - i;
    const list = this.ticks.get(n);
    // Openers come left to right, so each list is passed once.
    while (list && list.next < list.at.length && list.at[list.next] < j) {
      list.next++;
      parseWork.steps++;
    }
    if (!list || list.next >= list.at.length) {
      this.addText(src.slice(i, j));
      return j;
    }
    const end = list.at[list.next];
    parseWork.steps += end - j;
    let text = src.slice(j, end).replace(/\n/g, ' ');
    if (text.length >= 2 && text[0] === ' ' && text[text.length - 1] === ' ') text = text.slice(1, -1);
    this.append(mk('code', text));
    return end + n;
  }

  private delimRun(i: number): number {
    const src = this.src;
    const ch = src[i];
    let j = i;
    while (src[j] === ch) j++;
    parseWork.steps += j - i;
    const before = src[i - 1] ?? '';
    const after = src[j] ?? '';
    let canOpen = after !== '' && !SPACE.test(after);
    let canClose = before !== '' && !SPACE.test(before);
    if (ch === '_') {
      canOpen &&= !WORD.test(before);
      canClose &&= !WORD.test(after);
    }
    const node = mk('delim', ch);
    this.append(node);
    const d: Delim = { node, ch, count: j - i, orig: j - i, canOpen, canClose, seq: this.seq++, prev: this.delims, next: null };
    node.delim = d;
    if (this.delims) this.delims.next = d;
    this.delims = d;
    return j;
  }

  /** `]` closes the nearest bracket: with `(…)` after it, a link or image. */
  private closeBracket(i: number): number {
    const src = this.src;
    const b = this.brackets;
    const close = b && src[i + 1] === '(' ? this.nextParen(i + 2) : -1;
    if (!b || close < 0 || (!b.image && b.seq < this.linkFloor)) {
      if (b) this.brackets = b.prev;
      this.addText(']');
      return i + 1;
    }
    this.flush();
    this.brackets = b.prev;
    this.processEmphasis(b.bottom);
    const link = mk(b.image ? 'image' : 'link');
    link.a = b.from;
    link.b = i;
    link.c = i + 2;
    link.d = close;
    // Everything after the bracket becomes the link's words; an image keeps
    // only its description, as it was written.
    if (!b.image && b.node.next) {
      link.first = b.node.next;
      link.last = this.tail;
      link.first.prev = null;
    }
    this.tail = b.node;
    b.node.next = null;
    this.unlink(b.node);
    this.append(link);
    if (!b.image) this.linkFloor = b.seq;
    return close + 1;
  }

  /** The next `)` at or after from; scans never overlap, as from only grows. */
  private nextParen(from: number): number {
    if (this.parenFrom < 0 || (this.paren >= 0 && this.paren < from)) {
      const p = this.src.indexOf(')', from);
      parseWork.steps += (p < 0 ? this.src.length : p) - from + 1;
      this.paren = p;
      this.parenFrom = from;
    }
    return this.paren;
  }

  /**
   * Matches the delimiter runs above bottom, each closer with the nearest
   * opener before it (CommonMark's process emphasis, with its rule of 3).
   */
  private processEmphasis(bottom: Delim | null): void {
    const floor = bottom ? bottom.seq : -1;
    // For each kind of closer, the opener search stops at or below this.
    const openersBottom = new Array<number>(12).fill(floor);
    if (this.delims === bottom) return;
    let closer = this.delims;
    while (closer && closer.prev !== bottom) {
      closer = closer.prev;
      parseWork.steps++;
    }
    while (closer) {
      parseWork.steps++;
      if (!closer.canClose) {
        closer = closer.next;
        continue;
      }
      const kind = (closer.ch === '*' ? 6 : 0) + (closer.canOpen ? 3 : 0) + (closer.orig % 3);
      let opener = closer.prev;
      let found = false;
      while (opener && opener.seq > openersBottom[kind]) {
        parseWork.steps++;
        const odd = (closer.canOpen || opener.canClose) && closer.orig % 3 !== 0 && (opener.orig + closer.orig) % 3 === 0;
        if (opener.ch === closer.ch && opener.canOpen && !odd) {
          found = true;
          break;
        }
        opener = opener.prev;
      }
      const old = closer;
      if (found && opener) {
        const use = closer.count >= 2 && opener.count >= 2 ? 2 : 1;
        opener.count -= use;
        closer.count -= use;
        const emph = mk(use === 2 ? 'strong' : 'em', closer.ch);
        const o = opener.node;
        const c = closer.node;
        if (o.next !== c) {
          const first = o.next!;
          const last = c.prev!;
          first.prev = last.next = null;
          emph.first = first;
          emph.last = last;
        }
        o.next = emph;
        emph.prev = o;
        emph.next = c;
        c.prev = emph;
        // The runs between are text now.
        opener.next = closer;
        closer.prev = opener;
        if (opener.count === 0) {
          this.unlink(o);
          this.removeDelim(opener);
        }
        if (closer.count === 0) {
          this.unlink(c);
          const next = closer.next;
          this.removeDelim(closer);
          closer = next;
        }
      } else {
        closer = closer.next;
        openersBottom[kind] = old.prev ? old.prev.seq : floor;
        if (!old.canOpen) this.removeDelim(old);
      }
    }
    while (this.delims && this.delims !== bottom) {
      parseWork.steps++;
      this.removeDelim(this.delims);
    }
  }

  private removeDelim(d: Delim): void {
    if (d.prev) d.prev.next = d.next;
    if (d.next) d.next.prev = d.prev;
    else this.delims = d.prev;
  }

  private addText(s: string): void {
    this.pending.push(s);
    let t = 0;
    while (t < s.length && s[s.length - 1 - t] === ' ') t++;
    parseWork.steps += t;
    this.trailingSpaces = t === s.length ? this.trailingSpaces + t : t;
  }

  private dropTrailingSpaces(): void {
    let r = this.trailingSpaces;
    while (r > 0 && this.pending.length) {
      const last = this.pending[this.pending.length - 1];
      if (last.length <= r) {
        this.pending.pop();
        r -= last.length;
      } else {
        this.pending[this.pending.length - 1] = last.slice(0, last.length - r);
        r = 0;
      }
    }
    this.trailingSpaces = 0;
  }

  private flush(): void {
    if (this.pending.length) {
      const node = mk('text', this.pending.join(''));
      this.pending = [];
      this.linkIn(node);
    }
    this.trailingSpaces = 0;
  }

  private append(node: Item): void {
    this.flush();
    this.linkIn(node);
  }

  private linkIn(node: Item): void {
    node.prev = this.tail;
    if (this.tail) this.tail.next = node;
    else this.head = node;
    this.tail = node;
  }

  private unlink(node: Item): void {
    if (node.prev) node.prev.next = node.next;
    else this.head = node.next;
    if (node.next) node.next.prev = node.prev;
    else this.tail = node.prev;
    node.prev = node.next = null;
  }

  /**
   * The list as the Inline tree, texts next to each other joined. Past
   * MAX_DEPTH wrappers a container is kept as the text it was written as.
   */
  private toInlines(): Inline[] {
    const top: Sink = { out: [], pieces: [] };
    const frames: Frame[] = [{ node: this.head, sink: top, depth: 0, after: '' }];
    while (frames.length) {
      const f = frames[frames.length - 1];
      const n = f.node;
      if (!n) {
        frames.pop();
        if (f.after) f.sink.pieces.push(f.after);
        if (!frames.length || frames[frames.length - 1].sink !== f.sink) flushSink(f.sink);
        continue;
      }
      parseWork.steps++;
      f.node = n.next;
      const s = f.sink;
      switch (n.k) {
        case 'text':
          s.pieces.push(n.text);
          break;
        case 'delim':
          s.pieces.push(n.text.repeat(n.delim!.count));
          parseWork.steps += n.delim!.count;
          break;
        case 'code':
          flushSink(s);
          s.out.push({ t: 'code', text: n.text });
          break;
        case 'br':
          flushSink(s);
          s.out.push({ t: 'br' });
          break;
        case 'image': {
          const alt = this.src.slice(n.a, n.b);
          parseWork.steps += n.b - n.a;
          if (f.depth < MAX_DEPTH) {
            flushSink(s);
            s.out.push({ t: 'image', alt });
          } else s.pieces.push(`![${alt}](${this.target(n)})`);
          break;
        }
        case 'em':
        case 'strong':
        case 'link': {
          const mark = n.k === 'link' ? '' : n.k === 'strong' ? n.text + n.text : n.text;
          if (f.depth < MAX_DEPTH) {
            flushSink(s);
            const children: Inline[] = [];
            s.out.push({ t: n.k, children });
            frames.push({ node: n.first, sink: { out: children, pieces: [] }, depth: f.depth + 1, after: '' });
          } else {
            s.pieces.push(n.k === 'link' ? '[' : mark);
            frames.push({ node: n.first, sink: s, depth: f.depth, after: n.k === 'link' ? `](${this.target(n)})` : mark });
          }
          break;
        }
      }
    }
    return top.out;
  }

  private target(n: Item): string {
    parseWork.steps += n.d - n.c;
    return this.src.slice(n.c, n.d);
  }
}

const SPECIAL = new Set(['\\', '\n', '`', '*', '_', '[', ']', '!']);

interface Sink {
  out: Inline[];
  pieces: string[];
}

interface Frame {
  node: Item | null;
  sink: Sink;
  depth: number;
  after: string; // written when the frame ends: a kept container's closing text
}

function flushSink(s: Sink): void {
  if (!s.pieces.length) return;
  const text = s.pieces.join('');
  s.pieces = [];
  if (text) s.out.push({ t: 'text', text });
}

/** Parses emphasis, code spans, links and images; everything else is text. */
export function parseInline(src: string): Inline[] {
  return new InlineParser(src).parse();
}

/** Builds the DOM for Markdown text; only text nodes carry the source's characters. */
export function renderMarkdown(src: string, doc: Document = document): DocumentFragment {
  const frag = doc.createDocumentFragment();
  for (const b of parseMarkdown(src)) frag.append(renderBlock(b, doc));
  return frag;
}

function el(doc: Document, tag: string, className?: string): HTMLElement {
  const e = doc.createElement(tag);
  if (className) e.className = className;
  return e;
}

function renderBlock(b: Block, doc: Document): Node {
  switch (b.t) {
    case 'heading': {
      // Instructions live inside a panel: their headings stay small.
      const h = el(doc, `h${Math.min(6, b.level + 2)}`);
      appendInline(h, b.children, doc);
      return h;
    }
    case 'paragraph': {
      const p = el(doc, 'p');
      appendInline(p, b.children, doc);
      return p;
    }
    case 'code': {
      const pre = el(doc, 'pre');
      const code = el(doc, 'code');
      code.textContent = b.text;
      pre.append(code);
      return pre;
    }
    case 'list': {
      const list = el(doc, b.ordered ? 'ol' : 'ul');
      if (b.ordered && b.start !== 1) (list as HTMLOListElement).start = b.start;
      for (const item of b.items) {
        const li = el(doc, 'li');
        // A one-paragraph item is shown without the paragraph's margins.
        if (item.length === 1 && item[0].t === 'paragraph') appendInline(li, item[0].children, doc);
        else for (const c of item) li.append(renderBlock(c, doc));
        list.append(li);
      }
      return list;
    }
    case 'quote': {
      const q = el(doc, 'blockquote');
      for (const c of b.children) q.append(renderBlock(c, doc));
      return q;
    }
    case 'hr':
      return el(doc, 'hr');
  }
}

function appendInline(parent: HTMLElement, items: Inline[], doc: Document): void {
  for (const it of items) {
    switch (it.t) {
      case 'text':
        parent.append(doc.createTextNode(it.text));
        break;
      case 'code': {
        const c = el(doc, 'code');
        c.textContent = it.text;
        parent.append(c);
        break;
      }
      case 'strong':
      case 'em': {
        const e = el(doc, it.t);
        appendInline(e, it.children, doc);
        parent.append(e);
        break;
      }
      case 'link': {
        const s = el(doc, 'span', 'md-link');
        appendInline(s, it.children, doc);
        parent.append(s);
        break;
      }
      case 'image': {
        const s = el(doc, 'span', 'md-image');
        s.textContent = `🖼 ${it.alt}`;
        parent.append(s);
        break;
      }
      case 'br':
        parent.append(el(doc, 'br'));
        break;
    }
  }
}

/**
 * A lesson written in both languages, as the starter lessons are (a title,
 * then a **中文** section and an **English** section), shown in the window's
 * language only: the title and the chosen section. Any other text is kept
 * whole.
 */
export function inLanguage(src: string, lang: 'zh' | 'en'): string {
  const lines = src.split('\n');
  const zh = lines.findIndex((l) => l.trim() === '**中文**');
  const en = lines.findIndex((l) => l.trim() === '**English**');
  if (zh < 0 || en < 0) return src;
  const [first, second] = zh < en ? [zh, en] : [en, zh];
  const head = lines.slice(0, first);
  const part = (lang === 'zh') === (zh < en) ? lines.slice(first + 1, second) : lines.slice(second + 1);
  return [...head, ...part].join('\n').replace(/\n{3,}/g, '\n\n').trim() + '\n';
}
