// How a run ended, in the words of the one catalogue (python/messages.json):
// the window and the card say a limit or a Stop as the runner, the command
// line and the AI-tutor server do. Only the catalogue's outcomes are
// bundled (vite.messages.ts): its `limit.*` entries and `setup.*`, a
// sandbox that could not get ready.

import limitTexts from '../../../python/messages.json?group=limit';
import setupTexts from '../../../python/messages.json?group=setup';
import type { OutcomeKey } from './contract.gen';

const texts: Record<string, { zh: string; en: string }> = { ...limitTexts, ...setupTexts };

/** The catalogue's text for `key` in `lang`, its `{name}`s filled from `values` (a name with no value stays visible). */
export function outcomeText(lang: 'zh' | 'en', key: OutcomeKey, values: Readonly<Record<string, string | number>> = {}): string {
  const text = texts[key]?.[lang] ?? key;
  return text.replace(/\{(\w+)\}/g, (m, name: string) => (name in values ? String(values[name]) : m));
}

/** True for a key of the catalogue's outcomes (a limit, the Stop button, a set-up that failed). */
export function isOutcomeKey(key: string): key is OutcomeKey {
  return Object.hasOwn(texts, key);
}
