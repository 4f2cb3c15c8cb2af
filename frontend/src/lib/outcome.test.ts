import { describe, expect, it } from 'vitest';
import limitTexts from '../../../python/messages.json?group=limit';
import setupTexts from '../../../python/messages.json?group=setup';
import type { RunResult } from './backend';
import { outcomeText } from './catalogue';
import { defaultLimits, type OutcomeKey, type RunOutcome } from './contract.gen';
import { translate } from './i18n';
import { describeResult, headline } from './outcome';

function result(over: Partial<RunResult>): RunResult {
  return { status: 'ok', exit_code: 0, duration_ms: 1200, stdout: '', stderr: '', truncated: false, error: null, images: [], limits: defaultLimits, ...over };
}

/** The values the engine sends with the default bounds (kidrun limitValues), wall clock 7 s. */
const VALUES = { seconds: '7', cpu: '9', idle: '300', minutes: '5', files: '10000', memory: '512 MB', size: '1 MB', step: 'read_info', error: 'EINTR' };
const TEXTS: Record<string, { zh: string; en: string }> = { ...limitTexts, ...setupTexts };

const outcome = (key: OutcomeKey): RunOutcome => ({ key, values: VALUES });

// One case per key of the contract (a key added in Go fails the type check
// here until it has one): the result that ends so, and a piece of the
// words in each language with its value filled in.
const CASES = {
  'limit.stopped': { r: { status: 'killed', exit_code: -1, stopped: true }, zh: '你按了停止', en: 'You pressed Stop' },
  'limit.timeout': { r: { status: 'timeout', exit_code: 124 }, zh: '⏱️ 已被叫停：运行超过 7 秒', en: '⏱️ Stopped: ran longer than 7 s' },
  'limit.cpu': { r: { status: 'timeout', exit_code: 124, limit: 'cpu' }, zh: '超过 9 秒的电脑时间', en: 'more than 9 s of computer time in all' },
  'limit.idle': { r: { status: 'timeout', exit_code: 124, limit: 'idle' }, zh: '一共超过 300 秒', en: 'more than 300 s in all' },
  'limit.quiet': { r: { status: 'timeout', exit_code: 124, limit: 'quiet', duration_ms: 302_860 }, zh: '5 分钟没有按键也没有点击', en: 'no keys or clicks for 5 minutes' },
  'limit.files': { r: { status: 'killed', exit_code: 137, limit: 'files' }, zh: '最多 10000 个', en: 'at most 10000' },
  'limit.memory': { r: { status: 'memory_limit', exit_code: -1 }, zh: '超过了 512 MB', en: 'more than 512 MB of memory' },
  'limit.output': { r: { status: 'output_limit', exit_code: -1 }, zh: '超过了 1 MB', en: 'printed more than 1 MB' },
  'limit.killed': { r: { status: 'killed', exit_code: 137 }, zh: '强制结束', en: 'forced to end' },
  'setup.failed': { r: { status: 'sandbox_unavailable', exit_code: -1 }, zh: '“read_info”这一步：EINTR', en: 'step “read_info”: EINTR' },
} satisfies Record<OutcomeKey, { r: Partial<RunResult>; zh: string; en: string }>;

describe('describeResult words a limit or a Stop from the catalogue', () => {
  it.each(Object.entries(CASES) as [OutcomeKey, (typeof CASES)[OutcomeKey]][])('%s, in both languages', (key, c) => {
    const o = describeResult(result({ ...c.r, outcome: outcome(key) }));
    expect(o.key).toBe(key);
    expect(o.tone).toBe(key === 'limit.stopped' ? 'info' : key === 'setup.failed' ? 'error' : 'warn');
    for (const lang of ['zh', 'en'] as const) {
      const text = headline(lang, o);
      expect(text).toBe(outcomeText(lang, key, VALUES));
      expect(text).toBe(TEXTS[key][lang].replace(/\{(\w+)\}/g, (_m, n: keyof typeof VALUES) => VALUES[n]));
      expect(text).toContain(c[lang]);
      expect(text).not.toMatch(/\{\w+\}/);
    }
  });

  it('a game left alone is put away, not said to have run too long', () => {
    const o = describeResult(result({ ...CASES['limit.quiet'].r, outcome: outcome('limit.quiet') }));
    expect(headline('en', o)).toBe('😴 The game was put away: no keys or clicks for 5 minutes. Press Run to play again!');
    expect(headline('en', o)).not.toMatch(/ran longer|302/);
    expect(headline('zh', o)).toBe('😴 游戏收起来了：5 分钟没有按键也没有点击。想再玩就再按一次运行吧！');
    expect(o.seconds).toBe('302.86');
  });

  it('keeps the key and values, so a language switch words the same end again', () => {
    const o = describeResult(result({ status: 'timeout', exit_code: 124, outcome: { key: 'limit.timeout', values: { seconds: '10' } } }));
    expect(o.params).toEqual({ seconds: '10' });
    expect(headline('zh', o)).toContain('⏱️ 已被叫停：运行超过 10 秒');
    expect(headline('en', o)).toContain('⏱️ Stopped: ran longer than 10 s');
  });

  it('a stop wins over a limit (the engine says so in the outcome)', () => {
    expect(describeResult(result({ status: 'killed', stopped: true, limit: 'files', outcome: outcome('limit.stopped') })).key).toBe('limit.stopped');
  });
});

describe('describeResult for an end of the program’s own', () => {
  it('says done, an error, an exit code or a sandbox that could not run, in the window’s words', () => {
    expect(describeResult(result({})).key).toBe('doneOk');
    const err = describeResult(result({ status: 'error', exit_code: 1, error: { type: 'ZeroDivisionError', message: 'division by zero', line: 2, hint: '' } }));
    expect(err.key).toBe('errorTitle');
    expect(err.error?.line).toBe(2);
    const exit = describeResult(result({ status: 'error', exit_code: 3 }));
    expect(headline('en', exit)).toBe(translate('en', 'doneExit', { n: 3 }));
    expect(describeResult(result({ status: 'sandbox_unavailable', exit_code: -1 })).tone).toBe('error');
  });
});

describe('the bundled catalogue', () => {
  it('holds the outcome texts only, each in both languages', () => {
    const keys = Object.keys(TEXTS);
    expect(keys.sort()).toEqual(Object.keys(CASES).sort());
    for (const k of keys) {
      expect(TEXTS[k].zh).toBeTruthy();
      expect(TEXTS[k].en).toBeTruthy();
    }
  });
});
