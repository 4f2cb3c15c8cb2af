import { describe, expect, it } from 'vitest';
import type { RunResult } from './backend';
import { translate } from './i18n';
import { describeResult } from './outcome';

function result(over: Partial<RunResult>): RunResult {
  return { status: 'ok', exit_code: 0, duration_ms: 1200, stdout: '', stderr: '', truncated: false, error: null, images: [], ...over };
}

describe('describeResult', () => {
  it('names the whole-run bound that ended a run, with its value', () => {
    const limits = { wallSeconds: 10, cpuSeconds: 7, idleSeconds: 300, memoryMiB: 512, outputKiB: 1024, scratchFiles: 10000 };
    const cpu = describeResult(result({ status: 'timeout', exit_code: 124, limit: 'cpu', limits }));
    expect(cpu.key).toBe('cpuLimit');
    expect(translate('en', cpu.key, cpu.params)).toBe('⏱️ Stopped: used more than 7 s of computer time in all');
    expect(translate('zh', cpu.key, cpu.params)).toBe('⏱️ 已被叫停：一共用了超过 7 秒的电脑时间');
    const idle = describeResult(result({ status: 'timeout', exit_code: 124, limit: 'idle', limits }));
    expect(translate('en', idle.key, idle.params)).toContain('300 s in all');
    const files = describeResult(result({ status: 'killed', exit_code: 137, limit: 'files', limits }));
    expect(translate('zh', files.key, files.params)).toBe('📁 已被叫停：建的文件太多了（最多 10000 个）');
  });

  it('keeps the plain timeout for the wall clock', () => {
    const o = describeResult(result({ status: 'timeout', exit_code: 124, limits: { wallSeconds: 7, memoryMiB: 1, outputKiB: 1 } }));
    expect(o.key).toBe('timeout');
    expect(o.params).toEqual({ n: 7 });
  });

  it('says sizes in KB and MB, as the rest of the window does', () => {
    const limits = { wallSeconds: 10, cpuSeconds: 10, idleSeconds: 300, memoryMiB: 256, outputKiB: 1024, scratchFiles: 10000 };
    const out = describeResult(result({ status: 'output_limit', exit_code: -1, limits }));
    expect(translate('en', out.key, out.params)).toBe('📜 Stopped: printed more than 1 MB (the rest is not shown)');
    expect(translate('zh', out.key, out.params)).toBe('📜 已被叫停：打印超过 1 MB（后面的内容没有显示）');
    const mem = describeResult(result({ status: 'memory_limit', exit_code: -1, limits: { ...limits, outputKiB: 64 } }));
    expect(translate('en', mem.key, mem.params)).toBe('🧠 Stopped: used more than 256 MB of memory');
    expect(translate('zh', mem.key, mem.params)).not.toMatch(/KiB|MiB/);
  });

  it('a stop wins over a limit', () => {
    expect(describeResult(result({ status: 'killed', stopped: true, limit: 'files' })).key).toBe('stopped');
  });
});
