// The console under a flood, in headless Chromium over the fake backend: a
// program printing 100,000 lines leaves only a few dozen lines in the page,
// the last line and the run's end show, a child who scrolled up to read is
// not pulled down by new output, long lines wrap, Chinese and emoji stay
// whole, an input() question still gets its answer box, and the output-limit
// message shows at the end. Checks wait for what must happen, never for a
// set time. The longest main-thread task during the flood is printed.
//
// Usage: node e2e/browser/console_flood.mjs (builds the frontend itself).
// Screenshots go to test-artifacts/.

import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { buildApp, checker, launch, openApp, repo, serve, setProgram } from './fake_app.mjs';

const artifacts = join(repo, 'test-artifacts');
mkdirSync(artifacts, { recursive: true });
const checks = checker();
const check = (name, ok, detail = '') => checks.check(name, ok, String(detail).slice(0, 400));
const { summary } = checks;

/** Waits until fn() (in the page) is true; false after the timeout. */
const until = (page, fn, arg, timeout = 20000) => page.waitForFunction(fn, arg, { timeout, polling: 20 }).then(() => true, () => false);

/** Lines in the page, all elements in the console, and the console's scroll state. */
const consoleState = (page) =>
  page.evaluate(() => {
    const c = document.querySelector('.console');
    const r = c.getBoundingClientRect();
    const inView = [...c.querySelectorAll('.window .line')].filter((l) => {
      const b = l.getBoundingClientRect();
      return b.bottom > r.top + 1 && b.top < r.bottom - 1;
    });
    return {
      lines: c.querySelectorAll('.line').length,
      nodes: c.querySelectorAll('*').length,
      scrollTop: c.scrollTop,
      bottomGap: c.scrollHeight - c.scrollTop - c.clientHeight,
      first: inView[0]?.textContent ?? null,
      firstAt: inView[0] ? Math.round(inView[0].getBoundingClientRect().top - r.top) : null,
      last: inView.at(-1)?.textContent ?? null,
      wide: c.scrollWidth > c.clientWidth + 1,
    };
  });

/** Sends output of the window's current run, as the Go app would. */
const out = (page, text, stream = 'stdout') =>
  page.evaluate(([text, stream]) => {
    const fake = window.__kidcoderFake;
    fake.emit('run:output', { runId: fake.lastRunId(), stream, text });
  }, [text, stream]);

/** Lines from `from` to `to` (exclusive), one number a line. */
const numbers = (from, to) => {
  let s = '';
  for (let i = from; i < to; i++) s += `${i}\n`;
  return s;
};

/** Whether an element is inside the console's visible box. */
const visibleInConsole = (page, selector) =>
  page.evaluate((selector) => {
    const c = document.querySelector('.console').getBoundingClientRect();
    const el = document.querySelector(selector);
    if (!el) return false;
    const b = el.getBoundingClientRect();
    return b.top >= c.top - 1 && b.bottom <= c.bottom + 1 && b.height > 0;
  }, selector);

async function main() {
  const app = await buildApp();
  const server = await serve(app.dir);
  const url = `http://127.0.0.1:${server.address().port}/`;
  const browser = await launch();
  try {
    const { page, errors } = await openApp(browser, url, app.fake, { fake: { lang: 'en' } });
    await page.locator('.drawing img').first().waitFor({ timeout: 20000 });

    // 1. The fake runs this as 100,000 lines in chunks of 2,000 every 20 ms.
    await page.evaluate(() => {
      window.__longest = 0;
      new PerformanceObserver((l) => l.getEntries().forEach((e) => (window.__longest = Math.max(window.__longest, e.duration)))).observe({ type: 'longtask' });
    });
    await setProgram(page, 'for i in range(100000):\n    print(i)\n');
    await page.locator('button.run').click();
    let most = 0;
    let mostNodes = 0;
    const flooding = Date.now();
    while (!(await page.locator('.console .box.ok').count()) && Date.now() - flooding < 60000) {
      const s = await consoleState(page);
      most = Math.max(most, s.lines);
      mostNodes = Math.max(mostNodes, s.nodes);
      await page.waitForTimeout(30);
    }
    const end = await consoleState(page);
    check('100,000 lines: the console has a few dozen lines in the page at most', most > 0 && most < 150 && end.lines < 150, `at most ${most} lines, ${mostNodes} elements`);
    check('100,000 lines: the last line is on screen at the end', end.last === '99999', JSON.stringify(end));
    check('100,000 lines: the end of the run shows below it', await visibleInConsole(page, '.console .box.ok'));
    check('100,000 lines: the dropped lines are counted', (await page.locator('.console .notice').count()) === 1);
    check('100,000 lines: no line is wider than the console', !end.wide);
    const longest = await page.evaluate(() => window.__longest);
    console.log(`     (at most ${most} lines and ${mostNodes} elements in the console during the flood; longest main-thread task ${Math.round(longest)} ms)`);
    await page.screenshot({ path: join(artifacts, 'browser-console-flood-end.png') });

    // 2. A program that asks: the question keeps its answer box while output pours in.
    await setProgram(page, "n = input('How many? ')\nprint(n)\n");
    await page.locator('button.run').click();
    await page.locator('.console input.answer').waitFor({ timeout: 10000 });
    check('input(): the answer box has the focus', await page.evaluate(() => document.activeElement?.classList.contains('answer')));
    await page.keyboard.type('3');
    await page.keyboard.press('Enter');
    await until(page, () => document.querySelector('.console .box.ok'));
    const echoed = await page.evaluate(() => document.querySelector('.console').innerText);
    check('input(): the answer is echoed on the question line', echoed.includes('How many? 3'), echoed);

    // 3. Output the test sends itself, on a run that stays open while it asks.
    await setProgram(page, "n = input('Name? ')\n");
    await page.locator('button.run').click();
    await page.locator('.console input.answer').waitFor({ timeout: 10000 });
    await out(page, '\n');
    for (let k = 0; k < 20000; k += 2000) await out(page, numbers(k, k + 2000));
    await out(page, '你好，世界 🐢🌈 ok\n');
    await out(page, 'Traceback: 错误 ❌\n', 'stderr');
    await until(page, () => document.querySelector('.console .window .line:last-child')?.textContent.startsWith('Traceback'));
    const cjk = await page.evaluate(() => [...document.querySelectorAll('.console .window .line')].map((l) => l.textContent));
    check('Chinese and emoji are whole', cjk.includes('你好，世界 🐢🌈 ok') && cjk.includes('Traceback: 错误 ❌'), cjk.slice(-4).join(' | '));
    check('stderr keeps its colour', (await page.locator('.console .window .stderr', { hasText: '错误' }).count()) === 1);
    await out(page, 'x'.repeat(3000) + '\n');
    await until(page, () => document.querySelector('.console .window .line:last-child')?.textContent.startsWith('xxxx'));
    let s = await consoleState(page);
    const row = await page.evaluate(() => {
      const long = [...document.querySelectorAll('.console .window .line')].at(-1);
      return { long: long.getBoundingClientRect().height, one: parseFloat(getComputedStyle(long).lineHeight) };
    });
    check('a 3,000-character line wraps instead of widening the console', row.long > 10 * row.one && !s.wide, JSON.stringify(row));

    // The child scrolls up to read: new output does not pull the view down.
    await page.locator('.console').hover();
    for (let i = 0; i < 3; i++) await page.mouse.wheel(0, -600);
    await until(page, () => {
      const c = document.querySelector('.console');
      return c.scrollTop < c.scrollHeight - c.clientHeight - 1000;
    });
    await page.waitForFunction(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(true)))));
    const before = await consoleState(page);
    for (let k = 20000; k < 22000; k += 2000) await out(page, numbers(k, k + 2000));
    await until(page, () => document.querySelector('.console').innerText !== null && document.querySelector('.console .lines').style.height !== '');
    await page.waitForFunction(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(true)))));
    const after = await consoleState(page);
    check('scrolled up: new output does not move what the child reads', before.first !== null && after.first === before.first && Math.abs(after.firstAt - before.firstAt) < 2, `${before.first}@${before.firstAt} → ${after.first}@${after.firstAt}`);
    check('scrolled up: only the visible lines are in the page', after.lines < 150, `${after.lines}`);
    await page.screenshot({ path: join(artifacts, 'browser-console-scrolled-up.png') });

    // Lines dropped from the top (past the kept 5,000) do not move the view either.
    const dropBefore = await consoleState(page);
    const droppedBefore = await page.locator('.console .notice').innerText();
    for (let k = 22000; k < 24000; k += 1000) await out(page, numbers(k, k + 1000));
    await until(page, (n) => document.querySelector('.console .notice').innerText !== n, droppedBefore);
    await page.waitForFunction(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(true)))));
    const dropAfter = await consoleState(page);
    check('scrolled up: dropping old lines keeps the view on the same lines', dropAfter.first === dropBefore.first && Math.abs(dropAfter.firstAt - dropBefore.firstAt) < 2, `${dropBefore.first}@${dropBefore.firstAt} → ${dropAfter.first}@${dropAfter.firstAt}`);

    // Back at the bottom, the console follows again.
    await page.evaluate(() => {
      const c = document.querySelector('.console');
      c.scrollTop = c.scrollHeight;
    });
    await page.waitForFunction(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(true)))));
    await out(page, numbers(24000, 27000) + 'the last line\n');
    check('back at the bottom: the console follows new output', await until(page, () => {
      const c = document.querySelector('.console');
      const last = [...c.querySelectorAll('.window .line')].at(-1);
      const b = last?.getBoundingClientRect();
      return last?.textContent === 'the last line' && b.bottom <= c.getBoundingClientRect().bottom + 1;
    }, null, 10000));

    // The Go app ends a run that prints past the output limit with this result: the outcome names the limit.
    await page.evaluate(() => {
      const fake = window.__kidcoderFake;
      const limits = { wallSeconds: 10, cpuSeconds: 10, idleSeconds: 300, memoryMiB: 512, outputKiB: 1024, scratchFiles: 10000 };
      const outcome = { key: 'limit.output', values: { seconds: '10', cpu: '10', idle: '300', minutes: '5', files: '10000', memory: '512 MB', size: '1 MB' } };
      fake.emit('run:done', {
        runId: fake.lastRunId(),
        result: { status: 'output_limit', exit_code: -1, duration_ms: 900, stdout: '', stderr: '', truncated: true, error: null, images: [], drawing: null, limits, outcome,
          notices: ['✋ That is a lot of drawing: 1000000 steps were recorded, later ones are not drawn (the program keeps running).'] },
      });
    });
    await page.locator('.console .box.warn').waitFor({ timeout: 10000 });
    const limitText = await page.locator('.console .box.warn').innerText();
    check('the output-limit message shows at the end', limitText.includes('📜') && /printed more than/.test(limitText), limitText);
    check('the output-limit message is on screen', await until(page, () => {
      const c = document.querySelector('.console').getBoundingClientRect();
      const b = document.querySelector('.console .box.warn').getBoundingClientRect();
      return b.top >= c.top && b.bottom <= c.bottom + 1;
    }, null, 5000));
    const notice = await page.locator('.console .notice-line').allInnerTexts();
    check("the runner's notices show with the end of the run", notice.length === 1 && notice[0].includes('1000000 steps were recorded'), JSON.stringify(notice));
    check('after the run: the answer box is gone', (await page.locator('.console input.answer').count()) === 0);
    await page.screenshot({ path: join(artifacts, 'browser-console-output-limit.png') });

    // Scrolled up at the end of one run, the next run's output is followed from its start.
    await page.locator('.console').hover();
    for (let i = 0; i < 3; i++) await page.mouse.wheel(0, -600);
    await setProgram(page, 'for i in range(3000):\n    print(i)\n');
    await page.locator('button.run').click();
    await page.locator('.console .box.ok').waitFor({ timeout: 20000 });
    await page.waitForFunction(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(true)))));
    const next = await consoleState(page);
    check('a new run after scrolling up: its last line is on screen', next.last === '2999', JSON.stringify(next));

    // A narrow window re-wraps the long line without a sideways scroll.
    await page.setViewportSize({ width: 800, height: 600 });
    await page.waitForFunction(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(true)))));
    s = await consoleState(page);
    check('800×600: no line is wider than the console', !s.wide && s.lines < 150, JSON.stringify(s));
    await page.screenshot({ path: join(artifacts, 'browser-console-800x600.png') });

    check('no page errors', errors.length === 0, errors.join('; '));
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
