// Live runs in headless Chromium over the fake backend: the drawing grows
// while frames arrive, keys go to the turtle after listen() and never move
// the editor's cursor, clicks arrive in world coordinates, the close control
// ends the game, and textinput/numinput dialogs answer the program. Checks
// wait for what must happen (generous timeouts), never for a set time.
//
// Usage: node e2e/browser/live_drawing.mjs (builds the frontend itself).
// Screenshots go to test-artifacts/.

import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { buildApp, checker, inkOf, launch, liveSteps, openApp, repo, sendFrame, serve, setProgram } from './fake_app.mjs';

const artifacts = join(repo, 'test-artifacts');
mkdirSync(artifacts, { recursive: true });
const { check, summary } = checker();

const GAME = 'import turtle\nt = turtle.Turtle()\nturtle.listen()\nturtle.onkey(lambda: t.forward(20), "Up")\nturtle.done()\n';
const RED = [255, 0, 0];
const BLUE = [30, 144, 255];
const GREEN = [0, 160, 0];

/** The editor's cursor (CodeMirror's main selection head), read from its view. */
const cursor = (page) =>
  page.evaluate(() => {
    const el = document.querySelector('.cm-content');
    const tile = el.cmTile ?? el.cmView;
    return tile.root?.view?.state.selection.main.head ?? tile.rootView?.view?.state.selection.main.head;
  });

/** Waits until fn() (in the page) is true; false after the timeout. */
const until = (page, fn, arg, timeout = 10000) => page.waitForFunction(fn, arg, { timeout, polling: 20 }).then(() => true, () => false);

/** Waits until the ink of a colour on the live canvas passes `above`; returns the count then (or -1). */
async function inkAbove(page, colour, above, timeout = 10000) {
  const end = Date.now() + timeout;
  for (;;) {
    const n = await inkOf(page, colour);
    if (n > above) return n;
    if (Date.now() > end) return -1;
    await page.waitForTimeout(15);
  }
}

async function startGame(page) {
  await setProgram(page, GAME);
  await page.locator('button.run').click();
  await page.locator('.keys-label').waitFor({ timeout: 10000 });
}

async function main() {
  const app = await buildApp();
  const server = await serve(app.dir);
  const url = `http://127.0.0.1:${server.address().port}/`;
  const browser = await launch();
  try {
    const { page, errors } = await openApp(browser, url, app.fake, { fake: { lang: 'en' } });

    // The star demo plays live, then its final picture replaces the canvas.
    await page.locator('.drawing img').first().waitFor({ timeout: 20000 });
    check('the star demo ends with the final picture', (await page.locator('.stage.live').count()) === 0);

    // A game: listen() gives the keys to the drawing. Nothing animates yet: nothing to skip.
    await page.locator('.cm-content').click();
    await startGame(page);
    check('a game that is not animating offers no skip', (await page.locator('button.skip').count()) === 0);
    const label = await page.locator('.keys-label').innerText();
    check('after listen() the drawing says keys go to the turtle', label.includes('keys go to the turtle'), label);
    check('the drawing glows while it has the keys', (await page.locator('.stage.live.keys').count()) === 1);
    check('the drawing has the page focus', await page.evaluate(() => document.activeElement?.classList.contains('stage')));
    await page.screenshot({ path: join(artifacts, 'browser-live-keys-en.png') });

    // A long step arrives and animates: the red line grows over time.
    const from = await liveSteps(page);
    await sendFrame(page, { type: 'draw', from, steps: [{ k: 'move', t: 0, s: 1, x1: -150, y1: -120, x2: 150, y2: -120, c: '#ff0000', w: 6, d: 1500 }] });
    const first = await inkAbove(page, RED, 0);
    check('while it animates, skip to the end is offered', (await page.locator('button.skip').count()) === 1);
    const later = await inkAbove(page, RED, first);
    const full = await inkAbove(page, RED, later);
    check('a step animates over its d: the line grows between frames', first > 0 && later > first && full > later, `${first} → ${later} → ${full}`);

    // A long program's drawing appears progressively: each frame adds to what is there.
    let ink = await inkOf(page, GREEN);
    let grew = 0;
    for (let i = 0; i < 3; i++) {
      const n = await liveSteps(page);
      await sendFrame(page, { type: 'draw', from: n, steps: [{ k: 'move', t: 0, s: 0, x1: -150, y1: i * 40, x2: 150, y2: i * 40, c: '#00a000', w: 4, d: 0 }] });
      const now = await inkAbove(page, GREEN, ink);
      if (now > ink) grew++;
      ink = now;
    }
    check('each draw frame shows up while the program runs', grew === 3, `${grew} of 3`);

    // Arrow keys go to the program and never move the editor's cursor or scroll.
    const scrollBefore = await page.evaluate(() => [document.querySelector('.cm-scroller').scrollTop, window.scrollY]);
    const head = await cursor(page);
    const blueBefore = await inkOf(page, BLUE);
    const sentBefore = await page.evaluate(() => window.__kidcoderFake.sent.length);
    for (const key of ['ArrowUp', 'ArrowUp', 'ArrowLeft', 'ArrowDown', 'ArrowRight', 'Home', 'PageDown']) await page.keyboard.press(key);
    const sent = await page.evaluate((n) => window.__kidcoderFake.sent.slice(n).map((s) => s.ev), sentBefore);
    const keys = sent.filter((e) => e.type === 'key').map((e) => `${e.key}${e.down ? '↓' : '↑'}`);
    check('keys reach the program as Tk keysyms, press and release', keys.join(' ') === 'Up↓ Up↑ Up↓ Up↑ Left↓ Left↑ Down↓ Down↑ Right↓ Right↑ Home↓ Home↑ Next↓ Next↑', keys.join(' '));
    check('arrow keys do not move the editor cursor', (await cursor(page)) === head, `${head} → ${await cursor(page)}`);
    const scrollAfter = await page.evaluate(() => [document.querySelector('.cm-scroller').scrollTop, window.scrollY]);
    check('arrow keys do not scroll', JSON.stringify(scrollAfter) === JSON.stringify(scrollBefore), `${scrollBefore} → ${scrollAfter}`);
    check("the program's turtle moved with the keys", (await inkAbove(page, BLUE, blueBefore)) > blueBefore);

    // A held key repeats as release + press, as X11 does.
    const beforeHold = await page.evaluate(() => window.__kidcoderFake.sent.length);
    await page.locator('.stage.live').dispatchEvent('keydown', { key: 'a', code: 'KeyA', repeat: true, bubbles: true });
    const held = await page.evaluate((n) => window.__kidcoderFake.sent.slice(n).map((s) => `${s.ev.key}${s.ev.down}`), beforeHold);
    check('an auto-repeated key is a release then a press', held.join(' ') === 'afalse atrue', held.join(' '));

    // The program asks something mid-game: the dialog has the keys, then they come back to the drawing.
    await sendFrame(page, { type: 'dialog', kind: 'text', title: 'Level', prompt: 'Which level?' });
    await page.locator('.live-dialog input').waitFor({ timeout: 10000 });
    await page.keyboard.type('3');
    check('typing in the dialog goes to the dialog', (await page.locator('.live-dialog input').inputValue()) === '3');
    await page.locator('.live-dialog .ok').click();
    await page.locator('.live-dialog').waitFor({ state: 'detached', timeout: 10000 });
    const answer = await page.evaluate(() => window.__kidcoderFake.sent.filter((s) => s.ev.type === 'answer').at(-1)?.ev);
    check('the answer goes to the program', answer?.text === '3', JSON.stringify(answer));
    check('after the dialog the keys go to the turtle again', (await page.locator('.keys-label').count()) === 1 && (await page.evaluate(() => document.activeElement?.classList.contains('stage'))));

    // Clicking the editor takes the keys back; arrows then move its cursor.
    await page.locator('.cm-line').first().click();
    check('clicking the editor takes the keys back', (await page.locator('.stage.live.keys').count()) === 0 && (await page.locator('.keys-label').count()) === 0);
    const headEditor = await cursor(page);
    const sentEditor = await page.evaluate(() => window.__kidcoderFake.sent.length);
    await page.keyboard.press('ArrowDown');
    check('then arrows move the editor cursor', (await cursor(page)) !== headEditor);
    check('and no key goes to the program', (await page.evaluate(() => window.__kidcoderFake.sent.length)) === sentEditor);

    // Clicking the drawing gives the keys back and sends the click in world coordinates.
    const box = await page.locator('.stage.live canvas').boundingBox();
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    check('clicking the drawing gives the keys back', (await page.locator('.stage.live.keys').count()) === 1);
    const mouse = await page.evaluate(() => window.__kidcoderFake.sent.filter((s) => s.ev.type === 'mouse').map((s) => s.ev));
    const down = mouse.find((m) => m.action === 'down');
    const up = mouse.find((m) => m.action === 'up');
    // The pointer lands on whole CSS pixels: half a pixel, in world units, is as close as a click can be.
    const tol = (b) => 0.5 / (Math.min(b.width, b.height) / 400) + 1e-9;
    check('a click at the middle of the drawing is (0, 0) in the world', !!down && Math.abs(down.x) <= tol(box) && Math.abs(down.y) <= tol(box) && down.button === 1, JSON.stringify(down));
    check('the release follows', !!up && up.button === 1);
    // A quarter of the view's width to the right of the middle: the canvas shows 400 × 400 world units, letterboxed.
    const box2 = await page.locator('.stage.live canvas').boundingBox();
    const k = Math.min(box2.width, box2.height) / 400;
    await page.mouse.click(box2.x + box2.width / 2 + 100 * k, box2.y + box2.height / 2 - 50 * k);
    const last = await page.evaluate(() => window.__kidcoderFake.sent.filter((s) => s.ev.type === 'mouse' && s.ev.action === 'down').at(-1).ev);
    check('a click maps to turtle coordinates, to the pixel', Math.abs(last.x - 100) <= tol(box2) && Math.abs(last.y - 50) <= tol(box2), JSON.stringify(last));

    // After setworldcoordinates(0, 0, 100, 100) a click maps through the new view; the title shows.
    await sendFrame(page, { type: 'screen', width: 400, height: 400, bg: '#ffffff', scale: [4, 4], view: [0, 0, 100, 100], title: '贪吃蛇 Snake' });
    check('the window title shows', (await page.locator('.window-title').innerText().catch(() => '')) === '贪吃蛇 Snake');
    const box3 = await page.locator('.stage.live canvas').boundingBox();
    const k3 = Math.min(box3.width, box3.height) / 100;
    await page.mouse.click(box3.x + box3.width / 2 + 25 * k3, box3.y + box3.height / 2 + 10 * k3);
    const world = await page.evaluate(() => window.__kidcoderFake.sent.filter((s) => s.ev.type === 'mouse' && s.ev.action === 'down').at(-1).ev);
    const tolW = 0.5 / k3 + 1e-9;
    check('after setworldcoordinates a click maps to the new world', Math.abs(world.x - 75) <= tolW && Math.abs(world.y - 40) <= tolW, JSON.stringify(world));

    // The close control ends the game; the final picture follows.
    await page.locator('.stage.live .close').click();
    const closed = await page.evaluate(() => window.__kidcoderFake.sent.some((s) => s.ev.type === 'close'));
    check('the close control sends close', closed);
    check('the game ends and the final picture shows', await page.locator('.drawing img').first().waitFor({ timeout: 10000 }).then(() => true, () => false));
    check('the keys are the page’s again after the run', (await page.locator('.keys-label').count()) === 0);

    // textinput: the dialog, then the answer printed by the program.
    await setProgram(page, 'import turtle\nname = turtle.textinput("Hello", "What is your name?")\nprint(name)\n');
    await page.locator('button.run').click();
    await page.locator('.live-dialog').waitFor({ timeout: 10000 });
    const dialogText = await page.locator('.live-dialog').innerText();
    check('textinput shows its title and prompt', dialogText.includes('Hello') && dialogText.includes('What is your name?'), dialogText);
    await page.screenshot({ path: join(artifacts, 'browser-live-dialog-en.png') });
    await page.locator('.live-dialog input').fill('小明');
    await page.locator('.live-dialog .ok').click();
    check('the answer reaches the program', await until(page, () => document.querySelector('.console')?.innerText.includes('小明')));
    await page.locator('.drawing img').first().waitFor({ timeout: 20000 });

    // numinput: range shown, a wrong answer asked again with the error, Cancel is None.
    await setProgram(page, 'import turtle\nn = turtle.numinput("Size", "How big?", 5, 1, 10)\nprint(n)\n');
    await page.locator('button.run').click();
    await page.locator('.live-dialog').waitFor({ timeout: 10000 });
    const numText = await page.locator('.live-dialog').innerText();
    check('numinput shows the range and the default', numText.includes('from 1 to 10') && numText.includes('Suggested: 5'), numText);
    check('numinput starts from the default', (await page.locator('.live-dialog input').inputValue()) === '5');
    await page.locator('.live-dialog input').fill('42');
    await page.keyboard.press('Enter');
    check('a number out of range is asked again, with the error', await page.locator('.live-dialog .error').waitFor({ timeout: 10000 }).then(() => true, () => false));
    check('the answer that did not fit is there to fix', (await page.locator('.live-dialog input').inputValue()) === '42');
    await page.screenshot({ path: join(artifacts, 'browser-live-dialog-error-en.png') });
    await page.keyboard.press('Escape');
    check('Escape cancels: the program gets None and goes on', await until(page, () => document.querySelector('.console')?.innerText.includes('None')));
    check('Escape in the dialog does not stop the program', !(await page.locator('.console').innerText()).includes('Stop'));
    await page.locator('.drawing img').first().waitFor({ timeout: 20000 });

    // Chinese, at 800 × 600: the label, the close control and the dialog fit.
    const zh = await openApp(browser, url, app.fake, { width: 800, height: 600, fake: { lang: 'zh' } });
    await zh.page.locator('.drawing img').first().waitFor({ timeout: 20000 });
    await startGame(zh.page);
    const zhLabel = await zh.page.locator('.keys-label').innerText();
    check('zh: 键盘在控制海龟', zhLabel.includes('键盘在控制海龟'), zhLabel);
    // A long step, so there is something to skip.
    await sendFrame(zh.page, { type: 'draw', from: await liveSteps(zh.page), steps: [{ k: 'move', t: 0, s: 1, x1: 0, y1: 0, x2: 150, y2: 0, c: '#ff0000', w: 6, d: 5000 }] });
    await zh.page.locator('button.skip').waitFor({ timeout: 10000 });
    const closeTitle = await zh.page.locator('.stage.live .close').getAttribute('title');
    check('zh: the close control says what it does', /关掉海龟窗口/.test(closeTitle ?? ''), closeTitle);
    const outside = await zh.page.evaluate(() =>
      ['.keys-label', '.stage.live', '.stage.live .close', 'button.skip'].filter((sel) => {
        const r = document.querySelector(sel)?.getBoundingClientRect();
        const panel = document.querySelector('[data-panel="drawing"]').getBoundingClientRect();
        return !r || r.left < panel.left || r.top < panel.top || r.right > panel.right || r.bottom > panel.bottom;
      }),
    );
    check('zh 800×600: the label, drawing, close and skip controls fit in the drawing panel', outside.length === 0, outside.join(', '));
    await zh.page.screenshot({ path: join(artifacts, 'browser-live-keys-zh-800.png') });
    await zh.page.locator('.stage.live .close').click();
    await zh.page.locator('.drawing img').first().waitFor({ timeout: 10000 });
    await setProgram(zh.page, 'import turtle\nn = turtle.numinput("大小", "要多大？", 5, 1, 10)\n');
    await zh.page.locator('button.run').click();
    await zh.page.locator('.live-dialog').waitFor({ timeout: 10000 });
    const zhDialog = await zh.page.locator('.live-dialog').innerText();
    check('zh: the dialog speaks Chinese', zhDialog.includes('程序在问你') && zhDialog.includes('请填 1 到 10 之间的数') && zhDialog.includes('好了'), zhDialog);
    const dialogInside = await zh.page.evaluate(() => {
      const r = document.querySelector('.live-dialog').getBoundingClientRect();
      return r.left >= 0 && r.top >= 0 && r.right <= innerWidth && r.bottom <= innerHeight;
    });
    check('zh 800×600: the dialog fits', dialogInside);
    await zh.page.screenshot({ path: join(artifacts, 'browser-live-dialog-zh-800.png') });
    // Stop as the Go app does it when the run ends some other way (the dialog holds the page's clicks).
    await zh.page.evaluate(() => window.go.app.App.Stop(window.__kidcoderFake.lastRunId()));
    check('zh: the dialog closes when the run is done', await zh.page.locator('.live-dialog').waitFor({ state: 'detached', timeout: 10000 }).then(() => true, () => false));

    check('no page errors', errors.length === 0 && zh.errors.length === 0, [...errors, ...zh.errors].join('; '));
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
