// Drives the README scene (built by Vite from the installed package) in headless
// Chromium the way a user would: waits for the scene to settle, drags the ragdoll
// 200 px down into the floor with real pointer events, holds it there, lets go,
// and reads what the page measured (src/withChecks.tsx). Screenshots go to the
// directory given as the second argument; the run fails when a check fails.
import { mkdirSync } from 'node:fs';
import { chromium } from 'playwright-core';

const [url, shots] = process.argv.slice(2);
mkdirSync(shots, { recursive: true });
const browser = await chromium.launch({
  executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--ignore-gpu-blocklist'],
});
const fail = async (message) => {
  console.error(`test/consumer/app/drive.mjs: ${message}`);
  await page.screenshot({ path: `${shots}/failure.png` }).catch(() => {});
  await browser.close();
  process.exit(1);
};
const page = await browser.newPage({ viewport: { width: 1000, height: 700 } });
const pageErrors = [];
page.on('pageerror', (error) => pageErrors.push(error.message));
page.on('console', (message) => message.type() === 'error' && pageErrors.push(message.text()));

const read = async () => JSON.parse((await page.textContent('#checks')) || '{}');
const waitFor = async (phase, seconds) => {
  const until = Date.now() + seconds * 1000;
  for (;;) {
    const state = await read().catch(() => ({}));
    if (state.phase === phase) return state;
    if (Date.now() > until) await fail(`the scene did not reach "${phase}" in ${seconds} s; last state ${JSON.stringify(state)}; page errors ${JSON.stringify(pageErrors)}`);
    await page.waitForTimeout(100);
  }
};

await page.goto(url);
const ready = await waitFor('ready', 120);
await page.screenshot({ path: `${shots}/1-settled.png` });

// Grab the chest and pull it 200 px down, below the floor, over half a second.
const [x, y] = ready.grabAt;
await page.mouse.move(x, y);
await page.mouse.down();
for (let i = 1; i <= 10; i++) {
  await page.mouse.move(x, y + 20 * i);
  await page.waitForTimeout(50);
}
await waitFor('held', 30);
await page.waitForTimeout(1500);
await page.screenshot({ path: `${shots}/2-held-in-floor.png` });
await page.mouse.up();

const result = await waitFor('done', 120);
await page.screenshot({ path: `${shots}/3-after-release.png` });
await browser.close();
console.log(`test/consumer/app/drive.mjs: README scene in Chromium: ${JSON.stringify(result)}`);
if (!result.ok) {
  console.error('test/consumer/app/drive.mjs: a check failed (the false ones above)');
  process.exit(1);
}
