// The sandbox banner's headline: the Go side names the reason with a code
// (SandboxStatus.code) and the window says it in the child's language; the
// English technical reason stays available as the details.

import type { MessageKey } from './i18n';

const CODES = ['bwrap_missing', 'bwrap_broken', 'bwrap_old', 'userns', 'bwrap_blocked', 'unsupported_os', 'landlock_missing', 'python_missing', 'python_setting'] as const;

export type SandboxCode = (typeof CODES)[number];

export const SANDBOX_CODES: readonly string[] = CODES;

/** The message that says why the sandbox is not ready; an unknown code gets the general one. */
export function sandboxWhyKey(code: string | undefined | null): MessageKey {
  return (CODES as readonly string[]).includes(code ?? '') ? (`sandboxWhy_${code}` as MessageKey) : 'sandboxWhy_';
}
