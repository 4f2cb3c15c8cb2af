// The card's state: the code box, the language, and the run on show, whether
// it came from the host's tool call or from the child pressing Run.

import { say, langOf, type Lang } from './i18n';
import { STAR_DEMO } from './demo';
import { viewOfResult, codeOfInput, type RunView, type ToolResult } from './result';

/** The arguments the card gives run_python. */
export interface RunArgs {
  code: string;
  lang: Lang;
  stdin?: string;
}

/** How the card reaches run_python: through the MCP Apps host. */
export interface RunHost {
  /** Runs through the host; aborting `signal` cancels the request, which stops the run. */
  run(args: RunArgs, signal: AbortSignal): Promise<ToolResult>;
  /** Tells the host what the child ran and what came out, for the tutor's next turn. */
  ranByChild?(args: RunArgs, view: RunView): void;
}

export class CardState {
  code = $state(STAR_DEMO);
  /** What input() reads, one answer a line. */
  answers = $state('');
  lang = $state<Lang>('zh');
  open = $state(true);
  running = $state(false);
  view = $state.raw<RunView | null>(null);
  /** Why the last run could not be done at all (the host refused or failed), or ''. */
  failure = $state('');
  /** False until the host connection is up; no host means nothing can run. */
  connected = $state(false);
  noHost = $state(false);
  /** The child pressed Stop on the last run. */
  stopped = $state(false);
  /** The run on show can be stopped: it is the card's own request. */
  canStop = $state(false);

  #host: RunHost | null = null;
  /** Bumped by every run and every tool call shown: only the newest one lands. */
  #generation = 0;
  /** The card shows a tool call the host made, so it does not run the demo. */
  #fromTool = false;
  #abort: AbortController | null = null;

  /** True when the code reads input(), so the card offers a box for the answers. */
  get wantsAnswers(): boolean {
    return /\binput\s*\(/.test(this.code);
  }

  /** The connection is up: runs go to `host`; the star demo runs unless the card belongs to a tool call. */
  connect(host: RunHost, forToolCall: boolean): void {
    this.#host = host;
    this.connected = true;
    if (forToolCall) this.#fromTool = true;
    if (!this.#fromTool) void this.run(false);
  }

  /** The host could not be reached. */
  disconnected(): void {
    this.connected = false;
    this.noHost = true;
  }

  /** The host sent the tool call's arguments: show its code and wait for its result. */
  showInput(args: Record<string, unknown> | undefined): void {
    this.#fromTool = true;
    const code = codeOfInput(args);
    if (code === null) return;
    this.#generation++;
    this.code = code;
    this.answers = typeof args?.stdin === 'string' ? args.stdin : '';
    this.lang = langOf(args?.lang) ?? this.lang;
    this.#settle();
    this.view = null;
    this.failure = '';
    this.running = true;
  }

  /** The host streams the tool call's arguments while the model writes them: show the code so far. */
  showPartialInput(args: Record<string, unknown> | undefined): void {
    const code = codeOfInput(args);
    if (code === null || this.view) return;
    this.#fromTool = true;
    this.#settle();
    this.code = code;
    this.running = true;
  }

  /** The host sent the tool call's result. */
  showResult(result: ToolResult): void {
    this.#fromTool = true;
    this.#generation++;
    this.#settle();
    this.view = viewOfResult(result);
    this.failure = '';
    this.running = false;
  }

  /** The host cancelled the tool call it showed. */
  cancelled(): void {
    this.#generation++;
    this.#settle();
    this.running = false;
  }

  /** Stops the card's own run: the host cancels the request and the server stops the program. */
  stop(): void {
    if (!this.#abort) return;
    this.#generation++;
    this.#settle();
    this.running = false;
    this.stopped = true;
  }

  /** Cancels the card's request in flight, if any, and forgets it. */
  #settle(): void {
    this.#abort?.abort();
    this.#abort = null;
    this.canStop = false;
    this.stopped = false;
  }

  /**
   * Runs the code box through the host; a newer run or tool call supersedes
   * this one. `byChild` runs (not the demo on open) are reported to the host.
   */
  async run(byChild = true): Promise<void> {
    const host = this.#host;
    if (!host) return;
    const generation = ++this.#generation;
    this.#settle();
    const abort = new AbortController();
    this.#abort = abort;
    this.canStop = true;
    this.running = true;
    this.view = null;
    this.failure = '';
    const args: RunArgs = { code: this.code, lang: this.lang };
    if (this.wantsAnswers && this.answers !== '') args.stdin = this.answers.endsWith('\n') ? this.answers : this.answers + '\n';
    try {
      const result = await host.run(args, abort.signal);
      if (generation !== this.#generation) return;
      this.view = viewOfResult(result);
      if (byChild) host.ranByChild?.(args, this.view);
    } catch (e) {
      if (generation !== this.#generation) return;
      this.failure = say(this.lang, 'failed', { why: e instanceof Error ? e.message : String(e) });
    } finally {
      if (generation === this.#generation) {
        this.running = false;
        this.canStop = false;
        this.#abort = null;
      }
    }
  }
}
