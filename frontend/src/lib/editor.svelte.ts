// The code editor: one CodeMirror view owned by this state, created when a
// component attaches it and destroyed in that effect's cleanup. Font size and
// placeholder change at run time through compartments.

import { closeBrackets, closeBracketsKeymap } from '@codemirror/autocomplete';
import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { python } from '@codemirror/lang-python';
import { bracketMatching, defaultHighlightStyle, indentOnInput, indentUnit, syntaxHighlighting } from '@codemirror/language';
import { Compartment, EditorState, Prec, StateEffect, StateField, type Extension } from '@codemirror/state';
import {
  Decoration,
  drawSelection,
  EditorView,
  highlightActiveLine,
  highlightActiveLineGutter,
  keymap,
  lineNumbers,
  placeholder,
  type DecorationSet,
} from '@codemirror/view';

export interface EditorActions {
  run(): void;
  stop(): void;
  /** +1 bigger, -1 smaller, 0 back to the default size. */
  zoom(step: number): void;
  /** The child changed the text (not setCode). */
  edited?(): void;
}

export interface EditorPosition {
  scrollTop: number;
  cursor: number;
}

export const DEFAULT_FONT_SIZE = 18;

/** Keys that only modify another: pressing one between Escape and Tab keeps the way out open. */
const MODIFIER_KEYS = new Set(['Shift', 'Control', 'Alt', 'Meta', 'AltGraph', 'CapsLock']);

const setErrorLine = StateEffect.define<number | null>();

const errorLineMark = Decoration.line({ class: 'cm-error-line' });

/** The highlighted error line; any edit clears it, because the line number may no longer mean the same code. */
const errorLineField = StateField.define<DecorationSet>({
  create: () => Decoration.none,
  update(deco, tr) {
    for (const e of tr.effects) {
      if (e.is(setErrorLine)) {
        const n = e.value;
        if (n === null || n < 1 || n > tr.state.doc.lines) return Decoration.none;
        return Decoration.set([errorLineMark.range(tr.state.doc.line(n).from)]);
      }
    }
    return tr.docChanged ? Decoration.none : deco;
  },
  provide: (f) => EditorView.decorations.from(f),
});

/** Step by step: the line about to run (or where the run failed, at its end). */
export interface StepMark {
  line: number;
  error: boolean;
}

const setStepLine = StateEffect.define<StepMark | null>();

const stepLineMark = Decoration.line({ class: 'cm-step-line' });
const stepErrorMark = Decoration.line({ class: 'cm-step-line cm-step-error' });

/** The step's line; an edit clears it, as the recording no longer is of this code. */
const stepLineField = StateField.define<DecorationSet>({
  create: () => Decoration.none,
  update(deco, tr) {
    for (const e of tr.effects) {
      if (e.is(setStepLine)) {
        const m = e.value;
        if (m === null || m.line < 1 || m.line > tr.state.doc.lines) return Decoration.none;
        return Decoration.set([(m.error ? stepErrorMark : stepLineMark).range(tr.state.doc.line(m.line).from)]);
      }
    }
    return tr.docChanged ? Decoration.none : deco;
  },
  provide: (f) => EditorView.decorations.from(f),
});

function fontTheme(px: number): Extension {
  return EditorView.theme({
    '&': { fontSize: `${px}px` },
    '.cm-content, .cm-gutters': { fontFamily: 'var(--code-font)' },
  });
}

export class CodeEditor {
  fontSize = $state(DEFAULT_FONT_SIZE);
  /** The line the last run failed on, while it is highlighted. */
  errorLine = $state<number | null>(null);
  /** The line step by step is at, while it is highlighted. */
  stepLine = $state.raw<StepMark | null>(null);

  #view: EditorView | null = null;
  #doc = '';
  #placeholder = '';
  #actions: EditorActions;
  #font = new Compartment();
  #hint = new Compartment();
  /** Where to put the view once it exists, for a position set before attach(). */
  #pending: EditorPosition | null = null;
  /** takeFocus() came before the view existed. */
  #focusOnAttach = false;
  /**
   * Tab-focus mode (Tab moves the focus instead of indenting): 'once' after
   * Escape, until the next other key or the focus leaving; 'on' while
   * CodeMirror's Ctrl+M keeps it on. Kept here because the view does not
   * say which is in force, and leaving 'once' must not end 'on'.
   */
  #tabMode: 'off' | 'once' | 'on' = 'off';

  constructor(actions: EditorActions) {
    this.#actions = actions;
  }

  get attached(): boolean {
    return this.#view !== null;
  }

  /** Creates the view inside `parent`; the returned function destroys it (use as an $effect cleanup). */
  attach(parent: HTMLElement): () => void {
    this.#view?.destroy();
    const view = new EditorView({ parent, state: this.#newState(this.#doc) });
    this.#view = view;
    if (this.errorLine !== null) this.#markError(this.errorLine, false);
    if (this.stepLine !== null) this.#markStep(this.stepLine);
    if (this.#pending) this.setPosition(this.#pending);
    this.#tabMode = 'off';
    if (this.#focusOnAttach) {
      this.#focusOnAttach = false;
      this.takeFocus();
    }
    return () => {
      this.#doc = view.state.doc.toString();
      view.destroy();
      if (this.#view === view) this.#view = null;
    };
  }

  get code(): string {
    return this.#view ? this.#view.state.doc.toString() : this.#doc;
  }

  setCode(code: string): void {
    this.errorLine = null;
    this.stepLine = null;
    this.#pending = null;
    this.#doc = code;
    // A fresh state also starts a fresh undo history: undo must not bring back the previous program.
    this.#view?.setState(this.#newState(code));
  }

  /** Where the child is: scroll offset and cursor. */
  get position(): EditorPosition {
    const v = this.#view;
    if (!v) return this.#pending ?? { scrollTop: 0, cursor: 0 };
    return { scrollTop: Math.round(v.scrollDOM.scrollTop), cursor: v.state.selection.main.head };
  }

  /** Puts the cursor and scroll back where they were; call after setCode. */
  setPosition(pos: EditorPosition): void {
    const v = this.#view;
    if (!v) {
      this.#pending = pos;
      return;
    }
    this.#pending = null;
    const cursor = Math.max(0, Math.min(pos.cursor, v.state.doc.length));
    v.dispatch({ selection: { anchor: cursor } });
    // Scrolling must wait until CodeMirror has measured the new document.
    v.requestMeasure({ read: () => null, write: () => (v.scrollDOM.scrollTop = pos.scrollTop) });
  }

  /** Listens to scrolling of the view; returns the unsubscribe. */
  onScroll(cb: () => void): () => void {
    const v = this.#view;
    if (!v) return () => {};
    v.scrollDOM.addEventListener('scroll', cb, { passive: true });
    return () => v.scrollDOM.removeEventListener('scroll', cb);
  }

  setFontSize(px: number): void {
    this.fontSize = px;
    this.#view?.dispatch({ effects: this.#font.reconfigure(fontTheme(px)) });
  }

  setPlaceholder(text: string): void {
    this.#placeholder = text;
    this.#view?.dispatch({ effects: this.#hint.reconfigure(placeholder(text)) });
  }

  /** Highlights a line (1-based) and scrolls it into view. */
  showError(line: number): void {
    this.errorLine = line;
    this.#markError(line, true);
  }

  clearError(): void {
    if (this.errorLine === null) return;
    this.errorLine = null;
    this.#view?.dispatch({ effects: setErrorLine.of(null) });
  }

  /**
   * Step by step: highlights the line about to run (an error's line in the
   * error's colours), scrolled into view only as far as needed; null clears it.
   */
  showStep(mark: StepMark | null): void {
    const m = mark && mark.line >= 1 ? mark : null;
    if (m?.line === this.stepLine?.line && m?.error === this.stepLine?.error) return;
    this.stepLine = m;
    this.#markStep(m);
  }

  #markStep(m: StepMark | null): void {
    const v = this.#view;
    if (!v) return;
    const effects: StateEffect<unknown>[] = [setStepLine.of(m)];
    if (m && m.line <= v.state.doc.lines) effects.push(EditorView.scrollIntoView(v.state.doc.line(m.line).from, { y: 'nearest', yMargin: 24 }));
    v.dispatch({ effects });
  }

  /** Whether the view shows a step line (for tests). */
  hasStepMark(): boolean {
    const v = this.#view;
    return !!v && v.state.field(stepLineField).size > 0;
  }

  focus(): void {
    this.#view?.focus();
  }

  /** Puts the keyboard in the editor, unless the child has already put it somewhere else. */
  takeFocus(): void {
    const v = this.#view;
    if (!v) {
      this.#focusOnAttach = true;
      return;
    }
    const active = v.dom.ownerDocument.activeElement;
    if (!active || active === v.dom.ownerDocument.body) v.focus();
  }

  #setTabMode(view: EditorView, mode: 'off' | 'once' | 'on'): void {
    this.#tabMode = mode;
    view.setTabFocusMode(mode !== 'off');
  }

  /** Whether the view currently shows an error decoration (for tests and the status line). */
  hasErrorMark(): boolean {
    const v = this.#view;
    return !!v && v.state.field(errorLineField).size > 0;
  }

  #markError(line: number, scroll: boolean): void {
    const v = this.#view;
    if (!v) return;
    const effects: StateEffect<unknown>[] = [setErrorLine.of(line)];
    if (scroll && line >= 1 && line <= v.state.doc.lines) {
      effects.push(EditorView.scrollIntoView(v.state.doc.line(line).from, { y: 'center' }));
    }
    v.dispatch({ effects });
  }

  #newState(doc: string): EditorState {
    const a = this.#actions;
    const run = () => (a.run(), true);
    // Escape stops the program, and the next Tab leaves the editor
    // (CodeMirror's way out of a Tab that indents), without a time limit.
    const stop = (view: EditorView) => {
      a.stop();
      if (this.#tabMode === 'off') this.#setTabMode(view, 'once');
      return true;
    };
    const toggleTabs = (view: EditorView) => (this.#setTabMode(view, this.#tabMode === 'on' ? 'off' : 'on'), true);
    return EditorState.create({
      doc,
      extensions: [
        Prec.highest(
          EditorView.domEventHandlers({
            keydown: (e, view) => {
              // The view lets a Tab in tab-focus mode through before any
              // handler; any other key ends the mode Escape began.
              if (this.#tabMode === 'once' && e.key !== 'Escape' && e.key !== 'Tab' && !MODIFIER_KEYS.has(e.key)) this.#setTabMode(view, 'off');
              return false;
            },
          }),
        ),
        EditorView.domEventObservers({
          blur: (_e, view) => {
            if (this.#tabMode === 'once') this.#setTabMode(view, 'off');
          },
        }),
        Prec.highest(
          keymap.of([
            { key: 'Mod-Enter', run },
            { key: 'Escape', run: stop },
            { key: 'Ctrl-m', mac: 'Shift-Alt-m', run: toggleTabs },
            { key: 'Mod-=', run: () => (a.zoom(1), true) },
            { key: 'Mod-+', run: () => (a.zoom(1), true) },
            { key: 'Mod--', run: () => (a.zoom(-1), true) },
            { key: 'Mod-0', run: () => (a.zoom(0), true) },
          ]),
        ),
        lineNumbers(),
        highlightActiveLineGutter(),
        history(),
        drawSelection(),
        indentOnInput(),
        bracketMatching(),
        closeBrackets(),
        highlightActiveLine(),
        syntaxHighlighting(defaultHighlightStyle, { fallback: true }),
        python(),
        indentUnit.of('    '),
        EditorState.tabSize.of(4),
        keymap.of([...closeBracketsKeymap, ...defaultKeymap, ...historyKeymap, indentWithTab]),
        this.#font.of(fontTheme(this.fontSize)),
        this.#hint.of(placeholder(this.#placeholder)),
        errorLineField,
        stepLineField,
        EditorView.updateListener.of((u) => {
          if (u.docChanged && this.errorLine !== null) this.errorLine = null;
          if (u.docChanged && this.stepLine !== null) this.stepLine = null;
          if (u.docChanged) a.edited?.();
        }),
        EditorView.contentAttributes.of({ 'aria-label': 'Python', spellcheck: 'false', autocorrect: 'off', autocapitalize: 'off' }),
      ],
    });
  }
}
