// The console keeps what the child reads, in headless Chromium over the fake
// backend: "📋 Copy all" copies every line kept, not only the few dozen the
// page holds, and a child who scrolled up to read stays on that line while a
// flood drops old lines past the kept 5,000 (the line being read is among
// them). Checks wait for what must happen, never for a set time.
//
// Usage: node e2e/browser/console_keeps.mjs (builds the frontend itself).

import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { buildApp, checker, launch, openApp, repo, serve, setProgram } from './fake_app.mjs';

const artifacts = join(repo, 'test-artifacts');
mkdirSync(artifacts, { recursive: true });
const { check, summary } = checker();

/** Sends output of the window's current run, as the Go app would. */
const out = (page, text) =>
  page.evaluate((text) => {
    const fake = window.__kidcoderFake;
    fake.emit('run:output', { runId: fake.lastRunId(), stream: 'stdout', text });
  }, text);

const numbered = (from, to) => {
  let s = '';
  for (let i = from; i < to; i++) s += `line ${i}\n`;
  return s;
};

/** Two animation frames: whatever the last output changed is laid out and painted. */
const settled = (page) => page.waitForFunction(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(true)))));

/** The first line in the console's view and where it is. */
const firstInView = (page) =>
  page.evaluate(() => {
    const c = document.querySelector('.console');
    const r = c.getBoundingClientRect();
    const l = [...c.querySelectorAll('.window .line')].find((l) => {
      const b = l.getBoundingClientRect();
      return b.bottom > r.top + 1 && b.top < r.bottom - 1;
    });
    return l ? { text: l.textContent, at: Math.round(l.getBoundingClientRect().top - r.top) } : null;
  });

async function main() {
  const app = await buildApp();
  const server = await serve(app.dir);
  const url = `http://127.0.0.1:${server.address().port}/`;
  const browser = await launch();
  try {
    const { page, errors } = await openApp(browser, url, app.fake, { fake: { lang: 'en' } });
    await page.locator('.drawing img').first().waitFor({ timeout: 20000 });

    // A run that stays open (it waits in input()) while the test prints for it.
    await setProgram(page, "n = input('Name? ')\n");
    await page.locator('button.run').click();
    await page.locator('.console input.answer').waitFor({ timeout: 10000 });
    await out(page, '\n' + numbered(0, 3000));
    await page.waitForFunction(() => document.querySelector('.console .lines')?.style.height && document.querySelector('.console').innerText.includes('line 2999'), null, { timeout: 10000 });
    const inPage = await page.locator('.console .window .line').count();

    // Copy all: every kept line, though the page holds only those on screen.
    const copy = page.locator('button.copy-all');
    check('the output panel has a Copy all button', (await copy.count()) === 1);
    if (await copy.count()) {
      await copy.click();
      await page.waitForFunction(() => window.__kidcoderFake.copied() !== null, null, { timeout: 10000 });
      const copied = await page.evaluate(() => window.__kidcoderFake.copied());
      const lines = copied.split('\n');
      check('Copy all copies every kept line, not only the rendered ones', lines.includes('line 0') && lines.includes('line 2999') && lines.length >= 3001 && inPage < 200, `${lines.length} lines copied, ${inPage} in the page`);
      check('Copy all says so in the window’s language', await page.locator('.toast').filter({ hasText: 'Copied' }).waitFor({ timeout: 5000 }).then(() => true, () => false));
    }

    // The child scrolls up to read near the top: line 100 or so.
    await page.evaluate(() => {
      const c = document.querySelector('.console');
      c.scrollTop = 2200;
    });
    await settled(page);
    const before = await firstInView(page);
    // A flood: 5,000 more lines, so the lines kept start past the one being read.
    for (let k = 3000; k < 8000; k += 1000) await out(page, numbered(k, k + 1000));
    await page.waitForFunction(() => document.querySelector('.console .notice'), null, { timeout: 10000 });
    await settled(page);
    const after = await firstInView(page);
    check('old lines dropped: the view stays on the line being read', !!before && !!after && after.text === before.text && Math.abs(after.at - before.at) < 2, `${JSON.stringify(before)} → ${JSON.stringify(after)}`);
    await page.screenshot({ path: join(artifacts, 'browser-console-keeps-reading.png') });

    // Text without a newline takes the answer box onto that line, and the
    // newline after it brings the box back below: a box made again takes the
    // typing, and must not pull the view down to itself.
    await out(page, 'still asking: ');
    await page.waitForFunction(() => !document.querySelector('.console input.answer'), null, { timeout: 10000 });
    await out(page, '\n');
    await page.waitForFunction(() => document.querySelector('.console input.answer'), null, { timeout: 10000 });
    await settled(page);
    const asked = await firstInView(page);
    check('an answer box made again leaves the view where it is', !!asked && asked.text === before?.text && Math.abs(asked.at - before.at) < 2, `${JSON.stringify(before)} → ${JSON.stringify(asked)}`);
    check('and it has the typing', await page.evaluate(() => document.activeElement?.classList.contains('answer')));

    // Back at the end, old lines go as usual and Copy all copies what is kept.
    await page.evaluate(() => {
      const c = document.querySelector('.console');
      c.scrollTop = c.scrollHeight;
    });
    await settled(page);
    await out(page, 'the end\n');
    await page.waitForFunction(() => document.querySelector('.console').innerText.includes('the end'), null, { timeout: 10000 });
    if (await copy.count()) {
      await copy.click();
      await page.waitForFunction(() => window.__kidcoderFake.copied()?.includes('the end'), null, { timeout: 10000 });
      const copied = (await page.evaluate(() => window.__kidcoderFake.copied())).split('\n');
      check('following the end again: the last 5,000 lines are kept and copied', copied.length === 5000 && copied[0] === 'line 3002' && copied.at(-1) === 'the end', `${copied.length} lines, ${copied[0]} … ${copied.at(-1)}`);
    }
    check('no page errors', errors.length === 0, errors.join('\n'));
  } finally {
    await browser.close();
    server.close();
    app.cleanup();
  }
  if (!summary()) process.exit(1);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
