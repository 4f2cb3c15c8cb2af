import { describe, expect, it } from 'vitest';
import { translate } from './i18n';
import { SANDBOX_CODES, sandboxWhyKey } from './sandboxReason';

describe('sandboxWhyKey', () => {
  it('says every reason the Go side names in both languages', () => {
    for (const code of SANDBOX_CODES) {
      const key = sandboxWhyKey(code);
      expect(key).toBe(`sandboxWhy_${code}`);
      const zh = translate('zh', key);
      expect(zh).not.toBe(translate('en', key));
      // Chinese text, with at most a program's name in Latin letters.
      expect(zh.replace(/bubblewrap|Python|\d/g, '')).not.toMatch(/[A-Za-z]{3,}/);
    }
  });

  it('falls back to the general reason for a code it does not know', () => {
    expect(sandboxWhyKey('')).toBe('sandboxWhy_');
    expect(sandboxWhyKey('something_new')).toBe('sandboxWhy_');
    expect(translate('zh', sandboxWhyKey(undefined))).toBe('安全沙盒启动不了。');
  });
});
