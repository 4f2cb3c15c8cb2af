// Visual and layout check of the built frontend in headless Chromium.
//
// By default it serves frontend/dist and defines window.go / window.runtime
// with the fake backend (bundled from src/testing/fakeWailsEntry.ts), the way the
// Wails runtime would. With KIDCODER_URL set it opens that page instead, e.g.
// the Go dev server that wires the real app in: KIDCODER_URL=http://127.0.0.1:PORT/
//
// Screenshots go to tests/out/. Every scenario also checks that nothing spills
// out of the window. Prints "N passed, N failed" and exits non-zero on failure.

import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { build } from 'vite';
import { serve } from '../../e2e/browser/fake_app.mjs';

const here = fileURLToPath(new URL('.', import.meta.url));
const root = resolve(here, '..');
const dist = join(root, 'dist');
const out = join(here, 'out');
const realUrl = process.env.KIDCODER_URL || '';
const chromiumPath = process.env.CHROMIUM || '/usr/bin/chromium';
mkdirSync(out, { recursive: true });

let passed = 0;
let failed = 0;
function check(name, ok, detail = '') {
  if (ok) passed++;
  else failed++;
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${name}${ok || !detail ? '' : `: ${detail}`}`);
}

async function buildFake() {
  const dir = join(here, '.harness');
  await build({
    configFile: false,
    logLevel: 'warn',
    build: {
      outDir: dir,
      emptyOutDir: true,
      lib: { entry: join(root, 'src/testing/fakeWailsEntry.ts'), formats: ['iife'], name: 'KidcoderFake', fileName: () => 'fake-wails.js' },
    },
  });
  return readFileSync(join(dir, 'fake-wails.js'), 'utf8');
}

/** Everything that must stay inside the window, with the rectangles that do not. */
async function spills(page) {
  return page.evaluate(() => {
    const vw = window.innerWidth;
    const vh = window.innerHeight;
    const bad = [];
    const doc = document.documentElement;
    if (doc.scrollWidth > vw || doc.scrollHeight > vh) bad.push(`document ${doc.scrollWidth}x${doc.scrollHeight}`);
    const sel = '.topbar, .runbar, [data-panel], [data-panel] > header, .run, .stop, .sidebar .foot, .task .bar, .modal, .toast, .party .card';
    for (const el of document.querySelectorAll(sel)) {
      const r = el.getBoundingClientRect();
      if (r.width === 0 && r.height === 0) continue;
      if (r.left < -0.5 || r.top < -0.5 || r.right > vw + 0.5 || r.bottom > vh + 0.5) {
        bad.push(`${el.className || el.dataset.panel} ${Math.round(r.left)},${Math.round(r.top)},${Math.round(r.right)},${Math.round(r.bottom)}`);
      }
    }
    // A panel's content must scroll inside it, never push the panel taller than its share.
    for (const body of document.querySelectorAll('[data-panel] > .body')) {
      const panel = body.parentElement.getBoundingClientRect();
      const r = body.getBoundingClientRect();
      if (r.bottom > panel.bottom + 0.5) bad.push(`body of ${body.parentElement.dataset.panel} overflows its panel`);
    }
    return bad;
  });
}

/**
 * Runs of English words the Chinese window shows outside code: what the
 * child types and runs, lesson texts (written in both languages), paths and
 * the technical details for grown-ups are left out, and so are the names
 * the child meets as they are.
 */
async function englishRuns(page) {
  return page.evaluate(() => {
    const skip = 'code, pre, .cm-editor, .console, .md, .path, .tech, .reason, [lang="en"], small, option, .distro, .stage, script, style';
    const allowed = /Kid Coder|English|Python|bubblewrap|turtle|Linux|Ctrl|Shift|Enter|Esc|kidpack|Ms\. Li|[A-Za-z]:[\\/]\S*|\/\S+|v?\d[\w.]*|\b(?:KB|MB|GB)\b/g;
    const runs = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const el = n.parentElement;
      if (!el || el.closest(skip)) continue;
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0 || getComputedStyle(el).visibility === 'hidden') continue;
      const text = n.textContent.replace(allowed, ' ');
      const m = text.match(/[A-Za-z]{2,}(?:[\s,.'’-]+[A-Za-z]{2,}){2,}/);
      if (m) runs.push(`${el.className || el.tagName}: ${m[0]}`);
    }
    const attrs = [...document.querySelectorAll('[title], [aria-label], [placeholder]')].flatMap((el) =>
      ['title', 'aria-label', 'placeholder'].map((a) => el.getAttribute(a) ?? '').filter((v) => /[A-Za-z]{2,}(?:[\s,.'’-]+[A-Za-z]{2,}){2,}/.test(v.replace(allowed, ' '))),
    );
    return [...runs, ...attrs.map((a) => `attribute: ${a}`)];
  });
}

/** In the Chinese window, checks that nothing reads as untranslated English. */
async function checkChinese(page, name) {
  if (!name.startsWith('zh')) return;
  const runs = await englishRuns(page);
  check(`${name}: no English left in the Chinese window`, runs.length === 0, runs.join('; '));
}

async function setCode(page, code) {
  await page.click('.cm-content');
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Delete');
  // insertText avoids auto-indent and bracket closing doubling what we type
  await page.keyboard.insertText(code);
}

const browser = await chromium.launch({
  executablePath: chromiumPath,
  args: ['--no-sandbox', '--disable-gpu', '--headless'],
});
let server = null;
let fake = '';
let base = realUrl;
if (!realUrl) {
  if (!existsSync(join(dist, 'index.html'))) throw new Error('build the frontend first: npm run build');
  fake = await buildFake();
  server = await serve(dist);
  base = `http://127.0.0.1:${server.address().port}/`;
}

async function open(lang, width, height, fakeOpts = {}) {
  const context = await browser.newContext({ viewport: { width, height }, deviceScaleFactor: 1 });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  if (fake) {
    await page.addInitScript(`window.__KIDCODER_FAKE__ = ${JSON.stringify({ lang, ...fakeOpts })};`);
    await page.addInitScript(fake);
  }
  await page.goto(base);
  if (!fake) {
    // Real backend: pick the language through the UI if it differs.
    await page.waitForSelector('.topbar');
    const isZh = await page.evaluate(() => document.documentElement.lang === 'zh-CN');
    if (isZh !== (lang === 'zh')) await page.click('.topbar button:has-text("🌐")');
  }
  return { context, page, errors };
}

const sizes = [
  [800, 600],
  [1024, 768],
  [1440, 900],
];

try {
  for (const lang of ['zh', 'en']) {
    for (const [w, h] of sizes) {
      const name = `${lang}-${w}x${h}`;
      const { context, page, errors } = await open(lang, w, h);
      const star = await page.waitForSelector('.stage img', { timeout: 10000 }).then(() => true, () => false);
      check(`${name}: star demo picture appears`, star);
      await page.waitForSelector('.elapsed', { timeout: 10000 }).catch(() => {});
      await page.screenshot({ path: join(out, `${name}-start.png`) });
      await checkChinese(page, `${name} start`);
      const bad = await spills(page);
      check(`${name}: nothing spills at start`, bad.length === 0, bad.join('; '));
      check(`${name}: no page errors`, errors.length === 0, errors.join('; '));
      await context.close();
    }
  }

  for (const lang of ['zh', 'en']) {
    for (const [w, h] of [[800, 600], [1440, 900]]) {
      const name = `${lang}-${w}x${h}`;
      const { context, page } = await open(lang, w, h);
      await page.waitForSelector('.stage img', { timeout: 10000 }).catch(() => {});
      await page.waitForSelector('.elapsed', { timeout: 10000 }).catch(() => {});

      // input() then an error: the prompt stays, the answer is echoed, the line is highlighted.
      const prompt = lang === 'zh' ? '你叫什么名字？' : 'What is your name? ';
      await setCode(page, `name = input("${prompt}")\nprint("hello")\nx = 1 / 0\n`);
      await page.click('.run');
      const asked = await page.waitForSelector('.console input.answer', { timeout: 10000 }).then(() => true, () => false);
      check(`${name}: input box appears`, asked);
      await page.screenshot({ path: join(out, `${name}-input.png`) });
      await page.keyboard.type('小明 Ada');
      await page.keyboard.press('Enter');
      const errBox = await page.waitForSelector('.box.error', { timeout: 10000 }).then(() => true, () => false);
      check(`${name}: friendly error box`, errBox);
      const consoleText = await page.textContent('.console .lines');
      check(`${name}: prompt and answer stay in the console`, consoleText.includes(prompt.trim()) && consoleText.includes('小明 Ada'), consoleText);
      const marked = await page.textContent('.cm-error-line').catch(() => null);
      check(`${name}: error line highlighted`, marked === 'x = 1 / 0', String(marked));
      await page.screenshot({ path: join(out, `${name}-error.png`) });
      await checkChinese(page, `${name} error`);
      const hintTop = await page.evaluate(() => {
        const box = document.querySelector('.box.error').getBoundingClientRect();
        const pane = document.querySelector('.console').getBoundingClientRect();
        return box.top >= pane.top - 1;
      });
      check(`${name}: the error box's first line is in view`, hintTop);
      let bad = await spills(page);
      check(`${name}: nothing spills with an error`, bad.length === 0, bad.join('; '));

      // A flood of output stays inside its panel, is capped, and only the lines on screen are in the page.
      await setCode(page, 'for i in range(30000):\n    print(i)\n');
      await page.click('.run');
      await page.waitForSelector('.elapsed', { timeout: 20000 });
      const lines = await page.locator('.console .line').count();
      check(`${name}: flood: only the visible lines are in the page`, lines > 0 && lines <= 150, `${lines} lines`);
      check(`${name}: flood notice`, (await page.locator('.console .notice').count()) === 1);
      const last = await page.locator('.console .line').last().textContent();
      check(`${name}: flood shows the last line`, last === '29999', String(last));
      await page.screenshot({ path: join(out, `${name}-flood.png`) });
      bad = await spills(page);
      check(`${name}: nothing spills after a flood`, bad.length === 0, bad.join('; '));

      // Collapsing panels keeps their headers and the run bar on screen.
      await page.click('[data-panel="console"] .toggle');
      await page.click('[data-panel="drawing"] .toggle');
      await page.screenshot({ path: join(out, `${name}-collapsed.png`) });
      bad = await spills(page);
      check(`${name}: nothing spills with panels collapsed`, bad.length === 0, bad.join('; '));
      await page.click('[data-panel="editor"] .toggle');
      bad = await spills(page);
      check(`${name}: nothing spills with the left column collapsed`, bad.length === 0, bad.join('; '));
      await page.screenshot({ path: join(out, `${name}-left-collapsed.png`) });
      await context.close();
    }
  }

  if (fake) {
    // The lessons sidebar and an exercise pack, from import to the celebration.
    for (const lang of ['zh', 'en']) {
      for (const [w, h] of [[800, 600], [1440, 900]]) {
        const name = `${lang}-${w}x${h}`;
        const { context, page, errors } = await open(lang, w, h);
        await page.waitForSelector('.stage img', { timeout: 10000 }).catch(() => {});
        const current = await page.textContent('.line.current .label').catch(() => null);
        check(`${name}: the star lesson is open in the sidebar`, current === '1 star', String(current));
        const md = await page.locator('[data-panel="task"] .md h3').count();
        check(`${name}: its instructions are rendered`, md > 0);
        check(`${name}: instructions hold no links or images`, (await page.locator('.md a, .md img, .md script').count()) === 0);
        await page.screenshot({ path: join(out, `${name}-sidebar.png`) });
        await checkChinese(page, `${name} sidebar`);
        let bad = await spills(page);
        check(`${name}: nothing spills with the sidebar`, bad.length === 0, bad.join('; '));

        // Another lesson: its code replaces the editor's.
        await page.click('.tree .name:has-text("2 flower")');
        await page.waitForFunction(() => document.querySelector('.cm-content')?.textContent.includes('range(36)'), null, { timeout: 5000 });
        check(`${name}: opening a lesson loads its code`, true);

        // Delete it, then Undo from the toast.
        await page.click('.line.current .more');
        await page.click('.actions .danger');
        await page.waitForSelector('.toast .action', { timeout: 5000 });
        const gone = await page.locator('.tree .name:has-text("2 flower")').count();
        check(`${name}: deleted lesson leaves the tree`, gone === 0);
        await page.screenshot({ path: join(out, `${name}-deleted.png`) });
        await page.click('.toast .action');
        const back = await page.waitForSelector('.tree .name:has-text("2 flower")', { timeout: 5000 }).then(() => true, () => false);
        check(`${name}: Undo brings it back`, back);

        // Import a pack through the button: preview, then import.
        await page.click('.sidebar .pack');
        await page.waitForSelector('.pack-dialog', { timeout: 5000 });
        await page.screenshot({ path: join(out, `${name}-pack-preview.png`) });
        await checkChinese(page, `${name} pack preview`);
        bad = await spills(page);
        check(`${name}: nothing spills with the pack preview`, bad.length === 0, bad.join('; '));
        await page.click('.pack-dialog .btn-primary');
        const checkBtn = await page.waitForSelector('.task .check', { timeout: 5000 }).then(() => true, () => false);
        check(`${name}: the imported exercise opens with a check button`, checkBtn);
        await page.waitForSelector('.run:not([disabled])', { timeout: 10000 });

        // A wrong answer: checks not yet passed, then a hint.
        await page.click('.task .check');
        await page.waitForSelector('.task .results', { timeout: 5000 });
        const notYet = await page.locator('.task .results li:not(.ok)').count();
        check(`${name}: a wrong answer shows checks not yet passed`, notYet > 0);
        await page.click('.task .hint');
        const hint = await page.waitForSelector('.task .hint-text', { timeout: 5000 }).then(() => true, () => false);
        check(`${name}: a hint is revealed`, hint);
        await page.screenshot({ path: join(out, `${name}-check.png`) });
        await checkChinese(page, `${name} check`);
        bad = await spills(page);
        check(`${name}: nothing spills with check results`, bad.length === 0, bad.join('; '));

        // A right answer: every check passes and the celebration shows.
        await setCode(page, 'import turtle\nt = turtle.Turtle()\nfor i in range(4):\n    t.forward(100)\n    t.left(90)\n');
        await page.click('.task .check');
        const party = await page.waitForSelector('.party .card', { timeout: 5000 }).then(() => true, () => false);
        check(`${name}: all checks passed celebrates`, party);
        check(`${name}: every check shows a star`, (await page.locator('.task .results li.ok').count()) === 3);
        await page.screenshot({ path: join(out, `${name}-celebrate.png`) });
        await page.click('.party .card');

        // The progress view for parents and teachers.
        await page.click('.sidebar .foot .progress');
        await page.waitForSelector('.progress-dialog table', { timeout: 5000 });
        const row = await page.textContent('.progress-dialog tbody tr');
        check(`${name}: progress lists the exercise solved`, row.includes('1 / 3'), row);
        await page.screenshot({ path: join(out, `${name}-progress.png`) });
        await checkChinese(page, `${name} progress`);
        bad = await spills(page);
        check(`${name}: nothing spills with the progress view`, bad.length === 0, bad.join('; '));
        await page.click('.progress-dialog .btn-primary');

        // A dropped .kidpack opens the same preview.
        await page.evaluate(() => window.__kidcoderDrop(['/home/kid/Downloads/shapes.kidpack']));
        const dropped = await page.waitForSelector('.pack-dialog', { timeout: 5000 }).then(() => true, () => false);
        check(`${name}: a dropped pack is previewed`, dropped);
        await page.keyboard.press('Escape');

        // The sidebar folds to a strip and comes back.
        await page.click('[data-panel="lessons"] .toggle');
        bad = await spills(page);
        check(`${name}: nothing spills with the sidebar folded`, bad.length === 0, bad.join('; '));
        await page.screenshot({ path: join(out, `${name}-sidebar-folded.png`) });
        check(`${name}: no page errors with lessons and packs`, errors.length === 0, errors.join('; '));
        await context.close();
      }
    }

    // A first start offers the course shelf; one click adds a course and opens its first exercise.
    for (const lang of ['zh', 'en']) {
      for (const [w, h] of [[800, 600], [1440, 900]]) {
        const name = `${lang}-${w}x${h}`;
        const { context, page, errors } = await open(lang, w, h, { firstStart: true });
        const shelf = await page.waitForSelector('.courses-dialog .course', { timeout: 10000 }).then(() => true, () => false);
        check(`${name}: a first start opens the course shelf`, shelf);
        await page.screenshot({ path: join(out, `${name}-courses.png`) });
        await checkChinese(page, `${name} courses`);
        const bad = await spills(page);
        check(`${name}: nothing spills with the course shelf`, bad.length === 0, bad.join('; '));
        await page.click('.courses-dialog .course >> nth=0 >> .add');
        const opened = await page.waitForSelector('.task .check', { timeout: 5000 }).then(() => true, () => false);
        check(`${name}: one click adds the course and opens its first exercise`, opened && (await page.locator('.courses-dialog').count()) === 0);
        const label = await page.textContent('.line.current .label').catch(() => null);
        check(`${name}: the exercise is listed by its title`, label === (lang === 'zh' ? '画正方形' : 'Draw a square'), String(label));
        await page.click('.sidebar .courses');
        const progress = await page.waitForSelector('.courses-dialog .meta:has-text("/")', { timeout: 5000 }).then(() => true, () => false);
        check(`${name}: the shelf shows the added course's progress`, progress);
        await page.screenshot({ path: join(out, `${name}-courses-progress.png`) });
        await page.click('.courses-dialog .later');
        check(`${name}: no page errors with the course shelf`, errors.length === 0, errors.join('; '));
        await context.close();
      }
    }

    // A lessons folder that is gone: say so and offer another.
    for (const lang of ['zh', 'en']) {
      const { context, page } = await open(lang, 800, 600, { lessonsMissing: true });
      const shown = await page.waitForSelector('.sidebar .problem', { timeout: 10000 }).then(() => true, () => false);
      check(`${lang}: missing folder explained`, shown);
      check(`${lang}: missing folder offers another`, (await page.locator('.sidebar .problem button').count()) === 2);
      const star = await page.waitForSelector('.stage img', { timeout: 10000 }).then(() => true, () => false);
      check(`${lang}: the built-in star still runs without a folder`, star);
      await page.screenshot({ path: join(out, `${lang}-800x600-no-folder.png`) });
      await context.close();
    }

    for (const lang of ['zh', 'en']) {
      const { context, page } = await open(lang, 800, 600, { broken: true, settingsWarning: 'settings.json: unexpected end of JSON input' });
      const banner = await page.waitForSelector('.banner', { timeout: 10000 }).then(() => true, () => false);
      check(`${lang}: broken sandbox banner`, banner);
      check(`${lang}: run disabled without a sandbox`, await page.isDisabled('.run'));
      await page.screenshot({ path: join(out, `${lang}-800x600-broken.png`) });
      await checkChinese(page, `${lang}-800x600 broken`);
      await page.click('.open-settings');
      await page.waitForSelector('.dialog');
      await page.screenshot({ path: join(out, `${lang}-800x600-settings.png`) });
      await checkChinese(page, `${lang}-800x600 settings`);
      const bad = await spills(page);
      check(`${lang}: nothing spills with the banner and settings`, bad.length === 0, bad.join('; '));
      // Closing with a change asks before the change is thrown away.
      await page.fill('.dialog input[type="number"] >> nth=0', '24');
      await page.click('.dialog .buttons .close');
      const asked = await page.waitForSelector('.dialog .unsaved', { timeout: 3000 }).then(() => true, () => false);
      check(`${lang}: closing the settings with a change asks first`, asked && (await page.locator('.dialog').count()) === 1);
      await page.screenshot({ path: join(out, `${lang}-800x600-settings-unsaved.png`) });
      await page.click('.dialog .unsaved .keep');
      check(`${lang}: keep changing keeps the change`, (await page.inputValue('.dialog input[type="number"] >> nth=0')) === '24');
      await page.click('.dialog .buttons .close');
      await page.click('.dialog .unsaved .discard');
      check(`${lang}: close without saving closes`, (await page.locator('.dialog').count()) === 0);
      await context.close();
    }

    // The replay, half way.
    const { context, page } = await open('en', 1024, 768);
    await page.waitForSelector('.stage img', { timeout: 10000 });
    await page.click('.watch');
    const canvas = await page.waitForSelector('.stage canvas', { timeout: 5000 }).then(() => true, () => false);
    check('replay canvas shows', canvas);
    await page.waitForTimeout(350);
    await page.screenshot({ path: join(out, 'en-1024x768-replay.png') });
    const back = await page.waitForSelector('.stage img', { timeout: 20000 }).then(() => true, () => false);
    check('replay ends with the final picture', back);
    await context.close();
  }
} finally {
  await browser.close();
  server?.close();
}

console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
