import { describe, expect, it } from 'vitest';
import { ConsoleModel } from './consoleModel';

function textOf(chunks: string[], opts = {}): string {
  const m = new ConsoleModel(opts);
  for (const c of chunks) m.write('stdout', c);
  return m.text();
}

describe('ConsoleModel text', () => {
  it.each([
    ['plain lines', ['a\nb\n'], 'a\nb'],
    ['open last line', ['ask: '], 'ask: '],
    ['chunks join', ['he', 'llo\nwor', 'ld'], 'hello\nworld'],
    ['carriage return overwrites', ['hello\rab'], 'abllo'],
    ['progress bar', ['10%\r20%\r100%\n'], '100%'],
    ['CRLF keeps the line', ['one\r\ntwo\r\n'], 'one\ntwo'],
    ['CR and LF split across chunks', ['one\r', '\ntwo'], 'one\ntwo'],
    ['backspace moves back', ['abc\b\bX'], 'aXc'],
    ['backspace stops at column 0', ['\b\bab'], 'ab'],
    ['tab is kept', ['a\tb'], 'a\tb'],
    ['empty lines kept', ['\n\nx'], '\n\nx'],
    ['chinese text', ['你好\r再'], '再好'],
    ['a plain chunk after a carriage return overwrites', ['abc\r', 'X\nY'], 'Xbc\nY'],
    ['a plain chunk after a backspace overwrites', ['abc\b', 'Z\n'], 'abZ'],
    ['many plain lines at once', [Array.from({ length: 2000 }, (_, i) => `${i}\n`).join('') + 'end'], Array.from({ length: 2000 }, (_, i) => `${i}`).join('\n') + '\nend'],
  ])('%s', (_name, chunks, want) => {
    expect(textOf(chunks)).toBe(want);
  });
});

describe('ConsoleModel escape sequences', () => {
  it.each([
    ['SGR colour', ['\x1b[31mred\x1b[0m'], 'red'],
    ['cursor movement', ['a\x1b[2Jb\x1b[10;20Hc'], 'abc'],
    ['private mode', ['\x1b[?25lx\x1b[?25h'], 'x'],
    ['CSI split across chunks', ['a\x1b[3', '1mb'], 'ab'],
    ['ESC split from its bracket', ['a\x1b', '[1mb'], 'ab'],
    ['OSC title with BEL', ['\x1b]0;pwned\x07ok'], 'ok'],
    ['OSC hyperlink with ST', ['\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\'], 'link'],
    ['OSC split across chunks', ['\x1b]0;ti', 'tle\x07ok'], 'ok'],
    ['DCS string', ['\x1bPq#0;2;0;0;0\x1b\\after'], 'after'],
    ['two-byte escape', ['\x1bcreset'], 'reset'],
    ['charset escape with intermediate', ['\x1b(Babc'], 'abc'],
    ['8-bit CSI', ['\x9b31mx'], 'x'],
    ['bell and NUL dropped', ['a\x07b\x00c'], 'abc'],
    ['DEL dropped', ['a\x7fb'], 'ab'],
    ['unterminated OSC ends at newline', ['\x1b]0;oops\nvisible'], '\nvisible'],
    ['ESC followed by newline', ['a\x1b\nb'], 'a\nb'],
    ['HTML stays text', ['<img src=x onerror=alert(1)>'], '<img src=x onerror=alert(1)>'],
  ])('%s', (_name, chunks, want) => {
    expect(textOf(chunks)).toBe(want);
  });

  it('abandons an endless CSI instead of swallowing output', () => {
    const t = textOf(['\x1b[' + '1;'.repeat(100) + 'tail']);
    expect(t.endsWith('tail')).toBe(true);
  });

  it('keeps a separate parser per stream', () => {
    const m = new ConsoleModel();
    m.write('stdout', 'a\x1b[3');
    m.write('stderr', 'E');
    m.write('stdout', '1mb');
    expect(m.text()).toBe('aEb');
  });
});

describe('ConsoleModel segments', () => {
  it('colours stdout and stderr separately and merges neighbours', () => {
    const m = new ConsoleModel();
    m.write('stdout', 'out1 ');
    m.write('stdout', 'out2 ');
    m.write('stderr', 'err\n');
    const [line] = m.lines();
    expect(line.segs).toEqual([
      { kind: 'stdout', text: 'out1 out2 ' },
      { kind: 'stderr', text: 'err' },
    ]);
  });

  it('overwrites across segment kinds after \\r', () => {
    const m = new ConsoleModel();
    m.write('stdout', 'aaaa');
    m.write('stderr', '\rbb');
    expect(m.lines()[0].segs).toEqual([
      { kind: 'stderr', text: 'bb' },
      { kind: 'stdout', text: 'aa' },
    ]);
  });

  it('keeps line ids stable and finished lines identical', () => {
    const m = new ConsoleModel();
    m.write('stdout', 'one\ntw');
    const first = m.lines();
    m.write('stdout', 'o\n');
    const second = m.lines();
    expect(second[0]).toBe(first[0]);
    expect(second[1].id).toBe(first[1].id);
    expect(second.map((l) => l.id)).toEqual([first[0].id, first[1].id]);
  });

  it('reports the open line for an inline input box', () => {
    const m = new ConsoleModel();
    m.write('stdout', 'Name? ');
    const id = m.openLineId();
    expect(id).toBe(m.lines()[0].id);
    m.write('input', 'Ada\n');
    expect(m.openLineId()).toBeNull();
    expect(m.lines()[0].segs).toEqual([
      { kind: 'stdout', text: 'Name? ' },
      { kind: 'input', text: 'Ada' },
    ]);
  });
});

describe('ConsoleModel limits', () => {
  it('keeps only the last maxLines lines and counts the rest', () => {
    const m = new ConsoleModel({ maxLines: 3 });
    for (let i = 1; i <= 10; i++) m.write('stdout', `line ${i}\n`);
    expect(m.text()).toBe('line 8\nline 9\nline 10');
    expect(m.dropped).toBe(7);
  });

  it('while the reader holds a line, only lines above it are dropped', () => {
    const m = new ConsoleModel({ maxLines: 3, maxHeldLines: 6 });
    for (let i = 1; i <= 5; i++) m.write('stdout', `line ${i}\n`);
    expect(m.text()).toBe('line 3\nline 4\nline 5');
    const held = m.lines()[1]; // line 4
    m.hold(held.id);
    m.write('stdout', 'line 6\nline 7\nline 8\n');
    // line 3 may go; line 4 and after stay, more than maxLines
    expect(m.text()).toBe('line 4\nline 5\nline 6\nline 7\nline 8');
    expect(m.dropped).toBe(3);
    // past maxHeldLines even the held line goes
    m.write('stdout', 'line 9\nline 10\n');
    expect(m.text()).toBe('line 5\nline 6\nline 7\nline 8\nline 9\nline 10');
    // following the end again: back to maxLines
    m.hold(null);
    expect(m.text()).toBe('line 8\nline 9\nline 10');
    expect(m.dropped).toBe(7);
  });

  it('a held flood stays bounded', () => {
    const m = new ConsoleModel({ maxLines: 5000 });
    m.write('stdout', 'x\n'.repeat(10));
    m.hold(m.lines()[5].id);
    m.write('stdout', 'y\n'.repeat(200_000));
    expect(m.lines().length).toBe(20_000);
  });

  it('wraps a very long line', () => {
    const m = new ConsoleModel({ maxLineChars: 4 });
    m.write('stdout', 'abcdefghij');
    expect(m.text()).toBe('abcd\nefgh\nij');
  });

  it('handles a flood in one chunk', () => {
    const m = new ConsoleModel({ maxLines: 5000 });
    m.write('stdout', 'x\n'.repeat(200_000));
    expect(m.lines().length).toBe(5000);
    expect(m.dropped).toBe(195_000);
  });

  it('clear starts over', () => {
    const m = new ConsoleModel({ maxLines: 1 });
    m.write('stdout', 'a\nb\nc\x1b[');
    m.clear();
    m.write('stdout', '1mz');
    expect(m.text()).toBe('1mz');
    expect(m.dropped).toBe(0);
  });
});
