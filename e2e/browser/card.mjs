// The classroom card (MCP App) in headless Chromium, inside a test host page
// built on the ext-apps SDK's AppBridge: the card sits in a sandboxed iframe
// under a strict CSP, and the host answers run_python with the real
// `kidcoder run --json`, wrapped as a tool result.
//
// Usage: node e2e/browser/card.mjs  (from the repository root, after make
// build, which builds frontend/card/classroom.html and build/bin/kidcoder).
// With KIDCODER_CARD_VIA=mcp the host is an MCP client of `kidcoder mcp`
// instead: it reads the card from the server's resource and sends every
// run_python call (and its cancellation) to the server.
// Prints one line per check and exits non-zero on any failure; screenshots go
// to test-artifacts/card-*.png.

import { execFile } from 'node:child_process';
import { createServer } from 'node:http';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { checker, inkOf, launch, repo } from './fake_app.mjs';

const frontend = join(repo, 'frontend');
const require = createRequire(join(frontend, 'package.json'));
const artifacts = join(repo, 'test-artifacts');
mkdirSync(artifacts, { recursive: true });
const kidcoder = process.env.KIDCODER || join(repo, 'build', 'bin', 'kidcoder');
const cardFile = join(frontend, 'card', 'classroom.html');
for (const f of [kidcoder, cardFile]) {
  if (!existsSync(f)) {
    console.error(`card.mjs: ${f} is missing; run make build first`);
    process.exit(2);
  }
}

/** The CSP MCP Apps hosts give a view with no declared domains: inline code and data: pictures only, no network. */
const CSP = "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:; media-src data:; font-src 'none'; connect-src 'none'; frame-src 'none'; object-src 'none'; base-uri 'none'; form-action 'none'";

const work = mkdtempSync(join(tmpdir(), 'kidcoder-card-'));
const { check, summary } = checker();
const CARD_URI = 'ui://kidcoder/classroom.html';

/** With KIDCODER_CARD_VIA=mcp: a client of `kidcoder mcp`, and the card as the server serves it. */
async function connectServer() {
  const dist = dirname(require.resolve('@modelcontextprotocol/client'));
  const { Client } = await import(pathToFileURL(join(dist, 'index.mjs')).href);
  const { StdioClientTransport } = await import(pathToFileURL(join(dist, 'stdio.mjs')).href);
  const client = new Client({ name: 'kidcoder-card-test-host', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command: kidcoder, args: ['mcp'], env: { ...process.env, LANG: 'C.UTF-8' }, stderr: 'ignore' }));
  const { tools } = await client.listTools();
  const tool = tools.find((t) => t.name === 'run_python');
  check('mcp: run_python names the card as its UI', tool?._meta?.ui?.resourceUri === CARD_URI, JSON.stringify(tool?._meta));
  const { contents } = await client.readResource({ uri: CARD_URI });
  check('mcp: the card is served as an MCP App page', contents?.[0]?.mimeType === 'text/html;profile=mcp-app');
  return { client, html: contents?.[0]?.text ?? '' };
}
const server = process.env.KIDCODER_CARD_VIA === 'mcp' ? await connectServer() : null;
const cardHtml = server ? server.html : readFileSync(cardFile);

/** Builds the host page's script (the AppBridge side) from frontend/src/testing/cardHost.ts. */
async function buildHost() {
  const { build } = await import(require.resolve('vite'));
  const out = join(work, 'host');
  await build({
    configFile: false,
    logLevel: 'error',
    build: {
      outDir: out,
      emptyOutDir: true,
      lib: { entry: join(frontend, 'src/testing/cardHost.ts'), formats: ['iife'], name: 'KidcoderCardHost', fileName: () => 'host.js' },
    },
  });
  return readFileSync(join(out, 'host.js'), 'utf8');
}

/** Serves the host page, its script and the card (with the strict CSP), and counts every request. */
function serve(hostJs) {
  const requests = [];
  const hostPage = `<!doctype html><html><head><meta charset="utf-8"><title>card host</title><link rel="icon" href="data:,">
<style>body{margin:0;background:#f4f4f5;font-family:sans-serif}#column{box-sizing:border-box;padding:16px;margin:0 auto}
.bubble{background:#fff;border-radius:12px;padding:10px 14px;margin-bottom:12px;color:#333}iframe{display:block;width:100%;border:0;height:200px}</style>
</head><body><div id="column"><div class="bubble">AI tutor: let's run a program together!</div></div><script src="/host.js"></script></body></html>`;
  const server = createServer((req, res) => {
    requests.push(req.url);
    if (req.url === '/' || req.url === '/host.html') res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(hostPage);
    else if (req.url === '/host.js') res.writeHead(200, { 'Content-Type': 'text/javascript' }).end(hostJs);
    else if (req.url === '/card.html')
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Content-Security-Policy': CSP }).end(cardHtml);
    else res.writeHead(404).end();
  });
  return new Promise((ok) => server.listen(0, '127.0.0.1', () => ok({ server, requests, url: `http://127.0.0.1:${server.address().port}` })));
}

let runs = 0;
/** The runs in progress, by the host's call id, to stop on cancellation. */
const inFlight = new Map();
/** Runs code with the real CLI (or the real server) and gives run_python's tool result. */
function runPython(args, id) {
  if (server) {
    const abort = new AbortController();
    if (id !== undefined) inFlight.set(id, abort);
    return server.client.callTool({ name: 'run_python', arguments: args }, { signal: abort.signal }).finally(() => inFlight.delete(id));
  }
  const dir = join(work, `run-${++runs}`);
  mkdirSync(dir);
  const file = join(dir, 'main.py');
  writeFileSync(file, String(args.code ?? ''));
  const argv = ['run', '--json', '--lang', args.lang === 'en' ? 'en' : 'zh'];
  if (typeof args.stdin === 'string') {
    writeFileSync(join(dir, 'stdin.txt'), args.stdin);
    argv.push('--stdin', join(dir, 'stdin.txt'));
  }
  argv.push(file);
  return new Promise((ok, fail) => {
    const child = execFile(kidcoder, argv, { maxBuffer: 64 << 20, env: { ...process.env, LANG: 'C.UTF-8' } }, (err, stdout) => {
      inFlight.delete(id);
      let result;
      try {
        result = JSON.parse(stdout);
      } catch {
        fail(new Error(`kidcoder run gave no result: ${err?.message ?? ''}`));
        return;
      }
      ok(toolResult(result));
    });
    if (id !== undefined) inFlight.set(id, child);
  });
}

/** Stops a run the card cancelled: kidcoder run ends its sandboxed program on SIGTERM; the server, on notifications/cancelled. */
function cancelPython(id) {
  const run = inFlight.get(id);
  if (run instanceof AbortController) run.abort();
  else run?.kill('SIGTERM');
}

/** The tool result run_python gives for a run --json object: text, pictures, the SVG as a resource, and the object itself. */
function toolResult(r) {
  const text = [r.stdout, r.error ? `${r.error.type}: ${r.error.message}\n${r.error.hint ?? ''}` : '', r.message ?? ''].filter(Boolean).join('\n');
  const content = [{ type: 'text', text }];
  for (const im of r.images ?? []) {
    if (im.mime === 'image/png') content.push({ type: 'image', data: im.data, mimeType: 'image/png' });
    else content.push({ type: 'resource', resource: { uri: 'kidcoder://run/turtle.svg', mimeType: im.mime, blob: im.data } });
  }
  return { content, structuredContent: r, isError: r.status !== 'ok' };
}

/** Opens the host page at a chat column's width and puts the card in it. */
async function openCard(browser, base, { width, locale, call }) {
  const context = await browser.newContext({ viewport: { width, height: 900 }, locale });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  await page.exposeFunction('runPython', runPython);
  await page.exposeFunction('cancelPython', cancelPython);
  await page.goto(`${base}/host.html`);
  await page.evaluate((w) => (document.getElementById('column').style.width = `${w}px`), width);
  await page.evaluate((o) => window.cardHost.open(o), { src: `${base}/card.html`, locale, call });
  const frame = page.frameLocator('#card');
  const host = (key) => page.evaluate((k) => window.cardHost[k], key);
  return { page, context, errors, frame, calls: () => host('calls'), host };
}

/** Narrows or widens the chat column (and the window with it), and waits for the host to give the card its new height. */
async function resize(page, width) {
  await page.setViewportSize({ width, height: 900 });
  await page.evaluate((w) => (document.getElementById('column').style.width = `${w}px`), width);
  await fitted(page);
}

/** Waits until the card's iframe is as tall as the card's page (the card reports its size, the host applies it). */
async function fitted(page) {
  const card = page.frames().find((f) => f.url().endsWith('/card.html'));
  for (let i = 0; i < 600; i++) {
    const want = await card.evaluate(() => Math.ceil(document.documentElement.getBoundingClientRect().height));
    const have = await page.locator('#card').evaluate((f) => Math.round(f.getBoundingClientRect().height));
    if (Math.abs(want - have) <= 1) return;
    await new Promise((ok) => setTimeout(ok, 50));
  }
}

/** How many canvas pixels of the card's drawing are close to a colour (r, g, b). */
function cardInk(page, rgb) {
  const frame = page.frames().find((f) => f.url().endsWith('/card.html'));
  return inkOf(frame, rgb, '.drawing canvas');
}

/** Replaces the code box's text as a child would: select all, type. */
async function typeCode(frame, code) {
  const box = frame.locator('textarea.code');
  await box.click();
  await box.press('Control+A');
  await box.press('Delete');
  await box.pressSequentially(code, { delay: 0 });
}

const LONG = { timeout: 60000 };
const idle = (frame) => frame.locator('section.card:not([data-phase="running"]):not([data-phase="connecting"])').waitFor(LONG);
/** Saves a screenshot of the host page once the card has its height. */
async function shot(page, name) {
  await fitted(page);
  await page.screenshot({ path: join(artifacts, `card-${name}.png`), fullPage: true });
}

const star = readFileSync(join(repo, 'backend', 'lessons', 'starter', '1 star.py'), 'utf8');
const hostJs = await buildHost();
const { server: web, requests, url } = await serve(hostJs);
const browser = await launch();
try {
  // zh, a narrow chat column: the card opens by itself and runs the star demo.
  {
    const { page, context, errors, frame, calls } = await openCard(browser, url, { width: 400, locale: 'zh-CN' });
    await idle(frame);
    const first = (await calls())[0];
    check('zh: the card runs the star demo on open through the host', first?.name === 'run_python' && first?.code === star, JSON.stringify(first)?.slice(0, 200));
    check('zh: the demo run asks for Chinese', first?.lang === 'zh');
    check('zh: the code box shows the star demo', (await frame.locator('textarea.code').inputValue()) === star);
    const out = await frame.locator('.console').innerText();
    check('zh: the console shows the demo output, emoji included', out.includes('你好！我画了一颗金色的星星 ⭐'), out);
    check('zh: the run button reads 跑一下', (await frame.locator('button.run').innerText()).includes('跑一下'));
    await frame.locator('.drawing[data-state="done"]').waitFor(LONG);
    const gold = await cardInk(page, [255, 215, 0]);
    const orange = await cardInk(page, [255, 165, 0]);
    check('zh: the drawing shows the gold star and the orange dots', gold > 500 && orange > 50, `gold ${gold}, orange ${orange}`);
    await shot(page, 'zh-400-open');

    // Watch again replays from an empty canvas to the same picture.
    await frame.locator('button.again').click();
    await frame.locator('.drawing[data-state="done"]').waitFor(LONG);
    check('zh: watch again ends on the same drawing', Math.abs((await cardInk(page, [255, 215, 0])) - gold) < gold * 0.05);

    // Typed code with Chinese and emoji output.
    await typeCode(frame, 'name = "小海龟"\nprint(f"你好，{name}！🐢🎉")\nprint(6 * 7)\n');
    await frame.locator('textarea.code').press('Control+Enter');
    await frame.locator('.console', { hasText: '42' }).waitFor(LONG);
    const typed = await frame.locator('.console').innerText();
    check('zh: typed code runs with Ctrl+Enter, Chinese and emoji printed', typed.includes('你好，小海龟！🐢🎉') && typed.includes('42'), typed);
    check('zh: a run without turtle shows no drawing', (await frame.locator('.drawing, img.picture').count()) === 0);

    // input() gets its answers from the answers box.
    await typeCode(frame, 'n = input("名字？")\nprint("你好", n)\n');
    await frame.locator('textarea.answers').fill('小明');
    await frame.locator('button.run').click();
    await frame.locator('.console', { hasText: '你好 小明' }).waitFor(LONG);
    check('zh: input() reads the answers box', true);
    const told = await page.evaluate(() => window.cardHost.context);
    check('zh: the tutor is told what the child ran and what came out', told.length >= 2 && told.at(-1).includes('input("名字？")') && told.at(-1).includes('你好 小明'), told.at(-1));
    check('zh: the demo run on open is not told to the tutor', !told.some((t) => t.includes('begin_fill')));

    // Stop ends a runaway loop: the host's request is cancelled and the run killed.
    await typeCode(frame, 'while True:\n    pass\n');
    await frame.locator('button.run').click();
    await frame.locator('button.stop').click();
    await frame.locator('section.card[data-phase="stopped"]').waitFor(LONG);
    const cancelled = await page.evaluate(() => window.cardHost.cancelled);
    check('zh: Stop cancels the run_python request', cancelled.length === 1, JSON.stringify(cancelled));
    check('zh: Stop says the child stopped it', (await frame.locator('.status').innerText()).includes('停下来'));
    await shot(page, 'zh-400-stopped');
    for (let i = 0; i < 300 && inFlight.size > 0; i++) await new Promise((ok) => setTimeout(ok, 100));
    check('zh: the stopped run\'s process is gone', inFlight.size === 0);

    // A mistake gets the friendly explanation and its line.
    await typeCode(frame, 'print("hi")\nprint(10 / 0)\n');
    await frame.locator('button.run').click();
    await frame.locator('.error').waitFor(LONG);
    const err = await frame.locator('.error').innerText();
    check('zh: an error shows its hint and line', err.includes('第 2 行') && err.includes('ZeroDivisionError'), err);
    await shot(page, 'zh-400-error');

    // matplotlib, when the sandbox's Python has it.
    const probe = await runPython({ code: 'import matplotlib\n', lang: 'en' });
    if (probe.structuredContent.status === 'ok') {
      await typeCode(frame, 'import matplotlib.pyplot as plt\nplt.plot([1, 4, 9, 16])\nplt.title("squares")\nplt.show()\n');
      await frame.locator('button.run').click();
      await frame.locator('img.plot').first().waitFor(LONG);
      const w = await frame.locator('img.plot').first().evaluate((img) => img.naturalWidth);
      check('zh: a matplotlib chart shows as a picture', w > 100, `naturalWidth ${w}`);
      await shot(page, 'zh-400-chart');
    } else {
      console.log('skip zh: matplotlib chart (matplotlib is not installed for the sandbox Python)');
    }

    // Folding: the card shrinks to its title bar and the host's iframe follows.
    const openHeight = await page.locator('#card').evaluate((f) => f.getBoundingClientRect().height);
    await frame.locator('button.fold').click();
    await frame.locator('section.card[data-open="false"]').waitFor();
    await page.waitForFunction((h) => document.getElementById('card').getBoundingClientRect().height < h / 3, openHeight, LONG);
    check('zh: folded, the card hides its body', (await frame.locator('.body').count()) === 0);
    await shot(page, 'zh-400-folded');
    await frame.locator('button.fold').click();
    await frame.locator('textarea.code').waitFor();

    // A wider chat column.
    await resize(page, 700);
    await shot(page, 'zh-700-open');

    // The language switch.
    await frame.locator('button.lang').click();
    check('zh: the language switch turns the card English', (await frame.locator('button.run').innerText()).includes('Run'));

    check('zh: nothing outside the page was fetched', requests.every((r) => ['/host.html', '/host.js', '/card.html'].includes(r)), requests.join(' '));
    check('zh: no errors or CSP violations', errors.length === 0, errors.join(' | '));
    await context.close();
  }

  // en, a wider column: the card shows the tool call the model made, and does not run the demo.
  {
    const code = 'import turtle\nt = turtle.Turtle()\nt.color("blue")\nt.width(5)\nfor i in range(4):\n    t.forward(100)\n    t.left(90)\nprint("A blue square 🟦")\n';
    const result = await runPython({ code, lang: 'en' });
    const { page, context, errors, frame, calls } = await openCard(browser, url, { width: 700, locale: 'en-US', call: { arguments: { code, lang: 'en' }, result } });
    await frame.locator('.console', { hasText: 'A blue square' }).waitFor(LONG);
    check('en: the card shows the tool call\'s code', (await frame.locator('textarea.code').inputValue()) === code);
    check('en: the card shows the tool call\'s output', (await frame.locator('.console').innerText()).includes('A blue square 🟦'));
    check('en: the run button reads Run', (await frame.locator('button.run').innerText()).trim() === '▶ Run');
    await frame.locator('.drawing[data-state="done"]').waitFor(LONG);
    const blue = await cardInk(page, [0, 0, 255]);
    check('en: the tool call\'s drawing is replayed', blue > 100, `blue ${blue}`);
    check('en: a card for a tool call does not run the demo', (await calls()).length === 0, JSON.stringify(await calls()));
    await shot(page, 'en-700-open');

    await frame.locator('button.run').click();
    await idle(frame);
    const again = await calls();
    check('en: Run sends the box through the host in English', again.length === 1 && again[0].code === code && again[0].lang === 'en');
    await frame.locator('button.fold').click();
    await frame.locator('section.card[data-open="false"]').waitFor();
    await page.waitForFunction(() => document.getElementById('card').getBoundingClientRect().height < 100, null, LONG);
    await shot(page, 'en-700-folded');
    await resize(page, 400);
    await shot(page, 'en-400-folded');
    await frame.locator('button.fold').click();
    await frame.locator('.drawing[data-state="done"]').waitFor(LONG);
    await shot(page, 'en-400-open');
    check('en: no errors or CSP violations', errors.length === 0, errors.join(' | '));
    await context.close();
  }
} finally {
  await browser.close();
  web.close();
  await server?.client.close();
  rmSync(work, { recursive: true, force: true });
}
process.exit(summary() ? 0 : 1);
