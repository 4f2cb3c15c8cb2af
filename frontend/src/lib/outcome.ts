// Turns a run result into what the child is told about how the run ended.
// A limit or the Stop button is worded from the result's outcome through the
// one catalogue (catalogue.ts); an end of the program's own (done, an error,
// an exit code) and a sandbox that could not run are the window's own words.

import type { Lang, RunError, RunResult } from './backend';
import { isOutcomeKey, outcomeText } from './catalogue';
import type { OutcomeKey } from './contract.gen';
import { translate, type MessageKey, type Params } from './i18n';

export type Tone = 'ok' | 'info' | 'warn' | 'error';

export interface Outcome {
  tone: Tone;
  /**
   * The headline, as a key and its parameters, worded when shown (headline())
   * so that a language switch applies: a window message, or the catalogue's
   * outcome with the run's own bounds as its values.
   */
  key: MessageKey | OutcomeKey;
  params?: Params;
  error: RunError | null;
  seconds: string;
}

export function describeResult(r: RunResult): Outcome {
  const seconds = ((r.duration_ms ?? 0) / 1000).toFixed(2);
  const base = { error: r.error ?? null, seconds };
  if (r.outcome) return { ...base, tone: outcomeTone(r.outcome.key), key: r.outcome.key, params: r.outcome.values };
  switch (r.status) {
    case 'ok':
      return { ...base, tone: 'ok', key: 'doneOk' };
    case 'sandbox_unavailable':
      return { ...base, tone: 'error', key: 'sandboxUnavailable' };
    default:
      if (r.error) return { ...base, tone: 'error', key: 'errorTitle' };
      return { ...base, tone: 'error', key: 'doneExit', params: { n: r.exit_code } };
  }
}

/** How an outcome reads: a Stop is the child's own, a bound a warning, a
 * sandbox that could not get ready an error. */
function outcomeTone(key: OutcomeKey): Outcome['tone'] {
  if (key === 'limit.stopped') return 'info';
  return key === 'setup.failed' ? 'error' : 'warn';
}

/** The outcome's headline in `lang`. */
export function headline(lang: Lang, o: Pick<Outcome, 'key' | 'params'>): string {
  return isOutcomeKey(o.key) ? outcomeText(lang, o.key, o.params) : translate(lang, o.key as MessageKey, o.params);
}
