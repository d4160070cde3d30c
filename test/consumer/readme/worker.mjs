// Opens the worker scene bundle.mjs built (pages/worker/dist: WorkerScene.tsx, a
// <World worker={physicsWorker()}> as the README writes it, built by Vite with no
// configuration) in headless Chromium twice, served on 127.0.0.1 only: once
// cross-origin isolated (COOP same-origin, COEP require-corp) and once not. Each
// time the page must start the worker from the worker file the build emitted, use
// the shared transport when isolated and the transfer one otherwise, read back a
// free-falling particle whose height follows y0 - g t²/2 (t = steps × 1/60 s) and
// equals, bit for bit, a main-thread World of sinew-physics/core stepped as often,
// falling over at least five readings, and throw nothing at the page (uncaught
// errors, console errors, <World onError> reports other than running slower than
// real time). Screenshots go to the directory given as the argument.
//   node worker.mjs SCREENSHOT_DIR
import { createReadStream, existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join, normalize, resolve } from 'node:path';
import { chromium } from 'playwright-core';
import { World } from 'sinew-physics/core';

const started = performance.now();
const [shots] = process.argv.slice(2);
mkdirSync(shots, { recursive: true });
const dist = resolve('pages/worker/dist');
const [workerFile] = readdirSync(join(dist, 'assets')).filter((file) => file.startsWith('workerMain'));
if (!workerFile) throw new Error('worker.mjs: pages/worker/dist/assets holds no workerMain-….js (run bundle.mjs first)');
const types = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.wasm': 'application/wasm' };
const isolation = { 'cross-origin-opener-policy': 'same-origin', 'cross-origin-embedder-policy': 'require-corp' };

// /isolated/… and /plain/… both serve dist/; only the first with the isolation headers.
const requested = [];
const server = createServer((request, response) => {
  const [, mode, ...rest] = decodeURIComponent(new URL(request.url, 'http://x').pathname).split('/');
  const path = join(dist, normalize(`/${rest.join('/')}`));
  const file = path.endsWith('/') ? join(path, 'index.html') : path;
  if ((mode !== 'isolated' && mode !== 'plain') || !file.startsWith(dist) || !existsSync(file) || !statSync(file).isFile()) {
    response.writeHead(404).end();
    return;
  }
  requested.push(`${mode}/${file.slice(dist.length + 1)}`);
  response.writeHead(200, { 'content-type': types[extname(file)] ?? 'application/octet-stream', ...(mode === 'isolated' ? isolation : {}) });
  createReadStream(file).pipe(response);
});
await new Promise((done) => server.listen(0, '127.0.0.1', done));
const origin = `http://127.0.0.1:${server.address().port}`;

const browser = await chromium.launch({
  executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--ignore-gpu-blocklist', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
});

/** Where a particle that starts at rest at `from` is after `steps` steps of a main-thread World with the scene's settings. */
function mainThread(from, steps) {
  const world = new World({ substeps: 10, sleep: true, sleepSpeed: 0.05 });
  const id = world.addParticle({ position: from });
  for (let i = 0; i < steps; i++) world.step();
  return world.getPosition(id);
}

const failures = [];
const summary = [];

/** Loads the scene in `mode`, reads the probe until the particle has fallen for 60 steps, and checks what it saw. */
async function visit(mode) {
  const fail = (message) => failures.push(`${mode}: ${message}`);
  const context = await browser.newContext({ viewport: { width: 800, height: 600 } });
  const page = await context.newPage();
  await page.addInitScript(() => {
    globalThis.sinewCrashes = [];
    globalThis.addEventListener('error', (event) => globalThis.sinewCrashes.push(`error event: ${event.message}`));
    globalThis.addEventListener('unhandledrejection', (event) => globalThis.sinewCrashes.push(`unhandled rejection: ${event.reason}`));
  });
  const messages = [];
  const workers = [];
  page.on('console', (message) => messages.push(`${message.type()}: ${message.text()}`));
  page.on('pageerror', (error) => messages.push(`pageerror: ${error.message}`));
  page.on('worker', (worker) => {
    workers.push(worker.url());
    worker.on('console', (message) => messages.push(`worker ${message.type()}: ${message.text()}`));
  });
  await page.goto(`${origin}/${mode}/`);
  await page.waitForSelector('canvas', { timeout: 30_000 });
  await page.waitForFunction(() => globalThis.sinewWorker !== undefined, null, { timeout: 30_000 });

  // Readings between frames, each one frame's read-back (its step count and positions come together).
  const readings = [];
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    const probe = await page.evaluate(() => globalThis.sinewWorker());
    if (probe.stepCount > (readings.at(-1)?.stepCount ?? 0)) readings.push(probe);
    if (readings.length >= 5 && probe.stepCount >= 60) break;
    await page.waitForTimeout(100);
  }
  await page.screenshot({ path: join(shots, `worker-${mode}.png`) });
  const { crashes, reported } = await page.evaluate(() => ({ crashes: globalThis.sinewCrashes, reported: globalThis.sinewReported }));
  await context.close();

  const isolated = mode === 'isolated';
  const last = readings.at(-1);
  if (!workers.some((url) => url === `${origin}/${mode}/assets/${workerFile}`)) fail(`no worker started from assets/${workerFile} (workers: ${JSON.stringify(workers)})`);
  if (!requested.includes(`${mode}/assets/${workerFile}`)) fail(`the page never fetched assets/${workerFile}`);
  if (last === undefined || last.isolated !== isolated) fail(`crossOriginIsolated is ${last?.isolated}, expected ${isolated}`);
  if (last === undefined || last.transport !== (isolated ? 'shared' : 'transfer')) fail(`transport ${last?.transport}, expected ${isolated ? 'shared' : 'transfer'}`);
  if (readings.length < 5 || last.stepCount < 60) fail(`read back ${readings.length} frames with new steps, the last at step ${last?.stepCount}; expected 5 and step 60 within 20 s`);
  for (const [i, { stepCount, position, from, framesRead }] of readings.entries()) {
    const t = stepCount / 60;
    const expected = mainThread(from, stepCount);
    // Free fall from rest: the integrator follows y0 - g t²/2 to rounding, which grows with the fall
    // (measured in Node from y0 = 2 m: 5e-12 m after 1 s, 2.4e-7 m after 20 s, always under 6.1e-10 t²).
    const closedForm = from[1] - (9.81 * t * t) / 2;
    if (position.some((value, axis) => value !== expected[axis])) fail(`step ${stepCount}: the particle is at ${position}, a main-thread World at ${expected}`);
    if (!(Math.abs(position[1] - closedForm) <= 1e-9 * (1 + t * t))) fail(`step ${stepCount}: y = ${position[1]}, free fall gives ${closedForm}`);
    if (i > 0 && !(position[1] < readings[i - 1].position[1] && framesRead > readings[i - 1].framesRead)) fail(`step ${stepCount}: the particle did not fall since the last reading`);
  }
  for (const crash of crashes) fail(crash);
  for (const line of messages.filter((text) => /^(error|pageerror|worker error)/.test(text) || text.includes('Uncaught'))) fail(`console ${line}`);
  // On a loaded machine the worker's world may run slower than real time and say so: that is no error.
  for (const message of reported.filter((text) => !text.startsWith('SlowerThanRealTime: '))) fail(`<World onError> got ${message}`);
  summary.push(`${mode}: ${last?.transport} transport, ${readings.length} readings to step ${last?.stepCount} (y ${last?.position[1].toFixed(3)} m)`);
}

await visit('isolated');
await visit('plain');
await browser.close();
server.close();
console.log(`worker.mjs: ${summary.join('; ')}; worker file assets/${workerFile}; ${((performance.now() - started) / 1000).toFixed(1)} s`);
if (failures.length > 0) {
  console.error(`worker.mjs: <World worker> in a built app:\n  ${failures.join('\n  ')}`);
  process.exit(1);
}
