import { describe, expect, it } from 'vitest';
import { isWindowShortcut, keyControls, tkKeysym } from './keys';

describe('tkKeysym', () => {
  it.each([
    [{ key: 'ArrowUp', code: 'ArrowUp' }, 'Up'],
    [{ key: 'ArrowDown', code: 'ArrowDown' }, 'Down'],
    [{ key: 'ArrowLeft', code: 'ArrowLeft' }, 'Left'],
    [{ key: 'ArrowRight', code: 'ArrowRight' }, 'Right'],
    [{ key: ' ', code: 'Space' }, 'space'],
    [{ key: 'Enter', code: 'Enter' }, 'Return'],
    [{ key: 'Escape', code: 'Escape' }, 'Escape'],
    [{ key: 'Backspace', code: 'Backspace' }, 'BackSpace'],
    [{ key: 'Tab', code: 'Tab' }, 'Tab'],
    [{ key: 'a', code: 'KeyA' }, 'a'],
    [{ key: 'A', code: 'KeyA' }, 'A'],
    [{ key: 'z', code: 'KeyZ' }, 'z'],
    [{ key: '7', code: 'Digit7' }, '7'],
    [{ key: 'F1', code: 'F1' }, 'F1'],
    [{ key: 'F12', code: 'F12' }, 'F12'],
    [{ key: 'Shift', code: 'ShiftLeft' }, 'Shift_L'],
    [{ key: 'Shift', code: 'ShiftRight' }, 'Shift_R'],
    [{ key: 'Control', code: 'ControlLeft' }, 'Control_L'],
    [{ key: 'Alt', code: 'AltRight' }, 'Alt_R'],
    [{ key: 'PageUp', code: 'PageUp' }, 'Prior'],
    [{ key: 'PageDown', code: 'PageDown' }, 'Next'],
    [{ key: 'Home', code: 'Home' }, 'Home'],
    [{ key: 'Delete', code: 'Delete' }, 'Delete'],
    [{ key: 'CapsLock', code: 'CapsLock' }, 'Caps_Lock'],
    [{ key: '-', code: 'Minus' }, 'minus'],
    [{ key: '+', code: 'Equal' }, 'plus'],
    [{ key: ',', code: 'Comma' }, 'comma'],
    [{ key: '.', code: 'Period' }, 'period'],
    [{ key: '/', code: 'Slash' }, 'slash'],
    [{ key: '[', code: 'BracketLeft' }, 'bracketleft'],
    [{ key: '!', code: 'Digit1' }, 'exclam'],
    [{ key: '5', code: 'Numpad5' }, 'KP_5'],
    [{ key: 'Enter', code: 'NumpadEnter' }, 'KP_Enter'],
    [{ key: 'ArrowUp', code: 'Numpad8' }, 'KP_Up'],
    [{ key: '+', code: 'NumpadAdd' }, 'KP_Add'],
  ])('%o → %s', (e, want) => {
    expect(tkKeysym(e)).toBe(want);
  });

  it.each([
    [{ key: 'Process', code: 'KeyA' }],
    [{ key: 'Dead', code: 'Quote' }],
    [{ key: 'é', code: 'KeyE' }],
    [{ key: '你', code: '' }],
    [{ key: 'Unidentified', code: '' }],
  ])('%o has no keysym the runner takes', (e) => {
    expect(tkKeysym(e)).toBeNull();
  });

  it('every keysym it gives is one the runner accepts (1 to 32 letters, digits or _)', () => {
    const keys = [' ', 'Enter', 'Shift', 'F5', 'q', '?', '~', '"', 'ContextMenu', 'PrintScreen'];
    for (const key of keys) expect(tkKeysym({ key, code: '' })).toMatch(/^[A-Za-z0-9_]{1,32}$/);
  });
});

describe('keyControls', () => {
  it('a press and a release', () => {
    expect(keyControls({ key: 'ArrowUp', code: 'ArrowUp' }, true)).toEqual([{ type: 'key', key: 'Up', down: true }]);
    expect(keyControls({ key: 'ArrowUp', code: 'ArrowUp' }, false)).toEqual([{ type: 'key', key: 'Up', down: false }]);
  });

  it('an auto-repeated keydown is a release then a press, as X11 reports a held key', () => {
    expect(keyControls({ key: ' ', code: 'Space', repeat: true }, true)).toEqual([
      { type: 'key', key: 'space', down: false },
      { type: 'key', key: 'space', down: true },
    ]);
  });

  it('a key without a keysym sends nothing', () => {
    expect(keyControls({ key: 'Process', code: 'KeyA' }, true)).toEqual([]);
  });
});

describe('isWindowShortcut', () => {
  it.each([
    [{ key: 'Escape' }, true],
    [{ key: 'Escape', ctrlKey: true }, true],
    [{ key: 'Enter', ctrlKey: true }, true],
    [{ key: 'Enter', metaKey: true }, true],
    [{ key: 'Enter' }, false],
    [{ key: 'a', ctrlKey: true }, false],
    [{ key: 'ArrowUp' }, false],
  ])('%j → %s', (e, want) => {
    expect(isWindowShortcut(e)).toBe(want);
  });
});
