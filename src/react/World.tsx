import { useFrame } from '@react-three/fiber';
import { useImperativeHandle, useLayoutEffect, useRef, useState, type ReactNode, type Ref } from 'react';
import { checkNumber, type Vec3Like } from '../core/math.js';
import type { StickKernel } from '../core/wasm/stickKernel.js';
import { World as CoreWorld } from '../core/world.js';
import { SinewContext, type SinewContextValue } from './context.js';
import { useStableVec3 } from './hooks/useStableVec3.js';
import { checkSettings, createWorldStore, type WorldSettings, type WorldStore } from './store.js';

/**
 * `useFrame` priority at which every `<World>` steps. Negative, so it runs before
 * the default-priority callbacks (the read-back renderers and users' own) and
 * does not take over rendering from R3F.
 *
 * @example
 * ```ts
 * useFrame(() => steerBeforeTheStep(), STEP_PRIORITY - 1); // runs before the world steps
 * ```
 */
export const STEP_PRIORITY = -50;

/** Props of {@link World}. Every one changes live, without resetting the simulation. */
export interface WorldProps {
  /** m/s², default `[0, -9.81, 0]`. */
  gravity?: Vec3Like;
  /** Fixed step in seconds, default 1/60. */
  timeStep?: number;
  /** Relaxation passes per substep, default 1. */
  iterations?: number;
  /** Verlet + relaxation substeps per step, default 10. */
  substeps?: number;
  /** Per-second drag, default 0. */
  damping?: number;
  /** The paper's square-root approximation in the stick pass. */
  sqrtApprox?: boolean;
  /** What runs the stick pass: `'wasm'` (default; WebAssembly SIMD, `'js'` where it cannot run) or `'js'`. Same positions either way. */
  kernel?: StickKernel;
  /** Most steps per frame; longer stalls are dropped rather than caught up. Default 5. */
  maxStepsPerAdvance?: number;
  /** Seed of the jitter that separates coincident particles; changing it reseeds. */
  seed?: number;
  /** Wall-clock ms per frame for stepping; the world lowers substeps, then iterations, to fit. 0 (default) = off. */
  budgetMs?: number;
  /** Fewest substeps the time budget may use. Default 1. */
  minSubsteps?: number;
  /** Fewest relaxation passes the time budget may use. Default 1. */
  minIterations?: number;
  /** Let bodies that came to rest fall asleep until touched. Default true. */
  sleep?: boolean;
  /** Speed (m/s) below which a particle counts as resting. Default 0.05. */
  sleepSpeed?: number;
  /** Seconds a body must rest before it falls asleep. Default 0.5. */
  sleepTime?: number;
  /**
   * Most speed (m/s) that pushing a particle out of a collider may give it: a
   * body dragged into the floor and let go rises out at this speed instead of
   * being launched. Default 3.
   */
  maxPushOutSpeed?: number;
  /** Approach speeds (m/s) below this do not bounce, so resting contacts settle. Default 0.5. */
  restitutionThreshold?: number;
  /** Stop stepping (the store's `step()` still single-steps). */
  paused?: boolean;
  /** Simulated seconds per real second, e.g. 0.2 for slow motion. Default 1. */
  timeScale?: number;
  /** Blend rendered positions between the last two steps. Default true. */
  interpolate?: boolean;
  /** Seconds between publications of `stats` in the store. Default 0.25. */
  statsInterval?: number;
  /** Receives the world's store, e.g. to pause or single-step from a UI outside the canvas. */
  ref?: Ref<WorldStore>;
  /** The bodies, colliders, forces and anything else simulated in this world. */
  children?: ReactNode;
}

/**
 * A physics world inside an R3F `<Canvas>`: creates a core `World` and a zustand
 * store around it, provides both to its children, and advances the world with a
 * fixed step in `useFrame`. Several `<World>`s can live in one scene.
 *
 * @example
 * ```tsx
 * <Canvas>
 *   <World gravity={[0, -9.81, 0]} substeps={10} timeScale={0.5}>
 *     <Ground />
 *     <Cloth width={20} height={20} spacing={0.05} origin={[0, 2, 0]} pin="top" />
 *   </World>
 * </Canvas>
 * ```
 */
export function World(props: WorldProps) {
  const settings = validSettings(props);
  const gravity = useStableVec3(props.gravity ?? DEFAULT_GRAVITY, '<World>: gravity')!;
  const statsInterval = checkNumber(props.statsInterval ?? 0.25, '<World>: statsInterval', 0);

  const [value] = useState<SinewContextValue>(() => {
    const world = new CoreWorld({ ...settings, gravity });
    const store = createWorldStore(world, { ...settings, gravity });
    return { world, store, frame: store.getState().frame };
  });

  const { timeStep, iterations, substeps, damping, sqrtApprox, kernel, maxStepsPerAdvance, seed, budgetMs, minSubsteps, minIterations, sleep, sleepSpeed, sleepTime, maxPushOutSpeed, restitutionThreshold, paused, timeScale, interpolate } = settings;
  useLayoutEffect(() => {
    value.store
      .getState()
      .configure({ gravity, timeStep, iterations, substeps, damping, sqrtApprox, kernel, maxStepsPerAdvance, seed, budgetMs, minSubsteps, minIterations, sleep, sleepSpeed, sleepTime, maxPushOutSpeed, restitutionThreshold, paused, timeScale, interpolate });
  }, [value, gravity, timeStep, iterations, substeps, damping, sqrtApprox, kernel, maxStepsPerAdvance, seed, budgetMs, minSubsteps, minIterations, sleep, sleepSpeed, sleepTime, maxPushOutSpeed, restitutionThreshold, paused, timeScale, interpolate]);

  useImperativeHandle(props.ref, () => value.store, [value]);

  const sinceStats = useRef(0);
  useFrame((three, delta) => {
    const state = value.store.getState();
    state.advance(delta);
    // With `frameloop="demand"` nothing else asks for frames: a running simulation does.
    if (!state.settings.paused) three.invalidate();
    sinceStats.current += delta;
    if (sinceStats.current >= statsInterval) {
      sinceStats.current = 0;
      state.refreshStats();
    }
  }, STEP_PRIORITY);

  return <SinewContext.Provider value={value}>{props.children}</SinewContext.Provider>;
}

const DEFAULT_GRAVITY = [0, -9.81, 0] as const;

/** The props' settings with the defaults filled in, checked. */
function validSettings(props: WorldProps): Omit<WorldSettings, 'gravity'> {
  const settings = {
    timeStep: props.timeStep ?? 1 / 60,
    iterations: props.iterations ?? 1,
    substeps: props.substeps ?? 10,
    damping: props.damping ?? 0,
    sqrtApprox: props.sqrtApprox ?? false,
    kernel: props.kernel ?? 'wasm',
    maxStepsPerAdvance: props.maxStepsPerAdvance ?? 5,
    seed: props.seed ?? 0x5eed,
    budgetMs: props.budgetMs ?? 0,
    minSubsteps: props.minSubsteps ?? 1,
    minIterations: props.minIterations ?? 1,
    sleep: props.sleep ?? true,
    sleepSpeed: props.sleepSpeed ?? 0.05,
    sleepTime: props.sleepTime ?? 0.5,
    maxPushOutSpeed: props.maxPushOutSpeed ?? 3,
    restitutionThreshold: props.restitutionThreshold ?? 0.5,
    paused: props.paused ?? false,
    timeScale: props.timeScale ?? 1,
    interpolate: props.interpolate ?? true,
  };
  checkSettings(settings, '<World>');
  return settings;
}

