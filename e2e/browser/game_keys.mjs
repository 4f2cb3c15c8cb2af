// A game that shares the keyboard, in headless Chromium over the fake
// backend: while a game has the keys, an input() box gets the typing as soon
// as it appears and the keys come back to the game once it is answered;
// Escape stops the game and Ctrl+Enter runs the program again, whatever has
// the keys. Checks wait for what must happen, never for a set time.
//
// Usage: node e2e/browser/game_keys.mjs (builds the frontend itself).

import { buildApp, checker, launch, openApp, serve, setProgram } from './fake_app.mjs';

const { check, summary } = checker();

const GAME = 'import turtle\nt = turtle.Turtle()\nturtle.listen()\nturtle.onkey(lambda: t.forward(20), "Up")\nturtle.done()\n';

/** The key events the window sent to the program since the n-th event. */
const keysSince = (page, n) =>
  page.evaluate((n) => window.__kidcoderFake.sent.slice(n).filter((s) => s.ev.type === 'key').map((s) => `${s.ev.key}${s.ev.down ? '↓' : '↑'}`), n);
const sentCount = (page) => page.evaluate(() => window.__kidcoderFake.sent.length);
const runId = (page) => page.evaluate(() => window.__kidcoderFake.lastRunId());

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
    await page.locator('.drawing img').first().waitFor({ timeout: 20000 });

    // The game listens, then asks in the console: input("name? ").
    await startGame(page);
    const id = await runId(page);
    await page.evaluate((runId) => {
      const fake = window.__kidcoderFake;
      fake.emit('run:output', { runId, stream: 'stdout', text: 'name? ' });
      fake.emit('run:waiting', { runId, prompt: 'name? ' });
    }, id);
    const box = page.locator('.console input.answer');
    await box.waitFor({ timeout: 10000 });
    const before = await sentCount(page);
    // Typed at once, without clicking the box.
    await page.keyboard.type('Bob');
    check('input() during a game gets the typing as soon as it appears', (await box.inputValue()) === 'Bob', `box has ${JSON.stringify(await box.inputValue())}`);
    check('the letters do not go to the game', (await keysSince(page, before)).length === 0, (await keysSince(page, before)).join(' '));
    check('the drawing does not say it has the keys meanwhile', (await page.locator('.keys-label').count()) === 0 && (await page.locator('.stage.live.keys').count()) === 0);
    await page.keyboard.press('Enter');
    check('Enter answers input()', await page.locator('.console .input').filter({ hasText: 'Bob' }).waitFor({ timeout: 10000 }).then(() => true, () => false));
    check('once answered, the keys are the game’s again', await page.locator('.keys-label').waitFor({ timeout: 10000 }).then(() => true, () => false));
    const afterAnswer = await sentCount(page);
    await page.keyboard.press('ArrowUp');
    check('and arrow keys reach it', (await keysSince(page, afterAnswer)).join(' ') === 'Up↓ Up↑', (await keysSince(page, afterAnswer)).join(' '));

    // A turtle dialog mid-game has the typing too.
    await page.evaluate((runId) => {
      window.__kidcoderFake.emit('run:live', { runId, frame: { type: 'dialog', kind: 'text', title: 'Colour', prompt: 'Which colour?' } });
    }, id);
    await page.locator('.live-dialog input').waitFor({ timeout: 10000 });
    const beforeDialog = await sentCount(page);
    await page.keyboard.type('red');
    check('a turtle dialog gets the typing as soon as it appears', (await page.locator('.live-dialog input').inputValue()) === 'red');
    check('none of it goes to the game as keys', (await keysSince(page, beforeDialog)).length === 0);
    await page.keyboard.press('Enter');
    await page.locator('.live-dialog').waitFor({ state: 'detached', timeout: 10000 });
    await page.locator('.keys-label').waitFor({ timeout: 10000 });

    // Ctrl+Enter while the game has the keys: the program runs again.
    const beforeRerun = await sentCount(page);
    await page.keyboard.press('Control+Enter');
    check('Ctrl+Enter runs again while a game has the keys', await page.waitForFunction((old) => window.__kidcoderFake.lastRunId() !== old, id, { timeout: 10000 }).then(() => true, () => false));
    check('Ctrl+Enter is not sent to the game', !(await keysSince(page, beforeRerun)).some((k) => k.startsWith('Return')), (await keysSince(page, beforeRerun)).join(' '));
    await page.locator('.keys-label').waitFor({ timeout: 10000 });

    // Escape while the game has the keys: Stop.
    const beforeStop = await sentCount(page);
    await page.keyboard.press('Escape');
    check('Escape stops a game that has the keys', await page.locator('button.run:not([disabled])').waitFor({ timeout: 10000 }).then(() => true, () => false));
    check('the run ended as stopped', await page.locator('.console').filter({ hasText: /stopped/i }).waitFor({ timeout: 10000 }).then(() => true, () => false), await page.locator('.console').innerText());
    check('Escape is not sent to the game', !(await keysSince(page, beforeStop)).some((k) => k.startsWith('Escape')));

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
