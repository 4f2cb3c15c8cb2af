import { describe, expect, it } from 'vitest';
import { dictionaries, langOf, say } from './i18n';

describe('card i18n', () => {
  it('has every text in both languages, none empty, with the same placeholders', () => {
    const keys = Object.keys(dictionaries.en).sort();
    expect(Object.keys(dictionaries.zh).sort()).toEqual(keys);
    for (const k of keys as (keyof typeof dictionaries.en)[]) {
      expect(dictionaries.en[k].trim(), k).not.toBe('');
      expect(dictionaries.zh[k].trim(), k).not.toBe('');
      const holes = (s: string) => (s.match(/\{\w+\}/g) ?? []).sort();
      expect(holes(dictionaries.zh[k]), k).toEqual(holes(dictionaries.en[k]));
    }
  });

  it('says Run as the classroom does in each language', () => {
    expect(say('zh', 'run')).toBe('▶ 跑一下');
    expect(say('en', 'run')).toBe('▶ Run');
  });

  it('fills placeholders', () => {
    expect(say('zh', 'errorLine', { n: 3 })).toBe('第 3 行');
    expect(say('en', 'errorLine', { n: 3 })).toBe('line 3');
    expect(say('en', 'failed', { why: 'no host' })).toContain('no host');
  });

  it('maps locales and lang arguments to a language', () => {
    expect(langOf('zh-CN')).toBe('zh');
    expect(langOf('zh_TW')).toBe('zh');
    expect(langOf('ZH')).toBe('zh');
    expect(langOf('en-US')).toBe('en');
    expect(langOf('fr')).toBe('en');
    expect(langOf('')).toBeNull();
    expect(langOf(undefined)).toBeNull();
  });
});
