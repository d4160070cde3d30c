import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect } from 'storybook/test';
import App from '../test/react/readme/GettingStarted.js';

const meta: Meta = {
  title: 'Getting started',
};
export default meta;

/**
 * The README's "Getting started" app, unchanged (test/react/readme/GettingStarted.tsx):
 * a curtain gathered on seven hooks into folds and a rope beside it, over the
 * default floor. The canvas fills its parent, so the story gives it the page.
 */
export const App_: StoryObj = {
  name: 'App',
  render: () => (
    <div style={{ width: '100%', height: '100vh', minHeight: 480 }}>
      <App />
    </div>
  ),
  play: async ({ canvasElement }) => {
    // The app publishes no probe: judge it by its canvas, which the checks after every story also look at.
    const canvas = canvasElement.querySelector('canvas');
    await expect(canvas).not.toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 500));
    await expect(canvas!.width).toBeGreaterThan(0);
  },
};
