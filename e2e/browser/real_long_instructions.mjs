// A lesson whose NAME.md is 300,000 characters of the texts that froze the
// window (`x * *`, unclosed `[`, mixed marks, a heading line of spaces),
// against the real app (cmd/kidcoder-devserver) in headless Chromium. The
// app reopens it at start, as it reopens the last lesson: the window answers,
// the task panel shows the text's beginning and the note that the rest is
// left out, in English and in Chinese. The time until the note shows is
// printed as a figure, never checked; a screenshot of where the text stops
// goes to test-artifacts/real-long-instructions-en.png.
//
// Usage: node e2e/browser/real_long_instructions.mjs (after make build and
// go build -o build/bin/kidcoder-devserver ./cmd/kidcoder-devserver);
// KIDCODER_DIST serves another build than frontend/dist.

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checker, launch, repo, startDevServer } from './fake_app.mjs';

const artifacts = join(repo, 'test-artifacts');
mkdirSync(artifacts, { recursive: true });
const { check, summary } = checker();

const fill = (s, n) => s.repeat(Math.ceil(n / s.length)).slice(0, n);
const hostile =
  '# A long lesson\n\n' +
  fill('x * ', 100_000) +
  '\n\n' +
  '['.repeat(60_000) +
  '\n\n' +
  fill('a_*[`b](', 80_000) +
  '\n\n# a' +
  ' '.repeat(59_980) +
  'b\n';

async function main() {
  const lessons = mkdtempSync(join(tmpdir(), 'kidcoder-long-lessons-'));
  writeFileSync(join(lessons, 'long.py'), 'print("hi")\n');
  writeFileSync(join(lessons, 'long.md'), hostile);
  mkdirSync(join(lessons, '.kidcoder'));
  writeFileSync(join(lessons, '.kidcoder', 'state.json'), JSON.stringify({ open: 'long.py', startersWritten: true }));
  const dist = process.env.KIDCODER_DIST ? { dist: process.env.KIDCODER_DIST } : {};
  const server = await startDevServer('kidcoder-long-', 10, { ...dist, settings: { lessonsDir: lessons } });
  const browser = await launch();
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    const t0 = Date.now();
    await page.goto(server.url);
    const note = page.locator('.task .cut-note');
    const shown = await note.waitFor({ timeout: 120_000 }).then(() => true, () => false);
    console.log(`figure: the note showed ${Date.now() - t0} ms after the page was asked for (${hostile.length} characters)`);
    check('the last lesson reopens and the panel says its text was cut', shown);
    check('in English', (await note.innerText().catch(() => '')).includes('only the first 50,000 characters are shown'), await note.innerText().catch(() => ''));
    const length = await page.locator('.task .md').evaluate((e) => e.textContent.length).catch(() => -1);
    check('the panel shows the beginning, at most 50,000 characters', length > 40_000 && length <= 50_000, String(length));
    check('the heading is there', (await page.locator('.task .md h3').first().innerText().catch(() => '')) === 'A long lesson');
    // Where the text stops, as the child sees it after scrolling down.
    await note.scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(artifacts, 'real-long-instructions-en.png') });
    // The window still answers: the editor takes keys and the language switches.
    const t1 = Date.now();
    await page.locator('button.lang').click({ timeout: 30_000 }).catch(() => {});
    const zh = await page
      .waitForFunction(() => document.querySelector('.task .cut-note')?.textContent.includes('这里只显示了前 50,000 个字'), null, { timeout: 60_000 })
      .then(() => true, () => false);
    console.log(`figure: switching to Chinese took ${Date.now() - t1} ms`);
    check('in Chinese', zh, await note.innerText().catch(() => ''));
    check('no page errors', errors.length === 0, errors.join('; '));
  } finally {
    await browser.close();
    server.stop();
    rmSync(lessons, { recursive: true, force: true });
  }
  process.exit(summary() ? 0 : 1);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
