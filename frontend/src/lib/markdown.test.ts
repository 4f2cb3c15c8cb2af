import { describe, expect, it } from 'vitest';
import { clipInstructions, headingAt, inLanguage, MAX_INSTRUCTIONS, parseInline, parseMarkdown, parseWork, renderMarkdown } from './markdown';

const ALLOWED = new Set(['H3', 'H4', 'H5', 'H6', 'P', 'PRE', 'CODE', 'UL', 'OL', 'LI', 'STRONG', 'EM', 'BLOCKQUOTE', 'HR', 'SPAN', 'BR']);

function html(src: string): string {
  const div = document.createElement('div');
  div.append(renderMarkdown(src));
  return div.innerHTML;
}

/** Every element is one we make, with no attributes but ours. */
function assertSafe(src: string): HTMLDivElement {
  const div = document.createElement('div');
  div.append(renderMarkdown(src));
  for (const e of div.querySelectorAll('*')) {
    expect(ALLOWED.has(e.tagName), `element ${e.tagName}`).toBe(true);
    for (const a of e.getAttributeNames()) expect(['class', 'start'], `attribute ${a} on ${e.tagName}`).toContain(a);
  }
  return div;
}

describe('parseMarkdown', () => {
  it('reads headings, paragraphs, lists, code and quotes', () => {
    const blocks = parseMarkdown('# 画星星\n\n用 **turtle** 画。\n第二行\n\n- 一\n- 二\n\n1. a\n2. b\n\n```python\nprint("hi")\n```\n\n> 小心\n\n---\n');
    expect(blocks.map((b) => b.t)).toEqual(['heading', 'paragraph', 'list', 'list', 'code', 'quote', 'hr']);
    expect(blocks[4]).toEqual({ t: 'code', text: 'print("hi")' });
    const lists = blocks.filter((b) => b.t === 'list');
    expect(lists.map((l) => l.t === 'list' && [l.ordered, l.items.length])).toEqual([
      [false, 2],
      [true, 2],
    ]);
  });

  it('nests an indented list inside an item', () => {
    const [list] = parseMarkdown('- outer\n  - inner\n- next');
    expect(list.t).toBe('list');
    if (list.t !== 'list') return;
    expect(list.items).toHaveLength(2);
    expect(list.items[0].map((b) => b.t)).toEqual(['paragraph', 'list']);
  });

  it('keeps an unclosed fence as code to the end', () => {
    expect(parseMarkdown('```\na\nb')).toEqual([{ t: 'code', text: 'a\nb' }]);
  });
});

describe('parseInline', () => {
  it('reads emphasis, code and links', () => {
    expect(parseInline('a **b** *c* `d` [e](f)')).toEqual([
      { t: 'text', text: 'a ' },
      { t: 'strong', children: [{ t: 'text', text: 'b' }] },
      { t: 'text', text: ' ' },
      { t: 'em', children: [{ t: 'text', text: 'c' }] },
      { t: 'text', text: ' ' },
      { t: 'code', text: 'd' },
      { t: 'text', text: ' ' },
      { t: 'link', children: [{ t: 'text', text: 'e' }] },
    ]);
  });

  it('leaves snake_case and lone stars alone', () => {
    expect(parseInline('my_turtle_name 2 * 3')).toEqual([{ t: 'text', text: 'my_turtle_name 2 * 3' }]);
  });

  it('honours backslash escapes', () => {
    expect(parseInline('\\*not em\\*')).toEqual([{ t: 'text', text: '*not em*' }]);
  });
});

describe('renderMarkdown', () => {
  it('renders the common shapes', () => {
    expect(html('## Step 1\n\nType `print("hi")` and press **Run**.')).toBe(
      '<h4>Step 1</h4><p>Type <code>print("hi")</code> and press <strong>Run</strong>.</p>',
    );
    expect(html('- a\n- *b*')).toBe('<ul><li>a</li><li><em>b</em></li></ul>');
    expect(html('3. c\n4. d')).toBe('<ol start="3"><li>c</li><li>d</li></ol>');
  });

  it.each([
    ['script tag', '<script>window.pwned = 1</script>'],
    ['img onerror', '<img src=x onerror="window.pwned=1">'],
    ['inline html in a paragraph', 'hello <b onclick="x()">bold</b> <iframe src="https://evil.example"></iframe>'],
    ['javascript link', '[click me](javascript:window.pwned=1)'],
    ['remote image', '![cat](https://evil.example/track.png)'],
    ['html in code', '```\n<script>alert(1)</script>\n```'],
    ['html in a code span', '`<img src=x onerror=alert(1)>`'],
    ['html in a heading and list', '# <svg onload=alert(1)>\n- <a href="javascript:alert(1)">x</a>'],
    ['html in link text', '[<img src=x onerror=alert(1)>](http://x)'],
    ['attribute-looking text', '" onmouseover="alert(1)'],
  ])('%s stays text', (_name, src) => {
    const div = assertSafe(src);
    expect((window as unknown as { pwned?: number }).pwned).toBeUndefined();
    // The text the author wrote is still readable, characters and all.
    if (src.includes('<script>')) expect(div.textContent).toContain('<script>');
  });

  it('shows a link as its words only and an image as its description', () => {
    const div = assertSafe('See [the docs](https://example.com) and ![a cat](cat.png)');
    expect(div.textContent).toBe('See the docs and 🖼 a cat');
    expect(div.innerHTML).not.toContain('example.com');
    expect(div.innerHTML).not.toContain('cat.png');
  });

  it('survives deep nesting and huge input', () => {
    assertSafe('>'.repeat(200) + ' deep\n' + '- '.repeat(100) + 'x\n' + '*'.repeat(5000));
    const big = 'word '.repeat(100_000);
    expect(renderMarkdown(big).textContent!.length).toBeLessThanOrEqual(MAX_INSTRUCTIONS);
  });
});

/** The parser's steps for one text: its work, counted, never timed. */
function work(parse: (src: string) => unknown, src: string): number {
  parseWork.steps = 0;
  parse(src);
  return parseWork.steps;
}

/** s repeated and cut to n characters. */
const fill = (s: string, n: number) => s.repeat(Math.ceil(n / s.length)).slice(0, n);

// Texts that made the old parser rescan to the end for every mark: a lesson
// of 80,001 characters of `x * *` held the window 24–50 s, 50,000 `[` 6–34 s.
const hostileInline: [string, (n: number) => string][] = [
  ['x * * …', (n) => fill('x *', n)],
  ['[[[ …', (n) => '['.repeat(n)],
  ['![![ …', (n) => fill('![', n)],
  ['mixed _ * [ ` ( ', (n) => fill('a_*[`b](', n)],
  ['mixed with escapes', (n) => fill('_a*b[c`d\\', n)],
  ['nested brackets', (n) => '['.repeat(n / 2) + ']'.repeat(n / 2)],
  ['open brackets, then links', (n) => '['.repeat(n / 2) + fill('[a](b)', n / 2)],
  ['links never closed', (n) => fill('[a](', n)],
  ['backtick runs of every length', (n) => {
    let s = '';
    for (let k = 1; s.length < n; k++) s = '`'.repeat(k) + ' ' + s;
    return s.slice(-n);
  }],
  ['runs of stars', (n) => fill('*a**b***c ', n)],
  ['emphasis nested deep', (n) => '*a '.repeat(n / 6) + 'a* '.repeat(n / 6)],
  ['underscores', (n) => fill('_a _b__ c_', n)],
  ['closers first', (n) => fill('a* ', n)],
  ['hard breaks', (n) => fill('a  \n', n)],
];

const hostileBlocks: [string, (n: number) => string][] = [
  ['x * * …', (n) => fill('x *', n)],
  ['[[[ …', (n) => '['.repeat(n)],
  ['a heading with a long run of spaces', (n) => '# a' + ' '.repeat(n - 4) + 'b'],
  ['a heading with a long run of #', (n) => '# ' + '#'.repeat(n - 3) + 'b'],
  ['quotes and lists nested', (n) => fill('> > > > > > > > - - - - x\n', n)],
  ['lists nested', (n) => fill('- a\n  - b\n    - c\n      - d\n', n)],
  ['almost rules', (n) => fill('- - - - x\n', n)],
  ['fences', (n) => fill('```\n', n)],
  ['one line after another', (n) => fill('a\n', n)],
];

/** Steps per character the parser may take; it takes at most about 12. */
const PER_CHAR = 24;

describe('parsing work is linear in the text', () => {
  it.each(hostileInline)('inline: %s', (_name, make) => {
    const small = make(20_000);
    const big = make(80_000);
    const a = work(parseInline, small);
    const b = work(parseInline, big);
    expect(b).toBeLessThanOrEqual(PER_CHAR * big.length);
    // Four times the text, four times the work: a rescan would make it sixteen.
    expect(b / a).toBeLessThanOrEqual(4.5);
  });

  // Both sizes within the bound, so all of each is parsed.
  it.each(hostileBlocks)('blocks: %s', (_name, make) => {
    const small = make(MAX_INSTRUCTIONS / 4 - 500);
    const big = make(MAX_INSTRUCTIONS - 2_000);
    const a = work(parseMarkdown, small);
    const b = work(parseMarkdown, big);
    expect(b).toBeLessThanOrEqual(PER_CHAR * big.length);
    expect(b / a).toBeLessThanOrEqual(4.5);
  });

  it("the red team's texts", () => {
    const stars = fill('x *', 80_001);
    const brackets = '['.repeat(50_000);
    expect(work(parseInline, stars)).toBeLessThanOrEqual(PER_CHAR * stars.length);
    expect(work(parseInline, brackets)).toBeLessThanOrEqual(PER_CHAR * brackets.length);
    // As a lesson, each is cut to the bound first.
    expect(work(parseMarkdown, stars)).toBeLessThanOrEqual(PER_CHAR * MAX_INSTRUCTIONS);
    expect(work(parseMarkdown, 'x'.repeat(8 << 20))).toBeLessThanOrEqual(PER_CHAR * MAX_INSTRUCTIONS);
  });

  it('still reads what such texts hold', () => {
    expect(parseInline('[a [b] c](d) `x` **[e](f)**')).toEqual([
      { t: 'link', children: [{ t: 'text', text: 'a [b] c' }] },
      { t: 'text', text: ' ' },
      { t: 'code', text: 'x' },
      { t: 'text', text: ' ' },
      { t: 'strong', children: [{ t: 'link', children: [{ t: 'text', text: 'e' }] }] },
    ]);
    expect(parseInline('***a*** and ``a ` b`` and `x``')).toEqual([
      { t: 'em', children: [{ t: 'strong', children: [{ t: 'text', text: 'a' }] }] },
      { t: 'text', text: ' and ' },
      { t: 'code', text: 'a ` b' },
      { t: 'text', text: ' and `x``' },
    ]);
    expect(parseInline('点 **“运行”**，_不是_ my_var')).toEqual([
      { t: 'text', text: '点 ' },
      { t: 'strong', children: [{ t: 'text', text: '“运行”' }] },
      { t: 'text', text: '，' },
      { t: 'em', children: [{ t: 'text', text: '不是' }] },
      { t: 'text', text: ' my_var' },
    ]);
    expect(parseInline('点**“运行”**按钮')).toEqual([
      { t: 'text', text: '点' },
      { t: 'strong', children: [{ t: 'text', text: '“运行”' }] },
      { t: 'text', text: '按钮' },
    ]);
  });

  it('keeps emphasis six deep and the rest as written', () => {
    const marks = ['*', '_', '*', '_', '*', '_', '*', '_'];
    const inner = [...marks].reverse();
    const deep = marks.map((m) => `${m}a `).join('') + 'x' + inner.map((m) => ` a${m}`).join('');
    let depth = 0;
    for (let items = parseInline(deep); ; depth++) {
      const next = items.find((i) => 'children' in i);
      if (!next || !('children' in next)) break;
      items = next.children;
    }
    expect(depth).toBe(6);
    const kept = marks.map((m, i) => `${i < 6 ? '' : m}a `).join('') + 'x' + inner.map((m, i) => ` a${i < 2 ? m : ''}`).join('');
    expect(renderMarkdown(deep).textContent).toBe(kept);
  });
});

describe('headingAt', () => {
  // The pattern it replaces: right, but minutes long on one long line.
  const HEADING = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?[ \t#]*$/;

  it('reads every short line as the pattern does', () => {
    const alphabet = [' ', '\t', '#', 'a', '\u2028'];
    const lines = [''];
    for (let len = 1, from = 0; len <= 6; len++) {
      const to = lines.length;
      for (let i = from; i < to; i++) for (const c of alphabet) lines.push(lines[i] + c);
      from = to;
    }
    const differ: string[] = [];
    let headings = 0;
    for (const line of lines) {
      const m = HEADING.exec(line);
      const got = headingAt(line);
      if (m) headings++;
      if (m ? got?.level !== m[1].length || got.text !== (m[2] ?? '') : got !== null) differ.push(line);
    }
    expect(differ).toEqual([]);
    expect(headings).toBeGreaterThan(1000);
  });
});

describe('the bound on instructions', () => {
  it('keeps the first MAX_INSTRUCTIONS characters and says when some are left out', () => {
    expect(clipInstructions('abc')).toEqual({ text: 'abc', cut: false });
    const exact = 'x'.repeat(MAX_INSTRUCTIONS);
    expect(clipInstructions(exact)).toEqual({ text: exact, cut: false });
    const over = clipInstructions(exact + 'y');
    expect(over.cut).toBe(true);
    expect(over.text).toBe(exact);
  });

  it('counts characters, never splitting one in two', () => {
    const faces = clipInstructions('😀'.repeat(MAX_INSTRUCTIONS + 1));
    expect(faces.cut).toBe(true);
    expect([...faces.text]).toHaveLength(MAX_INSTRUCTIONS);
    expect(faces.text.endsWith('😀')).toBe(true);
    expect(clipInstructions('😀'.repeat(MAX_INSTRUCTIONS))).toMatchObject({ cut: false });
    // MAX_INSTRUCTIONS + 1 code units that are MAX_INSTRUCTIONS characters.
    expect(clipInstructions('😀' + 'x'.repeat(MAX_INSTRUCTIONS - 1))).toMatchObject({ cut: false });
  });

  it('is the bound the renderer reads to', () => {
    const text = renderMarkdown('abc '.repeat(MAX_INSTRUCTIONS)).textContent!;
    expect(text).toBe('abc '.repeat(MAX_INSTRUCTIONS / 4).trim());
  });
});

describe('inLanguage', () => {
  const both = '# 金色的星星 ⭐ A golden star\n\n**中文**\n\n1. 点 **运行**。\n\n**English**\n\n1. Press **Run**.\n';
  it("keeps the title and the window's language of a lesson written in both", () => {
    expect(inLanguage(both, 'zh')).toBe('# 金色的星星 ⭐ A golden star\n\n1. 点 **运行**。\n');
    expect(inLanguage(both, 'en')).toBe('# 金色的星星 ⭐ A golden star\n\n1. Press **Run**.\n');
  });
  it('keeps any other text whole', () => {
    expect(inLanguage('# Hi\n\nJust English.\n', 'zh')).toBe('# Hi\n\nJust English.\n');
  });
});
