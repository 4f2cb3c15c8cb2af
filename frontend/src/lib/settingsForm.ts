// The settings dialog edits a copy of the settings; closing it must not
// lose what the child or parent changed without asking.

import type { Settings } from './backend';

/** The fields the dialog edits, as its inputs hold them. */
export interface SettingsForm {
  lang: string;
  fontSize: number | string;
  timeoutSeconds: number | string;
  python: string;
}

/** Whether the form differs from the stored settings (numbers compared as numbers, the path without edge spaces). */
export function settingsChanged(stored: Settings | null, form: SettingsForm): boolean {
  if (!stored) return false;
  return (
    (stored.lang ?? '') !== form.lang ||
    Number(stored.fontSize) !== Number(form.fontSize) ||
    Number(stored.timeoutSeconds) !== Number(form.timeoutSeconds) ||
    (stored.python ?? '').trim() !== form.python.trim()
  );
}
