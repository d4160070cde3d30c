import type { Meta, StoryObj } from '@storybook/react-vite';
import { useFrame } from '@react-three/fiber';
import { useEffect, useRef, useState } from 'react';
import { expect, waitFor } from 'storybook/test';
import { Cloth, Ground, Ragdoll, STEP_PRIORITY, World, type WorldStore } from '../src/react/index.js';
import { physicsWorker } from '../src/worker/index.js';
import { Scene } from './support/Scene.js';
import { Staircase } from './support/Staircase.js';

const meta: Meta = {
  title: 'Performance/Physics in a worker',
};
export default meta;

interface WorkerArgs {
  /** Run the physics in a Web Worker (`<World worker={physicsWorker()}>`); toggling it starts the scene again. */
  worker: boolean;
  /** Particles along each side of the cloth. */
  size: number;
  /** Verlet + relaxation substeps per step. */
  substeps: number;
}

/** What the overlay shows, measured on this thread. */
interface Numbers {
  /** Milliseconds per frame the `<World>`'s own frame work took on this thread (its `advance`: steps on the main thread, send and read-back in a worker), mean over the last half second. */
  mainMs: number;
  /** Milliseconds per step the engine took (in the worker when there is one), from the world's stats. */
  physicsMs: number;
  /** Steps per second of wall-clock time. */
  stepsPerSecond: number;
  /** Frames per second the page drew. */
  fps: number;
}

/**
 * Times the `<World>`'s frame work: one callback just before it (`STEP_PRIORITY - 1`), one
 * just after (`STEP_PRIORITY + 1`), and publishes the means twice a second.
 */
function FrameTimer({ store, publish }: { store: WorldStore; publish: (numbers: Numbers) => void }) {
  const started = useRef(0);
  const span = useRef({ start: -1, ms: 0, frames: 0, steps: 0 });
  useFrame(() => {
    started.current = performance.now();
  }, STEP_PRIORITY - 1);
  useFrame(() => {
    const now = performance.now();
    const w = span.current;
    const steps = store.getState().world.stepCount;
    if (w.start < 0) Object.assign(w, { start: now, ms: 0, frames: 0, steps });
    w.ms += now - started.current;
    w.frames++;
    if (now - w.start >= 500) {
      const seconds = (now - w.start) / 1000;
      publish({ mainMs: w.ms / w.frames, physicsMs: store.getState().frame.msPerStep, stepsPerSecond: (steps - w.steps) / seconds, fps: w.frames / seconds });
      Object.assign(w, { start: now, ms: 0, frames: 0, steps });
    }
  }, STEP_PRIORITY + 1);
  return null;
}

function Readout({ worker, numbers }: { worker: boolean; numbers: Numbers | null }) {
  return (
    <div data-testid="readout" style={{ padding: '8px 10px', borderRadius: 6, background: '#1f2a3ad0', lineHeight: 1.45, fontVariantNumeric: 'tabular-nums' }}>
      <div>
        <b>{worker ? 'physics in a worker' : 'physics on the main thread'}</b>
      </div>
      {numbers && (
        <div data-testid="numbers">
          main thread {numbers.mainMs.toFixed(2)} ms/frame · physics {numbers.physicsMs.toFixed(2)} ms/step · <span data-testid="sps">{numbers.stepsPerSecond.toFixed(0)}</span> steps/s ·{' '}
          {numbers.fps.toFixed(0)} fps
        </div>
      )}
    </div>
  );
}

/** Logs the scene's errors; running slower than real time is what the overlay measures here, not an error. */
function reportError(error: Error, component: string) {
  if (error.name !== 'SlowerThanRealTime') console.error(component, error);
}

/**
 * The benchmark's frame scene (a 64 × 64 cloth hung from its corners over a staircase,
 * four ragdolls dropped onto the stairs), with `worker` toggling `<World worker>`. The
 * overlay shows what the main thread spends on the physics each frame (all of it on the
 * main thread; only sending the frame's changes and copying the latest step back in a
 * worker), the engine's cost per step, and the steps per second. Toggling `worker`
 * remounts the `<World>`: the scene starts again.
 */
function WorkerScene({ worker, size, substeps }: WorkerArgs) {
  const [store, setStore] = useState<WorldStore | null>(null);
  const [numbers, setNumbers] = useState<Numbers | null>(null);
  useEffect(() => setNumbers(null), [worker]);
  const spacing = 3.2 / (size - 1);
  return (
    <Scene camera={[1.5, 3, 7]} target={[1.2, 1.6, 0]} overlay={<Readout worker={worker} numbers={numbers} />}>
      <World ref={setStore} worker={worker ? physicsWorker() : undefined} substeps={substeps} onError={reportError}>
        <Ground />
        <Staircase steps={10} rise={0.18} run={0.3} width={3} landing={0.3} topX={-0.3} />
        <Cloth name="sheet" width={size} height={size} spacing={spacing} corner={[-1.6, 4.5, 0.8]} pin="top-corners" color="#6f8fc9" />
        {[0, 1, 2, 3].map((k) => (
          <Ragdoll key={k} feet={[0.4 + k * 0.6, 1.2 + k * 0.2, -0.6 + (k % 2) * 1.2]} pose={k % 2 === 0 ? 'standing' : 'T'} color="#d9a066" />
        ))}
        {store && <FrameTimer store={store} publish={setNumbers} />}
      </World>
    </Scene>
  );
}

export const FrameScene: StoryObj<WorkerArgs> = {
  args: { worker: true, size: 64, substeps: 10 },
  argTypes: {
    worker: { control: 'boolean' },
    size: { control: { type: 'range', min: 16, max: 200, step: 16 } },
    substeps: { control: { type: 'range', min: 1, max: 20, step: 1 } },
  },
  render: (args) => <WorkerScene {...args} />,
  play: async ({ canvasElement }) => {
    // The worker runs and its steps come back: the step count climbs.
    await waitFor(() => expect(Number(canvasElement.querySelector('[data-testid="sps"]')?.textContent ?? 0)).toBeGreaterThan(0), { timeout: 20_000 });
  },
};
