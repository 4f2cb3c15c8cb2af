// Interaction tests in headless Chromium against the built frontend wired to
// the real Go app and the real sandbox (cmd/kidcoder-devserver).
//
// Usage: node e2e/browser/real_backend.mjs  (from the repository root, after
// make build; KIDCODER_DEVSERVER names another dev server binary). Prints one
// line per check and exits non-zero on any failure.
// Screenshots go to test-artifacts/.

import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startDevServer } from './fake_app.mjs';

const repo = resolve(fileURLToPath(new URL('.', import.meta.url)), '../..');
const require = createRequire(join(repo, 'frontend', 'package.json'));
const { chromium } = require('playwright-core');
const artifacts = join(repo, 'test-artifacts');
mkdirSync(artifacts, { recursive: true });

let passed = 0;
let failed = 0;
function check(name, ok, detail = '') {
  if (ok) passed++;
  else failed++;
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${name}${ok || !detail ? '' : `: ${detail}`}`);
}


const consoleText = (page) => page.locator('.console').innerText();

/** Replaces the editor's program, as a child would by selecting all and typing. */
async function setProgram(page, code) {
  await page.locator('.cm-content').click();
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText(code);
}

/** Counts finished runs, as the app hears of them, so a check waits for its own run. */
async function countRuns(page) {
  await page.evaluate(() => {
    window.__runsDone = 0;
    window.runtime.EventsOn('run:done', () => { window.__runsDone++; });
  });
}

async function runAndWait(page, timeout = 15000) {
  const before = await page.evaluate(() => window.__runsDone);
  await page.locator('button.run').click();
  await page.waitForFunction((n) => window.__runsDone > n, before, { timeout });
  await page.locator('.elapsed').waitFor({ state: 'visible', timeout });
}

async function main() {
  const server = await startDevServer('kidcoder-browser-', 10);
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync'],
  });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 820 } });
    page.on('pageerror', (e) => check('no page errors', false, String(e)));
    await page.goto(server.url);
    await countRuns(page);

    // The star demo runs by itself through the real sandbox.
    await page.locator('.drawing img, [data-panel="drawing"] img').first().waitFor({ timeout: 30000 });
    const demo = await consoleText(page);
    check('star demo runs on open and prints', /star|星星/.test(demo), demo.slice(0, 200));
    await page.screenshot({ path: join(artifacts, 'browser-real-star.png') });

    // Watch again replays the star from the steps the live run drew: the result brings only its picture.
    await page.locator('button.watch').click();
    const replaying = await page.locator('[data-panel="drawing"] .stage:not(.live) canvas').waitFor({ timeout: 5000 }).then(() => true, () => false);
    check('watch again replays the star the live run drew', replaying);
    const replayed = await page.locator('[data-panel="drawing"] .stage img').first().waitFor({ timeout: 30000 }).then(() => true, () => false);
    check('watch again ends on the final picture', replayed);

    // Chinese and emoji round-trip, and a square drawing.
    await setProgram(page, 'import turtle\nprint("你好，世界 🐢🌟")\nt = turtle.Turtle()\nfor i in range(4):\n    t.forward(100)\n    t.left(90)\nprint(t.pos())\n');
    await runAndWait(page);
    let text = await consoleText(page);
    check('Chinese and emoji come back exactly', text.includes('你好，世界 🐢🌟'), text.slice(0, 200));
    check('turtle position printed as CPython does', text.includes('(-0.00,0.00)'), text.slice(0, 200));
    const img = await page.locator('[data-panel="drawing"] img').first().getAttribute('src');
    check('the drawing is an <img> data URI', (img || '').startsWith('data:image/svg+xml;base64,'), (img || '').slice(0, 40));

    // matplotlib: two figures become two PNGs below the drawing, Chinese title included.
    await setProgram(page, 'import matplotlib.pyplot as plt\nplt.plot([1, 3, 2])\nplt.title("温度 Temperature")\nplt.figure()\nplt.bar([1, 2, 3], [3, 1, 2])\nplt.show()\nprint("plots done")\n');
    await runAndWait(page, 60000);
    text = await consoleText(page);
    const pngs = await page.locator('[data-panel="drawing"] img[src^="data:image/png;base64,"]').count();
    check('two matplotlib figures shown as PNGs', text.includes('plots done') && pngs === 2, `${pngs} PNGs; ${text.slice(0, 200)}`);
    await page.screenshot({ path: join(artifacts, 'browser-real-plots.png') });

    // A typo: the error box explains it and the line is highlighted.
    await setProgram(page, 'name = "Lily"\nprint("Hello", nmae)\n');
    await runAndWait(page);
    const hint = await page.locator('.box.error').innerText().catch(() => '');
    check('error explained with a hint', /nmae/.test(hint) && /name/.test(hint), hint);
    const marked = await page.locator('.cm-error-line').innerText().catch(() => '');
    check('error line highlighted in the editor', marked.includes('nmae'), marked);
    await page.screenshot({ path: join(artifacts, 'browser-real-error.png') });

    // input(): the box appears, the answer goes to the program.
    await setProgram(page, 'name = input("你叫什么名字？")\nprint("你好，" + name + "！")\n');
    const beforeInput = await page.evaluate(() => window.__runsDone);
    await page.locator('button.run').click();
    await page.locator('input.answer').waitFor({ timeout: 15000 });
    // The console paints output once per frame: give the prompt that frame.
    const promptShown = await page.waitForFunction(() => document.querySelector('.console')?.innerText.includes('你叫什么名字？'),
      null, { timeout: 3000 }).then(() => true, () => false);
    check('prompt shown while waiting', promptShown, (await consoleText(page)).slice(0, 300));
    await page.locator('input.answer').fill('小明');
    await page.locator('input.answer').press('Enter');
    await page.waitForFunction((n) => window.__runsDone > n, beforeInput, { timeout: 15000 });
    await page.locator('.elapsed').waitFor({ timeout: 15000 });
    text = await consoleText(page);
    check('typed answer reaches the program', text.includes('你好，小明！'), text.slice(0, 200));

    // Stop ends a runaway program at once and keeps its output.
    await setProgram(page, 'import time\nprint("starting", flush=True)\nwhile True:\n    time.sleep(0.01)\n');
    await page.locator('button.run').click();
    await page.waitForFunction(() => document.querySelector('.console')?.innerText.includes('starting'), null, { timeout: 15000 });
    const beforeStop = await page.evaluate(() => window.__runsDone);
    const t0 = Date.now();
    await page.locator('button.stop').click();
    await page.waitForFunction((n) => window.__runsDone > n, beforeStop, { timeout: 5000 });
    await page.locator('.elapsed').waitFor({ timeout: 5000 });
    text = await consoleText(page);
    check('stop is quick', Date.now() - t0 < 3000, `${Date.now() - t0} ms`);
    check('stop keeps output and says so', text.includes('starting') && /Stop/.test(text), text.slice(0, 300));

    // A runaway loop is stopped by the time limit (10 s in these settings).
    await setProgram(page, 'while True:\n    pass\n');
    await runAndWait(page, 40000);
    text = await consoleText(page);
    check('timeout message names the limit', text.includes('ran longer than 10 s'), text.slice(0, 300));
    await page.screenshot({ path: join(artifacts, 'browser-real-timeout.png') });

    // Panels collapse and expand from their headers.
    const toggle = page.locator('[data-panel="console"] .toggle');
    await toggle.click();
    const hidden = await page.locator('#panel-console').isHidden();
    await toggle.click();
    const shown = await page.locator('#panel-console').isVisible();
    check('console panel collapses and expands', hidden && shown);

    // Language switch.
    await page.locator('button', { hasText: '中文' }).click();
    const runLabel = await page.locator('button.run').innerText();
    check('language switches to Chinese', /跑/.test(runLabel), runLabel);
    await page.screenshot({ path: join(artifacts, 'browser-real-zh.png') });
    const limitZh = await page.locator('.console .box.warn').innerText().catch(() => '');
    check('the limit message is worded again in Chinese', limitZh.includes('运行超过 10 秒'), limitZh);

    // The star lesson now holds the child's last program; the ⭐ button still brings the star back.
    const childCode = await page.locator('.cm-content').innerText();
    const beforeStar = await page.evaluate(() => window.__runsDone);
    await page.locator('button.star').click();
    await page.waitForFunction((n) => window.__runsDone > n, beforeStar, { timeout: 30000 });
    text = await consoleText(page);
    // The final picture follows once the live drawing has played out: on a busy machine that is after the run is done.
    const pictured = await page.locator('[data-panel="drawing"] img').first().waitFor({ timeout: 30000 }).then(() => true, () => false);
    check('the star button runs the built-in star', /star|星星/.test(text) && pictured, text.slice(0, 200));
    check('the star button leaves the child’s star lesson as it was', (await page.locator('.cm-content').innerText()) === childCode);
  } finally {
    await browser.close();
    server.stop();
  }
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed ? 1 : 0);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
