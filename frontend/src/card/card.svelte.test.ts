import { describe, expect, it } from 'vitest';
import { CardState, type RunArgs } from './card.svelte';
import { STAR_DEMO } from './demo';
import type { RunView, ToolResult } from './result';

/** A host whose runs the test finishes by hand, in any order. */
function manualHost() {
  const calls: { args: RunArgs; signal: AbortSignal; finish: (r: ToolResult) => void; fail: (e: Error) => void }[] = [];
  const told: { code: string; stdout: string }[] = [];
  return {
    calls,
    told,
    run: (args: RunArgs, signal: AbortSignal) => new Promise<ToolResult>((finish, fail) => calls.push({ args, signal, finish, fail })),
    ranByChild: (args: RunArgs, view: RunView) => told.push({ code: args.code, stdout: view.stdout }),
  };
}

const settle = async () => {
  for (let i = 0; i < 5; i++) await Promise.resolve();
};

const ok = (stdout: string): ToolResult => ({ structuredContent: { status: 'ok', stdout, stderr: '', error: null, images: [] } });

describe('CardState', () => {
  it('bundles the star demo and runs it on open', async () => {
    expect(STAR_DEMO).toContain('import turtle');
    expect(STAR_DEMO).toContain('begin_fill');
    const host = manualHost();
    const s = new CardState();
    s.connect(host, false);
    expect(host.calls).toHaveLength(1);
    expect(host.calls[0].args).toEqual({ code: STAR_DEMO, lang: 'zh' });
    expect(s.running).toBe(true);
    host.calls[0].finish(ok('⭐\n'));
    await settle();
    expect(s.running).toBe(false);
    expect(s.view?.stdout).toBe('⭐\n');
  });

  it('does not run the demo for a tool call, and shows its input and result', () => {
    const host = manualHost();
    const s = new CardState();
    s.connect(host, true);
    expect(host.calls).toHaveLength(0);
    s.showInput({ code: 'print("hi")', lang: 'en', stdin: '3\n' });
    expect(s.code).toBe('print("hi")');
    expect(s.lang).toBe('en');
    expect(s.answers).toBe('3\n');
    expect(s.running).toBe(true);
    s.showResult(ok('hi\n'));
    expect(s.running).toBe(false);
    expect(s.view?.stdout).toBe('hi\n');
  });

  it('shows the code of a tool call as it streams in, then the whole call', () => {
    const host = manualHost();
    const s = new CardState();
    s.connect(host, true);
    s.showPartialInput({ code: 'print("he' });
    expect(s.code).toBe('print("he');
    expect(s.running).toBe(true);
    s.showInput({ code: 'print("hello")' });
    expect(s.code).toBe('print("hello")');
    s.showResult(ok('hello\n'));
    s.showPartialInput({ code: 'late' });
    expect(s.code).toBe('print("hello")');
    expect(host.calls).toHaveLength(0);
  });

  it('lets a tool call that arrives during the demo run win over it', async () => {
    const host = manualHost();
    const s = new CardState();
    s.connect(host, false);
    s.showInput({ code: 'print(2)' });
    s.showResult(ok('2\n'));
    expect(host.calls[0].signal.aborted).toBe(true);
    host.calls[0].finish(ok('demo\n'));
    await settle();
    expect(s.view?.stdout).toBe('2\n');
    expect(s.running).toBe(false);
  });

  it('stops its own run by cancelling the request, and is ready again', async () => {
    const host = manualHost();
    const s = new CardState();
    s.connect(host, true);
    s.code = 'while True: pass';
    const done = s.run();
    expect(s.canStop).toBe(true);
    s.stop();
    expect(host.calls[0].signal.aborted).toBe(true);
    expect(s.running).toBe(false);
    expect(s.stopped).toBe(true);
    expect(s.canStop).toBe(false);
    host.calls[0].fail(new Error('AbortError'));
    await done;
    expect(s.failure).toBe('');
    expect(s.stopped).toBe(true);
    void s.run();
    expect(s.stopped).toBe(false);
    expect(host.calls).toHaveLength(2);
  });

  it('tells the host about the runs the child starts, not the demo', async () => {
    const host = manualHost();
    const s = new CardState();
    s.connect(host, false);
    host.calls[0].finish(ok('demo\n'));
    await settle();
    s.code = 'print(5)';
    void s.run();
    host.calls[1].finish(ok('5\n'));
    await settle();
    expect(host.told).toEqual([{ code: 'print(5)', stdout: '5\n' }]);
  });

  it('cannot stop a tool call the host is showing', () => {
    const s = new CardState();
    s.connect(manualHost(), true);
    s.showInput({ code: 'print(1)' });
    expect(s.canStop).toBe(false);
    s.stop();
    expect(s.running).toBe(true);
    s.cancelled();
    expect(s.running).toBe(false);
  });

  it('sends the answers as stdin only when the code reads input()', async () => {
    const host = manualHost();
    const s = new CardState();
    s.connect(host, true);
    s.code = 'print(1)';
    s.answers = 'x';
    void s.run();
    expect(host.calls[0].args.stdin).toBeUndefined();
    s.code = 'n = input()\nprint(n)';
    void s.run();
    expect(host.calls[1].args.stdin).toBe('x\n');
  });

  it('explains a run the host could not do, in the card language', async () => {
    const host = manualHost();
    const s = new CardState();
    s.lang = 'en';
    s.connect(host, true);
    const done = s.run();
    host.calls[0].fail(new Error('tool not allowed'));
    await done;
    expect(s.failure).toContain('tool not allowed');
    expect(s.failure).toContain('did not work');
    expect(s.running).toBe(false);
  });

  it('runs nothing before the host is connected', async () => {
    const s = new CardState();
    await s.run();
    expect(s.running).toBe(false);
    s.disconnected();
    expect(s.noHost).toBe(true);
  });
});
