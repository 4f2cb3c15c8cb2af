// Key press to visibly moved turtle, in headless Chromium against the built
// frontend wired to the real Go app and sandbox (cmd/kidcoder-devserver): a
// program that listens draws a short red line on every Up press; the time
// from the keydown to the first frame whose canvas shows the new line is
// measured for each press. Checks that every press drew; prints the median
// and 95th percentile as figures (the verdict never depends on them).
//
// Usage: node e2e/browser/real_key_latency.mjs [presses] (after make build;
// KIDCODER_DEVSERVER names another dev server binary).
// Prints "BENCH live_key_latency_median <ms> ms" and "... _p95 ...".

import { checker, launch, setProgram, startDevServer } from './fake_app.mjs';

const presses = Math.min(18, Number(process.argv[2]) || 18);
const STEP = 20;
/** Where the line starts: it grows to the right across the 400 × 400 view. */
const START = -190;
const { check, summary } = checker();


/**
 * In the page: on every keydown, watches each animation frame for red ink in
 * the canvas around world (window.__probeX, 0) (the standard 400 × 400 view)
 * and pushes the milliseconds from the keydown to that frame (-1: none in 5 s;
 * -2: red there before the press) onto window.__latency.
 */
function installProbe(page) {
  return page.evaluate(() => {
    window.__latency = [];
    window.__arrival = [];
    let pressed = -1;
    // When the drawing's frame reached the page: the app's and the runner's share of the time.
    window.runtime.EventsOn('run:live', (e) => {
      if (pressed >= 0 && e.frame.type === 'draw') {
        window.__arrival.push(performance.now() - pressed);
        pressed = -1;
      }
    });
    window.addEventListener(
      'keydown',
      (e) => {
        const t0 = e.timeStamp;
        pressed = t0;
        const x = window.__probeX;
        const c = document.querySelector('.stage.live canvas');
        const ctx = c.getContext('2d');
        const k = Math.min(c.width, c.height) / 400;
        const cx = Math.round(c.width / 2 + x * k);
        const cy = Math.round(c.height / 2);
        const red = () => {
          const d = ctx.getImageData(cx - 2, cy - 2, 5, 5).data;
          for (let i = 0; i < d.length; i += 4) if (d[i] > 200 && d[i + 1] < 80 && d[i + 2] < 80) return true;
          return false;
        };
        // Red there already: this press cannot be measured (-2).
        if (red()) return window.__latency.push(-2);
        const frame = (t) => {
          if (red()) return window.__latency.push(t - t0);
          if (t - t0 > 5000) return window.__latency.push(-1);
          requestAnimationFrame(frame);
        };
        requestAnimationFrame(frame);
      },
      { capture: true },
    );
  });
}

async function main() {
  const server = await startDevServer('kidcoder-latency-', 60);
  const browser = await launch();
  try {
    const page = await browser.newPage({ viewport: { width: 1024, height: 768 } });
    await page.goto(server.url);
    await page.locator('.drawing img').first().waitFor({ timeout: 60000 });
    await setProgram(
      page,
      `import turtle\nt = turtle.Turtle()\nt.hideturtle()\nt.speed(0)\nt.penup()\nt.goto(${START}, 0)\nt.pendown()\nt.pensize(4)\nt.color("red")\n` +
        `def step():\n    t.forward(${STEP})\n    print("at", round(t.xcor()))\n` +
        `turtle.listen()\nturtle.onkeypress(step, "Up")\nturtle.done()\n`,
    );
    await page.locator('button.run').click();
    await page.locator('.keys-label').waitFor({ timeout: 15000 });
    await installProbe(page);
    for (let i = 0; i < presses; i++) {
      // Near the start of the segment this press draws, clear of the last one's round end:
      // red there means the turtle has visibly begun to move.
      await page.evaluate((x) => (window.__probeX = x), START + STEP * i + STEP / 4);
      await page.keyboard.down('ArrowUp');
      await page.waitForFunction((n) => window.__latency.length > n, i, { timeout: 10000 });
      await page.keyboard.up('ArrowUp');
      // The next press once this one's handler has finished.
      await page.waitForFunction((n) => document.querySelector('.console')?.innerText.includes(`at ${n}`), START + STEP * (i + 1), { timeout: 10000 }).catch(() => {});
    }
    const times = await page.evaluate(() => window.__latency);
    const arrivals = (await page.evaluate(() => window.__arrival)).sort((a, b) => a - b);
    await page.locator('button.stop').click();
    const missed = times.filter((t) => t === -1).length;
    const early = times.filter((t) => t === -2).length;
    check('every key press moved the turtle on screen', missed === 0, `${missed} of ${presses} missed`);
    check('no line was there before its key press', early === 0, `${early} of ${presses}`);
    const ok = times.filter((t) => t >= 0).sort((a, b) => a - b);
    if (ok.length) {
      const at = (p) => ok[Math.min(ok.length - 1, Math.floor((ok.length - 1) * p))];
      const arrived = arrivals.length ? arrivals[Math.floor((arrivals.length - 1) / 2)].toFixed(1) : '?';
      console.log(
        `key press to visibly moved turtle (${ok.length} presses, headless, dev server): median ${at(0.5).toFixed(1)} ms, ` +
          `p95 ${at(0.95).toFixed(1)} ms, max ${ok[ok.length - 1].toFixed(1)} ms; the drawing's frame reached the page after ${arrived} ms (median)`,
      );
      console.log(`BENCH live_key_latency_median ${at(0.5).toFixed(1)} ms`);
      console.log(`BENCH live_key_latency_p95 ${at(0.95).toFixed(1)} ms`);
    }
  } finally {
    await browser.close();
    server.stop();
  }
  process.exit(summary() ? 0 : 1);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
