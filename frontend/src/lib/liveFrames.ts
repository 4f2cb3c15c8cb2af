// The frames of a live run (docs/runner-protocol.md, "Live frames"): written
// inside the sandbox, so each is checked for the fields the window uses and
// anything else is dropped; nothing in them decides more than what is shown.

import type { DrawStep } from './drawingTypes';
import type { ViewBox } from './view';

export interface ScreenFrame {
  type: 'screen';
  width: number;
  height: number;
  bg: string;
  scale: [number, number];
  view: ViewBox;
  /** The program's own window, where the background goes; null: everywhere. */
  area: ViewBox | null;
  title: string;
}

export interface DrawFrame {
  type: 'draw';
  from: number;
  steps: DrawStep[];
}

export interface DialogFrame {
  type: 'dialog';
  kind: 'text' | 'number';
  title: string;
  prompt: string;
  default: number | null;
  min: number | null;
  max: number | null;
  /** The last answer was not a number in range. */
  error: boolean;
}

export type LiveFrame = ScreenFrame | DrawFrame | DialogFrame | { type: 'listen' } | { type: 'bye' };

const num = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const numOr = (v: unknown, d: number | null) => (num(v) ? v : d);
const str = (v: unknown, d = '') => (typeof v === 'string' ? v : d);
const COLOUR = /^#[0-9a-fA-F]{6}$/;

/** The frame the window can use, or null for a malformed or unknown one. */
export function parseLiveFrame(raw: unknown): LiveFrame | null {
  if (!raw || typeof raw !== 'object') return null;
  const f = raw as Record<string, unknown>;
  switch (f.type) {
    case 'screen': {
      const view = Array.isArray(f.view) && f.view.length === 4 && f.view.every(num) ? (f.view as unknown as ViewBox) : null;
      const area = Array.isArray(f.area) && f.area.length === 4 && f.area.every(num) && f.area[2] > 0 && f.area[3] > 0 ? (f.area as unknown as ViewBox) : null;
      const width = numOr(f.width, 400)!;
      const height = numOr(f.height, 400)!;
      const scale: [number, number] =
        Array.isArray(f.scale) && f.scale.length === 2 && f.scale.every((v) => num(v) && v > 0) ? [f.scale[0], f.scale[1]] : [1, 1];
      const bg = str(f.bg);
      return {
        type: 'screen',
        width,
        height,
        bg: COLOUR.test(bg) ? bg : '#ffffff',
        scale,
        view: view ?? [-width / 2 / scale[0], -height / 2 / scale[1], width / scale[0], height / scale[1]],
        area,
        title: str(f.title).slice(0, 200),
      };
    }
    case 'draw': {
      if (!num(f.from) || f.from < 0 || !Number.isInteger(f.from) || !Array.isArray(f.steps)) return null;
      const steps = f.steps.filter((s): s is DrawStep => !!s && typeof s === 'object' && typeof (s as { k?: unknown }).k === 'string');
      return { type: 'draw', from: f.from, steps };
    }
    case 'dialog':
      return {
        type: 'dialog',
        kind: f.kind === 'number' ? 'number' : 'text',
        title: str(f.title).slice(0, 500),
        prompt: str(f.prompt).slice(0, 2000),
        default: numOr(f.default, null),
        min: numOr(f.min, null),
        max: numOr(f.max, null),
        error: f.error === true,
      };
    case 'listen':
    case 'bye':
      return { type: f.type };
    default:
      return null;
  }
}
