import { describe, expect, it } from 'vitest';
import { dictionaries, toLang, translate, type MessageKey } from './i18n';

const placeholders = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe('i18n dictionaries', () => {
  const en = dictionaries.en;
  const zh = dictionaries.zh;

  it('have exactly the same keys', () => {
    expect(Object.keys(zh).sort()).toEqual(Object.keys(en).sort());
  });

  it.each(Object.keys(en) as MessageKey[])('%s is non-empty in both and uses the same placeholders', (key) => {
    expect(en[key].trim()).not.toBe('');
    expect(zh[key].trim()).not.toBe('');
    expect(placeholders(zh[key])).toEqual(placeholders(en[key]));
  });

  it('keeps the required wording of the limit message', () => {
    expect(translate('zh', 'timeout', { n: 10 })).toBe('⏱️ 已被叫停：运行超过 10 秒');
    expect(translate('en', 'timeout', { n: 10 })).toBe('⏱️ Stopped: ran longer than 10 s');
  });
});

describe('translate', () => {
  it('fills parameters and leaves unknown ones visible', () => {
    expect(translate('en', 'errorLine', { n: 3 })).toBe('line 3');
    expect(translate('zh', 'errorLine', { n: 3 })).toBe('第 3 行');
    expect(translate('en', 'errorLine')).toBe('line {n}');
  });
});

describe('toLang', () => {
  it.each([
    ['zh', 'zh'],
    ['zh_CN.UTF-8', 'zh'],
    ['en', 'en'],
    ['en-US', 'en'],
    ['fr', null],
    ['', null],
  ])('%s → %s', (input, want) => {
    expect(toLang(input)).toBe(want);
  });
});
