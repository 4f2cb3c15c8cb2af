// Exercise packs: importing one (preview first), and for a lesson that came
// from a pack, checking the child's answer, hints and the celebration.

import { problemOf, type Backend, type CheckOutcome, type CourseShelf, type ExerciseView, type Hint, type Lang, type PackPlan, type PackSummary, type RunResult } from './backend';
import type { MessageKey, Params } from './i18n';
import { pick, type Notice } from './lessons.svelte';

export const PACK_EXT = '.kidpack';

export interface PacksDeps {
  backend: Backend;
  lang: () => Lang;
  t: (key: MessageKey, params?: Params) => string;
  notify: (n: Notice) => void;
  /** Saves the open lesson, so the check sees what the child sees. */
  save: () => Promise<void>;
  /** Opens a lesson after an import. */
  open: (path: string) => Promise<unknown>;
  /** Re-reads the lessons tree after an import. */
  refresh: () => Promise<void>;
  /** Shows the checked run's output and drawing, as after Run. */
  show?: (result: RunResult) => void;
}

export function stars(n: number, max = 3): string {
  const k = Math.max(0, Math.min(max, n));
  return '⭐'.repeat(k) + '☆'.repeat(max - k);
}

export class PacksState {
  /** The exercise behind the open lesson, or null. */
  exercise = $state.raw<ExerciseView | null>(null);
  exercisePath = $state<string | null>(null);
  checking = $state(false);
  outcome = $state.raw<CheckOutcome | null>(null);
  hints = $state.raw<Hint[]>([]);
  celebrating = $state(false);

  /** The pack being previewed for import. */
  preview = $state.raw<{ file: string; plan: PackPlan } | null>(null);
  importing = $state(false);

  progressOpen = $state(false);
  summaries = $state.raw<PackSummary[] | null>(null);

  /** The course shelf: the built-in packs and the child's progress in each. */
  shelfOpen = $state(false);
  shelf = $state.raw<CourseShelf | null>(null);
  /** The course being imported from the shelf. */
  importingCourse = $state<string | null>(null);
  #offered = false;

  #d: PacksDeps;
  #lookup = 0;

  constructor(deps: PacksDeps) {
    this.#d = deps;
  }

  /** Looks up the exercise of the lesson now open (null: none). */
  async lessonOpened(path: string | null): Promise<void> {
    const seq = ++this.#lookup;
    if (this.exercisePath !== path) {
      this.outcome = null;
      this.celebrating = false;
    }
    this.exercisePath = path;
    if (!path) {
      this.exercise = null;
      this.hints = [];
      return;
    }
    let ex: ExerciseView | null = null;
    try {
      ex = await this.#d.backend.lessonExercise(path, this.#d.lang());
    } catch {
      ex = null; // a damaged pack folder: the lesson still opens as a plain one
    }
    if (seq !== this.#lookup) return;
    this.exercise = ex;
    this.hints = ex?.hints ?? [];
  }

  async check(code: string): Promise<void> {
    const path = this.exercisePath;
    if (!path || !this.exercise || this.checking) return;
    this.checking = true;
    this.celebrating = false;
    try {
      await this.#d.save();
      const out = await this.#d.backend.checkLesson({ path, code, lang: this.#d.lang() });
      if (this.exercisePath !== path) return;
      this.outcome = out;
      if (out.run) this.#d.show?.(out.run);
      this.exercise = { ...this.exercise, progress: out.progress };
      if (out.report.passed) this.celebrating = true;
    } catch (e) {
      this.#d.notify({ tone: 'error', text: pick(problemOf(e), this.#d.lang()) });
    } finally {
      this.checking = false;
    }
  }

  get moreHints(): boolean {
    return !!this.exercise && this.hints.length < this.exercise.hintsTotal;
  }

  async hint(): Promise<void> {
    const path = this.exercisePath;
    if (!path || !this.exercise) return;
    if (!this.moreHints) {
      this.#d.notify({ tone: 'ok', text: this.#d.t('noMoreHints') });
      return;
    }
    try {
      const h = await this.#d.backend.revealHint(path, this.#d.lang());
      if (this.exercisePath !== path || h.index < 0) return;
      if (!this.hints.some((x) => x.index === h.index)) this.hints = [...this.hints, h];
    } catch (e) {
      this.#d.notify({ tone: 'error', text: pick(problemOf(e), this.#d.lang()) });
    }
  }

  /** Asks for a pack file and previews it. */
  async choose(): Promise<void> {
    try {
      const file = await this.#d.backend.choosePackFile();
      if (file) await this.previewFile(file);
    } catch (e) {
      this.#d.notify({ tone: 'error', text: pick(problemOf(e), this.#d.lang()) });
    }
  }

  /** Files dropped on the window: the first .kidpack is previewed. */
  async dropped(paths: string[]): Promise<void> {
    const file = paths.find((p) => p.toLowerCase().endsWith(PACK_EXT));
    if (!file) {
      if (paths.length) this.#d.notify({ tone: 'error', text: this.#d.t('notAPack') });
      return;
    }
    await this.previewFile(file);
  }

  async previewFile(file: string): Promise<void> {
    try {
      const plan = await this.#d.backend.previewPack(file, this.#d.lang());
      this.preview = { file, plan };
    } catch (e) {
      this.#d.notify({ tone: 'error', text: pick(problemOf(e), this.#d.lang()) });
    }
  }

  cancelImport(): void {
    this.preview = null;
  }

  async confirmImport(): Promise<void> {
    const p = this.preview;
    if (!p || this.importing) return;
    this.importing = true;
    try {
      const plan = await this.#d.backend.importPack(p.file, this.#d.lang());
      this.preview = null;
      await this.#d.refresh();
      this.#d.notify({ tone: 'ok', text: this.#d.t('packImported', { title: pick(plan.title, this.#d.lang()) }) });
      const first = plan.exercises[0]?.lesson;
      if (first) await this.#d.open(first);
    } catch (e) {
      this.#d.notify({ tone: 'error', text: pick(problemOf(e), this.#d.lang()) });
    } finally {
      this.importing = false;
    }
  }

  /** Opens the course shelf. */
  async openShelf(): Promise<void> {
    this.shelfOpen = true;
    await this.loadShelf();
  }

  async loadShelf(): Promise<CourseShelf | null> {
    try {
      this.shelf = await this.#d.backend.courses();
    } catch (e) {
      this.#d.notify({ tone: 'error', text: pick(problemOf(e), this.#d.lang()) });
    }
    return this.shelf;
  }

  /** Whether the shelf should open by itself (a first start); it then counts as offered once shown. */
  async shouldOffer(): Promise<boolean> {
    const shelf = await this.loadShelf();
    return !!shelf?.offer;
  }

  /** Opens the shelf as the first start's offer. */
  offer(): void {
    this.#offered = true;
    this.shelfOpen = true;
  }

  closeShelf(): void {
    this.shelfOpen = false;
    if (this.#offered) {
      this.#offered = false;
      void this.#d.backend.offerCoursesDone().catch(() => {});
    }
  }

  /** Imports a built-in pack with one click and opens its first exercise. */
  async importCourse(name: string): Promise<void> {
    if (this.importingCourse) return;
    this.importingCourse = name;
    try {
      const plan = await this.#d.backend.importCourse(name, this.#d.lang());
      this.closeShelf();
      await this.#d.refresh();
      this.#d.notify({ tone: 'ok', text: this.#d.t('packImported', { title: pick(plan.title, this.#d.lang()) }) });
      const first = plan.exercises.find((e) => e.new)?.lesson ?? plan.exercises[0]?.lesson;
      if (first) await this.#d.open(first);
    } catch (e) {
      this.#d.notify({ tone: 'error', text: pick(problemOf(e), this.#d.lang()) });
    } finally {
      this.importingCourse = null;
    }
  }

  async showProgress(): Promise<void> {
    this.progressOpen = true;
    this.summaries = null;
    try {
      this.summaries = await this.#d.backend.packProgress();
    } catch (e) {
      this.summaries = [];
      this.#d.notify({ tone: 'error', text: pick(problemOf(e), this.#d.lang()) });
    }
  }
}
