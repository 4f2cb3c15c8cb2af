// The turtle drawing as the runner records it (docs/runner-protocol.md,
// "Drawing model"): the steps a live run streams in draw frames, and the
// drawing a result may carry for a replay where the steps were not seen live.

export type Point = [number, number];

/** One polygon of a shape as the runner sends it: points, fill, outline and, for stamps, the outline width. */
export type ShapePart = [Point[], string, string, number?];

export type DrawStep = (
  | { k: 'move'; t: number; s: number; x1: number; y1: number; x2: number; y2: number; c?: string; w?: number }
  | { k: 'turn'; t: number; s: number; h: number }
  /** Painted at position `z` of the steps (where begin_fill was), beneath what was drawn since. */
  | { k: 'fill'; t: number; s: number; c: string; pts: Point[]; z?: number }
  | { k: 'dot'; t: number; s: number; x: number; y: number; d: number; c: string }
  | {
      k: 'text';
      t: number;
      s: number;
      x: number;
      y: number;
      text: string;
      align: 'left' | 'center' | 'right';
      font: [string, number, string];
      c: string;
    }
  | { k: 'stamp'; t: number; s: number; id: unknown; x: number; y: number; h: number; shape: string; c: string; fc: string; parts?: unknown }
  | { k: 'unstamp'; t: number; s: number; id: unknown }
  /** Without `t`: clearscreen(), everything goes. */
  | { k: 'clear'; t?: number; s: number }
  /** undo(): the one item drawn by step `i` goes. */
  | { k: 'del'; t: number; s: number; i: number }
  | { k: 'bg'; s: number; c: string }
  | { k: 'look'; t: number; s: number; shape: string; visible: boolean; size: number; parts?: unknown }
) & {
  /** Live runs only: the milliseconds the program spent animating this step (a dot's `d` is its diameter). */
  d?: number;
  /** Live runs only: the same time under the name the runner sends it. */
  ms?: number;
};

export interface TurtleInfo {
  id: number;
  x: number;
  y: number;
  heading: number;
  shape: string;
  visible: boolean;
  pen: string;
  fill: string;
  size: number;
}

export interface Drawing {
  width: number;
  height: number;
  view: [number, number, number, number];
  bg: string;
  /** The program's own window (setup(), screensize()), where the background goes; null: everywhere. */
  area?: [number, number, number, number] | null;
  steps: DrawStep[];
  turtles: TurtleInfo[];
  truncated: boolean;
  /** Pixels per world unit (x, y); not 1 after setworldcoordinates(). */
  scale?: [number, number];
}
