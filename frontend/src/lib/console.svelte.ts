// The console panel's state: the text model behind a frame-batched buffer, so
// a program printing as fast as it can costs one update per animation frame.

import { ConsoleModel, type Line, type SegKind } from './consoleModel';

export type Scheduler = (flush: () => void) => void;

const defaultScheduler: Scheduler = (flush) => {
  if (typeof requestAnimationFrame === 'function') requestAnimationFrame(() => flush());
  else setTimeout(flush, 16);
};

/** Past this many waiting characters the buffer is applied at once (a hidden window gets no frames). */
const MAX_PENDING_CHARS = 256 * 1024;

export class ConsoleState {
  lines = $state.raw<Line[]>([]);
  openLineId = $state<number | null>(null);
  dropped = $state(0);
  readonly maxLines: number;

  #model: ConsoleModel;
  #pending: [SegKind, string][] = [];
  #pendingChars = 0;
  #scheduled = false;
  #schedule: Scheduler;

  constructor(opts: { schedule?: Scheduler; maxLines?: number } = {}) {
    this.#schedule = opts.schedule ?? defaultScheduler;
    this.#model = new ConsoleModel({ maxLines: opts.maxLines });
    this.maxLines = this.#model.maxLines;
  }

  get empty(): boolean {
    return this.lines.length === 0 && this.#pending.length === 0;
  }

  append(kind: SegKind, text: string): void {
    if (!text) return;
    this.#pending.push([kind, text]);
    this.#pendingChars += text.length;
    if (this.#pendingChars > MAX_PENDING_CHARS) {
      this.flush();
    } else if (!this.#scheduled) {
      this.#scheduled = true;
      this.#schedule(() => this.flush());
    }
  }

  /** Applies everything buffered now. */
  flush(): void {
    this.#scheduled = false;
    if (this.#pending.length === 0) return;
    for (const [kind, text] of this.#pending) this.#model.write(kind, text);
    this.#pending = [];
    this.#pendingChars = 0;
    this.#publish();
  }

  clear(): void {
    this.#pending = [];
    this.#pendingChars = 0;
    this.#model.clear();
    this.#publish();
  }

  /** Plain text of what is shown, for copying. */
  text(): string {
    this.flush();
    return this.#model.text();
  }

  #publish(): void {
    this.lines = this.#model.lines();
    this.openLineId = this.#model.openLineId();
    this.dropped = this.#model.dropped;
  }
}
