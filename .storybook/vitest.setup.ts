// Checks that run after every story in the browser (the `storybook` vitest project):
// no console errors, a live WebGL canvas that is not blank, and a picture that
// changes over one second (the simulation runs). Also saves a screenshot per story
// under test/browser/__screenshots__/ to look at.
import { afterEach, beforeEach, expect, vi } from 'vitest';
import { page } from 'vitest/browser';
import { comparePictures, describePicture, waitForCanvas } from '../test/browser/picture.js';

let consoleErrors: unknown[][] = [];
// Taken once: a spy left from the story before would otherwise call itself.
const original = console.error.bind(console);

beforeEach(() => {
  consoleErrors = [];
  vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
    consoleErrors.push(args);
    original(...args);
  });
});

afterEach(async (context) => {
  const meta = context.task.meta as { storyId?: string };
  if (!meta.storyId || context.task.result?.state === 'fail') return;
  const tags = (context.task.meta as { tags?: string[] }).tags ?? [];
  if (!tags.includes('no-canvas')) {
    const canvas = await waitForCanvas(document.body);
    expect(canvas.getContext('webgl2') ?? canvas.getContext('webgl'), 'the canvas has a WebGL context').toBeTruthy();
    // Let a few frames render before the first picture.
    await new Promise((resolve) => setTimeout(resolve, 400));
    const before = await page.screenshot({ element: canvas, base64: true, save: false });
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const after = await page.screenshot({ element: canvas, base64: true, path: `../test/browser/__screenshots__/${meta.storyId}.png` });
    const first = await describePicture(before);
    expect(first.nonBackgroundShare, 'the canvas is not blank').toBeGreaterThan(0.01);
    expect(await comparePictures(before, after.base64), 'the picture changes within one second').toBeGreaterThan(0.0005);
  }
  expect(
    consoleErrors.map((args) => args.map(String).join(' ')),
    'no console errors',
  ).toEqual([]);
});
