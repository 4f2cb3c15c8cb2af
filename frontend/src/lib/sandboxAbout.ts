// The settings dialog's "About the sandbox": the status's containment and
// limits told in plain words, for a parent.

import type { SandboxStatus } from './backend';
import type { MessageKey, Params } from './i18n';

export type Translate = (key: MessageKey, params?: Params) => string;

export interface About {
  /** How each run is bounded, or why that is not known. */
  mechanism: string;
  /** Where the control groups are, or why there are none: small technical text. */
  detail: string;
  /** One line per limit; empty until the limits are known. */
  limits: string[];
  /** What the sandbox cannot prevent. */
  cannot: string[];
}

const MiB = 1 << 20;

const oneDecimal = (x: number) => String(Number(x.toFixed(1)));

/** Bytes as a parent reads them: "512 MB", "1.5 MB", "64 KB", "4 GB". */
export function formatSize(bytes: number): string {
  if (bytes < MiB) return `${Math.max(1, Math.round(bytes / 1024))} KB`;
  if (bytes >= 1024 * MiB) return `${oneDecimal(bytes / (1024 * MiB))} GB`;
  return `${oneDecimal(bytes / MiB)} MB`;
}

/** Seconds, in whole minutes when that is what they are. */
export function formatTime(seconds: number, t: Translate): string {
  if (seconds >= 120 && seconds % 60 === 0) return t('unitMinutes', { n: seconds / 60 });
  return t('unitSeconds', { n: Number.isInteger(seconds) ? seconds : Number(seconds.toFixed(1)) });
}

const count = (n: number) => n.toLocaleString('en-US');

/**
 * wallSeconds is the dialog's time limit: runs from the window use the
 * settings' timeout, not the engine's default in the status.
 */
export function aboutSandbox(st: SandboxStatus | null, wallSeconds: number, t: Translate): About {
  const cannot = [t('cannotForge'), t('cannotOutput'), t('cannotCpu')];
  const c = st?.containment;
  const l = st?.limits;
  if (st && !st.checking && !st.ready) return { mechanism: t('aboutNotReady'), detail: c?.detail ?? '', limits: [], cannot };
  if (!st?.ready || !c?.mechanism || !l?.memoryBytes) return { mechanism: t('aboutChecking'), detail: '', limits: [], cannot };
  const bounds = c.bounds ?? [];
  const runMemory = bounds.includes('memory');
  const runProcs = bounds.includes('processes');
  const size = (bytes: number) => ({ size: formatSize(bytes) });
  const limits = [
    t('limitWall', { time: formatTime(wallSeconds > 0 ? wallSeconds : l.wallSeconds, t) }),
    t('limitIdle', { time: formatTime(l.idleSeconds, t) }),
    t('limitCpu', { time: formatTime(l.cpuSeconds, t) }),
    t(runMemory ? 'limitMemoryRun' : 'limitMemoryProcess', size(l.memoryBytes)),
    ...(l.preloadedBytes > 0
      ? [t('limitMemoryPreloaded', { size: formatSize(l.preloadedBytes), left: formatSize(Math.max(l.memoryBytes - l.preloadedBytes, 0)) })]
      : []),
    t(runProcs ? 'limitProcsRun' : 'limitProcs', { n: count(l.maxProcs) }),
    t('limitFileSize', size(l.fileSizeBytes)),
    t('limitScratch', { ...size(l.scratchBytes), n: count(l.scratchFiles) }),
    t('limitOutput', size(l.outputBytes)),
    t('limitOpenFiles', { n: count(l.maxOpenFiles) }),
  ];
  if (!runMemory && l.maxProcs > 1) {
    cannot.push(t('cannotMemoryPerProcess', { n: count(l.maxProcs), size: formatSize(l.maxProcs * l.memoryBytes) }));
  }
  const mechanism = c.mechanism === 'rlimits' ? t('aboutRlimits', { n: count(l.maxProcs) }) : t('aboutCgroup');
  return { mechanism, detail: c.detail, limits, cannot };
}
