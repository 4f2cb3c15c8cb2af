import { describe, expect, it } from 'vitest';
import { inLanguage, parseInline, parseMarkdown, renderMarkdown } from './markdown';

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
    expect(renderMarkdown(big).textContent!.length).toBeLessThanOrEqual(200_000);
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
