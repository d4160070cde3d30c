// Opens the pages bundle.mjs built (pages/*/dist) in headless Chromium, served
// on 127.0.0.1 only: the README's Getting-started app, and a scene whose cloth
// has a bad prop inside a <World onError>. A user's error monitor must see no
// crash in either: nothing may reach window.onerror or the window's error
// event, and no console message may say "Uncaught"; the bad prop must reach
// onError exactly once. Screenshots go to the directory given as the argument.
//   node drive.mjs SCREENSHOT_DIR
import { createReadStream, existsSync, mkdirSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join, normalize, resolve } from 'node:path';
import { chromium } from 'playwright-core';

const [shots] = process.argv.slice(2);
mkdirSync(shots, { recursive: true });
const pages = resolve('pages');
const types = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.wasm': 'application/wasm' };

const server = createServer((request, response) => {
  const path = join(pages, normalize(decodeURIComponent(new URL(request.url, 'http://x').pathname)));
  const file = path.endsWith('/') ? join(path, 'index.html') : path;
  if (!file.startsWith(pages) || !existsSync(file) || !statSync(file).isFile()) {
    response.writeHead(404).end();
    return;
  }
  response.writeHead(200, { 'content-type': types[extname(file)] ?? 'application/octet-stream' });
  createReadStream(file).pipe(response);
});
await new Promise((done) => server.listen(0, '127.0.0.1', done));
const origin = `http://127.0.0.1:${server.address().port}`;

const browser = await chromium.launch({
  executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--ignore-gpu-blocklist', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
});

/** Loads `name`, lets it run for `seconds`, and returns what a crash monitor would have seen. */
async function visit(name, seconds) {
  const page = await browser.newPage({ viewport: { width: 1000, height: 700 } });
  // Installed before any of the page's scripts: what window.onerror and the error event receive.
  await page.addInitScript(() => {
    globalThis.sinewCrashes = [];
    globalThis.addEventListener('error', (event) => globalThis.sinewCrashes.push(`error event: ${event.message}`));
    globalThis.addEventListener('unhandledrejection', (event) => globalThis.sinewCrashes.push(`unhandled rejection: ${event.reason}`));
    globalThis.onerror = (message) => void globalThis.sinewCrashes.push(`window.onerror: ${message}`);
  });
  const messages = [];
  page.on('console', (message) => messages.push(`${message.type()}: ${message.text()}`));
  page.on('pageerror', (error) => messages.push(`Uncaught (pageerror): ${error.message}`));
  await page.goto(`${origin}/${name}/dist/`);
  await page.waitForSelector('canvas', { timeout: 30_000 });
  await page.waitForTimeout(seconds * 1000);
  await page.screenshot({ path: join(shots, `${name}.png`) });
  const seen = await page.evaluate(() => ({ crashes: globalThis.sinewCrashes, reported: globalThis.sinewReported ?? null }));
  await page.close();
  return { ...seen, console: messages };
}

const failures = [];
const uncaught = (name, seen) => {
  for (const crash of seen.crashes) failures.push(`${name}: ${crash}`);
  for (const line of seen.console.filter((text) => text.includes('Uncaught'))) failures.push(`${name}: console ${line}`);
};

const started = await visit('with', 4);
uncaught('Getting started', started);
const errors = started.console.filter((line) => line.startsWith('error:'));
if (errors.length > 0) failures.push(`Getting started: console errors ${JSON.stringify(errors)}`);

const bad = await visit('bad-props', 3);
uncaught('bad props', bad);
// On a loaded machine the page's frames run slow and the world says so too (its real-time report): that is no crash.
const badReports = (bad.reported ?? []).filter((message) => !message.startsWith('World: running at '));
if (badReports.length !== 1 || !/width/.test(badReports[0])) failures.push(`bad props: <World onError> got ${JSON.stringify(bad.reported)}, expected one error naming width`);

await browser.close();
server.close();
console.log(`drive.mjs: Getting started ran ${started.console.length ? `(console: ${JSON.stringify(started.console)})` : 'with a silent console'}; bad props reported ${JSON.stringify(bad.reported)}`);
if (failures.length > 0) {
  console.error(`drive.mjs: a user's error monitor would count crashes:\n  ${failures.join('\n  ')}`);
  process.exit(1);
}
