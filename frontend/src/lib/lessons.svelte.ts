// The lessons folder as the sidebar and the editor see it: the tree, the
// open lesson, and saving. Saves go one at a time through a chain, each from
// the version the last one wrote, so the Go side can tell our own writes
// from a change made in another program.

import { problemOf, type Backend, type ClosingEvent, type Lang, type Lesson, type LessonChangedEvent, type LessonNode, type Position, type Problem, type Text2 } from './backend';
import type { CodeEditor } from './editor.svelte';
import { EventClosing, EventLessonChanged, EventLessonsChanged, isCloseKey } from './events';
import type { MessageKey, Params } from './i18n';

/** Autosave waits this long after the last keystroke. */
export const AUTOSAVE_MS = 1000;
/** Scrolling is remembered once it has settled. */
export const REMEMBER_MS = 1000;

export interface Notice {
  text: string;
  tone: 'ok' | 'error';
  action?: { label: string; run: () => void };
}

export interface Timers {
  set(fn: () => void, ms: number): unknown;
  clear(id: unknown): void;
}

export const realTimers: Timers = {
  set: (fn, ms) => setTimeout(fn, ms),
  clear: (id) => clearTimeout(id as ReturnType<typeof setTimeout>),
};

export interface LessonsDeps {
  backend: Backend;
  editor: CodeEditor;
  lang: () => Lang;
  t: (key: MessageKey, params?: Params) => string;
  notify: (n: Notice) => void;
  /** Called after a lesson was opened or closed, e.g. to look up its exercise. */
  opened?: (lesson: Lesson | null) => void;
  timers?: Timers;
}

/** Whether encodings other than UTF-8 are converted when saving. */
export type ConvertChoice = 'ask' | 'yes' | 'no';

export function pick(t: Text2, lang: Lang): string {
  return (lang === 'zh' ? t.zh || t.en : t.en || t.zh) ?? '';
}

/** What the sidebar calls a node: a pack lesson's title ("画正方形"), else its name ("01-square"). */
export function nodeLabel(n: LessonNode, lang: Lang): string {
  return (n.title && pick(n.title, lang)) || n.name;
}

/** Lesson paths in tree order. */
export function lessonPaths(n: LessonNode | null): string[] {
  if (!n) return [];
  const out: string[] = [];
  const walk = (x: LessonNode) => {
    for (const c of x.children ?? []) {
      if (c.kind === 'lesson') out.push(c.path);
      else walk(c);
    }
  };
  walk(n);
  return out;
}

export function parentOf(path: string): string {
  const i = path.lastIndexOf('/');
  return i < 0 ? '' : path.slice(0, i);
}

export function baseName(path: string): string {
  const name = path.slice(path.lastIndexOf('/') + 1);
  return name.endsWith('.py') ? name.slice(0, -3) : name;
}

export class LessonsState {
  root = $state('');
  tree = $state.raw<LessonNode | null>(null);
  problem = $state.raw<Problem | null>(null);
  /** The open lesson as last read or saved; null while the editor holds code that is no lesson. */
  current = $state.raw<Lesson | null>(null);
  dirty = $state(false);
  saving = $state(false);
  /** The last save failed with this problem; the text is still only in the editor. */
  saveProblem = $state.raw<Problem | null>(null);
  convert = $state<ConvertChoice>('ask');
  /** Groups the child folded away, by path. */
  folded = $state<Record<string, boolean>>({});
  loaded = $state(false);

  #d: LessonsDeps;
  #timers: Timers;
  #positions: Record<string, Position> = {};
  #chain: Promise<unknown> = Promise.resolve();
  #autosave: unknown = null;
  #remember: unknown = null;
  /** Set while setCode runs, so our own text change is not an edit. */
  #loading = false;
  /** The app asked to close the window (EventClosing). */
  #closeAsked: ClosingEvent | null = null;
  /** The app's close key came: every key pressed before the close is in the editor. */
  #closeKeySeen = false;
  /** The answers to closing go one after another, so the app gets them in order. */
  #answers: Promise<void> = Promise.resolve();
  #answeredFinal = false;

  constructor(deps: LessonsDeps) {
    this.#d = deps;
    this.#timers = deps.timers ?? realTimers;
  }

  get paths(): string[] {
    return lessonPaths(this.tree);
  }

  /**
   * Subscribes to the watcher's events and to the window closing, and tells
   * the app that closing must ask for the editor's text; returns the unsubscribe.
   */
  connect(): () => void {
    const b = this.#d.backend;
    const offs = [
      b.on(EventLessonsChanged, (e) => {
        this.root = e.root;
        this.tree = e.tree ?? null;
        this.problem = e.problem ?? null;
      }),
      b.on(EventLessonChanged, (e) => void this.#onLessonChanged(e)),
      b.on(EventClosing, (e) => {
        this.#closeAsked = e ?? {};
        this.#answerClose();
      }),
    ];
    void b.askOnClose().catch(() => {});
    return () => offs.forEach((off) => off());
  }

  /** Reads the tree and what was open last time. */
  async load(): Promise<{ open?: string }> {
    const v = await this.#d.backend.lessons();
    this.root = v.root;
    this.tree = v.tree ?? null;
    this.problem = v.problem ?? null;
    this.#positions = v.positions ?? {};
    this.loaded = true;
    return { open: v.open };
  }

  /** Saves the open lesson, then opens path and puts the child back where they were in it. */
  async open(path: string): Promise<boolean> {
    await this.flush();
    let lesson: Lesson;
    try {
      lesson = await this.#d.backend.openLesson(path);
    } catch (e) {
      this.#fail(e);
      return false;
    }
    await this.#settle();
    this.#show(lesson);
    const pos = this.#positions[path];
    if (pos) this.#d.editor.setPosition(pos);
    void this.#d.backend.rememberLesson(path, pos ?? { scrollTop: 0, cursor: 0 }).catch(() => {});
    this.#d.opened?.(lesson);
    return true;
  }

  /** Saves the open lesson and leaves the editor to code that is no lesson (the built-in demo). */
  async close(): Promise<void> {
    await this.#settle();
    this.current = null;
    this.dirty = false;
    this.saveProblem = null;
    this.#d.opened?.(null);
  }

  /** The editor's text changed because the child typed. */
  edited(): void {
    if (this.#loading || !this.current) return;
    const path = this.current.path;
    if (!this.dirty) {
      this.dirty = true;
      // The watcher must know at once: from now on a change on disk keeps both versions.
      void this.#d.backend.setLessonDirty(path, true).catch(() => {});
    }
    // While the window closes, its answers carry the text: a save now
    // would race the one shutdown writes.
    if (!this.#closeAsked) {
      this.#timers.clear(this.#autosave);
      this.#autosave = this.#timers.set(() => void this.flush(), AUTOSAVE_MS);
    }
    this.moved();
  }

  /** Saves now if there is anything to save; resolves when it is on disk (or has failed). */
  flush(): Promise<void> {
    this.#timers.clear(this.#autosave);
    this.#autosave = null;
    const p = this.#chain.then(() => this.#saveIfDirty());
    this.#chain = p.catch(() => {});
    return p;
  }

  /**
   * Saves until what is on disk is what the editor shows: keys typed while a
   * save was under way are saved too. Whoever replaces the editor's text
   * right after (another lesson opening) then loses nothing, as nothing
   * runs in between. A save that failed stops it; its problem is shown.
   */
  async #settle(): Promise<void> {
    do await this.flush();
    while (this.dirty && !this.saveProblem);
  }

  /**
   * A key reached the window, before anything else saw it: true for the
   * app's close key, which goes no further. It comes after every key the
   * child pressed before closing, so the final answer waits for it.
   */
  keyArrived(e: { key: string; keyCode: number }): boolean {
    const close = isCloseKey(e);
    if (close) this.#closeKeySeen = true;
    // While closing, each key that comes in is answered too: the app waits
    // as long as the window makes progress through the keys on their way.
    if (this.#closeAsked) this.#answerClose();
    return close;
  }

  /**
   * The app is closing the window (EventClosing): hands over the editor's
   * unsaved text, which the app writes before it ends; at once, for each
   * key that comes in, and final once the close key has come. A save under
   * way is answered first, so the text starts from the version it wrote and
   * is not taken for a change made elsewhere.
   */
  #answerClose(): void {
    this.#timers.clear(this.#autosave);
    this.#autosave = null;
    this.#answers = this.#answers.then(async () => {
      const ask = this.#closeAsked;
      if (!ask || this.#answeredFinal) return;
      await this.#chain;
      const final = !ask.afterKey || this.#closeKeySeen;
      this.#answeredFinal = final;
      const draft = this.current && this.dirty ? this.#request(this.#d.editor.code) : { path: '', content: '', version: '', convertToUtf8: false };
      await this.#d.backend.closeReady(draft, final).catch(() => {});
    });
  }

  /** The child answered the encoding question. */
  async setConvert(choice: 'yes' | 'no'): Promise<void> {
    this.convert = choice;
    if (this.dirty || this.saveProblem) {
      this.dirty = true;
      await this.flush();
    }
  }

  /** Remembers where the child is in the open lesson, once scrolling settles. */
  moved(): void {
    if (!this.current) return;
    this.#timers.clear(this.#remember);
    this.#remember = this.#timers.set(() => this.rememberNow(), REMEMBER_MS);
  }

  rememberNow(): void {
    const c = this.current;
    if (!c) return;
    const pos = this.#d.editor.position;
    this.#positions[c.path] = pos;
    void this.#d.backend.rememberLesson(c.path, pos).catch(() => {});
  }

  async refresh(): Promise<void> {
    try {
      await this.load();
    } catch (e) {
      this.problem = problemOf(e);
    }
  }

  async newLesson(group: string, name: string): Promise<boolean> {
    try {
      const path = await this.#d.backend.newLesson(group, name);
      await this.refresh();
      if (group) this.folded[group] = false;
      return this.open(path);
    } catch (e) {
      this.#fail(e);
      return false;
    }
  }

  async newGroup(parent: string, name: string): Promise<boolean> {
    try {
      await this.#d.backend.newGroup(parent, name);
      await this.refresh();
      return true;
    } catch (e) {
      this.#fail(e);
      return false;
    }
  }

  async rename(path: string, newName: string): Promise<boolean> {
    const c = this.current;
    const inside = !!c && (c.path === path || c.path.startsWith(path + '/'));
    if (inside) await this.flush();
    try {
      const to = await this.#d.backend.renameLesson(path, newName);
      if (inside && c) {
        const moved = to + c.path.slice(path.length);
        this.current = { ...c, path: moved, name: baseName(moved) };
        this.rememberNow();
      }
      await this.refresh();
      return true;
    } catch (e) {
      this.#fail(e);
      return false;
    }
  }

  async duplicate(path: string): Promise<boolean> {
    if (this.current?.path === path) await this.flush();
    try {
      const copy = await this.#d.backend.duplicateLesson(path);
      await this.refresh();
      return this.open(copy);
    } catch (e) {
      this.#fail(e);
      return false;
    }
  }

  async delete(path: string): Promise<boolean> {
    const c = this.current;
    const inside = !!c && (c.path === path || c.path.startsWith(path + '/'));
    if (inside) await this.flush();
    try {
      const d = await this.#d.backend.deleteLesson(path);
      if (inside) {
        this.current = null;
        this.dirty = false;
        this.#loading = true;
        this.#d.editor.setCode('');
        this.#loading = false;
        this.#d.opened?.(null);
      }
      await this.refresh();
      const name = baseName(path);
      this.#d.notify({
        tone: 'ok',
        text: this.#d.t('deleted', { name }),
        action: { label: this.#d.t('undo'), run: () => void this.undo(d.id, name, inside ? path : null) },
      });
      return true;
    } catch (e) {
      this.#fail(e);
      return false;
    }
  }

  async undo(id: string, name: string, reopen: string | null): Promise<void> {
    try {
      await this.#d.backend.undoDelete(id);
      await this.refresh();
      this.#d.notify({ tone: 'ok', text: this.#d.t('undone', { name }) });
      if (reopen && !this.current) await this.open(reopen);
    } catch (e) {
      this.#fail(e);
    }
  }

  /** Asks for another folder and switches to it; true when it did. */
  async chooseFolder(): Promise<boolean> {
    await this.flush();
    try {
      const s = await this.#d.backend.chooseLessonsFolder();
      if (!s) return false;
      this.current = null;
      this.dirty = false;
      this.#d.opened?.(null);
      const last = await this.load();
      this.#d.notify({ tone: 'ok', text: this.#d.t('folderChanged', { path: this.root }) });
      const first = last.open && this.paths.includes(last.open) ? last.open : this.paths[0];
      if (first) await this.open(first);
      return true;
    } catch (e) {
      this.#fail(e);
      return false;
    }
  }

  toggleGroup(path: string): void {
    this.folded[path] = !this.folded[path];
  }

  #show(lesson: Lesson): void {
    this.current = lesson;
    this.dirty = false;
    this.saveProblem = null;
    this.convert = 'ask';
    this.#loading = true;
    try {
      this.#d.editor.setCode(lesson.content);
    } finally {
      this.#loading = false;
    }
  }

  #request(content: string) {
    const c = this.current!;
    return { path: c.path, content, version: c.version, convertToUtf8: c.needsConversion && this.convert === 'yes' };
  }

  async #saveIfDirty(): Promise<void> {
    const c = this.current;
    if (!c || !this.dirty) return;
    const content = this.#d.editor.code;
    const req = this.#request(content);
    this.saving = true;
    try {
      let version: string;
      let encoding: string;
      try {
        ({ version, encoding } = await this.#d.backend.saveLesson(req));
      } catch (e) {
        if (problemOf(e).code !== 'conflict') throw e;
        // Changed elsewhere since we read it: keep both, lose nothing.
        const kept = await this.#d.backend.keepBothLesson(req);
        ({ version, encoding } = kept);
        if (kept.asidePath) this.#d.notify({ tone: 'ok', text: this.#d.t('keptBothSave', { name: kept.asidePath.slice(kept.asidePath.lastIndexOf('/') + 1) }) });
      }
      this.saveProblem = null;
      if (this.current?.path !== c.path) return; // renamed or closed meanwhile
      const converted = req.convertToUtf8;
      this.current = { ...this.current, version, encoding, needsConversion: converted ? false : this.current.needsConversion };
      if (this.#d.editor.code === content) {
        this.dirty = false;
        void this.#d.backend.setLessonDirty(c.path, false).catch(() => {});
      }
    } catch (e) {
      const p = problemOf(e);
      this.saveProblem = p;
      if (p.code !== 'needs_conversion') this.#d.notify({ tone: 'error', text: pick(p, this.#d.lang()) });
    } finally {
      this.saving = false;
    }
  }

  async #onLessonChanged(e: LessonChangedEvent): Promise<void> {
    const c = this.current;
    if (!c || e.path !== c.path) return;
    const say = (tone: 'ok' | 'error', text: string) => this.#d.notify({ tone, text });
    switch (e.kind) {
      case 'reloaded':
        if (!e.lesson) return;
        if (this.dirty) {
          // The child typed before the watcher heard about it: keep both.
          this.current = { ...c, version: e.lesson.version };
          await this.flush();
          return;
        }
        {
          const pos = this.#d.editor.position;
          this.#show(e.lesson);
          this.#d.editor.setPosition(pos);
        }
        say('ok', pick(e.message, this.#d.lang()));
        this.#d.opened?.(e.lesson);
        return;
      case 'kept-both':
        this.current = { ...c, version: e.version ?? c.version };
        say('ok', pick(e.message, this.#d.lang()));
        await this.flush();
        return;
      case 'deleted':
        // Saving writes it again; there is no version on disk to start from.
        this.current = { ...c, version: '' };
        this.dirty = true;
        say('error', this.#d.t('deletedOnDisk'));
        return;
      case 'unreadable':
        say('error', pick(e.message, this.#d.lang()));
        return;
      case 'renamed':
        // Renamed or moved elsewhere: the same lesson, edits and all, saved under its new name from now on.
        if (!e.newPath) return;
        this.current = { ...c, path: e.newPath, name: baseName(e.newPath), version: e.version || c.version };
        this.rememberNow();
        say('ok', pick(e.message, this.#d.lang()));
        return;
    }
  }

  #fail(e: unknown): void {
    this.#d.notify({ tone: 'error', text: pick(problemOf(e), this.#d.lang()) });
  }
}
