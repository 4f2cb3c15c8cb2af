// A small Markdown renderer for lesson instructions, which come from files
// anyone may have written (a pack from the internet, say). It parses into a
// tiny tree and builds DOM nodes from it with createElement/textContent, so
// nothing in the text is ever interpreted as HTML: raw HTML shows as text,
// links show only their words, images only their description. No element
// gets an attribute other than the class names chosen here and a numbered
// list's start number.

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

/** Bounds that keep a hostile file from making the page slow. */
const MAX_SOURCE = 200_000;
const MAX_DEPTH = 6;

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const HEADING = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?[ \t#]*$/;
const HR = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/;
const QUOTE = /^ {0,3}> ?(.*)$/;
const ITEM = /^( {0,3})([-*+]|(\d{1,9})[.)])(?:[ \t]+(.*)|$)/;

export function parseMarkdown(src: string, depth = 0): Block[] {
  const lines = src.slice(0, MAX_SOURCE).replace(/\r\n?/g, '\n').split('\n');
  const blocks: Block[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    if (line.trim() === '') {
      i++;
      continue;
    }
    const fence = FENCE.exec(line);
    if (fence) {
      const body: string[] = [];
      i++;
      while (i < lines.length && !lines[i].trimStart().startsWith(fence[1])) body.push(lines[i++]);
      i++; // the closing fence, or past the end
      blocks.push({ t: 'code', text: body.join('\n') });
      continue;
    }
    const h = HEADING.exec(line);
    if (h) {
      blocks.push({ t: 'heading', level: h[1].length, children: parseInline(h[2] ?? '') });
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
      while (i < lines.length && lines[i].trim() !== '') {
        const q = QUOTE.exec(lines[i]);
        inner.push(q ? q[1] : lines[i]);
        i++;
      }
      blocks.push(depth < MAX_DEPTH ? { t: 'quote', children: parseMarkdown(inner.join('\n'), depth + 1) } : paragraph(inner));
      continue;
    }
    const item = ITEM.exec(line);
    if (item) {
      const ordered = item[3] !== undefined;
      const start = ordered ? Number(item[3]) : 1;
      const items: string[][] = [];
      while (i < lines.length) {
        const m = ITEM.exec(lines[i]);
        if (m && (m[3] !== undefined) === ordered && m[1].length <= item[1].length + 1) {
          items.push([m[4] ?? '']);
          i++;
          continue;
        }
        // Indented lines (and blank lines followed by them) continue the item.
        if (lines[i].trim() === '') {
          if (i + 1 < lines.length && /^\s{2,}\S/.test(lines[i + 1])) {
            items[items.length - 1].push('');
            i++;
            continue;
          }
          break;
        }
        if (/^\s{2,}\S/.test(lines[i]) || (!ITEM.test(lines[i]) && !startsBlock(lines[i]))) {
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
        items: items.map((it) => (depth < MAX_DEPTH ? parseMarkdown(it.join('\n'), depth + 1) : [paragraph(it)])),
      });
      continue;
    }
    const para: string[] = [];
    while (i < lines.length && lines[i].trim() !== '' && (para.length === 0 || !startsBlock(lines[i]))) para.push(lines[i++]);
    blocks.push(paragraph(para));
  }
  return blocks;
}

function startsBlock(line: string): boolean {
  return FENCE.test(line) || HEADING.test(line) || HR.test(line) || QUOTE.test(line) || ITEM.test(line);
}

function paragraph(lines: string[]): Block {
  return { t: 'paragraph', children: parseInline(lines.map((l) => l.trim()).join('\n')) };
}

const ESCAPABLE = '\\`*_{}[]()#+-.!<>|~"\'';

/** Parses emphasis, code spans, links and images; everything else is text. */
export function parseInline(src: string, depth = 0): Inline[] {
  const out: Inline[] = [];
  let text = '';
  const flush = () => {
    if (text) out.push({ t: 'text', text });
    text = '';
  };
  let i = 0;
  while (i < src.length) {
    const c = src[i];
    if (c === '\\' && i + 1 < src.length && ESCAPABLE.includes(src[i + 1])) {
      text += src[i + 1];
      i += 2;
      continue;
    }
    if (c === '\n') {
      // Two trailing spaces or a backslash make a hard break; otherwise a space.
      if (text.endsWith('  ')) {
        text = text.replace(/ +$/, '');
        flush();
        out.push({ t: 'br' });
      } else {
        text += ' ';
      }
      i++;
      continue;
    }
    if (c === '`') {
      let n = 0;
      while (src[i + n] === '`') n++;
      const ticks = '`'.repeat(n);
      const end = src.indexOf(ticks, i + n);
      if (end > 0) {
        flush();
        out.push({ t: 'code', text: src.slice(i + n, end).replace(/\n/g, ' ').replace(/^ (.*) $/, '$1') });
        i = end + n;
        continue;
      }
      text += ticks;
      i += n;
      continue;
    }
    if ((c === '*' || c === '_') && depth < MAX_DEPTH) {
      const double = src[i + 1] === c;
      const marker = double ? c + c : c;
      const open = i + marker.length;
      const end = findClose(src, marker, open);
      if (end > open && src[open] !== ' ' && !(c === '_' && /\w/.test(src[i - 1] ?? ''))) {
        flush();
        const children = parseInline(src.slice(open, end), depth + 1);
        out.push(double ? { t: 'strong', children } : { t: 'em', children });
        i = end + marker.length;
        continue;
      }
    }
    if (c === '[' || (c === '!' && src[i + 1] === '[')) {
      const image = c === '!';
      const m = linkAt(src, image ? i + 1 : i);
      if (m && depth < MAX_DEPTH) {
        flush();
        out.push(image ? { t: 'image', alt: m.label } : { t: 'link', children: parseInline(m.label, depth + 1) });
        i = m.end;
        continue;
      }
    }
    text += c;
    i++;
  }
  flush();
  return out;
}

function findClose(src: string, marker: string, from: number): number {
  for (let j = from; j < src.length; j++) {
    if (src[j] === '\\') {
      j++;
      continue;
    }
    if (src[j] === '`') {
      const e = src.indexOf('`', j + 1);
      if (e > 0) j = e;
      continue;
    }
    if (src.startsWith(marker, j) && src[j - 1] !== ' ' && (marker.length === 2 || src[j + 1] !== marker)) return j;
  }
  return -1;
}

/** `[label](target)` at i: the label and where the construct ends. */
function linkAt(src: string, i: number): { label: string; end: number } | null {
  let depth = 0;
  let j = i;
  for (; j < src.length; j++) {
    if (src[j] === '\\') j++;
    else if (src[j] === '[') depth++;
    else if (src[j] === ']' && --depth === 0) break;
  }
  if (j >= src.length || src[j + 1] !== '(') return null;
  const close = src.indexOf(')', j + 2);
  if (close < 0) return null;
  return { label: src.slice(i + 1, j), end: close + 1 };
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
