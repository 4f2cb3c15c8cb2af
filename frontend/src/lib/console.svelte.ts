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

/**
 * Characters applied in one frame. A flood arrives faster than that; the
 * rest waits for the next frames, so no frame keeps the page from
 * answering a key for long.
 */
export const FRAME_CHARS = 32 * 1024;

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
    } else {
      this.#later();
    }
  }

  /** Applies everything buffered now. */
  flush(): void {
    this.#apply(Infinity);
  }

  #later(): void {
    if (this.#scheduled) return;
    this.#scheduled = true;
    this.#schedule(() => {
      this.#scheduled = false;
      this.#apply(FRAME_CHARS);
      if (this.#pending.length > 0) this.#later();
    });
  }

  /** Applies up to budget buffered characters, in order. */
  #apply(budget: number): void {
    if (this.#pending.length === 0) return;
    let done = 0;
    while (done < this.#pending.length && budget > 0) {
      const [kind, text] = this.#pending[done];
      if (text.length <= budget) {
        this.#model.write(kind, text);
        budget -= text.length;
        this.#pendingChars -= text.length;
        done++;
        continue;
      }
      // Never between the two halves of a surrogate pair.
      const cut = isHighSurrogate(text.charCodeAt(budget - 1)) ? budget + 1 : budget;
      this.#model.write(kind, text.slice(0, cut));
      this.#pending[done] = [kind, text.slice(cut)];
      this.#pendingChars -= cut;
      budget = 0;
    }
    this.#pending.splice(0, done);
    this.#publish();
  }

  /** The reader is on the line with this id, scrolled up from the end; null when following the end (ConsoleModel.hold). */
  hold(id: number | null): void {
    this.#model.hold(id);
  }

  clear(): void {
    this.#pending = [];
    this.#pendingChars = 0;
    this.#model.clear();
    this.#publish();
  }

  /** Plain text of everything kept, rendered or not, for copying. */
  text(): string {
    this.flush();
    return this.#model.text();
  }

  /** Characters waiting for a frame, for tests. */
  get pendingChars(): number {
    return this.#pendingChars;
  }

  #publish(): void {
    this.lines = this.#model.lines();
    this.openLineId = this.#model.openLineId();
    this.dropped = this.#model.dropped;
  }
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}
