// "👣 Step by step" and the speed dial in headless Chromium against the
// built frontend wired to the real Go app and sandbox (cmd/kidcoder-devserver).
//
// Step by step: a program with input(), a loop, recursion, a turtle drawing
// and an error at the end is recorded (the answer typed during the
// recording), then stepped forward to its end and back to its start with
// the keys; at every step the highlighted line, the variables, the calls,
// the console and the drawing must be the same going back as going
// forward, and the scrubber lands on the same states. Screenshots at
// 800×600 and 1440×900 in Chinese and English, each checked to fit.
//
// ⏸ on a game with a timer: the ticks stand still, keys do not reach it,
// ▶ goes on, and Stop ends it while paused.
//
// The speed dial on a slow drawing: the draw frames the program sends
// carry each step's time, so the dial is checked on them (CPython's time
// before it moved, a quarter of it after ×4), and ⏭ on every step after it
// taking no time and the drawing finishing; never on the wall clock.
//
// Usage: node e2e/browser/real_steps.mjs (from the repository root, after
// make build; KIDCODER_DEVSERVER names another dev server binary). It builds
// the frontend into a folder of its own. Prints one line per check and exits
// non-zero on any failure. Screenshots go to test-artifacts/.

import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { buildApp, checker, launch, repo, setProgram, startDevServer } from './fake_app.mjs';

const artifacts = join(repo, 'test-artifacts');
mkdirSync(artifacts, { recursive: true });
const { check, summary } = checker();

const STEPS_PROGRAM = [
  'import turtle', //  1
  't = turtle.Turtle()', //  2
  't.speed(3)', //  3
  'name = input("你叫什么名字？")', //  4
  '', //  5
  'def fact(n):', //  6
  '    if n <= 1:', //  7
  '        return 1', //  8
  '    return n * fact(n - 1)', //  9
  '', // 10
  'for i in range(4):', // 11
  '    t.forward(80)', // 12
  '    t.left(90)', // 13
  '    print(name, i)', // 14
  'print("fact", fact(4))', // 15
  'x = 10 / (i - 3)', // 16
].join('\n');

// About 43 s at CPython's own pace.
const SLOW_PROGRAM = [
  'import turtle',
  't = turtle.Turtle()',
  't.speed(1)',
  't.pencolor("red")',
  't.pensize(4)',
  'for i in range(36):',
  '    t.forward(200)',
  '    t.left(170)',
  'print("drawn")',
].join('\n');
/** A forward(200) at speed 1 is 1 + ⌊200 / 3.3⌋ = 61 updates of 10 ms. */
const MOVE_MS = 610;

/** Everything step by step shows at the step it is at. */
function stepState(page) {
  return page.evaluate(() => {
    const text = (sel) => document.querySelector(sel)?.textContent ?? null;
    const canvas = document.querySelector('[data-draw] canvas');
    let ink = '';
    if (canvas && canvas.width) {
      const data = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
      let h = 0;
      for (let i = 0; i < data.length; i += 4) h = (h * 31 + data[i] + 7 * data[i + 1] + 13 * data[i + 2]) | 0;
      ink = String(h);
    }
    return {
      count: text('.stepbar .count'),
      line: text('.cm-step-line'),
      error: text('.cm-step-error'),
      status: text('.vars .status'),
      calls: [...document.querySelectorAll('.vars .card')].map((c) => c.dataset.func),
      vars: [...document.querySelectorAll('.vars .card.current tr')].map((tr) => [
        tr.querySelector('th').textContent,
        tr.querySelector('td').textContent,
        tr.classList.contains('changed'),
      ]),
      outer: [...document.querySelectorAll('.vars .card:not(.current) > header .outer')].map((o) => o.textContent),
      console: document.querySelector('.step-console')?.innerText ?? null,
      draw: document.querySelector('[data-draw]')?.getAttribute('data-draw') ?? null,
      ink,
    };
  });
}

const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

/** Everything that must stay inside the window. */
function spills(page) {
  return page.evaluate(() => {
    const vw = window.innerWidth;
    const vh = window.innerHeight;
    const bad = [];
    const doc = document.documentElement;
    if (doc.scrollWidth > vw || doc.scrollHeight > vh) bad.push(`document ${doc.scrollWidth}x${doc.scrollHeight}`);
    for (const el of document.querySelectorAll('.topbar, .runbar, .stepbar, .stepbar *, [data-panel], [data-panel] > header')) {
      const r = el.getBoundingClientRect();
      if (r.width === 0 && r.height === 0) continue;
      if (r.left < -0.5 || r.top < -0.5 || r.right > vw + 0.5 || r.bottom > vh + 0.5) bad.push(`${el.className || el.tagName} ${Math.round(r.right)},${Math.round(r.bottom)}`);
    }
    // The bars' buttons stay inside their bar (the column would hide what passes it).
    for (const bar of document.querySelectorAll('.runbar, .stepbar')) {
      const b = bar.getBoundingClientRect();
      for (const el of bar.querySelectorAll('button, input, .count')) {
        const r = el.getBoundingClientRect();
        if (r.width && (r.left < b.left - 0.5 || r.right > b.right + 0.5)) bad.push(`${el.className} passes its bar (${Math.round(r.right)} > ${Math.round(b.right)})`);
      }
    }
    for (const body of document.querySelectorAll('[data-panel] > .body')) {
      const panel = body.parentElement.getBoundingClientRect();
      if (body.getBoundingClientRect().bottom > panel.bottom + 0.5) bad.push(`body of ${body.parentElement.dataset.panel} overflows its panel`);
    }
    // The step's line and the call it is in are in view.
    for (const sel of ['.cm-step-line', '.vars .card.current']) {
      const el = document.querySelector(sel);
      const box = el?.closest('.cm-scroller, [data-panel] > .body');
      if (el && box) {
        const r = el.getBoundingClientRect();
        const b = box.getBoundingClientRect();
        if (r.top < b.top - 0.5 || r.bottom > b.bottom + 0.5) bad.push(`${sel} out of view`);
      }
    }
    return bad;
  });
}

async function seek(page, i) {
  await page.locator('.stepbar .scrubber').evaluate((el, v) => {
    el.value = String(v);
    el.dispatchEvent(new Event('input', { bubbles: true }));
  }, i);
}

async function stepByStep(page) {
  await setProgram(page, STEPS_PROGRAM);
  await page.locator('button.steps').click();
  // The recording runs live: input() asks in the console, as in any run.
  await page.locator('input.answer').waitFor({ timeout: 30000 });
  await page.locator('input.answer').fill('小明');
  await page.locator('input.answer').press('Enter');
  const opened = await page.locator('.stepbar').waitFor({ timeout: 30000 }).then(() => true, () => false);
  check('the recording opens step by step', opened);
  if (!opened) return;
  await page.locator('.cm-content').click();

  const first = await stepState(page);
  const total = Number(first.count.split('/')[1]);
  check('it starts at the first line, with nothing printed or drawn yet',
    first.line === 'import turtle' && first.count.startsWith('1 /') && first.console === '' && first.draw === '0' && first.calls.length === 1,
    JSON.stringify(first));

  // Forward with → to the end, keeping every state.
  const states = [first];
  for (let i = 1; i < total; i++) {
    await page.keyboard.press('ArrowRight');
    states.push(await stepState(page));
  }
  check('→ goes one step at a time to the end', states.every((s, i) => s.count === `${i + 1} / ${total}`), states.map((s) => s.count).join(' '));

  const afterInput = states.find((s) => s.line === 'def fact(n):');
  check('the answer typed while recording is in the console, and the new name is marked as changed',
    !!afterInput && afterInput.console.includes('你叫什么名字？小明') && afterInput.vars.some(([n, v, ch]) => n === 'name' && v === "'小明'" && ch),
    JSON.stringify(afterInput));

  const firstPrint = states.findIndex((s) => s.line === '    print(name, i)');
  const p = states[firstPrint];
  check('in the loop: the line, i, what the loop has printed and the drawing so far',
    !!p && p.vars.some(([n, v]) => n === 'i' && v === '0') && !p.console.includes('小明 0') && Number(p.draw) > 0,
    JSON.stringify(p));
  const next = states[firstPrint + 1];
  check('the print shows once its line has run', !!next && next.console.includes('小明 0'), JSON.stringify(next));
  check('the drawing grows as the steps go', Number(states[firstPrint + 4]?.draw) > Number(p?.draw) && states[firstPrint + 4].ink !== p.ink,
    `${p?.draw} → ${states[firstPrint + 4]?.draw}`);

  const deepest = states.reduce((best, s, i) => (s.calls.length > states[best].calls.length ? i : best), 0);
  const d = states[deepest];
  check('recursion shows as cards inside cards, each call with its own n',
    same(d.calls, ['<module>', 'fact', 'fact', 'fact', 'fact']) && same(d.vars.map(([n, v]) => [n, v]), [['n', '1']]) && same(d.outer.slice(1), ['n=4', 'n=3', 'n=2']),
    JSON.stringify(d));
  const ret = states.find((s) => /gives back 6|返回 6/.test(s.status ?? ''));
  check('a return says what the call gives back', !!ret, states.map((s) => s.status).join(' | '));

  const end = states[total - 1];
  check('the last step is the error, at its line, with the friendly message',
    end.error === 'x = 10 / (i - 3)' && /line 16/.test(end.status) && /0/.test(end.console) && end.console.includes('fact 24'),
    JSON.stringify(end));
  const box = await page.locator('.step-console .box.error').innerText().catch(() => '');
  check('the console ends with the friendly explanation', /line 16/.test(box) && box.length > 20, box);

  // Back with ← to the start: every state as it was going forward.
  const back = [];
  for (let i = total - 1; i > 0; i--) {
    await page.keyboard.press('ArrowLeft');
    back.push([i - 1, await stepState(page)]);
  }
  const differ = back.filter(([i, s]) => !same(s, states[i]));
  check('← rewinds line, variables, calls, output and drawing together, exactly as they were',
    differ.length === 0, differ.slice(0, 2).map(([i, s]) => `step ${i + 1}: ${JSON.stringify(s)} ≠ ${JSON.stringify(states[i])}`).join('\n'));

  // The scrubber lands on the same states, in any order.
  const order = [deepest, total - 1, 0, firstPrint, Math.floor(total / 2), deepest - 3, 5];
  let scrubbedOk = true;
  for (const i of order) {
    await seek(page, i);
    const s = await stepState(page);
    if (!same(s, states[i])) {
      scrubbedOk = false;
      check(`the scrubber at step ${i + 1}`, false, `${JSON.stringify(s)} ≠ ${JSON.stringify(states[i])}`);
    }
  }
  check('the scrubber goes anywhere in the run and shows the same state as the steps did', scrubbedOk);

  // The output panel's tools act on the output at the step: Copy all copies
  // it (not the whole run's), and there is nothing to clear.
  await seek(page, firstPrint + 1);
  await page.evaluate(() => {
    window.__copied = null;
    window.runtime.ClipboardSetText = async (text) => {
      window.__copied = text;
      return true;
    };
  });
  await page.locator('button.copy-all').click();
  const copied = await page.waitForFunction(() => window.__copied, null, { timeout: 5000 }).then((h) => h.jsonValue(), () => null);
  check('Copy all copies the output as it was at the step',
    typeof copied === 'string' && copied.includes('你叫什么名字？小明') && copied.includes('小明 0') && !copied.includes('小明 1'), JSON.stringify(copied));
  check('step by step has no Clear for its recorded output',
    (await page.locator('.panel button', { hasText: /^(Clear|清空)$/ }).count()) === 0);

  // ▶ plays on by itself, ⏸ stops it; Home and End.
  await page.locator('.cm-content').click();
  await page.keyboard.press('Home');
  check('Home goes to the first step', (await stepState(page)).count === `1 / ${total}`);
  await page.keyboard.press('Space');
  const played = await page.waitForFunction(() => !document.querySelector('.stepbar .count')?.textContent.startsWith('1 /'), null, { timeout: 10000 }).then(() => true, () => false);
  await page.keyboard.press('Space');
  check('Space plays the steps and pauses them', played && (await page.locator('.step-play.playing').count()) === 0);
  await page.keyboard.press('End');
  check('End goes to the last step', (await stepState(page)).count === `${total} / ${total}`);
  return { deepest, total };
}

async function screenshots(page, at) {
  const shots = [];
  for (const [w, h] of [[1440, 900], [800, 600]]) {
    for (const lang of ['en', 'zh']) {
      await page.setViewportSize({ width: w, height: h });
      const toZh = lang === 'zh' && (await page.locator('button', { hasText: '中文' }).count()) > 0;
      const toEn = lang === 'en' && (await page.locator('button', { hasText: 'English' }).count()) > 0;
      if (toZh) await page.locator('button', { hasText: '中文' }).click();
      if (toEn) await page.locator('button', { hasText: 'English' }).click();
      for (const [what, i] of [['calls', at.deepest], ['error', at.total - 1]]) {
        await seek(page, i);
        await page.waitForTimeout(100); // the canvas repaints on its ResizeObserver's frame
        const name = `steps-${lang}-${w}x${h}-${what}.png`;
        await page.screenshot({ path: join(artifacts, name) });
        shots.push(name);
        const bad = await spills(page);
        check(`${lang} ${w}×${h} ${what}: step by step fits the window`, bad.length === 0, bad.join('; '));
      }
    }
  }
  await page.locator('button', { hasText: 'English' }).click();
  await page.setViewportSize({ width: 1280, height: 820 });
  return shots;
}

async function leave(page) {
  await page.locator('.cm-content').click();
  await page.keyboard.press('Escape');
  const left = await page.locator('.stepbar').waitFor({ state: 'detached', timeout: 5000 }).then(() => true, () => false);
  check('Esc leaves step by step: Run is back and no line is highlighted',
    left && (await page.locator('button.run').isVisible()) && (await page.locator('.cm-step-line').count()) === 0);
}

/** The moves of the draw frames the window has heard this run, with their times. */
const moves = (page) => page.evaluate(() => window.__moves);

/** The run bar with 👣 and the dial, idle and while a drawing runs, at 800×600 in both languages. */
async function runBarFits(page, when) {
  for (const lang of ['zh', 'en']) {
    await page.locator('button', { hasText: lang === 'zh' ? '中文' : 'English' }).click();
    const name = `steps-${lang}-800x600-runbar-${when}.png`;
    await page.screenshot({ path: join(artifacts, name) });
    const bad = await spills(page);
    check(`${lang} 800×600 run bar ${when}: it fits the window`, bad.length === 0, bad.join('; '));
  }
}

async function speedDial(page) {
  await page.evaluate(() => {
    window.__moves = [];
    window.runtime.EventsOn('run:live', (e) => {
      if (e.frame?.type === 'draw') for (const s of e.frame.steps) if (s.k === 'move' && s.c) window.__moves.push(s.ms);
    });
  });
  await setProgram(page, SLOW_PROGRAM);
  const before = await page.evaluate(() => window.__runsDone);
  await page.locator('button.run').click();
  await page.waitForFunction(() => window.__moves.length >= 1, null, { timeout: 30000 });
  const dial = page.locator('.runbar .pace');
  await dial.focus();
  await page.keyboard.press('ArrowRight'); // ×2
  await page.keyboard.press('ArrowRight'); // ×4
  check('the dial says ×4', (await dial.getAttribute('aria-valuetext')) === '×4');
  const quick = await page.waitForFunction((ms) => window.__moves.some((m) => m > 0 && m <= Math.ceil(ms / 4)), MOVE_MS, { timeout: 30000 }).then(() => true, () => false);
  let m = await moves(page);
  check('the program draws at CPython’s pace, then at ×4 once the dial moves', m[0] === MOVE_MS && quick && m.every((x) => [MOVE_MS, MOVE_MS / 2, Math.floor(MOVE_MS / 4), Math.ceil(MOVE_MS / 4)].includes(x)), m.join(' '));
  await page.screenshot({ path: join(artifacts, 'steps-dial-live.png') });
  await page.setViewportSize({ width: 800, height: 600 });
  await runBarFits(page, 'drawing');
  await page.setViewportSize({ width: 1280, height: 820 });
  const shown = m.length;
  await page.locator('.stage.live .finish').click();
  await page.waitForFunction((n) => window.__runsDone > n, before, { timeout: 60000 });
  m = await moves(page);
  const firstFree = m.indexOf(0);
  check('⏭ finishes now: every move after it takes no time, and all 36 are drawn',
    m.length === 36 && firstFree >= shown && m.slice(firstFree).every((x) => x === 0) && m.slice(0, firstFree).every((x) => x > 0), m.join(' '));
  const finished = await page.locator('.drawing img').first().waitFor({ timeout: 30000 }).then(() => true, () => false);
  check('the drawing finishes on the final picture', finished && (await page.locator('.console').innerText()).includes('drawn'));
  // Watch again plays at CPython's pace, however the run was hurried: 36 moves of 610 ms.
  await page.locator('.drawing .watch').click();
  // The run itself waited about 1 s before ⏭ (one move at 610 ms, a few at 152): a replay of those times ends before 3 s.
  await page.waitForTimeout(3000);
  const replaying = (await page.locator('.drawing .stage canvas').count()) === 1;
  if (replaying) await page.locator('.drawing .tools .skip').click();
  check('"watch again" after ⏭ replays at CPython’s pace (still drawing after 3 s of 22 s)', replaying);
  const stored = await page.evaluate(() => window.go.app.App.GetSettings());
  check('the dial is kept in the settings', stored.pace === 4, JSON.stringify(stored));
  await page.reload();
  await page.locator('.runbar .pace').waitFor({ timeout: 30000 });
  await page.waitForFunction(() => document.querySelector('button.run:not([disabled])'), null, { timeout: 30000 });
  check('the dial comes back as it was', (await page.locator('.runbar .pace').getAttribute('aria-valuetext')) === '×4');
}

// A game on a timer: it ticks every 100 ms and says so.
const TIMER_GAME = [
  'import turtle',
  't = turtle.Turtle()',
  'n = 0',
  'def tick():',
  '    global n',
  '    n += 1',
  '    print("tick", n)',
  '    t.forward(3)',
  '    t.left(7)',
  '    turtle.ontimer(tick, 100)',
  'turtle.onkey(lambda: print("key!"), "space")',
  'turtle.listen()',
  'tick()',
  'turtle.done()',
].join('\n');

/** The last tick the console shows. */
async function lastTick(page) {
  const text = await page.locator('.console').innerText();
  const ticks = [...text.matchAll(/tick (\d+)/g)];
  return ticks.length ? Number(ticks[ticks.length - 1][1]) : 0;
}

/**
 * ⏸ on a live game: its timer stops (the ticks stand still; waiting for
 * them to stand still, never for a set time), keys do not reach it, and
 * ▶ goes on where it was. Stop ends it while it is paused.
 */
async function pauseGame(page) {
  await page.evaluate(() => {
    if (window.__runsDone !== undefined) return;
    window.__runsDone = 0; // the page was loaded again since main() counted
    window.runtime.EventsOn('run:done', () => window.__runsDone++);
  });
  await setProgram(page, TIMER_GAME);
  const before = await page.evaluate(() => window.__runsDone);
  await page.locator('button.run').click();
  await page.waitForFunction(() => /tick 3\b/.test(document.querySelector('.console')?.innerText ?? ''), null, { timeout: 30000 });
  await page.locator('.stage.live .pause').click();
  // Still for 1.5 s: a game that went on would tick 15 times meanwhile.
  let still = false;
  let held = 0;
  for (let tries = 0; tries < 20 && !still; tries++) {
    held = await lastTick(page);
    await page.waitForTimeout(1500);
    still = (await lastTick(page)) === held;
  }
  check('⏸ holds the game: its timer ticks no more', still && (await page.locator('.stage.live [data-paused]').count()) === 1, `tick ${held}`);
  // A key while paused (not on the ⏸ button, where Space would press it).
  await page.evaluate(() => document.activeElement?.blur());
  await page.keyboard.press('Space');
  await page.setViewportSize({ width: 800, height: 600 });
  await page.locator('button', { hasText: '中文' }).click();
  await page.waitForTimeout(100);
  await page.screenshot({ path: join(artifacts, 'pause-game-800x600-zh.png') });
  await page.locator('button', { hasText: 'English' }).click();
  await page.setViewportSize({ width: 1280, height: 820 });
  await page.locator('.stage.live .paused .resume').click();
  const resumed = await page.waitForFunction((n) => {
    const m = [...(document.querySelector('.console')?.innerText ?? '').matchAll(/tick (\d+)/g)];
    return m.length && Number(m[m.length - 1][1]) > n + 2;
  }, held, { timeout: 30000 }).then(() => true, () => false);
  check('▶ goes on: the timer ticks again, from where it was', resumed && (await lastTick(page)) > held);
  check('a key pressed while paused did not reach the game', !(await page.locator('.console').innerText()).includes('key!'));
  await page.locator('.stage.live .pause').click();
  await page.locator('button.stop').click();
  const stopped = await page.waitForFunction((n) => window.__runsDone > n, before, { timeout: 30000 }).then(() => true, () => false);
  check('Stop ends a paused game', stopped);
}

async function main() {
  const built = await buildApp();
  const server = await startDevServer('kidcoder-steps-', 20, { dist: built.dir });
  const browser = await launch();
  const shots = [];
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 820 } });
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(server.url);
    await page.evaluate(() => {
      window.__runsDone = 0;
      window.runtime.EventsOn('run:done', () => window.__runsDone++);
    });
    await page.locator('.drawing img').first().waitFor({ timeout: 60000 });

    await page.setViewportSize({ width: 800, height: 600 });
    await runBarFits(page, 'idle');
    await page.setViewportSize({ width: 1280, height: 820 });
    const bar = await page.locator('.runbar').boundingBox();
    const run = await page.locator('button.run').boundingBox();
    check('at 1280×820 Run, Stop, 👣 and the dial share one row', bar.height <= run.height + 8, `bar ${bar.height} px, Run ${run.height} px`);
    const at = await stepByStep(page);
    if (at) {
      shots.push(...(await screenshots(page, at)));
      await leave(page);
    }
    await speedDial(page);
    await pauseGame(page);
    check('no page errors', errors.length === 0, errors.join('; '));
  } finally {
    await browser.close();
    server.stop();
    built.cleanup();
  }
  if (shots.length) console.log(`screenshots: ${shots.map((s) => join('test-artifacts', s)).join(' ')}`);
  process.exit(summary() ? 0 : 1);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
