// Live runs in headless Chromium against the built frontend wired to the real
// Go app and sandbox (cmd/kidcoder-devserver): a slow drawing grows while the
// program runs, a game that listens gets arrow keys (and the editor's cursor
// stays put), a click reaches onscreenclick at the turtle coordinates under
// the pointer, the close control lets the code after done() run, a textinput
// dialog answers the program, and Stop ends a game at once.
//
// Usage: node e2e/browser/real_live.mjs (from the repository root, after
// make build; KIDCODER_DEVSERVER names another dev server binary). Prints one
// line per check and exits non-zero on any failure. Screenshots go to
// test-artifacts/.

import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { checker, inkOf, launch, repo, setProgram, startDevServer } from './fake_app.mjs';

const artifacts = join(repo, 'test-artifacts');
mkdirSync(artifacts, { recursive: true });
const { check, summary } = checker();


const consoleText = (page) => page.locator('.console').innerText();
const until = (page, fn, arg, timeout = 15000) => page.waitForFunction(fn, arg, { timeout, polling: 20 }).then(() => true, () => false);
const printed = (page, text, timeout) => until(page, (t) => document.querySelector('.console')?.innerText.includes(t), text, timeout);
const cursor = (page) =>
  page.evaluate(() => {
    const el = document.querySelector('.cm-content');
    const tile = el.cmTile ?? el.cmView;
    return tile.root?.view?.state.selection.main.head ?? tile.rootView?.view?.state.selection.main.head;
  });

async function runsDone(page) {
  return page.evaluate(() => window.__runsDone);
}

async function main() {
  const server = await startDevServer('kidcoder-live-', 20);
  const browser = await launch();
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

    // A slow drawing grows while the program runs, and ends with the final picture.
    await setProgram(page, 'import turtle\nt = turtle.Turtle()\nt.color("red")\nt.pensize(5)\nt.speed(1)\nfor i in range(4):\n    t.forward(150)\n    t.left(90)\n');
    await page.locator('button.run').click();
    await page.locator('.stage.live canvas').waitFor({ timeout: 15000 });
    const samples = [];
    for (let i = 0; i < 200 && samples.length < 3; i++) {
      const n = await inkOf(page, [255, 0, 0]);
      if (n > (samples.at(-1) ?? 0)) samples.push(n);
      await page.waitForTimeout(50);
    }
    check('a slow drawing grows while the program runs', samples.length === 3, samples.join(' → '));
    await page.screenshot({ path: join(artifacts, 'browser-real-live-slow.png') });
    check('then the final picture shows', await page.locator('.drawing img').first().waitFor({ timeout: 30000 }).then(() => true, () => false));

    // A game: listen() takes the keys; arrows move the turtle, not the editor's cursor.
    await setProgram(
      page,
      'import turtle\nt = turtle.Turtle()\ndef up():\n    t.forward(30)\n    print("at", t.pos())\n' +
        'def left():\n    t.left(90)\n    print("heading", t.heading())\n' +
        'turtle.listen()\nturtle.onkey(up, "Up")\nturtle.onkey(left, "Left")\n' +
        'turtle.onscreenclick(lambda x, y: print("click", round(x), round(y)))\nturtle.done()\nprint("after done")\n',
    );
    const head = await cursor(page);
    await page.locator('button.run').click();
    check('listen() gives the keys to the drawing', await page.locator('.keys-label').waitFor({ timeout: 15000 }).then(() => true, () => false));
    // One key after the last one's handler has finished: a key pressed while the turtle
    // is still moving runs its handler inside that animation, as with Tk.
    await page.keyboard.press('ArrowUp');
    const first = await printed(page, 'at (30.00,0.00)');
    await page.keyboard.press('ArrowLeft');
    const turned = await printed(page, 'heading 90.0');
    await page.keyboard.press('ArrowUp');
    check('arrow keys reach the handlers', first && turned && (await printed(page, 'at (30.00,30.00)')), await consoleText(page));
    check('the editor cursor did not move', (await cursor(page)) === head);
    await page.screenshot({ path: join(artifacts, 'browser-real-live-game.png') });

    // A click 100 world units right of and 50 above the middle (a 400 × 400 screen shown letterboxed).
    const box = await page.locator('.stage.live canvas').boundingBox();
    const k = Math.min(box.width, box.height) / 400;
    await page.mouse.click(box.x + box.width / 2 + 100 * k, box.y + box.height / 2 - 50 * k);
    check('a click reaches onscreenclick at turtle coordinates', await printed(page, 'click 100 50'), await consoleText(page));

    // The close control ends mainloop(): the code after done() runs.
    const before = await runsDone(page);
    await page.locator('.stage.live .close').click();
    await until(page, (n) => window.__runsDone > n, before);
    check('closing the drawing lets the code after done() run', (await consoleText(page)).includes('after done'), await consoleText(page));

    // textinput: the in-app dialog answers the program.
    await setProgram(page, 'import turtle\nname = turtle.textinput("Hello", "What is your name?")\nprint("hi", name)\n');
    await page.locator('button.run').click();
    await page.locator('.live-dialog').waitFor({ timeout: 15000 });
    await page.locator('.live-dialog input').fill('小明');
    await page.keyboard.press('Enter');
    check('textinput gets the answer', await printed(page, 'hi 小明'), await consoleText(page));

    // Stop ends a waiting game at once.
    await setProgram(page, 'import turtle\nturtle.listen()\nturtle.onkey(lambda: None, "space")\nturtle.done()\n');
    await page.locator('button.run').click();
    await page.locator('.keys-label').waitFor({ timeout: 15000 });
    const beforeStop = await runsDone(page);
    const t0 = Date.now();
    await page.locator('button.stop').click();
    const stopped = await until(page, (n) => window.__runsDone > n, beforeStop, 5000);
    check('Stop ends a game at once', stopped && Date.now() - t0 < 2000, `${Date.now() - t0} ms`);
    check('no page errors', errors.length === 0, errors.join('; '));
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
