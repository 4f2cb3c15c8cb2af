// Exercise packs: importing one (preview first), and for a lesson that came
// from a pack, checking the child's answer, hints and the celebration.

import { problemOf, type Backend, type CheckOutcome, type CourseShelf, type CourseStep, type ExerciseView, type Hint, type Lang, type PackPlan, type PackSummary, type RunResult } from './backend';
import { EventCheckProgress } from './events';
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
  /** Makes the id of each check, which its progress events carry and Stop names. */
  runId?: () => string;
}

export function stars(n: number, max = 3): string {
  const k = Math.max(0, Math.min(max, n));
  return '⭐'.repeat(k) + '☆'.repeat(max - k);
}

/** Where a course goes on: its first exercise not solved, or its first when all are. */
export function firstOpen(steps: readonly CourseStep[]): CourseStep | null {
  return steps.find((s) => !s.solved) ?? steps[0] ?? null;
}

/** The exercise after `id` in its pack, or null after the last. */
export function stepAfter(steps: readonly CourseStep[], id: string): CourseStep | null {
  const i = steps.findIndex((s) => s.id === id);
  return i >= 0 && i + 1 < steps.length ? steps[i + 1] : null;
}

export class PacksState {
  /** The exercise behind the open lesson, or null. */
  exercise = $state.raw<ExerciseView | null>(null);
  exercisePath = $state<string | null>(null);
  checking = $state(false);
  /** Which run of the check is going: run `n` of `total`; null before the first. */
  checkProgress = $state.raw<{ n: number; total: number } | null>(null);
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
  #checkId: string | null = null;
  /** Stop came before the app had the check (before its first progress event). */
  #stopEarly = false;
  #seq = 0;

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
    this.checkProgress = null;
    this.#stopEarly = false;
    const runId = this.#d.runId?.() ?? `check-${Date.now().toString(36)}-${++this.#seq}`;
    this.#checkId = runId;
    const off = this.#d.backend.on(EventCheckProgress, (e) => {
      if (e.runId !== runId || this.#checkId !== runId) return;
      this.checkProgress = { n: e.run, total: e.runs };
      // The app has the check now: a Stop pressed before reaches it.
      if (this.#stopEarly) void this.#d.backend.stop(runId).catch(() => {});
    });
    try {
      await this.#d.save();
      if (this.#stopEarly) return;
      const out = await this.#d.backend.checkLesson({ path, code, lang: this.#d.lang(), runId });
      if (this.exercisePath !== path) return;
      this.outcome = out;
      if (out.run) this.#d.show?.(out.run);
      const ex = this.exercise;
      // The map's stop for this exercise shows the new stars too.
      const steps = (ex.steps ?? []).map((s) => (s.id === ex.id ? { ...s, solved: out.progress.solved, stars: out.progress.stars } : s));
      this.exercise = { ...ex, progress: out.progress, steps };
      if (out.report.passed) this.celebrating = true;
    } catch (e) {
      this.#d.notify({ tone: 'error', text: pick(problemOf(e), this.#d.lang()) });
    } finally {
      off();
      this.#checkId = null;
      this.checkProgress = null;
      this.checking = false;
    }
  }

  /** Stops the check going (the window's Stop and Esc): its run ends and no other starts. */
  async stopCheck(): Promise<void> {
    const id = this.#checkId;
    if (!id) return;
    this.#stopEarly = true;
    if (this.checkProgress) await this.#d.backend.stop(id).catch(() => {});
  }

  /** The next exercise of the open one's pack, or null for its last. */
  get next(): CourseStep | null {
    const ex = this.exercise;
    return ex ? stepAfter(ex.steps ?? [], ex.id) : null;
  }

  /** Opens the next exercise of the pack. */
  async goNext(): Promise<void> {
    const n = this.next;
    if (n?.lesson) await this.#d.open(n.lesson);
  }

  /** Opens an exercise of the open one's pack (the course map in the task panel). */
  async goTo(step: CourseStep): Promise<void> {
    if (step.lesson && step.lesson !== this.exercisePath) await this.#d.open(step.lesson);
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

  /**
   * Imports a built-in pack with one click (or updates it, keeping the
   * child's code) and opens exercise `id`, else where the course goes on:
   * its first exercise not solved.
   */
  async importCourse(name: string, id?: string): Promise<void> {
    if (this.importingCourse) return;
    this.importingCourse = name;
    try {
      const plan = await this.#d.backend.importCourse(name, this.#d.lang());
      this.closeShelf();
      await this.#d.refresh();
      this.#d.notify({ tone: 'ok', text: this.#d.t('packImported', { title: pick(plan.title, this.#d.lang()) }) });
      // The progress as it is now, not as when the shelf opened.
      const shelf = await this.#d.backend.courses().catch(() => this.shelf);
      if (shelf) this.shelf = shelf;
      const want = id ?? firstOpen(shelf?.courses.find((c) => c.name === name)?.steps ?? [])?.id;
      const first = plan.exercises.find((e) => e.id === want)?.lesson ?? plan.exercises[0]?.lesson;
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
