// The built-in course against the real app and sandbox (cmd/kidcoder-devserver),
// in headless Chromium: start "Turtle shapes" from the shelf, solve the first
// two exercises with their real checks, going on with "Next exercise ▶";
// the shelf's map then shows three stars on each and marks the third as
// next, and Continue opens it. Screenshots of the course map at 800×600 and
// 1440×900, in Chinese and English, go to test-artifacts/real-course-map-*.png.
//
// Usage: node e2e/browser/real_course.mjs (after make build and
// go build -o build/bin/kidcoder-devserver ./cmd/kidcoder-devserver).

import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { checker, launch, repo, setProgram, startDevServer } from './fake_app.mjs';

const artifacts = join(repo, 'test-artifacts');
mkdirSync(artifacts, { recursive: true });
const { check, summary } = checker();

const CORNER = 'import turtle\n\nturtle.forward(100)\nturtle.left(90)\nturtle.forward(100)\n';
const SQUARE = 'import turtle\n\n' + 'turtle.forward(100)\nturtle.left(90)\n'.repeat(4);

const editorTitle = (page) => page.locator('[data-panel="editor"] header .title').innerText();
const titleIs = (page, text) =>
  page.waitForFunction((t) => document.querySelector('[data-panel="editor"] header .title')?.textContent.includes(t), text, { timeout: 30000 }).then(() => true, () => false);

async function solve(page, code, name) {
  await setProgram(page, code);
  await page.locator('.task .check:not([disabled])').click();
  const passed = await page.locator('.task .results.passed').waitFor({ timeout: 60000 }).then(() => true, () => false);
  check(`${name}: the real checks pass`, passed, await page.locator('.task').innerText().catch(() => ''));
  await page.locator('.party button.ok').click({ timeout: 10000 }).catch(() => {});
}

async function shelfShot(page, width, height, lang) {
  await page.setViewportSize({ width, height });
  // The map, not a toast over it.
  if (await page.locator('.toast').count()) await page.locator('.toast button[aria-label="×"]').click();
  await page.locator('.sidebar .courses').click();
  await page.locator('.courses-dialog .course-map').first().waitFor({ timeout: 10000 });
  await page.waitForFunction(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(true)))));
  await page.screenshot({ path: join(artifacts, `real-course-map-${width}x${height}-${lang}.png`) });
}

async function main() {
  const server = await startDevServer('kidcoder-course-', 20);
  const browser = await launch();
  try {
    const context = await browser.newContext({ viewport: { width: 800, height: 600 } });
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(server.url);
    await page.locator('button.run:not([disabled])').waitFor({ timeout: 60000 });

    await page.locator('.sidebar .courses').click();
    const shapes = page.locator('.courses-dialog .course[data-course="turtle-shapes"]');
    await shapes.locator('.course-map').waitFor({ timeout: 10000 });
    check('the shelf maps Turtle shapes with its ten exercises', (await shapes.locator('.map-stop').count()) === 10);
    await shapes.locator('button.add').click();
    check('Start opens the first exercise', await titleIs(page, 'Turn a corner'), await editorTitle(page));

    await solve(page, CORNER, 'Turn a corner');
    const next = page.locator('.task button.next-exercise');
    check('after a success "Next exercise ▶" appears', await next.waitFor({ timeout: 10000 }).then(() => true, () => false));
    await next.click();
    check('it opens the second exercise', await titleIs(page, 'Draw a square'), await editorTitle(page));
    check('with the last drawing cleared', await page.locator('.drawing .empty').waitFor({ timeout: 10000 }).then(() => true, () => false));
    await solve(page, SQUARE, 'Draw a square');

    // Back to the first exercise, then the shelf: its map and Continue.
    await page.locator('.tree .label', { hasText: 'Turn a corner' }).click();
    await titleIs(page, 'Turn a corner');
    await page.locator('.sidebar .courses').click();
    await shapes.locator('.course-map').waitFor({ timeout: 10000 });
    const stars = await shapes.locator('.map-stop .stars').allInnerTexts();
    check('the map shows the stars won', stars.slice(0, 3).join(' ') === '⭐⭐⭐ ⭐⭐⭐ ☆☆☆', stars.join(' '));
    check('and marks where the course goes on', (await shapes.locator('.map-stop.next .name').innerText()) === 'A square with a loop');
    await page.keyboard.press('Escape');

    for (const [w, h] of [
      [800, 600],
      [1440, 900],
    ]) {
      await shelfShot(page, w, h, 'en');
      await page.keyboard.press('Escape');
    }
    await page.locator('.topbar button', { hasText: '🌐' }).click();
    await page.waitForFunction(() => document.documentElement.lang === 'zh-CN');
    for (const [w, h] of [
      [800, 600],
      [1440, 900],
    ]) {
      await shelfShot(page, w, h, 'zh');
      await page.keyboard.press('Escape');
    }

    await page.locator('.sidebar .courses').click();
    await shapes.locator('button.add').click();
    check('Continue opens the first exercise not solved', await titleIs(page, '用循环画正方形'), await editorTitle(page));
    check('no page errors', errors.length === 0, errors.join('\n'));
    await context.close();
  } finally {
    await browser.close();
    server.stop();
  }
  if (!summary()) process.exit(1);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
