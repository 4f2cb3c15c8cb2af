import { describe, expect, it } from 'vitest';
import { defaultLimits, type RunOutcome, type RunResult } from '../lib/contract.gen';
import { describeResult, headline } from '../lib/outcome';
import { codeOfInput, limitMessage, summaryForTutor, viewOfResult } from './result';

const PNG = 'iVBORw0KGgo=';
const SVG = 'PHN2Zy8+';
const drawing = {
  width: 400,
  height: 400,
  view: [-200, -200, 400, 400],
  bg: '#ffffff',
  steps: [{ k: 'move', t: 0, s: 6, x1: 0, y1: 0, x2: 100, y2: 0, c: '#ff0000', w: 1 }],
  turtles: [],
  truncated: false,
};

describe('viewOfResult from structuredContent (run --json)', () => {
  it('shows output, the drawing to replay, its SVG and the charts', () => {
    const v = viewOfResult({
      content: [{ type: 'text', text: 'ignored when structuredContent is there' }],
      structuredContent: {
        status: 'ok',
        stdout: '你好 ⭐\n',
        stderr: '',
        error: null,
        images: [
          { mime: 'image/svg+xml', data: SVG },
          { mime: 'image/png', data: PNG },
          { mime: 'image/png', data: PNG },
        ],
        drawing,
      },
    });
    expect(v.status).toBe('ok');
    expect(v.stdout).toBe('你好 ⭐\n');
    expect(v.drawing?.steps).toHaveLength(1);
    expect(v.picture).toBe(`data:image/svg+xml;base64,${SVG}`);
    expect(v.plots).toEqual([`data:image/png;base64,${PNG}`, `data:image/png;base64,${PNG}`]);
  });

  it('keeps the error with its hint and line, and the limit message', () => {
    const v = viewOfResult({
      structuredContent: {
        status: 'timeout',
        stdout: '',
        stderr: 'Traceback…',
        error: { type: 'ZeroDivisionError', message: 'division by zero', line: 2, hint: '不能除以 0' },
        message: '运行超过 10 秒',
        images: null,
      },
      isError: true,
    });
    expect(v.status).toBe('timeout');
    expect(v.error).toEqual({ type: 'ZeroDivisionError', message: 'division by zero', line: 2, hint: '不能除以 0' });
    expect(v.message).toBe('运行超过 10 秒');
    expect(v.plots).toEqual([]);
    expect(v.picture).toBeNull();
  });

  it('replays no drawing whose steps were cut, and shows its SVG instead', () => {
    const v = viewOfResult({ structuredContent: { status: 'ok', images: [{ mime: 'image/svg+xml', data: SVG }], drawing: { ...drawing, steps_cut: true } } });
    expect(v.drawing).toBeNull();
    expect(v.picture).toContain('image/svg+xml');
  });

  it('takes a picture sent once, as an image block, from the content (kidcoder mcp)', () => {
    const v = viewOfResult({
      content: [
        { type: 'text', text: 'hi' },
        { type: 'image', mimeType: 'image/png', data: PNG },
        { type: 'image', mimeType: 'image/png', data: 'iVBORw0KGgoA' },
      ],
      structuredContent: {
        status: 'ok',
        images: [
          { mime: 'image/svg+xml', data: '' },
          { mime: 'image/png', data: '' },
        ],
        drawing: null,
      },
    });
    expect(v.picture).toBe(`data:image/png;base64,${PNG}`);
    expect(v.plots).toEqual(['data:image/png;base64,iVBORw0KGgoA']);
  });

  it('drops pictures that are not base64 PNG or SVG, and unknown statuses read as errors', () => {
    const v = viewOfResult({
      structuredContent: {
        status: 'exploded',
        images: [
          { mime: 'text/html', data: PNG },
          { mime: 'image/png', data: '"><script>' },
        ],
      },
    });
    expect(v.status).toBe('error');
    expect(v.plots).toEqual([]);
    expect(v.picture).toBeNull();
  });
});

describe('viewOfResult from content blocks alone', () => {
  it('reads the text, the SVG resource and the charts after the turtle PNG', () => {
    const v = viewOfResult({
      content: [
        { type: 'text', text: 'Hello 🐢' },
        { type: 'image', mimeType: 'image/png', data: 'AAAA' },
        { type: 'resource', resource: { uri: 'x', mimeType: 'image/svg+xml', text: '<svg/>' } },
        { type: 'image', mimeType: 'image/png', data: PNG },
      ],
    });
    expect(v.status).toBe('ok');
    expect(v.stdout).toBe('Hello 🐢');
    expect(v.picture).toBe(`data:image/svg+xml;charset=utf-8,${encodeURIComponent('<svg/>')}`);
    expect(v.plots).toEqual([`data:image/png;base64,${PNG}`]);
  });

  it('marks an isError result as an error', () => {
    const v = viewOfResult({ content: [{ type: 'text', text: 'code is larger than 1 MiB' }], isError: true });
    expect(v.status).toBe('error');
    expect(v.stdout).toBe('code is larger than 1 MiB');
  });
});

describe('codeOfInput', () => {
  it('takes the code argument only when it is text', () => {
    expect(codeOfInput({ code: 'print(1)' })).toBe('print(1)');
    expect(codeOfInput({ code: 3 })).toBeNull();
    expect(codeOfInput(undefined)).toBeNull();
  });
});

describe('summaryForTutor', () => {
  it('gives the tutor the program, the status, the output and the error', () => {
    const v = viewOfResult({
      structuredContent: {
        status: 'error',
        stdout: 'hi\n',
        error: { type: 'ZeroDivisionError', message: 'division by zero', line: 2, hint: '…' },
        images: [{ mime: 'image/png', data: PNG }],
      },
    });
    const text = summaryForTutor('print("hi")\nprint(1/0)', v);
    expect(text).toContain('status: error');
    expect(text).toContain('print(1/0)');
    expect(text).toContain('Output:\nhi');
    expect(text).toContain('ZeroDivisionError: division by zero (line 2)');
    expect(text).toContain('1 chart(s)');
  });

  it('cuts long output', () => {
    const v = viewOfResult({ structuredContent: { status: 'ok', stdout: 'x'.repeat(5000) } });
    const text = summaryForTutor('print("x" * 5000)', v);
    expect(text.length).toBeLessThan(2300);
    expect(text).toContain('[… 3000 more characters]');
  });
});

describe('limitMessage', () => {
  it('words the outcome from the catalogue in the card’s language, as the window does', () => {
    const v = viewOfResult({
      structuredContent: {
        status: 'timeout',
        stdout: '',
        message: '😴 游戏收起来了：5 分钟没有按键也没有点击。想再玩就再按一次运行吧！',
        outcome: { key: 'limit.quiet', values: { minutes: '5', seconds: '10' } },
      },
    });
    expect(v.outcome).toEqual({ key: 'limit.quiet', values: { minutes: '5', seconds: '10' } });
    expect(limitMessage(v, 'en')).toBe(headline('en', describeResult(windowResult(v.outcome!))));
    expect(limitMessage(v, 'en')).toBe('😴 The game was put away: no keys or clicks for 5 minutes. Press Run to play again!');
    expect(limitMessage(v, 'zh')).toBe(headline('zh', describeResult(windowResult(v.outcome!))));
  });

  it('keeps the run’s own message without an outcome, and drops an outcome that is not the catalogue’s', () => {
    const v = viewOfResult({ structuredContent: { status: 'timeout', message: '运行超过 10 秒', outcome: { key: 'limit.nope', values: {} } } });
    expect(v.outcome).toBeNull();
    expect(limitMessage(v, 'en')).toBe('运行超过 10 秒');
    expect(limitMessage(viewOfResult({ structuredContent: { status: 'ok' } }), 'en')).toBe('');
  });
});

function windowResult(outcome: RunOutcome): RunResult {
  return { status: 'timeout', exit_code: 124, duration_ms: 1, stdout: '', stderr: '', truncated: false, error: null, images: null, limits: defaultLimits, outcome };
}
