// Shared by the browser tests that need no Go app: builds the frontend into a
// temporary folder, serves it, and opens it in headless Chromium with the
// fake backend (frontend/src/testing) standing in for window.go / window.runtime.
// window.__kidcoderFake lets a test send live frames of the current run and
// read the events the window sent back.

import { createServer } from 'node:http';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { extname, join, normalize, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repo = resolve(fileURLToPath(new URL('.', import.meta.url)), '../..');
const frontend = join(repo, 'frontend');
const require = createRequire(join(frontend, 'package.json'));
const { chromium } = require('playwright-core');

const MIME = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.svg': 'image/svg+xml', '.png': 'image/png' };

/** Builds the app and the fake backend's script from the working tree; returns the folder, the script and a cleanup. */
export async function buildApp() {
  const { build } = await import(require.resolve('vite'));
  const dir = mkdtempSync(join(tmpdir(), 'kidcoder-e2e-'));
  const quiet = { logLevel: 'error' };
  await build({ root: frontend, configFile: join(frontend, 'vite.config.ts'), ...quiet, build: { outDir: join(dir, 'app'), emptyOutDir: true } });
  await build({
    configFile: false,
    ...quiet,
    build: {
      outDir: join(dir, 'fake'),
      emptyOutDir: true,
      lib: { entry: join(frontend, 'src/testing/fakeWailsEntry.ts'), formats: ['iife'], name: 'KidcoderFake', fileName: () => 'fake-wails.js' },
    },
  });
  return { dir: join(dir, 'app'), fake: readFileSync(join(dir, 'fake', 'fake-wails.js'), 'utf8'), cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Serves a folder on a free local port. */
export function serve(folder) {
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    const file = normalize(join(folder, path === '/' ? 'index.html' : path));
    if (!file.startsWith(folder) || !existsSync(file)) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'Content-Type': MIME[extname(file)] ?? 'application/octet-stream' });
    res.end(readFileSync(file));
  });
  return new Promise((ok) => server.listen(0, '127.0.0.1', () => ok(server)));
}

export function launch() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
  });
}

/** Opens the app over the fake backend; `fake` holds FakeOptions (lang, checkingMs, ...). */
export async function openApp(browser, url, fakeScript, { width = 1024, height = 768, dpr = 1, fake = {} } = {}) {
  const context = await browser.newContext({ viewport: { width, height }, deviceScaleFactor: dpr });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  await page.addInitScript(`window.__KIDCODER_FAKE__ = ${JSON.stringify({ checkingMs: 50, ...fake })};`);
  await page.addInitScript(fakeScript);
  await page.goto(url);
  await page.locator('button.run:not([disabled])').waitFor({ timeout: 15000 });
  return { page, context, errors };
}

/** Replaces the editor's program, as a child would by selecting all and typing. */
export async function setProgram(page, code) {
  await page.locator('.cm-content').click();
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText(code);
}

/** Sends a live frame of the run the window shows, as the Go app would. */
export function sendFrame(page, frame) {
  return page.evaluate((f) => {
    const fake = window.__kidcoderFake;
    fake.emit('run:live', { runId: fake.lastRunId(), frame: f });
  }, frame);
}

/**
 * How many pixels of a canvas are close to a colour (r, g, b): by default the
 * window's live drawing; target is a page or a frame (the card's iframe).
 */
export function inkOf(target, [r, g, b], selector = '.stage.live canvas') {
  return target.evaluate(
    ([r, g, b, selector]) => {
      const c = document.querySelector(selector);
      if (!c || !c.width) return 0;
      const data = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
      let n = 0;
      for (let i = 0; i < data.length; i += 4) {
        if (Math.abs(data[i] - r) < 40 && Math.abs(data[i + 1] - g) < 40 && Math.abs(data[i + 2] - b) < 40) n++;
      }
      return n;
    },
    [r, g, b, selector],
  );
}

/** The steps the live drawing has received so far. */
export async function liveSteps(page) {
  return Number((await page.locator('.stage.live').getAttribute('data-steps')) ?? 0);
}

/** Prints one line per check; `summary` exits non-zero after any failure. */
export function checker() {
  let passed = 0;
  let failed = 0;
  return {
    check(name, ok, detail = '') {
      if (ok) passed++;
      else failed++;
      console.log(`${ok ? 'ok  ' : 'FAIL'} ${name}${ok || !detail ? '' : `: ${detail}`}`);
    },
    summary() {
      console.log(`${passed} passed, ${failed} failed`);
      return failed === 0;
    },
  };
}

/**
 * Starts the real Go backend (cmd/kidcoder-devserver, or KIDCODER_DEVSERVER)
 * serving the built frontend, with its own home and settings (English, the
 * given time limit in seconds, and any `settings` given); `dist` serves
 * another build than frontend/dist. stop() ends it and removes the home.
 */
export async function startDevServer(prefix, timeoutSeconds, { dist = join(repo, 'frontend', 'dist'), settings: more = {} } = {}) {
  const home = mkdtempSync(join(tmpdir(), prefix));
  const settings = join(home, 'settings.json');
  // coursesOffered: the course shelf, which a first start opens by itself, stays shut for the tests.
  writeFileSync(settings, JSON.stringify({ lang: 'en', fontSize: 18, timeoutSeconds, coursesOffered: true, ...more }));
  const bin = process.env.KIDCODER_DEVSERVER || join(repo, 'build', 'bin', 'kidcoder-devserver');
  const proc = spawn(bin, ['-dist', dist, '-settings', settings], {
    env: { ...process.env, HOME: home, XDG_CONFIG_HOME: join(home, '.config'), LANG: 'C.UTF-8' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise((ok, fail) => {
    let buf = '';
    proc.stdout.on('data', (d) => {
      buf += d;
      const m = buf.match(/listening on (http:\/\/\S+)/);
      if (m) ok(m[1]);
    });
    proc.on('exit', (code) => fail(new Error(`dev server exited with ${code}`)));
    setTimeout(() => fail(new Error('dev server did not start')), 30000);
  });
  return { url, stop: () => { proc.kill('SIGTERM'); rmSync(home, { recursive: true, force: true }); } };
}
