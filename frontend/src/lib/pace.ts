// The speed dial, 🐢 to 🐇: how many times CPython's own pace the turtle
// draws at in a live run, and how fast "👣 step by step" plays. A live run's
// pacing happens in the program itself (docs/runner-protocol.md, "Pacing"):
// the window sends the dial to the run and follows the steps' own times, so
// the drawing never gets ahead of, or behind, the program that makes it.

/** The dial's positions, slowest first; 1 is CPython's own timing. */
export const PACES = [0.25, 0.5, 1, 2, 4, 10] as const;

/** CPython's own timing: turtle speed() as the program set it. */
export const DEFAULT_PACE = 1;

/** One step of "step by step" at the dial's middle (1×); the dial divides it. */
export const STEP_MS = 600;

/** The position on the dial nearest to `pace` (the settings may hold any number); the middle for none. */
export function paceIndex(pace: number | null | undefined): number {
  if (typeof pace !== 'number' || !Number.isFinite(pace) || pace <= 0) return PACES.indexOf(DEFAULT_PACE);
  let best = 0;
  for (let i = 1; i < PACES.length; i++) {
    if (Math.abs(Math.log(PACES[i] / pace)) < Math.abs(Math.log(PACES[best] / pace))) best = i;
  }
  return best;
}

/** The pace at a position of the dial, the position held within the dial. */
export function paceAt(index: number): number {
  const i = Math.max(0, Math.min(PACES.length - 1, Math.round(index) || 0));
  return PACES[i];
}

/** How long one step of "step by step" shows while it plays at `pace`. */
export function stepMs(pace: number): number {
  return STEP_MS / paceAt(paceIndex(pace));
}

/** The pace as the dial writes it: ×¼, ×½, ×1, ×2, ×4, ×10. */
export function paceText(pace: number): string {
  const p = paceAt(paceIndex(pace));
  return p === 0.25 ? '×¼' : p === 0.5 ? '×½' : `×${p}`;
}
