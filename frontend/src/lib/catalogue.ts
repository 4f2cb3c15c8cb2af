// How a run ended, in the words of the one catalogue (python/messages.json):
// the window and the card say a limit or a Stop as the runner, the command
// line and the AI-tutor server do. Only the catalogue's `limit.*` entries
// are bundled (vite.messages.ts).

import texts from '../../../python/messages.json?group=limit';
import type { OutcomeKey } from './contract.gen';

/** The catalogue's text for `key` in `lang`, its `{name}`s filled from `values` (a name with no value stays visible). */
export function outcomeText(lang: 'zh' | 'en', key: OutcomeKey, values: Readonly<Record<string, string | number>> = {}): string {
  const text = texts[key]?.[lang] ?? key;
  return text.replace(/\{(\w+)\}/g, (m, name: string) => (name in values ? String(values[name]) : m));
}

/** True for a key of the catalogue's outcomes (a limit or the Stop button). */
export function isOutcomeKey(key: string): key is OutcomeKey {
  return key.startsWith('limit.') && key in texts;
}
