// The drawing panel's state: the final pictures of the last run, "watch
// again" on a canvas, and saving pictures through the backend.

import type { Backend, RunResult } from './backend';
import { dataUrlPayload } from './base64';
import type { Drawing } from './drawingTypes';
import { canvasLayers, type Blit2D } from './paint';
import { Player, type Recording } from './player';

export type Clock = {
  now(): number;
  frame(cb: () => void): () => void;
};

/** Real time and the browser's animation frames. */
export const browserClock: Clock = {
  now: () => performance.now(),
  frame(cb) {
    const id = requestAnimationFrame(() => cb());
    return () => cancelAnimationFrame(id);
  },
};

export type SaveOutcome = { ok: true; path: string } | { ok: false; error: string } | null;

export class DrawingState {
  /** The turtle picture as base64 SVG. */
  svg = $state<string | null>(null);
  /** matplotlib figures as base64 PNG, in creation order. */
  pngs = $state.raw<string[]>([]);
  /** The steps "watch again" replays: what the live run drew, or the result's drawing when the steps were not seen live. */
  drawing = $state.raw<Recording | null>(null);
  /** The turtle drew more steps than are recorded (the step bound): the replay shows only the beginning. */
  truncated = $state(false);
  replaying = $state(false);

  #backend: Backend;
  #clock: Clock;

  constructor(backend: Backend, clock: Clock = browserClock) {
    this.#backend = backend;
    this.#clock = clock;
  }

  get empty(): boolean {
    return !this.svg && this.pngs.length === 0;
  }

  get canReplay(): boolean {
    return !!this.drawing && this.drawing.steps.length > 0;
  }

  /**
   * Shows a finished run: its pictures, and for "watch again" the steps the
   * window holds from the live run (`live`), else the result's drawing (a
   * run that was not live, as a pack's check run).
   */
  setResult(r: RunResult | null, live: Recording | null = null): void {
    this.replaying = false;
    const images = r?.images ?? [];
    this.svg = images.find((i) => i.mime === 'image/svg+xml')?.data ?? null;
    this.pngs = images.filter((i) => i.mime === 'image/png').map((i) => i.data);
    const drawing: Drawing | null = r?.drawing ?? null;
    this.drawing = live ?? drawing;
    this.truncated = drawing?.truncated ?? false;
  }

  startReplay(): void {
    if (this.canReplay) this.replaying = true;
  }

  skipToEnd(): void {
    this.replaying = false;
  }

  /**
   * Plays the replay on `canvas` until it ends or `skipToEnd` is pressed; the
   * returned cleanup stops it (use as the canvas' $effect cleanup).
   */
  play(canvas: HTMLCanvasElement): () => void {
    const d = this.drawing;
    const ctx = canvas.getContext('2d') as Blit2D<CanvasImageSource> | null;
    if (!d || !ctx) {
      this.replaying = false;
      return () => {};
    }
    const player = Player.replay(d);
    // Finished steps stay on a backing layer: a frame paints only what moves.
    const layers = canvasLayers();
    const start = this.#clock.now();
    let cancel = () => {};
    const tick = () => {
      const dpr = window.devicePixelRatio || 1;
      const w = Math.max(1, Math.round(canvas.clientWidth * dpr));
      const h = Math.max(1, Math.round(canvas.clientHeight * dpr));
      if (canvas.width !== w || canvas.height !== h) {
        canvas.width = w;
        canvas.height = h;
      }
      const { partial, complete } = player.advanceTo(this.#clock.now() - start);
      layers.render(ctx, player.fit(w, h), player.scene, partial, w, h);
      if (complete) {
        this.replaying = false;
        return;
      }
      cancel = this.#clock.frame(tick);
    };
    tick();
    return () => cancel();
  }

  async saveSvg(): Promise<SaveOutcome> {
    if (!this.svg) return null;
    return this.#save('drawing.svg', this.svg);
  }

  /** Renders the SVG picture to PNG at the drawing's size (twice that, for print) and saves it. */
  async savePng(): Promise<SaveOutcome> {
    if (!this.svg) return null;
    let b64: string;
    try {
      b64 = await svgToPng(this.svg, this.drawing);
    } catch (e) {
      return { ok: false, error: String(e) };
    }
    return this.#save('drawing.png', b64);
  }

  async saveChart(index: number): Promise<SaveOutcome> {
    const png = this.pngs[index];
    if (!png) return null;
    return this.#save(`chart-${index + 1}.png`, png);
  }

  async #save(name: string, b64: string): Promise<SaveOutcome> {
    try {
      const path = await this.#backend.saveFile(name, b64);
      return path ? { ok: true, path } : null;
    } catch (e) {
      return { ok: false, error: String(e) };
    }
  }
}

async function svgToPng(svgB64: string, drawing: Recording | null): Promise<string> {
  const img = new Image();
  img.src = `data:image/svg+xml;base64,${svgB64}`;
  await img.decode();
  const scale = 2;
  const w = Math.max(1, Math.round((img.naturalWidth || drawing?.width || 400) * scale));
  const h = Math.max(1, Math.round((img.naturalHeight || drawing?.height || 400) * scale));
  const canvas = document.createElement('canvas');
  canvas.width = w;
  canvas.height = h;
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new Error('no 2D canvas');
  try {
    ctx.drawImage(img, 0, 0, w, h);
    return dataUrlPayload(canvas.toDataURL('image/png'));
  } catch (e) {
    // Some engines taint a canvas that drew an SVG image; the recorded steps give the same picture.
    if (!drawing) throw e;
    const clean = document.createElement('canvas');
    clean.width = w;
    clean.height = h;
    const c2 = clean.getContext('2d');
    if (!c2) throw e;
    Player.replay(drawing).paintFinal(c2, w, h);
    return dataUrlPayload(clean.toDataURL('image/png'));
  }
}
