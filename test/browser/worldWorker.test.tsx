import { useFrame } from '@react-three/fiber';
import { useContext, type ReactNode } from 'react';
import { Cloth, Ground, Ragdoll, SinewContext, STEP_PRIORITY, World, type SinewContextValue } from '../../src/react/index.js';
import { physicsWorker } from '../../src/worker/index.js';
import { frames, mountPage, until } from './scene.js';

// Issue 30's React layer in Chromium: a <World worker> starts sinew's module worker (bundled
// by Vite from the sources) under StrictMode, in a real <Canvas> beside a main-thread <World>
// fed the same frame deltas. Both are paused at the same frame; once the worker's last frame
// is read, their positions agree bit for bit. Unmounting terminates the worker.

/** The frame both worlds pause at, before stepping. */
const PAUSE_AT = 90;

/** Counts the canvas's frames (before any world steps) and publishes the context of the <World> it is in. */
function Probe({ into, clock }: { into: { value?: SinewContextValue }; clock?: { frame: number } }) {
  const value = useContext(SinewContext)!;
  into.value = value;
  useFrame(() => {
    if (clock) clock.frame++;
  }, STEP_PRIORITY - 2);
  return null;
}

/** Pauses the surrounding <World> just before it steps at frame `at` of `clock`. */
function PauseAt({ at, clock }: { at: number; clock: { frame: number } }) {
  const { store } = useContext(SinewContext)!;
  useFrame(() => {
    if (clock.frame === at) store.getState().pause();
  }, STEP_PRIORITY - 1);
  return null;
}

function content(clock: { frame: number }, probe: { value?: SinewContextValue }): ReactNode {
  return (
    <>
      <Ground />
      <Cloth name="sheet" width={24} height={24} spacing={0.06} corner={[-0.7, 2, -0.7]} orientation="horizontal" pin="top-corners" />
      <Ragdoll feet={[0.6, 0.6, 0.4]} pose="T" />
      <PauseAt at={PAUSE_AT} clock={clock} />
      <Probe into={probe} />
    </>
  );
}

it('<World worker> in a canvas: a module worker gives the main-thread <World> the same bits, under StrictMode; unmount terminates it', async () => {
  const clock = { frame: 0 };
  const main: { value?: SinewContextValue } = {};
  const remote: { value?: SinewContextValue } = {};
  const errors: string[] = [];
  // A loaded machine may run the main-thread world slower than real time: that is a report, not a failure (both worlds drop the same time).
  const onError = (error: Error, component: string) => void (error.name === 'SlowerThanRealTime' ? undefined : errors.push(`${component}: ${error.message}`));
  const page = await mountPage(
    (handle) => (
      <>
        <Probe into={{}} clock={clock} />
        <World sleep={false} onError={onError}>
          {content(clock, main)}
          {handle}
        </World>
        <World worker={physicsWorker()} sleep={false} onError={onError}>
          {content(clock, remote)}
        </World>
      </>
    ),
    true,
  );
  await until(() => main.value !== undefined && remote.value !== undefined && main.value.store.getState().settings.paused, 'both worlds paused', 30_000);
  const link = remote.value!.worker!;
  expect(link.remote.transport).toBe('transfer'); // this page is not cross-origin isolated
  const plain = main.value!.world;
  // The paused <World worker> keeps reading frames: wait for the worker's last one. The worker
  // shares the machine with the other test files: under a full run on two cores this wait once
  // took over 10 s (3 s alone), so it gets as long as the wait for the pause.
  await until(() => remote.value!.world.stepCount === plain.stepCount && link.remote.stats.behind === 0, "the worker's last frame read", 30_000);
  await frames(2);
  expect(plain.stepCount).toBeGreaterThan(PAUSE_AT - 10); // about one step per frame at 60 Hz
  const n = plain.particles.end * 3;
  const shadow = link.remote.shadow;
  expect(shadow.particles.end).toBe(plain.particles.end);
  let differs = -1;
  for (let i = 0; i < n && differs < 0; i++) if (!Object.is(plain.particles.position[i], shadow.particles.position[i])) differs = i;
  expect(differs).toBe(-1);
  // Still moving at the pause (a resting scene would prove little).
  let moving = 0;
  for (let i = 0; i < n; i++) moving = Math.max(moving, Math.abs(plain.particles.position[i]! - plain.particles.previous[i]!));
  expect(moving).toBeGreaterThan(1e-4);
  expect(errors).toEqual([]);
  page.unmount();
  await until(() => link.remote.isDisposed, 'the worker terminated');
}, 90_000);
