// The fake backend's live runs: a turtle program's drawing sent as screen and
// draw frames paced like the runner (each step's frame when it starts, with
// its animation time in `ms`), a program that listens moving its turtle with the arrow keys and
// dotting clicks until the drawing is closed, and textinput/numinput dialogs.

import type { DrawStep } from '../lib/backend';
import type { ControlEvent } from '../lib/live.svelte';
import { Timeline } from '../lib/player';

export interface LiveRunPort {
  /** Sends a live frame of this run. */
  frame(frame: unknown): void;
  out(text: string): void;
  /** Resolves with the next control event, or null once the run is stopped. */
  next(): Promise<ControlEvent | null>;
  wait(ms: number): Promise<void>;
  stopped(): boolean;
}

export const FAKE_SCREEN = { type: 'screen', width: 400, height: 400, bg: '#ffffff', scale: [1, 1], view: [-200, -200, 400, 400], title: 'Python Turtle Graphics' };

/** Sends `steps` as the runner does in a live run: each with its `ms`, in a frame when it starts; returns the next step number. */
export async function playSteps(port: LiveRunPort, steps: readonly DrawStep[], from: number): Promise<number> {
  const durations = Timeline.of(steps).durations;
  let batch: DrawStep[] = [];
  let batchFrom = from;
  for (let i = 0; i < steps.length && !port.stopped(); i++) {
    const ms = durations[i];
    batch.push({ ...steps[i], ms });
    if (ms > 0) {
      port.frame({ type: 'draw', from: batchFrom, steps: batch });
      batchFrom = from + i + 1;
      batch = [];
      await port.wait(ms);
    }
  }
  if (batch.length) port.frame({ type: 'draw', from: batchFrom, steps: batch });
  return from + steps.length;
}

const ARROWS: Record<string, number> = { Right: 0, Up: 90, Left: 180, Down: 270 };

/**
 * After the drawing: a program that called listen() gets a listen frame and
 * then plays until the drawing is closed: arrow keys move its turtle 20
 * steps that way, a click leaves a dot, and every event is printed.
 */
export async function playGame(port: LiveRunPort, from: number, start: { x: number; y: number; h: number }): Promise<void> {
  port.frame({ type: 'listen' });
  let { x, y, h } = start;
  let n = from;
  for (;;) {
    const ev = await port.next();
    if (!ev || ev.type === 'close') return;
    if (ev.type === 'key' && ev.down && ev.key in ARROWS) {
      const steps: DrawStep[] = [];
      if (ARROWS[ev.key] !== h) {
        h = ARROWS[ev.key];
        steps.push({ k: 'turn', t: 0, s: 6, h });
      }
      const nx = x + 20 * Math.round(Math.cos((h * Math.PI) / 180));
      const ny = y + 20 * Math.round(Math.sin((h * Math.PI) / 180));
      steps.push({ k: 'move', t: 0, s: 6, x1: x, y1: y, x2: nx, y2: ny, c: '#1e90ff', w: 3 });
      x = nx;
      y = ny;
      n = await playSteps(port, steps, n);
    } else if (ev.type === 'mouse' && ev.action === 'down') {
      n = await playSteps(port, [{ k: 'dot', t: 0, s: 6, x: ev.x, y: ev.y, d: 12, c: '#e91e63' }], n);
    }
    port.out(`${JSON.stringify(ev)}\n`);
  }
}

/** Asks through a dialog frame until answered (numbers: until the answer is a number), and prints the answer. */
export async function askDialog(port: LiveRunPort, kind: 'text' | 'number', title: string, prompt: string): Promise<void> {
  let error = false;
  for (;;) {
    port.frame(
      kind === 'number'
        ? { type: 'dialog', kind, title, prompt, default: 5, min: 1, max: 10, error }
        : { type: 'dialog', kind, title, prompt },
    );
    const ev = await port.next();
    if (!ev) return;
    if (ev.type !== 'answer') continue;
    if (kind === 'number' && ev.text !== null) {
      const v = Number(ev.text);
      if (!ev.text.trim() || !Number.isFinite(v) || v < 1 || v > 10) {
        error = true;
        continue;
      }
    }
    port.out(`${ev.text === null ? 'None' : ev.text}\n`);
    return;
  }
}
