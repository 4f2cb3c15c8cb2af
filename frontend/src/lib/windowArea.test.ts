// The program's own window (setup(), screensize()): its background covers
// only that area, so a game's walls are where the child sees them.
import { describe, expect, it } from 'vitest';
import { parseLiveFrame } from './liveFrames';
import { OUTSIDE, paintScene, type Paint2D } from './paint';
import { Player } from './player';
import { fitView } from './view';

/** Records the rectangles filled, with their colour. */
function rects(): { ctx: Paint2D; filled: string[] } {
  const filled: string[] = [];
  const ctx = {
    fillStyle: '',
    fillRect(this: { fillStyle: string }, x: number, y: number, w: number, h: number) {
      filled.push(`${this.fillStyle} ${x},${y} ${w}x${h}`);
    },
  } as unknown as Paint2D;
  for (const m of ['save', 'restore', 'beginPath', 'moveTo', 'lineTo', 'closePath', 'arc', 'fill', 'stroke', 'fillText'] as const) {
    (ctx as unknown as Record<string, () => void>)[m] = () => {};
  }
  return { ctx, filled };
}

describe("the program's window", () => {
  it('reads the area of a screen frame, and drops a malformed one', () => {
    const f = parseLiveFrame({ type: 'screen', width: 420, height: 420, bg: '#f0fff0', scale: [1, 1], view: [-210, -210, 420, 420], area: [-210, -210, 420, 420] });
    expect(f && f.type === 'screen' && f.area).toEqual([-210, -210, 420, 420]);
    for (const area of [[1, 2, 3], [0, 0, -5, 5], [0, 0, 'x', 5], 'all']) {
      const g = parseLiveFrame({ type: 'screen', width: 400, height: 400, bg: '#ffffff', area });
      expect(g && g.type === 'screen' && g.area).toBeNull();
    }
  });

  it('paints the background over the window only, the rest as outside', () => {
    // The snake lesson: setup(420, 420) in a panel wider than tall.
    const p = new Player({ view: [-210, -210, 420, 420], bg: '#f0fff0', area: [-210, -210, 420, 420] });
    const { ctx, filled } = rects();
    p.paintAt(ctx, 0, 840, 420);
    expect(filled).toEqual([`${OUTSIDE} 0,0 840x420`, '#f0fff0 210,0 420x420']);
  });

  it('follows the screen frames of a live run', () => {
    const p = new Player({ view: [-200, -200, 400, 400], bg: '#ffffff' });
    let { ctx, filled } = rects();
    p.paintAt(ctx, 0, 800, 400);
    expect(filled).toEqual(['#ffffff 0,0 800x400']);
    p.setScreen({ view: [-150, -100, 300, 200], scale: [1, 1], bg: '#000080', area: [-150, -100, 300, 200] });
    ({ ctx, filled } = rects());
    p.paintAt(ctx, 0, 600, 200);
    expect(filled).toEqual([`${OUTSIDE} 0,0 600x200`, '#000080 150,0 300x200']);
  });

  it('replays a recording on its window', () => {
    const p = Player.replay({ width: 420, height: 420, view: [-220, -220, 440, 440], bg: '#f0fff0', area: [-210, -210, 420, 420], steps: [] });
    const { ctx, filled } = rects();
    p.paintAt(ctx, 0, 440, 440);
    const fit = fitView([-220, -220, 440, 440], 440, 440);
    expect(fit.sx).toBe(1);
    expect(filled).toEqual([`${OUTSIDE} 0,0 440x440`, '#f0fff0 10,10 420x420']);
  });

  it('with no window of its own the background fills the canvas, as before', () => {
    const { ctx, filled } = rects();
    paintScene(ctx, fitView([-200, -200, 400, 400], 800, 400), new Player({ view: [-200, -200, 400, 400], bg: '#123456' }).scene, null, 800, 400);
    expect(filled).toEqual(['#123456 0,0 800x400']);
  });
});
