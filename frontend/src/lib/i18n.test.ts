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

describe('every text is translated', () => {
  // Texts that are the same in both languages on purpose: a name, a symbol,
  // a unit or a placeholder only.
  const SAME_ON_PURPOSE = new Set<string>(['title', 'titleZh']); // the product's two names
  // Latin words a Chinese text may hold: names of programs and of Python
  // things the child types, and the units the window uses.
  const ALLOWED_LATIN =
    /Kid Coder|Python|bubblewrap|turtle|print|input|for|if|while|import|def|matplotlib|Ctrl|Shift|Enter|Esc|Tab|Run|Stop|README|UTF-8|GBK|kidpack|KB|MB|GB|MiB|KiB|\{\w+\}|https?:\S+|\.py|\.md|\.svg|\.png|\.kidpack|[A-Z]:/g;

  it.each(Object.keys(dictionaries.en) as MessageKey[])('%s differs between the languages, or is on the list', (key) => {
    const en = dictionaries.en[key];
    const zh = dictionaries.zh[key];
    if (SAME_ON_PURPOSE.has(key)) return;
    // Only emoji, digits, punctuation and placeholders: nothing to translate.
    if (en.replace(/\{\w+\}|[\p{P}\p{S}\p{N}\s]/gu, '') === '') return;
    expect(zh, `zh "${key}" is the English text`).not.toBe(en);
  });

  it.each(Object.keys(dictionaries.zh) as MessageKey[])('zh %s holds no run of English words', (key) => {
    const rest = dictionaries.zh[key].replace(ALLOWED_LATIN, ' ');
    // Three Latin words in a row read as untranslated English.
    expect(rest, `zh "${key}": ${dictionaries.zh[key]}`).not.toMatch(/[A-Za-z]{2,}(?:[\s,.'’-]+[A-Za-z]{2,}){2,}/);
  });
});
