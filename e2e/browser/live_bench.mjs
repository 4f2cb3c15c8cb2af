// Frame rate of the live drawing in headless Chromium with 5,000 segments on
// screen while a step animates. Correctness is checked (the segments are
// painted, the animating line grows, nothing is lost); the frame rate is
// printed as a figure and never decides the verdict.
//
// Usage: node e2e/browser/live_bench.mjs [seconds] (builds the frontend itself).
// Prints, per device pixel ratio, a line "BENCH live_fps_5000_dpr<N> <fps> fps"
// and the main thread's busy time per frame (how much of the 16.7 ms is used).

import { buildApp, checker, inkOf, launch, liveSteps, openApp, sendFrame, serve, setProgram } from './fake_app.mjs';

const SEGMENTS = 5000;
const seconds = Number(process.argv[2]) || 3;
const { check, summary } = checker();

/** The same 5,000 segments every time: a fixed pseudo-random walk over the 400 × 400 screen. */
function segments() {
  let seed = 12345;
  const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
  const steps = [];
  let x = 0;
  let y = 0;
  for (let i = 0; i < SEGMENTS; i++) {
    const nx = Math.round((rnd() * 360 - 180) * 100) / 100;
    const ny = Math.round((rnd() * 360 - 180) * 100) / 100;
    steps.push({ k: 'move', t: 0, s: 0, x1: x, y1: y, x2: nx, y2: ny, c: '#0000c0', w: 1, d: 0 });
    x = nx;
    y = ny;
  }
  return steps;
}

/** Frame intervals of the page for `ms` (requestAnimationFrame), and long tasks meanwhile. */
function measureFrames(page, ms) {
  return page.evaluate(
    (ms) =>
      new Promise((done) => {
        const times = [];
        let long = 0;
        const obs = new PerformanceObserver((list) => (long += list.getEntries().length));
        try {
          obs.observe({ type: 'longtask', buffered: false });
        } catch {
          // no long task timing here
        }
        const tick = (t) => {
          times.push(t);
          if (t - times[0] < ms) requestAnimationFrame(tick);
          else {
            obs.disconnect();
            done({ times, long });
          }
        };
        requestAnimationFrame(tick);
      }),
    ms,
  );
}

const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length - 1) * p))];

async function bench(browser, url, fake, dpr) {
  const { page, errors } = await openApp(browser, url, fake, { width: 1024, height: 768, dpr, fake: { lang: 'en' } });
  await page.locator('.drawing img').first().waitFor({ timeout: 20000 });
  await setProgram(page, 'import turtle\nturtle.listen()\nturtle.done()\n');
  await page.locator('button.run').click();
  await page.locator('.keys-label').waitFor({ timeout: 10000 });

  const from = await liveSteps(page);
  await sendFrame(page, { type: 'draw', from, steps: segments() });
  await page.waitForFunction((n) => Number(document.querySelector('.stage.live')?.dataset.steps) === n, from + SEGMENTS, { timeout: 20000 });
  const blue = await inkOf(page, [0, 0, 192]);
  check(`dpr ${dpr}: the 5,000 segments are painted`, blue > 20000 * dpr * dpr, `${blue} pixels`);

  // One long step animating over all of the measurement.
  await sendFrame(page, {
    type: 'draw',
    from: from + SEGMENTS,
    steps: [{ k: 'move', t: 0, s: 1, x1: -190, y1: 190, x2: 190, y2: 190, c: '#ff0000', w: 6, d: seconds * 1000 + 4000 }],
  });
  // "Skip to the end" is offered over the drawing now: count from here.
  await page.locator('button.skip').waitFor({ timeout: 10000 });
  const blueBefore = await inkOf(page, [0, 0, 192]);
  const redBefore = await inkOf(page, [255, 0, 0]);
  // The main thread's busy time over the measurement (Chromium's own task accounting), per frame.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  const busy = async () => (await cdp.send('Performance.getMetrics')).metrics.find((m) => m.name === 'TaskDuration')?.value ?? 0;
  const busyBefore = await busy();
  const { times, long } = await measureFrames(page, seconds * 1000);
  const busyMs = ((await busy()) - busyBefore) * 1000;
  const redAfter = await inkOf(page, [255, 0, 0]);
  check(`dpr ${dpr}: the animating line grew while measured`, redAfter > redBefore, `${redBefore} → ${redAfter}`);
  const blueAfter = await inkOf(page, [0, 0, 192]);
  check(`dpr ${dpr}: the segments stay on screen under the animation`, blueAfter > blueBefore * 0.95, `${blueBefore} → ${blueAfter}`);
  check(`dpr ${dpr}: no page errors`, errors.length === 0, errors.join('; '));

  const gaps = times.slice(1).map((t, i) => t - times[i]).sort((a, b) => a - b);
  const fps = ((times.length - 1) * 1000) / (times[times.length - 1] - times[0]);
  console.log(
    `live drawing, ${SEGMENTS} segments + 1 animating, 1024x768 at dpr ${dpr}: ${fps.toFixed(1)} fps; ` +
      `frame interval p50 ${pct(gaps, 0.5).toFixed(1)} ms, p95 ${pct(gaps, 0.95).toFixed(1)} ms, max ${gaps[gaps.length - 1].toFixed(1)} ms; ` +
      `main thread busy ${(busyMs / (times.length - 1)).toFixed(2)} ms per frame; long tasks ${long}`,
  );
  console.log(`BENCH live_fps_5000_dpr${dpr} ${fps.toFixed(1)} fps`);
  await page.context().close();
}

async function main() {
  const app = await buildApp();
  const server = await serve(app.dir);
  const url = `http://127.0.0.1:${server.address().port}/`;
  const browser = await launch();
  try {
    await bench(browser, url, app.fake, 1);
    await bench(browser, url, app.fake, 2);
  } finally {
    await browser.close();
    server.close();
    app.cleanup();
  }
  process.exit(summary() ? 0 : 1);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
