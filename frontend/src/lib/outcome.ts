// Turns a run result into what the child is told about how the run ended.

import type { RunError, RunResult } from './backend';
import type { MessageKey, Params } from './i18n';
import { formatSize } from './sandboxAbout';

export type Tone = 'ok' | 'info' | 'warn' | 'error';

export interface Outcome {
  tone: Tone;
  /** The headline, as a message key and its parameters (translated when shown, so a language switch applies). */
  key: MessageKey;
  params?: Params;
  error: RunError | null;
  seconds: string;
}

const DEFAULT_LIMITS = { wallSeconds: 10, cpuSeconds: 10, idleSeconds: 300, memoryMiB: 256, outputKiB: 1024, scratchFiles: 10000 };

export function describeResult(r: RunResult): Outcome {
  const limits = { ...DEFAULT_LIMITS, ...(r.limits ?? {}) };
  const seconds = ((r.duration_ms ?? 0) / 1000).toFixed(2);
  const base = { error: r.error ?? null, seconds };
  if (r.stopped) return { ...base, tone: 'info', key: 'stopped' };
  switch (r.limit) {
    case 'cpu':
      return { ...base, tone: 'warn', key: 'cpuLimit', params: { n: limits.cpuSeconds } };
    case 'idle':
      return { ...base, tone: 'warn', key: 'idleLimit', params: { n: limits.idleSeconds } };
    case 'files':
      return { ...base, tone: 'warn', key: 'filesLimit', params: { n: limits.scratchFiles } };
  }
  switch (r.status) {
    case 'ok':
      return { ...base, tone: 'ok', key: 'doneOk' };
    case 'timeout':
      return { ...base, tone: 'warn', key: 'timeout', params: { n: limits.wallSeconds } };
    case 'memory_limit':
      return { ...base, tone: 'warn', key: 'memoryLimit', params: { size: formatSize(limits.memoryMiB * 1024 * 1024) } };
    case 'output_limit':
      return { ...base, tone: 'warn', key: 'outputLimit', params: { size: formatSize(limits.outputKiB * 1024) } };
    case 'killed':
      return { ...base, tone: 'warn', key: 'killed' };
    case 'sandbox_unavailable':
      return { ...base, tone: 'error', key: 'sandboxUnavailable' };
    default:
      if (r.error) return { ...base, tone: 'error', key: 'errorTitle' };
      return { ...base, tone: 'error', key: 'doneExit', params: { n: r.exit_code } };
  }
}
