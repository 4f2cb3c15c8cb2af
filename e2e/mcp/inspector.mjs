// End-to-end test of `kidcoder mcp` with a client no one here wrote: the
// MCP Inspector's command line (@modelcontextprotocol/inspector, pinned in
// package.json). Each step starts build/bin/kidcoder mcp over stdio, as an
// MCP host would, with a fresh lessons folder.
//
//   node e2e/mcp/inspector.mjs        (after make build and scripts/setup.sh test)
import { spawn, spawnSync } from 'node:child_process';
import { createInterface } from 'node:readline';
import { mkdtempSync, mkdirSync, rmSync, existsSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import assert from 'node:assert/strict';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../..');
const inspector = join(here, 'node_modules/.bin/mcp-inspector');
const kidcoder = join(root, 'build/bin/kidcoder');
for (const [path, fix] of [[inspector, 'scripts/setup.sh test'], [kidcoder, 'make build']]) {
  if (!existsSync(path)) {
    console.error(`mcp inspector: ${path} is missing; run ${fix}`);
    process.exit(1);
  }
}

const work = mkdtempSync(join(tmpdir(), 'kidcoder-mcp-e2e-'));
const lessons = join(work, 'lessons');
mkdirSync(lessons);
let failed = false;

function spawnInspector(args, serverArgs = []) {
  const p = spawnSync(inspector, ['--cli', kidcoder, 'mcp', '--lessons', lessons, ...serverArgs, ...args], {
    encoding: 'utf8',
    timeout: 120_000,
    // The Inspector keeps a catalog of servers in the home folder; not here.
    env: { ...process.env, MCP_CATALOG_PATH: join(work, 'catalog.json') },
  });
  if (p.error) throw p.error;
  return p;
}

// inspectError runs a call that must fail and returns the error the
// Inspector reports (it prints the message, not the JSON-RPC code).
function inspectError(...args) {
  const p = spawnInspector(args);
  assert.notEqual(p.status, 0, `inspector ${args.join(' ')} succeeded: ${p.stdout}`);
  const line = (p.stdout + '\n' + p.stderr).split('\n').reverse().find((l) => l.startsWith('{"error"'));
  assert.ok(line, `inspector ${args.join(' ')}: no error reported\nstdout: ${p.stdout}\nstderr: ${p.stderr}`);
  return JSON.parse(line).error;
}

// inspect runs one Inspector CLI call and returns its JSON answer.
function inspect(...args) {
  const p = spawnInspector(args);
  try {
    return JSON.parse(p.stdout);
  } catch {
    throw new Error(`inspector ${args.join(' ')}: exit ${p.status}, no JSON answer\nstdout: ${p.stdout}\nstderr: ${p.stderr}`);
  }
}

function step(name, fn) {
  try {
    fn();
    console.log(`ok   ${name}`);
  } catch (err) {
    failed = true;
    console.error(`FAIL ${name}\n${err.stack || err}`);
  }
}

async function stepAsync(name, fn) {
  try {
    await fn();
    console.log(`ok   ${name}`);
  } catch (err) {
    failed = true;
    console.error(`FAIL ${name}\n${err.stack || err}`);
  }
}

const texts = (res) => res.content.filter((c) => c.type === 'text').map((c) => c.text).join('');

step('lists the tools', () => {
  const names = inspect('--method', 'tools/list').tools.map((t) => t.name).sort();
  assert.deepEqual(names, ['check_lesson', 'explain_error', 'list_lessons', 'read_lesson', 'run_python']);
  const run = inspect('--method', 'tools/list').tools.find((t) => t.name === 'run_python');
  assert.equal(run._meta?.ui?.resourceUri, 'ui://kidcoder/classroom.html');
  assert.equal(run.outputSchema?.type, 'object');
});

step('Chinese and emoji round-trip exactly', () => {
  const want = '你好，小明！🐢🌟 Ünïcødé\n';
  const res = inspect('--method', 'tools/call', '--tool-name', 'run_python',
    '--tool-arg', "code=print('你好，' + input() + '！🐢🌟 Ünïcødé')", 'stdin=小明');
  assert.notEqual(res.isError, true, texts(res));
  assert.equal(res.structuredContent.status, 'ok');
  assert.equal(res.structuredContent.stdout, want);
  assert.equal(texts(res), want);
});

step('a turtle drawing comes back as a PNG', () => {
  const res = inspect('--method', 'tools/call', '--tool-name', 'run_python', '--tool-arg',
    'code=import turtle\nfor i in range(5):\n    turtle.forward(100)\n    turtle.right(144)\n');
  assert.notEqual(res.isError, true, texts(res));
  const images = res.content.filter((c) => c.type === 'image');
  assert.equal(images.length, 1, JSON.stringify(res.content.map((c) => c.type)));
  assert.equal(images[0].mimeType, 'image/png');
  const png = Buffer.from(images[0].data, 'base64');
  assert.deepEqual([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'PNG signature');
  assert.equal(png.toString('latin1', 12, 16), 'IHDR');
  const width = png.readUInt32BE(16), height = png.readUInt32BE(20);
  assert.ok(width >= 100 && height >= 100 && width <= 4096 && height <= 4096, `PNG is ${width}×${height}`);
  assert.ok(png.length > 500, `PNG of ${png.length} bytes`);
  // The picture comes once: not again as an SVG resource or in the structured content.
  assert.equal(res.content.filter((c) => c.type === 'resource').length, 0);
  assert.deepEqual(res.structuredContent.images, [{ mime: 'image/svg+xml', data: '' }]);
});

step('a print flood fits a chat host', () => {
  const res = inspect('--method', 'tools/call', '--tool-name', 'run_python',
    '--tool-arg', "code=for i in range(100000):\n    print('line', i)\n", 'lang=en');
  const size = Buffer.byteLength(JSON.stringify(res));
  assert.ok(size <= 64 * 1024, `the answer is ${size} bytes`);
  assert.match(texts(res), /^line 0\n/);
  assert.match(texts(res), /… \d+ lines left out …/);
  assert.match(res.structuredContent.stdout, /… \d+ lines left out …\nline \d+\n/);
});

step('a runaway loop is stopped', () => {
  const res = inspect('--method', 'tools/call', '--tool-name', 'run_python',
    '--tool-arg', 'code=while True:\n    pass\n', 'timeout_seconds=2');
  assert.equal(res.isError, true);
  assert.equal(res.structuredContent.status, 'timeout');
  assert.equal(res.structuredContent.exit_code, 124);
  assert.equal(res.structuredContent.limits.wallSeconds, 2);
  assert.ok(texts(res).includes(res.structuredContent.message), texts(res));
});

step('bad arguments are refused with a clear message', () => {
  let err = inspectError('--method', 'tools/call', '--tool-name', 'run_python', '--tool-arg', 'code=print(1)', 'lang=fr');
  assert.equal(err.message, 'run_python: lang must be "zh" or "en", not "fr"');
  err = inspectError('--method', 'tools/call', '--tool-name', 'write_lesson', '--tool-arg', 'path=a.py', 'code=print(1)');
  // Without --allow-write there is no write_lesson to call.
  assert.match(err.message, /write_lesson.* not found|unknown tool "write_lesson"/, err.message);
});

step('the classroom card is an MCP App', () => {
  const list = inspect('--method', 'resources/list').resources;
  assert.ok(list.some((r) => r.uri === 'ui://kidcoder/classroom.html'), JSON.stringify(list));
  const res = inspect('--method', 'resources/read', '--uri', 'ui://kidcoder/classroom.html');
  assert.equal(res.contents.length, 1);
  const card = res.contents[0];
  assert.equal(card.uri, 'ui://kidcoder/classroom.html');
  assert.equal(card.mimeType, 'text/html;profile=mcp-app');
  const built = readFileSync(join(root, 'frontend/card/classroom.html'), 'utf8');
  assert.equal(card.text, built, 'the card served is the one built');
  assert.match(card.text, /^<!doctype html>/i);
});

step('without Python it still serves, and every run says the fix', () => {
  const noPython = ['--python', join(work, 'no-python3')];
  const names = JSON.parse(spawnInspector(['--method', 'tools/list'], noPython).stdout).tools.map((t) => t.name);
  assert.ok(names.includes('run_python') && names.includes('explain_error'), names.join(', '));
  const p = spawnInspector(['--method', 'tools/call', '--tool-name', 'run_python', '--tool-arg', 'code=print(1)'], noPython);
  const res = JSON.parse(p.stdout);
  assert.equal(res.isError, true);
  assert.equal(res.structuredContent.status, 'sandbox_unavailable');
  assert.equal(res.structuredContent.fix, 'sudo apt install python3');
  assert.match(texts(res), /sudo apt install python3/);
});

// The Inspector only sends well-formed messages, so this step speaks to
// kidcoder mcp over its stdin itself, one line at a time, as a host does.
await stepAsync('a malformed line gets -32700 and the server goes on', async () => {
  const server = spawn(kidcoder, ['mcp', '--lessons', lessons], { stdio: ['pipe', 'pipe', 'ignore'] });
  const lines = createInterface({ input: server.stdout })[Symbol.asyncIterator]();
  const next = async () => JSON.parse((await lines.next()).value);
  const send = (line) => server.stdin.write(line + '\n');
  try {
    send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'e2e', version: '1' } } }));
    assert.equal((await next()).id, 1);
    send(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
    send('{"jsonrpc": "2.0", "id": 2, "method": "tools/list"');
    const reply = await next();
    assert.equal(reply.id, null);
    assert.equal(reply.error.code, -32700);
    send(JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/list' }));
    const list = await next();
    assert.equal(list.id, 3);
    assert.ok(list.result.tools.some((t) => t.name === 'run_python'));
  } finally {
    server.stdin.end();
    server.kill();
  }
});

rmSync(work, { recursive: true, force: true });
if (failed) process.exit(1);
console.log('mcp inspector: all passed');
