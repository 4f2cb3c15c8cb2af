import { afterEach, describe, expect, it } from 'vitest';
import * as GoApp from './wailsjs/go/app/App';
import { problemOf, wailsBackend, type WailsGlobals } from './backend';

const win = window as unknown as WailsGlobals;

afterEach(() => {
  delete win.go;
  delete win.runtime;
});

describe('wailsBackend', () => {
  it('calls every bound method on window.go under its Go name, with as many arguments as Go takes', async () => {
    const calls: string[] = [];
    const App = Object.fromEntries(
      Object.keys(GoApp).map((name) => [name, async (...args: unknown[]) => (calls.push(`${name} ${JSON.stringify(args)}`), name)]),
    );
    const b = wailsBackend();
    // Defined after the backend is made, as a harness may.
    win.go = { app: { App: App as never } };
    win.runtime = { EventsOff: () => {} };

    const names = Object.keys(GoApp);
    expect(names).toContain('PreviewPack');
    for (const name of names) {
      const call = (b as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>)[name.charAt(0).toLowerCase() + name.slice(1)];
      expect(typeof call, name).toBe('function');
      expect(await call('a', 2, true)).toBe(name);
    }
    const arity = (name: string) => (GoApp as Record<string, (...args: never[]) => unknown>)[name].length;
    expect(calls).toEqual(names.map((name) => `${name} ${JSON.stringify(['a', 2, true].slice(0, arity(name)))}`));
    await b.previewPack('shapes.kidpack', 'en');
    expect(calls.at(-1)).toBe('PreviewPack ["shapes.kidpack","en"]');
  });

  it('hears events through EventsOnMultiple, or EventsOn where a harness offers only that', () => {
    const heard: unknown[] = [];
    win.runtime = {
      EventsOff: () => {},
      EventsOn: (name, cb) => {
        cb({ runId: 'r', prompt: name });
        return () => {};
      },
    };
    wailsBackend().on('run:waiting', (p) => heard.push(p));
    win.runtime.EventsOnMultiple = (name, cb, max) => {
      cb({ runId: 'r', prompt: `${name} ${max}` });
      return () => {};
    };
    wailsBackend().on('run:waiting', (p) => heard.push(p));
    expect(heard).toEqual([
      { runId: 'r', prompt: 'run:waiting' },
      { runId: 'r', prompt: 'run:waiting -1' },
    ]);
  });

  it('gives a no-op drop listener when the runtime has no OnFileDrop', () => {
    win.runtime = { EventsOff: () => {} };
    const off = wailsBackend().onFileDrop(() => {});
    expect(off).toBeTypeOf('function');
    off();
  });
});

describe('problemOf', () => {
  it('reads a ProblemError and keeps any other text in both languages', () => {
    expect(problemOf(new Error('{"code":"exists","zh":"有了","en":"exists"}'))).toEqual({ code: 'exists', zh: '有了', en: 'exists' });
    expect(problemOf('boom')).toEqual({ code: '', zh: 'boom', en: 'boom' });
  });
});
