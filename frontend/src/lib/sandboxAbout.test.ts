import { describe, expect, it } from 'vitest';
import type { SandboxStatus } from './backend';
import { fakeContainment, fakeLimits } from '../testing/fakeBackend';
import { translate, type MessageKey, type Params } from './i18n';
import { aboutSandbox, formatSize, formatTime } from './sandboxAbout';

const en = (key: MessageKey, params?: Params) => translate('en', key, params);
const zh = (key: MessageKey, params?: Params) => translate('zh', key, params);

function ready(kind: 'cgroup2' | 'rlimits'): SandboxStatus {
  return {
    ready: true,
    checking: false,
    code: '',
    reason: '',
    fix: '',
    python: '/usr/bin/python3',
    sandbox: 'bubblewrap',
    version: '0.8.0',
    containment: fakeContainment(kind),
    limits: fakeLimits(kind),
  };
}

describe('formatSize', () => {
  it.each([
    [512 << 20, '512 MB'],
    [1 << 20, '1 MB'],
    [3 << 19, '1.5 MB'],
    [64 << 10, '64 KB'],
    [100, '1 KB'],
    [4 * 2 ** 30, '4 GB'],
  ])('%d → %s', (bytes, want) => {
    expect(formatSize(bytes)).toBe(want);
  });
});

describe('formatTime', () => {
  it.each([
    [10, '10 s', '10 秒'],
    [2.5, '2.5 s', '2.5 秒'],
    [90, '90 s', '90 秒'],
    [300, '5 min', '5 分钟'],
  ])('%d s', (s, wantEn, wantZh) => {
    expect(formatTime(s, en)).toBe(wantEn);
    expect(formatTime(s, zh)).toBe(wantZh);
  });
});

describe('aboutSandbox', () => {
  it('with a control group, memory and processes count for the whole run', () => {
    const a = aboutSandbox(ready('cgroup2'), 7, en);
    expect(a.mechanism).toBe(en('aboutCgroup'));
    expect(a.detail).toContain('/sys/fs/cgroup');
    expect(a.limits).toEqual([
      '⏱️ Busy time in one go: 7 s (the setting above); time a program waits — for typing, keys, clicks or its own pauses — does not count',
      '⌨️ No typing, keys or clicks for 5 min: the program is put away',
      '🧮 CPU time: 10 s, for each process and for the whole run together',
      '🧠 Memory: 512 MB for the whole run, including shared memory and scratch files',
      '👥 Processes and threads: 64 for the whole run',
      '📄 Largest file it can write: 16 MB',
      '📁 Its own scratch folder: 64 MB and at most 10,000 files and folders, emptied when the run ends',
      '💬 Printed output, errors included: 1 MB',
      '🗂️ Open files: 256 at a time in each process',
    ]);
    expect(a.cannot).toEqual([en('cannotForge'), en('cannotOutput'), en('cannotCpu')]);
  });

  it('without one, limits are per process and the memory they add up to is said', () => {
    const a = aboutSandbox(ready('rlimits'), 10, zh);
    expect(a.mechanism).toBe('这台电脑没有本应用能用的控制组：限制按每个进程计算，最多 8 个进程。');
    expect(a.limits).toContain('🧠 内存：每个进程 512 MB');
    expect(a.limits).toContain('👥 进程和线程：最多 8 个');
    expect(a.cannot.at(-1)).toBe('没有控制组时内存按进程计算：8 个进程合计最多能用 4 GB。');
  });

  it('once the warm sandbox is measured, says what it takes and what the program has left', () => {
    const st = ready('cgroup2');
    st.limits.preloadedBytes = 14 << 20;
    const en1 = aboutSandbox(st, 7, en).limits;
    expect(en1[4]).toContain('about 14 MB of that memory, which leaves your program about 498 MB');
    expect(aboutSandbox(st, 7, zh).limits[4]).toContain('约 14 MB，你的程序大约还有 498 MB');
  });

  it("falls back to the status's wall time when the form has none", () => {
    expect(aboutSandbox(ready('cgroup2'), 0, en).limits[0]).toContain('10 s');
  });

  it('says nothing about limits until the check is done, and why when it failed', () => {
    const checking = aboutSandbox({ ...ready('cgroup2'), ready: false, checking: true }, 10, en);
    expect(checking).toEqual({ mechanism: en('aboutChecking'), detail: '', limits: [], cannot: expect.any(Array) });
    expect(aboutSandbox(null, 10, en).mechanism).toBe(en('aboutChecking'));
    const broken = aboutSandbox({ ...ready('cgroup2'), ready: false, reason: 'bwrap missing' }, 10, en);
    expect(broken.mechanism).toBe(en('aboutNotReady'));
    expect(broken.limits).toEqual([]);
    expect(broken.cannot).toHaveLength(3);
  });
});
