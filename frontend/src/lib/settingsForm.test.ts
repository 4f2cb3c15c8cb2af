import { describe, expect, it } from 'vitest';
import type { Settings } from './backend';
import { settingsChanged } from './settingsForm';

const stored: Settings = { lang: 'zh', fontSize: 18, timeoutSeconds: 10, python: '' } as Settings;

describe('settingsChanged', () => {
  it('is false for the settings as they are stored', () => {
    expect(settingsChanged(stored, { lang: 'zh', fontSize: '18', timeoutSeconds: 10, python: ' ' })).toBe(false);
  });
  it('notices each field the dialog edits', () => {
    expect(settingsChanged(stored, { lang: 'en', fontSize: 18, timeoutSeconds: 10, python: '' })).toBe(true);
    expect(settingsChanged(stored, { lang: 'zh', fontSize: 20, timeoutSeconds: 10, python: '' })).toBe(true);
    expect(settingsChanged(stored, { lang: 'zh', fontSize: 18, timeoutSeconds: 30, python: '' })).toBe(true);
    expect(settingsChanged(stored, { lang: 'zh', fontSize: 18, timeoutSeconds: 10, python: '/opt/py/bin/python3' })).toBe(true);
  });
});
