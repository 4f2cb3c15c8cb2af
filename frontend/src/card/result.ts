// Turns a run_python tool result (an MCP CallToolResult whose structuredContent
// is the `kidcoder run --json` object) into what the card shows.

import { isOutcomeKey, outcomeText } from '../lib/catalogue';
import type { RunError, RunOutcome, RunStatus } from '../lib/contract.gen';
import type { Drawing } from '../lib/drawingTypes';
import type { Lang } from './i18n';

/** One content block of a tool result, as far as the card reads it. */
export interface ContentBlock {
  type: string;
  text?: string;
  data?: string;
  mimeType?: string;
  resource?: { uri?: string; mimeType?: string; text?: string; blob?: string };
}

/** The parts of a CallToolResult the card reads. */
export interface ToolResult {
  content?: ContentBlock[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

/** What the card shows for one run. */
export interface RunView {
  status: RunStatus;
  stdout: string;
  stderr: string;
  error: RunError | null;
  /** The limit or stop explained in the run's language (run --json `message`), or ''. */
  message: string;
  /** The limit or stop that ended the run, for the card to word in its own language (outcomeText), or null. */
  outcome: RunOutcome | null;
  /** The turtle drawing to replay, when the result carries all of its steps. */
  drawing: Drawing | null;
  /** The turtle drawing as a data: URL (SVG, or the PNG block when there is no SVG). */
  picture: string | null;
  /** matplotlib figures as data: URLs, in creation order. */
  plots: string[];
}

/** Every status of the contract, each once: a status added or dropped in Go fails the type check here. */
const STATUSES = Object.keys({
  ok: 1,
  error: 1,
  timeout: 1,
  memory_limit: 1,
  output_limit: 1,
  killed: 1,
  sandbox_unavailable: 1,
} satisfies Record<RunStatus, 1>) as RunStatus[];
const B64 = /^[A-Za-z0-9+/]*={0,2}$/;

function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

/** A data: URL for base64 image data, or null for anything that is not a PNG or SVG in base64. */
function dataUrl(mime: unknown, data: unknown): string | null {
  if ((mime !== 'image/png' && mime !== 'image/svg+xml') || typeof data !== 'string' || data === '' || !B64.test(data)) return null;
  return `data:${mime};base64,${data}`;
}

function runError(v: unknown): RunError | null {
  if (!v || typeof v !== 'object') return null;
  const e = v as Record<string, unknown>;
  return {
    type: str(e.type),
    message: str(e.message),
    line: typeof e.line === 'number' ? e.line : null,
    hint: str(e.hint),
  };
}

/** The outcome as the card can word it: a key of the catalogue and its values as text. */
function runOutcome(v: unknown): RunOutcome | null {
  if (!v || typeof v !== 'object') return null;
  const o = v as Record<string, unknown>;
  if (typeof o.key !== 'string' || !isOutcomeKey(o.key)) return null;
  const values: Record<string, string> = {};
  if (o.values && typeof o.values === 'object') {
    for (const [k, x] of Object.entries(o.values)) if (typeof x === 'string') values[k] = x;
  }
  return { key: o.key, values };
}

/** A drawing the replay can play in full: steps present and none cut off (an older server's `steps_cut`). */
function replayable(v: unknown): Drawing | null {
  if (!v || typeof v !== 'object') return null;
  const d = v as Drawing & { steps_cut?: unknown };
  if (!Array.isArray(d.steps) || d.steps.length === 0 || d.steps_cut) return null;
  if (!Array.isArray(d.view) || d.view.length !== 4 || !d.view.every((n) => typeof n === 'number' && Number.isFinite(n))) return null;
  return d;
}

/** What the card shows for a run_python result. */
export function viewOfResult(result: ToolResult): RunView {
  const s = result.structuredContent;
  if (s && typeof s === 'object' && typeof s.status === 'string') return fromRunJson(s, result.content ?? []);
  return fromContent(result);
}

/** From the `run --json` object. kidcoder mcp sends each picture once: the images with empty data are, in order, the content's image blocks (docs/mcp.md). */
function fromRunJson(s: Record<string, unknown>, content: ContentBlock[]): RunView {
  const images = Array.isArray(s.images) ? (s.images as { mime?: unknown; data?: unknown }[]) : [];
  const blocks = content.filter((b) => b.type === 'image');
  let sent = 0;
  let picture: string | null = null;
  const plots: string[] = [];
  for (const im of images) {
    const block = im?.data === '' ? blocks[sent++] : undefined;
    const url = block ? dataUrl(block.mimeType, block.data) : dataUrl(im?.mime, im?.data);
    if (!url) continue;
    // The turtle drawing is the SVG; every PNG is a matplotlib figure (docs/contracts.md §2).
    if (im.mime === 'image/svg+xml') picture ??= url;
    else plots.push(url);
  }
  const status = STATUSES.includes(s.status as RunStatus) ? (s.status as RunStatus) : 'error';
  return {
    status,
    stdout: str(s.stdout),
    stderr: str(s.stderr),
    error: runError(s.error),
    message: str(s.message),
    outcome: runOutcome(s.outcome),
    drawing: replayable(s.drawing),
    picture,
    plots,
  };
}

/** From the content blocks alone, for a host that passes no structuredContent. */
function fromContent(result: ToolResult): RunView {
  const texts: string[] = [];
  let svg: string | null = null;
  const pngs: string[] = [];
  for (const b of result.content ?? []) {
    if (b.type === 'text' && typeof b.text === 'string') texts.push(b.text);
    else if (b.type === 'image') {
      const url = dataUrl(b.mimeType, b.data);
      if (url) pngs.push(url);
    } else if (b.type === 'resource' && b.resource?.mimeType === 'image/svg+xml') {
      const r = b.resource;
      svg ??= r.blob ? dataUrl('image/svg+xml', r.blob) : r.text ? `data:image/svg+xml;charset=utf-8,${encodeURIComponent(r.text)}` : null;
    }
  }
  // With an SVG drawing, the first PNG is that drawing as a picture; the rest are charts.
  const plots = svg ? pngs.slice(1) : pngs;
  return {
    status: result.isError ? 'error' : 'ok',
    stdout: texts.join('\n'),
    stderr: '',
    error: null,
    message: '',
    outcome: null,
    drawing: null,
    picture: svg,
    plots,
  };
}

/** How the run ended in `lang`, as the window says it: the outcome from the one catalogue, else the run's own message, else ''. */
export function limitMessage(view: RunView, lang: Lang): string {
  return view.outcome ? outcomeText(lang, view.outcome.key, view.outcome.values) : view.message;
}

/** The code a run_python tool input carries, or null. */
export function codeOfInput(args: Record<string, unknown> | undefined): string | null {
  const code = args?.code;
  return typeof code === 'string' ? code : null;
}

/** The most of the output the tutor is told about; the rest is cut. */
const TUTOR_OUTPUT_CHARS = 2000;

function cut(text: string): string {
  return text.length > TUTOR_OUTPUT_CHARS ? `${text.slice(0, TUTOR_OUTPUT_CHARS)}\n[… ${text.length - TUTOR_OUTPUT_CHARS} more characters]` : text;
}

/** What the card tells the tutor (the host's model) after the child ran code in it: the program, the status, the output and the error. */
export function summaryForTutor(code: string, view: RunView): string {
  const parts = [`The child ran this program in the Kid Coder card (status: ${view.status}):`, '```python', code, '```'];
  if (view.stdout) parts.push('Output:', cut(view.stdout));
  if (view.error) parts.push(`Error: ${view.error.type}: ${view.error.message}${view.error.line ? ` (line ${view.error.line})` : ''}`);
  if (view.message) parts.push(view.message);
  if (view.drawing || view.picture) parts.push('It made a turtle drawing.');
  if (view.plots.length) parts.push(`It made ${view.plots.length} chart(s).`);
  return parts.join('\n');
}
