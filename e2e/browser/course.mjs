// The course leads on, in headless Chromium over the fake backend (whose
// example course has three exercises, the third with a long name), at
// 800×600 in Chinese and at 1440×900 in English:
//  - the shelf shows every course as a map of its exercises with their
//    stars, every name readable whole;
//  - opening an exercise clears the last drawing and output;
//  - the sidebar shows every exercise name whole (it wraps);
//  - a check's result comes into view however the task was scrolled;
//  - after a success "Next exercise ▶" opens the next one; the task panel's
//    map shows the stars;
//  - Continue opens the first exercise not solved.
// Screenshots of the course map go to test-artifacts/.
//
// Usage: node e2e/browser/course.mjs (builds the frontend itself).

import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { buildApp, checker, launch, openApp, repo, serve, setProgram } from './fake_app.mjs';

const artifacts = join(repo, 'test-artifacts');
mkdirSync(artifacts, { recursive: true });
const { check, summary } = checker();

const SQUARE = 'import turtle\nt = turtle.Turtle()\nfor i in range(4):\n    t.forward(100)\n    t.left(90)\n';
const LONG = { zh: '用循环画一个大大的正方形', en: 'A big square drawn with a loop' };

/** Elements matching selector whose text is cut: wider than their box, or outside the box that clips them. */
const cutText = (page, selector, clipper) =>
  page.evaluate(
    ([selector, clipper]) =>
      [...document.querySelectorAll(selector)]
        .filter((el) => {
          const r = el.getBoundingClientRect();
          if (r.width === 0) return false;
          const c = el.closest(clipper)?.getBoundingClientRect();
          const outside = c && (r.left < c.left - 0.5 || r.right > c.right + 0.5);
          return el.scrollWidth > el.clientWidth + 1 || outside;
        })
        .map((el) => el.textContent),
    [selector, clipper],
  );

/** Whether the element's box is inside the visible part of the scrolling box around it. */
const inView = (page, selector, scroller) =>
  page.evaluate(
    ([selector, scroller]) => {
      const el = document.querySelector(selector);
      const box = el?.closest(scroller);
      if (!el || !box) return false;
      const r = el.getBoundingClientRect();
      const b = box.getBoundingClientRect();
      return r.height > 0 && r.top >= b.top - 1 && r.top < b.bottom - 20;
    },
    [selector, scroller],
  );

async function flow(browser, url, fake, { lang, width, height }) {
  const name = `${width}x${height}-${lang}`;
  const t = (zh, en) => (lang === 'zh' ? zh : en);
  const { page, errors } = await openApp(browser, url, fake, { width, height, fake: { lang } });
  await page.locator('.drawing img').first().waitFor({ timeout: 20000 });

  // The shelf: every course as a map, every exercise with its stars, every name whole.
  await page.locator('.sidebar .courses').click();
  await page.locator('.courses-dialog .course-map').first().waitFor({ timeout: 10000 });
  const stops = await page.locator('.courses-dialog .course').evaluateAll((cs) => cs.map((c) => c.querySelectorAll('.course-map .map-stop').length));
  check(`${name}: each course on the shelf has a map of its exercises`, stops.length === 2 && stops[0] === 3 && stops[1] === 10, JSON.stringify(stops));
  const starsShown = await page.locator('.courses-dialog .map-stop .stars').allInnerTexts();
  check(`${name}: every stop shows its stars`, starsShown.length === 13 && starsShown.every((s) => s === '☆☆☆'), starsShown.join(' '));
  const cutOnShelf = await cutText(page, '.courses-dialog .map-stop .name', '.map-stop');
  check(`${name}: every exercise name on the map can be read whole`, cutOnShelf.length === 0, cutOnShelf.join(' | '));
  const longOnShelf = await page.locator('.courses-dialog .map-stop .name', { hasText: LONG[lang] }).count();
  check(`${name}: the long name is on the map`, longOnShelf === 1);
  await page.screenshot({ path: join(artifacts, `course-map-shelf-new-${name}.png`) });

  // Start: the first exercise opens, and the star demo's picture and output are gone.
  await page.locator('.courses-dialog .course').first().locator('button.add').click();
  await page.locator('.task .check').waitFor({ timeout: 10000 });
  check(`${name}: opening an exercise clears the last drawing`, await page.locator('.drawing .empty').waitFor({ timeout: 10000 }).then(() => true, () => false));
  check(`${name}: and the last output`, (await page.locator('.console .line').count()) === 0 && (await page.locator('.console .box').count()) === 0);

  // The sidebar: every exercise name readable whole.
  await page.locator('.tree .label', { hasText: LONG[lang] }).waitFor({ timeout: 10000 });
  const cutInSidebar = await cutText(page, '.tree .label', '.tree');
  check(`${name}: every name in the sidebar can be read whole`, cutInSidebar.length === 0, cutInSidebar.join(' | '));

  // A wrong answer while the instructions are scrolled down: the result comes into view.
  await page.waitForSelector('.run:not([disabled])', { timeout: 10000 });
  const scrolled = await page.evaluate(() => {
    const s = document.querySelector('.task .scroll');
    s.scrollTop = s.scrollHeight;
    return s.scrollTop;
  });
  await page.locator('.task .check').click();
  await page.locator('.task .results').waitFor({ timeout: 10000 });
  await page.waitForFunction(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(true)))));
  check(`${name}: a check's result is scrolled into view${scrolled > 0 ? '' : ' (the task did not need scrolling)'}`, await inView(page, '.task .results', '.task .scroll'));
  check(`${name}: no next exercise before a success`, (await page.locator('.task button.next-exercise').count()) === 0);

  // A right answer: the celebration and the task offer the next exercise.
  await setProgram(page, SQUARE);
  await page.locator('.task .check').click();
  await page.locator('.party .card').waitFor({ timeout: 10000 });
  check(`${name}: the celebration offers the next exercise`, (await page.locator('.party button.next-exercise').count()) === 1);
  await page.locator('.party button.ok').click();
  check(`${name}: after a success "Next exercise ▶" appears`, await page.locator('.task button.next-exercise').waitFor({ timeout: 10000 }).then(() => true, () => false));
  check(`${name}: the result with it is in view`, await inView(page, '.task button.next-exercise', '.task .scroll'));
  const nextName = await page.locator('.task .next-name').innerText();
  check(`${name}: it names the next exercise`, nextName.includes(t('三角形', 'Triangle')), nextName);

  // The task panel's map: the solved exercise has its stars.
  await page.locator('.task .map-toggle').click();
  await page.locator('.task .course-map').waitFor({ timeout: 10000 });
  check(`${name}: the map asked for comes into view`, await inView(page, '.task .course-map', '.task .scroll'));
  const taskStops = await page.locator('.task .course-map .map-stop').evaluateAll((ss) => ss.map((s) => [s.classList.contains('solved'), s.querySelector('.stars').textContent, s.getAttribute('aria-current')]));
  check(`${name}: the task's map shows the stars won`, JSON.stringify(taskStops) === JSON.stringify([[true, '⭐⭐⭐', 'step'], [false, '☆☆☆', null], [false, '☆☆☆', null]]), JSON.stringify(taskStops));
  await page.screenshot({ path: join(artifacts, `course-map-task-${name}.png`) });

  await page.locator('.task button.next-exercise').click();
  await page.waitForFunction((title) => document.querySelector('[data-panel="editor"] header .title')?.textContent.includes(title), t('三角形', 'Triangle'), { timeout: 10000 });
  check(`${name}: Next opens the next exercise, with no result of the last one`, (await page.locator('.task .results').count()) === 0);

  // Back to exercise 1, then Continue: the first exercise not solved opens.
  await page.locator('.tree .label', { hasText: t('画正方形', 'Draw a square') }).click();
  await page.waitForFunction((title) => document.querySelector('[data-panel="editor"] header .title')?.textContent.includes(title), t('画正方形', 'Draw a square'), { timeout: 10000 });
  await page.locator('.sidebar .courses').click();
  await page.locator('.courses-dialog .course-map').first().waitFor({ timeout: 10000 });
  const shelfStars = await page.locator('.courses-dialog .course').first().locator('.map-stop .stars').allInnerTexts();
  check(`${name}: the shelf's map shows the stars won`, shelfStars.join(' ') === '⭐⭐⭐ ☆☆☆ ☆☆☆', shelfStars.join(' '));
  const nextTag = await page.locator('.courses-dialog .course').first().locator('.map-stop.next .name').innerText();
  check(`${name}: the map marks where the course goes on`, nextTag === t('三角形', 'Triangle'), nextTag);
  await page.screenshot({ path: join(artifacts, `course-map-${name}.png`) });
  const cont = page.locator('.courses-dialog .course').first().locator('button.add');
  check(`${name}: the button says Continue`, (await cont.innerText()).includes(t('接着学', 'Continue')), await cont.innerText());
  await cont.click();
  check(
    `${name}: Continue opens the first exercise not solved, not exercise 1`,
    await page.waitForFunction((title) => document.querySelector('[data-panel="editor"] header .title')?.textContent.includes(title), t('三角形', 'Triangle'), { timeout: 10000 }).then(() => true, () => false),
    await page.locator('[data-panel="editor"] header .title').innerText(),
  );

  // A stop on the shelf's map opens its exercise.
  await page.locator('.sidebar .courses').click();
  await page.locator('.courses-dialog .map-stop', { hasText: LONG[lang] }).click();
  check(
    `${name}: a stop on the map opens its exercise`,
    await page.waitForFunction((title) => document.querySelector('[data-panel="editor"] header .title')?.textContent.includes(title), LONG[lang], { timeout: 10000 }).then(() => true, () => false),
  );
  check(`${name}: no page errors`, errors.length === 0, errors.join('\n'));
  await page.context().close();
}

async function main() {
  const app = await buildApp();
  const server = await serve(app.dir);
  const url = `http://127.0.0.1:${server.address().port}/`;
  const browser = await launch();
  try {
    for (const [width, height] of [
      [800, 600],
      [1440, 900],
    ]) {
      for (const lang of ['zh', 'en']) await flow(browser, url, app.fake, { lang, width, height });
    }
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
