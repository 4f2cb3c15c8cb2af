import { describe, expect, it } from 'vitest';
import type { Drawing, DrawStep } from './drawingTypes';
import { paintScene, type Paint2D } from './paint';
import { MAX_STEP_MS, Player, stepDuration, Timeline, UPDATE_MS, updates } from './player';
import { placeShape, turnDelta } from './scene';
import { fitView } from './view';

/** Records every call and property write, so tests can read back what was painted. */
class FakeContext implements Paint2D {
  calls: string[] = [];
  fillStyle = '';
  strokeStyle = '';
  lineWidth = 1;
  lineCap: CanvasLineCap = 'butt';
  lineJoin: CanvasLineJoin = 'miter';
  font = '';
  textAlign: CanvasTextAlign = 'start';
  textBaseline: CanvasTextBaseline = 'alphabetic';
  private path: string[] = [];
  save() {}
  restore() {}
  beginPath() {
    this.path = [];
  }
  moveTo(x: number, y: number) {
    this.path.push(`M${r(x)},${r(y)}`);
  }
  lineTo(x: number, y: number) {
    this.path.push(`L${r(x)},${r(y)}`);
  }
  closePath() {
    this.path.push('Z');
  }
  arc(x: number, y: number, rad: number) {
    this.path.push(`A${r(x)},${r(y)},${r(rad)}`);
  }
  fill() {
    this.calls.push(`fill ${this.fillStyle} ${this.path.join(' ')}`);
  }
  stroke() {
    this.calls.push(`stroke ${this.strokeStyle} w${r(this.lineWidth)} ${this.path.join(' ')}`);
  }
  fillRect(x: number, y: number, w: number, h: number) {
    this.calls.push(`rect ${this.fillStyle} ${x},${y},${w},${h}`);
  }
  fillText(text: string, x: number, y: number) {
    this.calls.push(`text ${this.fillStyle} ${this.textAlign} ${this.font} ${text} @${r(x)},${r(y)}`);
  }
}
const r = (n: number) => Math.round(n * 100) / 100;

function drawing(steps: DrawStep[], extra: Partial<Drawing> = {}): Drawing {
  return {
    width: 400,
    height: 400,
    view: [-100, -100, 200, 200],
    bg: '#ffffff',
    steps,
    turtles: [{ id: 0, x: 0, y: 0, heading: 0, shape: 'classic', visible: false, pen: '#000000', fill: '#000000', size: 1 }],
    truncated: false,
    ...extra,
  };
}

const move = (s: number, x1: number, y1: number, x2: number, y2: number, c?: string): DrawStep =>
  c ? { k: 'move', t: 0, s, x1, y1, x2, y2, c, w: 1 } : { k: 'move', t: 0, s, x1, y1, x2, y2 };

describe('stepDuration follows CPython turtle pacing', () => {
  it.each([
    // hops = 1 + floor(dist / (3 * 1.1^s * s))
    ['speed 0 is instant', move(0, 0, 0, 500, 0), 0, 0],
    ['slowest, 100 px', move(1, 0, 0, 100, 0), 0, (1 + Math.floor(100 / 3.3)) * UPDATE_MS],
    ['normal (6), 100 px', move(6, 0, 0, 0, 100), 0, (1 + Math.floor(100 / (3 * 1.1 ** 6 * 6))) * UPDATE_MS],
    ['fast (10), 100 px', move(10, 0, 0, 60, 80), 0, (1 + Math.floor(100 / (3 * 1.1 ** 10 * 10))) * UPDATE_MS],
    ['zero-length move is one update', move(3, 5, 5, 5, 5), 0, UPDATE_MS],
    // turn: (1 + floor(|angle| / (3 s))) steps plus the final update
    ['turn 90 at speed 1', { k: 'turn', t: 0, s: 1, h: 90 } as DrawStep, 0, (1 + 30 + 1) * UPDATE_MS],
    ['turn 144 the short way (-216) at speed 6', { k: 'turn', t: 0, s: 6, h: 216 } as DrawStep, 0, (1 + Math.floor(144 / 18) + 1) * UPDATE_MS],
    ['turn at speed 0', { k: 'turn', t: 0, s: 0, h: 90 } as DrawStep, 0, 0],
    ['dot is one update', { k: 'dot', t: 0, s: 5, x: 0, y: 0, d: 10, c: '#ff0000' } as DrawStep, 0, UPDATE_MS],
  ])('%s', (_name, step, prev, want) => {
    expect(stepDuration(step, prev)).toBe(want);
  });

  it('slower speeds take longer', () => {
    const d = [1, 3, 6, 10].map((s) => stepDuration(move(s, 0, 0, 200, 0), 0));
    expect(d).toEqual([...d].sort((a, b) => b - a));
    expect(new Set(d).size).toBe(4);
  });
});

describe('turnDelta', () => {
  it.each([
    [0, 90, 90],
    [90, 0, -90],
    [350, 10, 20],
    [10, 350, -20],
    [0, 180, 180],
    [0, 216, -144],
  ])('%d → %d is %d', (a, b, want) => {
    expect(turnDelta(a, b)).toBe(want);
  });
});

describe('Timeline.of (steps held, replayed from the start)', () => {
  it('accumulates durations and tracks each turtle’s heading', () => {
    const steps: DrawStep[] = [
      { k: 'turn', t: 0, s: 1, h: 90 },
      { k: 'turn', t: 1, s: 1, h: 90 },
      { k: 'turn', t: 0, s: 1, h: 180 },
      move(0, 0, 0, 10, 0, '#000000'),
    ];
    const tl = Timeline.of(steps);
    const turn90 = 32 * UPDATE_MS;
    expect(tl.durations).toEqual([turn90, turn90, turn90, 0]);
    expect(tl.starts).toEqual([0, turn90, 2 * turn90, 3 * turn90]);
    expect(tl.end).toBe(3 * turn90);
  });

  it('replays a live run at CPython’s pace: d, whatever the dial or ⏭ made it wait (ms)', () => {
    const steps: DrawStep[] = [
      { ...move(0, 0, 0, 10, 0, '#000000'), ms: 155, d: 310 }, // at ×2
      { ...move(0, 10, 0, 20, 0, '#000000'), ms: 0, d: 310 }, // after ⏭
      { k: 'dot', t: 0, s: 3, x: 0, y: 0, d: 40, c: '#ff0000', ms: 10 }, // a dot's d is its size
      { ...move(0, 20, 0, 30, 0, '#000000'), ms: 0 }, // no d: its own time
    ];
    expect(Timeline.of(steps).durations).toEqual([310, 310, 10, 0]);
    // Live, each plays for what the program waited.
    const live = new Timeline();
    live.add(steps, 0, 0);
    expect(live.durations).toEqual([155, 0, 10, 0]);
  });
});

describe('fitView', () => {
  it('maps the view box corners onto the canvas, y up', () => {
    const fit = fitView([-200, -100, 400, 200], 800, 400);
    expect(fit.scale).toBe(2);
    expect(fit.ox + -200 * fit.scale).toBe(0);
    expect(fit.oy - 100 * fit.scale).toBe(0);
    expect(fit.oy - -100 * fit.scale).toBe(400);
  });

  it('centres when aspect ratios differ', () => {
    const fit = fitView([0, 0, 100, 100], 300, 100);
    expect(fit.scale).toBe(1);
    expect(fit.ox).toBe(100);
  });

  it('survives an empty view', () => {
    const fit = fitView([0, 0, 0, 0], 100, 100);
    expect(Number.isFinite(fit.scale)).toBe(true);
  });
});

describe('placeShape', () => {
  it('points the classic arrow east at heading 0 and north at 90', () => {
    const tail: [number, number][] = [[0, -9]];
    expect(placeShape(tail, 0, 0, 0).map(([x, y]) => [r(x), r(y)])).toEqual([[-9, 0]]);
    expect(placeShape(tail, 10, 10, 90).map(([x, y]) => [r(x), r(y)])).toEqual([[10, 1]]);
  });
});

describe('Player replaying a drawing', () => {
  // view [-100,-100,200,200] on a 200×200 canvas: world (x, y) → canvas (x+100, 100−y)
  const square = drawing([
    move(1, 0, 0, 50, 0, '#ff0000'),
    { k: 'turn', t: 0, s: 1, h: 90 },
    move(1, 50, 0, 50, 50, '#00ff00'),
  ]);

  it('paints nothing but the background at time 0', () => {
    const ctx = new FakeContext();
    const done = Player.replay(square).paintAt(ctx, 0, 200, 200);
    expect(done).toBe(false);
    expect(ctx.calls[0]).toBe('rect #ffffff 0,0,200,200');
    // the first segment has only just started
    expect(ctx.calls.filter((c) => c.startsWith('stroke #ff0000'))).toEqual(['stroke #ff0000 w1 M100,100 L100,100']);
  });

  it('draws half a segment half way through a move', () => {
    const rp = Player.replay(square);
    const ctx = new FakeContext();
    rp.paintAt(ctx, rp.timeline.durations[0] / 2, 200, 200);
    expect(ctx.calls).toContain('stroke #ff0000 w1 M100,100 L125,100');
  });

  it('paints every segment at the end and reports completion', () => {
    const rp = Player.replay(square);
    const ctx = new FakeContext();
    expect(rp.paintAt(ctx, rp.end, 200, 200)).toBe(true);
    expect(ctx.calls).toContain('stroke #ff0000 w1 M100,100 L150,100');
    expect(ctx.calls).toContain('stroke #00ff00 w1 M150,100 L150,50');
  });

  it('can go back in time', () => {
    const rp = Player.replay(square);
    rp.paintAt(new FakeContext(), rp.end, 200, 200);
    const ctx = new FakeContext();
    rp.paintAt(ctx, 0, 200, 200);
    expect(ctx.calls.some((c) => c.startsWith('stroke #00ff00'))).toBe(false);
  });

  it('shows the first n steps whole, none in progress, back and forth (step by step)', () => {
    const rp = Player.replay(square);
    const paint = (n: number) => {
      rp.showSteps(n);
      const ctx = new FakeContext();
      paintScene(ctx, rp.fit(200, 200), rp.scene, null, 200, 200);
      return ctx.calls.filter((c) => c.startsWith('stroke #ff0000') || c.startsWith('stroke #00ff00'));
    };
    expect(paint(0)).toEqual([]);
    expect(paint(1)).toEqual(['stroke #ff0000 w1 M100,100 L150,100']);
    const all = paint(3);
    expect(all).toEqual(['stroke #ff0000 w1 M100,100 L150,100', 'stroke #00ff00 w1 M150,100 L150,50']);
    expect(paint(1)).toEqual(['stroke #ff0000 w1 M100,100 L150,100']);
    expect(paint(99)).toEqual(all);
    expect(paint(-5)).toEqual([]);
  });

  it('puts a fill under the outline drawn since begin_fill', () => {
    const d = drawing([
      move(0, -50, -50, -40, -40, '#123456'),
      move(0, 0, 0, 10, 0, '#000000'),
      move(0, 10, 0, 10, 10, '#000000'),
      { k: 'fill', t: 0, s: 0, c: '#ffd700', pts: [[0, 0], [10, 0], [10, 10]], z: 1 } as DrawStep,
    ]);
    const ctx = new FakeContext();
    Player.replay(d).paintFinal(ctx, 200, 200);
    const order = ctx.calls.map((c) => c.split(' ').slice(0, 2).join(' '));
    expect(order.slice(1, 5)).toEqual(['stroke #123456', 'fill #ffd700', 'stroke #000000', 'stroke #000000']);
  });

  it('clear removes only that turtle’s drawing', () => {
    const d = drawing([
      { k: 'move', t: 0, s: 0, x1: 0, y1: 0, x2: 10, y2: 0, c: '#aa0000', w: 1 },
      { k: 'move', t: 1, s: 0, x1: 0, y1: 0, x2: 0, y2: 10, c: '#00aa00', w: 1 },
      { k: 'clear', t: 0, s: 0 },
    ]);
    const ctx = new FakeContext();
    Player.replay(d).paintFinal(ctx, 200, 200);
    expect(ctx.calls.some((c) => c.startsWith('stroke #aa0000'))).toBe(false);
    expect(ctx.calls.some((c) => c.startsWith('stroke #00aa00'))).toBe(true);
  });

  it('paints dots, text, background changes and removes unstamped stamps', () => {
    const d = drawing([
      { k: 'bg', s: 0, c: '#000080' },
      { k: 'dot', t: 0, s: 0, x: 10, y: 10, d: 20, c: '#ff00ff' },
      { k: 'text', t: 0, s: 0, x: 0, y: -20, text: '<b>花朵</b>', align: 'center', font: ['Arial', 18, 'bold'], c: '#333333' },
      { k: 'stamp', t: 0, s: 0, id: 7, x: 0, y: 0, h: 0, shape: 'square', c: '#111111', fc: '#222222' },
      { k: 'stamp', t: 0, s: 0, id: 8, x: 0, y: 0, h: 0, shape: 'square', c: '#111111', fc: '#333333' },
      { k: 'unstamp', t: 0, s: 0, id: 7 },
    ]);
    const ctx = new FakeContext();
    Player.replay(d).paintFinal(ctx, 200, 200);
    expect(ctx.calls[0]).toBe('rect #000080 0,0,200,200');
    expect(ctx.calls).toContain('fill #ff00ff A110,90,10');
    expect(ctx.calls).toContain('text #333333 center bold 24px "Arial", "Noto Sans CJK SC", sans-serif <b>花朵</b> @100,120');
    expect(ctx.calls.some((c) => c.startsWith('fill #222222'))).toBe(false);
    expect(ctx.calls.some((c) => c.startsWith('fill #333333'))).toBe(true);
  });

  it('undoes a step on del', () => {
    const d = drawing([move(0, 0, 0, 10, 0, '#aa0000'), { k: 'del', t: 0, s: 0, i: 0 } as unknown as DrawStep]);
    const ctx = new FakeContext();
    Player.replay(d).paintFinal(ctx, 200, 200);
    expect(ctx.calls.some((c) => c.startsWith('stroke #aa0000'))).toBe(false);
  });

  it('draws a visible turtle at its position, turning during a turn', () => {
    const d = drawing([{ k: 'look', t: 0, s: 1, shape: 'classic', visible: true, size: 1 }, { k: 'turn', t: 0, s: 1, h: 90 }]);
    const rp = Player.replay(d);
    const ctx = new FakeContext();
    rp.paintAt(ctx, rp.end, 200, 200);
    // classic tip at the turtle, tail 9 px behind: facing north the tail is below (larger canvas y)
    expect(ctx.calls.some((c) => c.startsWith('fill #000000 M100,100 L95,109 L100,107 L105,109'))).toBe(true);
  });
});

const mv = (d: number, x = 0): DrawStep => ({ k: 'move', t: 0, s: 6, x1: x, y1: 0, x2: x + 10, y2: 0, c: '#000000', w: 1, d });
/** A move CPython's turtle makes in 4 hops at speed 1 (11.55 px: 1 + ⌊11.55 / 3.3⌋). */
const hop4 = (d: number): DrawStep => ({ k: 'move', t: 0, s: 1, x1: 0, y1: 0, x2: 11.55, y2: 0, c: '#000000', w: 1, d });

describe('updates', () => {
  it('counts CPython’s updates for a step, and those that move the turtle', () => {
    expect(updates(hop4(0), 0)).toEqual({ total: 4, moving: 4 });
    // on a screen with 2 pixels per unit the same move is twice as many pixels: 1 + ⌊23.1 / 3.3⌋
    expect(updates(hop4(0), 0, [2, 2])).toEqual({ total: 8, moving: 8 });
    expect(updates({ k: 'turn', t: 0, s: 1, h: 90 }, 0)).toEqual({ total: 32, moving: 31 });
    expect(updates({ k: 'turn', t: 0, s: 1, h: 350 }, 0)).toEqual({ total: 5, moving: 4 });
    expect(updates({ ...hop4(0), s: 0 }, 0)).toEqual({ total: 1, moving: 1 });
    expect(updates({ k: 'dot', t: 0, s: 3, x: 0, y: 0, d: 5, c: '#000000' }, 0)).toEqual({ total: 1, moving: 1 });
  });
});

describe('Timeline of a live run (steps as they arrive)', () => {
  it('a step that arrives while nothing plays starts at once: its first hop shows then, its last one update before its d is up', () => {
    const tl = new Timeline();
    tl.add([hop4(100)], 0, 1000);
    expect(tl.at(999)).toEqual({ complete: 0, partial: null });
    expect(tl.at(1000)).toEqual({ complete: 0, partial: { index: 0, p: 0.25 } });
    expect(tl.at(1025)).toEqual({ complete: 0, partial: { index: 0, p: 0.5 } });
    expect(tl.at(1075)).toEqual({ complete: 0, partial: { index: 0, p: 1 } });
    expect(tl.at(1100)).toEqual({ complete: 1, partial: null });
  });

  it('an instant step (speed 0, a dot, tracer(0)) shows whole at once, then the program’s wait runs out', () => {
    const tl = new Timeline();
    tl.add([{ ...hop4(10), s: 0 }], 0, 0);
    expect(tl.at(0)).toEqual({ complete: 0, partial: { index: 0, p: 1 } });
    expect(tl.at(10).complete).toBe(1);
  });

  it('a turn rotates over all but its last update', () => {
    const tl = new Timeline();
    tl.add([{ k: 'turn', t: 0, s: 1, h: 90, d: 320 }], 0, 0);
    expect(tl.at(0).partial?.p).toBeCloseTo(1 / 31, 9);
    expect(tl.at(150).partial?.p).toBeCloseTo(16 / 31, 9);
    expect(tl.at(300).partial?.p).toBe(1);
    expect(tl.at(320).complete).toBe(1);
  });

  it('a burst that arrived at once plays one step after another', () => {
    const tl = new Timeline();
    tl.add([hop4(100), hop4(50), mv(0), hop4(200)], 0, 0);
    expect(tl.at(50).partial).toEqual({ index: 0, p: 0.75 });
    expect(tl.at(125)).toEqual({ complete: 1, partial: { index: 1, p: 0.75 } });
    // the instant step is done the moment the one before ends
    expect(tl.at(150).complete).toBe(3);
    expect(tl.at(250).partial).toEqual({ index: 3, p: 0.75 });
    expect(tl.end).toBe(350);
  });

  it('a step arriving after the previous one ended starts at its arrival', () => {
    const tl = new Timeline();
    tl.add([hop4(100)], 0, 0);
    tl.add([hop4(100)], 1, 500);
    expect(tl.at(300)).toEqual({ complete: 1, partial: null });
    expect(tl.at(550).partial).toEqual({ index: 1, p: 0.75 });
  });

  it('a step arriving while another still plays waits for it (arrival vs d)', () => {
    const tl = new Timeline();
    tl.add([hop4(100)], 0, 0);
    tl.add([hop4(100)], 1, 40);
    expect(tl.at(60).partial).toEqual({ index: 0, p: 0.85 });
    expect(tl.at(150).partial).toEqual({ index: 1, p: 0.75 });
    expect(tl.end).toBe(200);
  });

  it('keeps playing after the last step arrived (a fast program that has already ended)', () => {
    const tl = new Timeline();
    tl.add(Array.from({ length: 10 }, () => mv(100)), 0, 0);
    expect(tl.caughtUp(5)).toBe(false);
    expect(tl.at(550).complete).toBe(5);
    expect(tl.caughtUp(999)).toBe(false);
    expect(tl.caughtUp(1000)).toBe(true);
  });

  it('skip finishes everything received; later steps play from their arrival', () => {
    const tl = new Timeline();
    tl.add([hop4(1000), hop4(1000)], 0, 0);
    tl.skip(10);
    expect(tl.at(10)).toEqual({ complete: 2, partial: null });
    expect(tl.caughtUp(10)).toBe(true);
    tl.add([hop4(100)], 2, 20);
    expect(tl.at(70).partial).toEqual({ index: 2, p: 0.75 });
  });

  it('retime: what is left to play of the steps held takes k times as long from now, in order', () => {
    const tl = new Timeline();
    tl.add([hop4(100), hop4(100), hop4(100)], 0, 0);
    // Half way through the second step the dial goes twice as fast.
    tl.retime(150, 0.5);
    expect(tl.starts).toEqual([0, 100, 175]);
    expect(tl.durations).toEqual([100, 75, 50]);
    expect(tl.at(150).partial?.index).toBe(1);
    expect(tl.end).toBe(225);
    // Then four times slower: only what is still ahead stretches.
    tl.retime(200, 4);
    expect(tl.starts).toEqual([0, 100, 175]);
    expect(tl.end).toBe(200 + 25 * 4);
    // A broken k changes nothing; k = 0 finishes everything now, as skip does.
    tl.retime(210, Number.NaN);
    tl.retime(210, -1);
    expect(tl.end).toBe(300);
    tl.retime(210, 0);
    expect(tl.at(210)).toEqual({ complete: 3, partial: null });
  });

  it('instant: after "finish now" every step that arrives shows at once', () => {
    const tl = new Timeline();
    tl.add([hop4(100)], 0, 0);
    tl.instant = true;
    tl.add([hop4(400), hop4(400)], 1, 10);
    expect(tl.durations).toEqual([100, 0, 0]);
    expect(tl.at(100)).toEqual({ complete: 3, partial: null });
  });

  it('numbers steps by from: a repeated step is kept once, a gap stops the timeline', () => {
    const tl = new Timeline();
    expect(tl.add([mv(0), mv(0)], 0, 0)).toBe(2);
    expect(tl.add([mv(0, 1), mv(0, 2)], 1, 0)).toBe(1);
    expect(tl.length).toBe(3);
    expect((tl.steps[2] as { x1: number }).x1).toBe(2);
    expect(tl.add([mv(0)], 5, 0)).toBe(0);
    expect(tl.broken).toBe(true);
    expect(tl.add([mv(0)], 3, 0)).toBe(0);
  });

  it('takes the time from ms (as the runner sends it) or d; a dot’s d is its diameter', () => {
    const tl = new Timeline();
    const dot = (extra: object) => ({ k: 'dot', t: 0, s: 3, x: 0, y: 0, d: 20, c: '#000000', ...extra }) as DrawStep;
    tl.add([{ ...hop4(0), d: undefined, ms: 40 } as DrawStep, dot({}), dot({ ms: 10 })], 0, 0);
    expect(tl.at(20)).toEqual({ complete: 0, partial: { index: 0, p: 0.75 } });
    expect(tl.at(39).complete).toBe(0);
    // the first dot is instant: its d is a size, not a time
    expect(tl.at(40).complete).toBe(2);
    expect(tl.end).toBe(50);
  });

  it('a missing, negative or huge d is bounded', () => {
    const tl = new Timeline();
    const noD = { k: 'turn', t: 0, s: 3, h: 90 } as DrawStep;
    tl.add([noD, mv(-5), mv(Number.NaN), mv(1e12)], 0, 0);
    expect(tl.at(0).complete).toBe(3);
    expect(tl.end).toBe(MAX_STEP_MS);
  });
});

describe('Player replaying what a live run drew (watch again)', () => {
  const screen = { width: 200, height: 200, view: [-100, -100, 200, 200] as const, bg: '#ffffff' };

  it('plays each step for the time it took live, moving as CPython’s turtle does, and ends on the same scene', () => {
    const steps: DrawStep[] = [hop4(100), { k: 'turn', t: 0, s: 1, h: 90, d: 320 }, mv(0, 5)];
    const live = new Player(screen);
    live.timeline.add(steps, 0, 0);
    const rp = Player.replay({ ...screen, steps: live.timeline.steps });
    expect(rp.timeline.durations).toEqual([100, 320, 0]);
    expect(rp.timeline.at(0)).toEqual({ complete: 0, partial: { index: 0, p: 0.25 } });
    expect(rp.timeline.at(150).partial?.p).toBeCloseTo(live.timeline.at(150).partial!.p, 9);
    live.advanceTo(live.end);
    expect(rp.advanceTo(rp.end).complete).toBe(true);
    expect(rp.scene.items).toEqual(live.scene.items);
    expect(rp.scene.looks.get(0)?.h).toBe(90);
  });

  it('leaves out the waits between steps: only the steps’ own times count', () => {
    const live = new Player(screen);
    live.timeline.add([hop4(100)], 0, 0);
    live.timeline.add([hop4(100)], 1, 500);
    expect(live.end).toBe(600);
    const rp = Player.replay({ ...screen, steps: live.timeline.steps });
    expect(rp.end).toBe(200);
    expect(rp.timeline.at(150).partial).toEqual({ index: 1, p: 0.75 });
  });

  it('starts from the screen’s background, or white when the steps change it', () => {
    const dark = Player.replay({ ...screen, bg: '#000080', steps: [mv(0)] });
    expect(dark.scene.bg).toBe('#000080');
    const changed = Player.replay({ ...screen, bg: '#000080', steps: [{ k: 'bg', s: 0, c: '#000080' }, mv(0)] });
    expect(changed.scene.bg).toBe('#ffffff');
    changed.advanceTo(changed.end);
    expect(changed.scene.bg).toBe('#000080');
  });
});
