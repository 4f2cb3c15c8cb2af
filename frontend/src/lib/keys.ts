// Browser key events as Tk keysyms (the names turtle's onkey and onkeypress
// use), and the X11 way of reporting a held key: release, then press again.

/** Keys whose browser name differs from Tk's keysym. */
const NAMED: Record<string, string> = {
  ArrowUp: 'Up',
  ArrowDown: 'Down',
  ArrowLeft: 'Left',
  ArrowRight: 'Right',
  ' ': 'space',
  Enter: 'Return',
  Escape: 'Escape',
  Backspace: 'BackSpace',
  Tab: 'Tab',
  Delete: 'Delete',
  Insert: 'Insert',
  Home: 'Home',
  End: 'End',
  PageUp: 'Prior',
  PageDown: 'Next',
  CapsLock: 'Caps_Lock',
  NumLock: 'Num_Lock',
  ScrollLock: 'Scroll_Lock',
  Pause: 'Pause',
  PrintScreen: 'Print',
  ContextMenu: 'Menu',
  Clear: 'Clear',
};

/** Modifier keys: Tk names the left and right one apart. */
const MODIFIERS: Record<string, string> = { Shift: 'Shift', Control: 'Control', Alt: 'Alt', Meta: 'Super', OS: 'Super', AltGraph: 'ISO_Level3_Shift' };

/** Printable ASCII punctuation by Tk (X11) keysym name. */
const PUNCTUATION: Record<string, string> = {
  '!': 'exclam',
  '"': 'quotedbl',
  '#': 'numbersign',
  $: 'dollar',
  '%': 'percent',
  '&': 'ampersand',
  "'": 'apostrophe',
  '(': 'parenleft',
  ')': 'parenright',
  '*': 'asterisk',
  '+': 'plus',
  ',': 'comma',
  '-': 'minus',
  '.': 'period',
  '/': 'slash',
  ':': 'colon',
  ';': 'semicolon',
  '<': 'less',
  '=': 'equal',
  '>': 'greater',
  '?': 'question',
  '@': 'at',
  '[': 'bracketleft',
  '\\': 'backslash',
  ']': 'bracketright',
  '^': 'asciicircum',
  _: 'underscore',
  '`': 'grave',
  '{': 'braceleft',
  '|': 'bar',
  '}': 'braceright',
  '~': 'asciitilde',
};

/** Number-pad keys (code Numpad…) by what they typed: Tk reports them as KP_ keysyms. */
const KEYPAD: Record<string, string> = {
  Enter: 'KP_Enter',
  '+': 'KP_Add',
  '-': 'KP_Subtract',
  '*': 'KP_Multiply',
  '/': 'KP_Divide',
  '.': 'KP_Decimal',
  ',': 'KP_Separator',
  '=': 'KP_Equal',
  ArrowUp: 'KP_Up',
  ArrowDown: 'KP_Down',
  ArrowLeft: 'KP_Left',
  ArrowRight: 'KP_Right',
  Home: 'KP_Home',
  End: 'KP_End',
  PageUp: 'KP_Prior',
  PageDown: 'KP_Next',
  Insert: 'KP_Insert',
  Delete: 'KP_Delete',
  Clear: 'KP_Begin',
};

/** The parts of a KeyboardEvent the mapping reads. */
export interface KeyLike {
  key: string;
  code?: string;
}

/**
 * The Tk keysym for a key event, or null for a key Tk would not name with
 * one of the keysyms the runner accepts (letters, digits, '_'): IME input,
 * dead keys, letters outside ASCII.
 */
export function tkKeysym(e: KeyLike): string | null {
  const { key } = e;
  const code = e.code ?? '';
  if (code.startsWith('Numpad')) {
    if (/^[0-9]$/.test(key)) return `KP_${key}`;
    if (key in KEYPAD) return KEYPAD[key];
  }
  if (key in NAMED) return NAMED[key];
  if (key in MODIFIERS) return `${MODIFIERS[key]}_${code.endsWith('Right') ? 'R' : 'L'}`;
  if (/^F([1-9]|1[0-9]|2[0-4])$/.test(key)) return key;
  if (/^[A-Za-z0-9]$/.test(key)) return key;
  if (key in PUNCTUATION) return PUNCTUATION[key];
  return null;
}

/** A key event for the runner: press (down) or release of a Tk keysym. */
export interface KeyControl {
  type: 'key';
  key: string;
  down: boolean;
}

/**
 * What to send for one browser key event: a press, a release, or for an
 * auto-repeated keydown a release then a press, as X11 reports a held key
 * to Tk (so onkey handlers, which fire on release, fire on every repeat).
 */
export function keyControls(e: KeyLike & { repeat?: boolean }, down: boolean): KeyControl[] {
  const key = tkKeysym(e);
  if (!key) return [];
  if (down && e.repeat) return [{ type: 'key', key, down: false }, { type: 'key', key, down: true }];
  return [{ type: 'key', key, down }];
}

/** The modifier state of a key event, as far as window shortcuts read it. */
export interface ShortcutLike extends KeyLike {
  ctrlKey?: boolean;
  metaKey?: boolean;
}

/**
 * The window's own keys, which stay the window's while a game has the
 * keyboard: Escape stops the run and Ctrl+Enter (⌘+Enter) runs again, as
 * the Stop and Run buttons say. A program never gets them, so a game can
 * always be stopped from the keyboard.
 */
export function isWindowShortcut(e: ShortcutLike): boolean {
  if (e.key === 'Escape') return true;
  return e.key === 'Enter' && !!(e.ctrlKey || e.metaKey);
}
