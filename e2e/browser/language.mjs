// The window's language, in headless Chromium over the fake backend: in
// English the quotes of "Imported “…”" are drawn as English quotes, not the
// full-width ones of the Chinese fonts (Chinese keeps those); the language
// button has no tooltip to go stale when the language changes under the
// pointer, and its accessible name follows the language; a toast said in
// the old language is put away.
//
// Usage: node e2e/browser/language.mjs (builds the frontend itself).

import { buildApp, checker, launch, openApp, serve } from './fake_app.mjs';

const { check, summary } = checker();

/** The width of the first `ch` in the toast, in ems of its font size. */
const glyphEm = (page, ch) =>
  page.evaluate((ch) => {
    const span = document.querySelector('.toast span');
    const node = span?.firstChild;
    const i = node?.textContent.indexOf(ch) ?? -1;
    if (i < 0) return -1;
    const r = document.createRange();
    r.setStart(node, i);
    r.setEnd(node, i + ch.length);
    return r.getBoundingClientRect().width / parseFloat(getComputedStyle(span).fontSize);
  }, ch);

async function importCourse(page) {
  await page.locator('.sidebar .courses').click();
  await page.locator('.courses-dialog .course').first().locator('button.add').click();
  await page.locator('.toast span').waitFor({ timeout: 10000 });
  await page.evaluate(() => document.fonts.ready);
  return page.locator('.toast span').innerText();
}

async function main() {
  const app = await buildApp();
  const server = await serve(app.dir);
  const url = `http://127.0.0.1:${server.address().port}/`;
  const browser = await launch();
  try {
    const en = await openApp(browser, url, app.fake, { fake: { lang: 'en' } });
    const text = await importCourse(en.page);
    const open = await glyphEm(en.page, '“');
    const close = await glyphEm(en.page, '”');
    check('English: “Imported “…”” is said', text.startsWith('Imported “'), text);
    check('English: its quotes are English quotes, not full width', open > 0 && open < 0.65 && close > 0 && close < 0.65, `“ ${open.toFixed(2)} em, ” ${close.toFixed(2)} em`);

    // The language button: the pointer is on it while the language changes.
    const lang = en.page.locator('.topbar button', { hasText: '🌐' });
    check('the English toast is up before switching', (await en.page.locator('.toast').count()) === 1);
    check('the language button has no tooltip to go stale', (await lang.getAttribute('title')) === null, await lang.getAttribute('title'));
    check('its name says what it does, in English', (await lang.getAttribute('aria-label')) === 'Switch to Chinese', await lang.getAttribute('aria-label'));
    await lang.click();
    await en.page.waitForFunction(() => document.documentElement.lang === 'zh-CN', null, { timeout: 10000 });
    check('after switching, still no tooltip', (await lang.getAttribute('title')) === null);
    check('and no English toast stays up in the Chinese window', (await en.page.locator('.toast').count()) === 0, await en.page.locator('.toast').innerText().catch(() => ''));
    check('and its name is in Chinese', (await lang.getAttribute('aria-label')) === '切换到英文', await lang.getAttribute('aria-label'));
    const zh = await openApp(browser, url, app.fake, { fake: { lang: 'zh' } });
    const zhText = await importCourse(zh.page);
    const zhOpen = await glyphEm(zh.page, '“');
    check('Chinese: the same toast keeps full-width quotes', zhText.startsWith('已导入“') && zhOpen > 0.9, `${zhText}: “ ${zhOpen.toFixed(2)} em`);

    check('no page errors', en.errors.length === 0 && zh.errors.length === 0, [...en.errors, ...zh.errors].join('\n'));
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
