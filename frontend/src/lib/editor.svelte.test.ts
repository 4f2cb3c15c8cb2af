import { afterEach, describe, expect, it } from 'vitest';
import { CodeEditor } from './editor.svelte';

let cleanups: (() => void)[] = [];
afterEach(() => {
  cleanups.forEach((c) => c());
  cleanups = [];
});

function attached(code = 'x = 1') {
  const stops: number[] = [];
  const editor = new CodeEditor({ run() {}, stop: () => void stops.push(1), zoom() {} });
  const host = document.createElement('div');
  document.body.append(host);
  cleanups.push(editor.attach(host), () => host.remove());
  editor.setCode(code);
  const content = host.querySelector<HTMLElement>('.cm-content')!;
  return { editor, content, stops, host };
}

const KEY_CODES: Record<string, number> = { Tab: 9, Escape: 27, Shift: 16, a: 65, m: 77 };

/** Presses a key in the editor; true when the editor took it (its default, e.g. moving the focus, is prevented). */
function press(content: HTMLElement, key: string, mods: { shift?: boolean; ctrl?: boolean } = {}): boolean {
  const e = new KeyboardEvent('keydown', { key, keyCode: KEY_CODES[key], shiftKey: mods.shift, ctrlKey: mods.ctrl, bubbles: true, cancelable: true });
  content.dispatchEvent(e);
  return e.defaultPrevented;
}

describe('CodeEditor keys', () => {
  it('indents with Tab, and after Escape lets the next Tab move the focus on', () => {
    const { editor, content, stops } = attached();
    expect(press(content, 'Tab')).toBe(true);
    expect(editor.code).toBe('    x = 1');
    expect(press(content, 'Escape')).toBe(true);
    expect(stops).toHaveLength(1);
    // Not taken: the browser moves the focus, and the text is as it was.
    expect(press(content, 'Tab')).toBe(false);
    expect(press(content, 'Tab', { shift: true })).toBe(false);
    expect(editor.code).toBe('    x = 1');
  });

  it('has no time limit between Escape and Tab, keeps it through a modifier, and ends it with any other key', () => {
    const { content } = attached();
    press(content, 'Escape');
    expect(press(content, 'Shift')).toBe(false);
    expect(press(content, 'Tab', { shift: true })).toBe(false);
    press(content, 'Escape');
    press(content, 'a');
    expect(press(content, 'Tab')).toBe(true);
  });

  it('ends the way out when the focus leaves, so Tab indents again on coming back', () => {
    const { content } = attached();
    const other = document.createElement('button');
    document.body.append(other);
    cleanups.push(() => other.remove());
    content.focus();
    press(content, 'Escape');
    other.focus();
    content.focus();
    expect(press(content, 'Tab')).toBe(true);
  });

  it('keeps Ctrl+M as a switch that Escape and typing leave alone', () => {
    const { content } = attached();
    press(content, 'm', { ctrl: true });
    press(content, 'Escape');
    press(content, 'a');
    expect(press(content, 'Tab')).toBe(false);
    press(content, 'm', { ctrl: true });
    expect(press(content, 'Tab')).toBe(true);
  });
});

describe('CodeEditor focus', () => {
  it('takes the keyboard at start, once it exists', () => {
    const editor = new CodeEditor({ run() {}, stop() {}, zoom() {} });
    editor.takeFocus();
    const host = document.createElement('div');
    document.body.append(host);
    cleanups.push(editor.attach(host), () => host.remove());
    expect(document.activeElement).toBe(host.querySelector('.cm-content'));
  });

  it('does not take the keyboard from where the child put it', () => {
    const { editor, content } = attached();
    const other = document.createElement('button');
    document.body.append(other);
    cleanups.push(() => other.remove());
    other.focus();
    editor.takeFocus();
    expect(document.activeElement).toBe(other);
    expect(document.activeElement).not.toBe(content);
  });
});
