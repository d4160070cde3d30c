import type { Meta, StoryObj } from '@storybook/react-vite';
import { useState, useSyncExternalStore } from 'react';
import { expect, waitFor } from 'storybook/test';
import { Cloth, Ground, World, type WorldStore } from '../src/react/index.js';
import { Scene } from './support/Scene.js';
import { WorldProbe } from './support/WorldProbe.js';

const meta: Meta = {
  title: 'Performance/Slower than real time',
};
export default meta;

interface SlowArgs {
  /** Particles along each side of the cloth. */
  size: number;
  /** Verlet + relaxation substeps per step. */
  substeps: number;
  /** Most steps one frame runs; the rest of the time is dropped. */
  maxStepsPerAdvance: number;
}

/** The store's flag and ratio, live: what an app's own performance badge would read. */
function Readout({ store, message }: { store: WorldStore; message: string | null }) {
  const stats = useSyncExternalStore(store.subscribe, () => store.getState().stats);
  const slow = stats.slowerThanRealTime;
  return (
    <div data-testid="readout" style={{ maxWidth: 560, padding: '8px 10px', borderRadius: 6, background: slow ? '#5a2420d0' : '#1f3a2ad0', lineHeight: 1.45 }}>
      <div data-testid="flag">
        <b>slowerThanRealTime: {String(slow)}</b> · realTimeRatio {stats.realTimeRatio.toFixed(2)} · {stats.msPerStep.toFixed(1)} ms per step · {stats.particles} particles
      </div>
      {message && (
        <div data-testid="message" style={{ marginTop: 6, opacity: 0.9 }}>
          {message}
        </div>
      )}
    </div>
  );
}

/**
 * A cloth too big for real time (200 × 200 particles, ten substeps): each frame
 * runs `maxStepsPerAdvance` steps and drops the rest of the time, so the cloth
 * swings down in slow motion. After a second of that the world says so, once, to
 * `<World onError>` (shown here) with the step cost and what to change, and the
 * store's `stats.slowerThanRealTime` turns true; it turns false again if the
 * world keeps up (make the cloth smaller in the controls).
 */
function SlowCloth({ size, substeps, maxStepsPerAdvance }: SlowArgs) {
  const [store, setStore] = useState<WorldStore | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const spacing = 2 / (size - 1);
  return (
    <Scene camera={[0, 1.6, 3.6]} target={[0, 1.1, 0]} overlay={store && <Readout store={store} message={message} />}>
      <World ref={setStore} substeps={substeps} maxStepsPerAdvance={maxStepsPerAdvance} onError={(error) => setMessage(error.message)}>
        <Ground />
        {/* Laid flat and held along one edge, it swings down (hung in its rest shape, it would have nothing to do). */}
        <Cloth name="sheet" width={size} height={size} spacing={spacing} corner={[-1, 2.2, -1]} orientation="horizontal" pin="top" color="#6f8fc9" />
        <WorldProbe />
      </World>
    </Scene>
  );
}

export const BigCloth: StoryObj<SlowArgs> = {
  args: { size: 200, substeps: 10, maxStepsPerAdvance: 5 },
  argTypes: {
    size: { control: { type: 'range', min: 10, max: 200, step: 10 } },
    substeps: { control: { type: 'range', min: 1, max: 20, step: 1 } },
    maxStepsPerAdvance: { control: { type: 'range', min: 1, max: 10, step: 1 } },
  },
  render: (args) => <SlowCloth {...args} />,
  play: async ({ canvasElement }) => {
    const message = await waitFor(() => canvasElement.querySelector('[data-testid="message"]')!.textContent!, { timeout: 40_000 });
    await expect(message).toMatch(/^World: running at 0\.\d\d of real time/);
    await expect(message).toMatch(/A step costs \d+\.\d\d ms/);
    await waitFor(() => expect(canvasElement.querySelector('[data-testid="flag"]')!.textContent).toContain('slowerThanRealTime: true'), { timeout: 10_000 });
  },
};
