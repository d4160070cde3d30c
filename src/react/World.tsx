import { context as fiberContext, useFrame } from '@react-three/fiber';
import { useContext, useImperativeHandle, useLayoutEffect, useMemo, useRef, useState, type ReactNode, type Ref } from 'react';
import { checkNumber, type Vec3Like } from '../core/math.js';
import { World as CoreWorld } from '../core/world.js';
import { WORLD_DEFAULTS } from '../core/worldOptions.js';
import { SinewContext, type SinewContextValue } from './context.js';
import { ComponentErrorContext, type ComponentErrorSink } from './guarded.js';
import { useLatest } from './hooks/useLatest.js';
import { useStableVec3 } from './hooks/useStableVec3.js';
import { checkSettings, createWorldStore, WORLD_SETTING_DEFAULTS, type WorldSettings, type WorldStore } from './store.js';
import type { PhysicsWorker } from '../worker/physicsWorker.js';
import type { WorldOptions } from '../core/worldOptions.js';
import type { SlowerThanRealTimeReport } from '../core/realTime.js';

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

/**
 * Props of {@link World}: every {@link WorldSettings} field (each changes live,
 * without resetting the simulation; defaults in `WORLD_SETTING_DEFAULTS`), plus
 * these.
 */
export interface WorldProps extends Partial<Omit<WorldSettings, 'gravity'>> {
  /** m/s², default `[0, -9.81, 0]`. */
  gravity?: Vec3Like;
  /** Seconds between publications of `stats` in the store. Default 0.25. */
  statsInterval?: number;
  /**
   * Receives the error of a sinew component inside this world that cannot run
   * (bad props, an unknown particle name), with the component's name
   * (`"<Cloth>"`). That component renders nothing and the rest of the scene
   * keeps running; new props try it again. Without `onError` the error goes to
   * `console.error`.
   *
   * It also receives, once, the world's word that it runs slower than real time
   * (for more than a second; `stats.slowerThanRealTime` follows it throughout), as
   * an error named `SlowerThanRealTime` from `"<World>"` whose `cause` is the
   * `SlowerThanRealTimeReport` (step cost, share of real time, what to change).
   * Without `onError` that goes to `console.warn`.
   */
  onError?: (error: Error, component: string) => void;
  /**
   * Runs the physics in a module Web Worker: `worker={physicsWorker()}`, with `physicsWorker`
   * from `sinew-physics/worker` (an entry of its own, so apps that do not use it do not carry
   * it). The components, hooks and props stay the same; renderers read the latest step the
   * worker finished. Read once per mount: setting or clearing it remounts the `<World>` and
   * everything in it (a new simulation). Step callbacks (`useBeforeStep`, `useAfterStep`), a
   * `useForce` of your own `Force` and the Rapier bridge cannot run in a worker and throw,
   * naming the component. Default: none (the main thread).
   */
  worker?: PhysicsWorker;
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
 *     <Cloth width={20} height={20} spacing={0.05} position={[0, 2, 0]} pin="top" />
 *   </World>
 * </Canvas>
 * ```
 */
export function World(props: WorldProps) {
  // A change between the main thread and a worker is a new world: everything in it mounts again.
  return <WorldRoot key={props.worker ? 'worker' : 'main'} {...props} />;
}

function WorldRoot(props: WorldProps) {
  // Before any other hook: outside a <Canvas> the fiber renderer's own hooks fail with a message that names neither.
  if (useContext(fiberContext) === null) throw new Error(OUTSIDE_CANVAS);
  const settings = validSettings(props);
  const gravity = useStableVec3(props.gravity ?? DEFAULT_GRAVITY, '<World>: gravity')!;
  const statsInterval = checkNumber(props.statsInterval ?? 0.25, '<World>: statsInterval', 0);

  const onError = useLatest(props.onError);
  const [value] = useState<SinewContextValue>(() => {
    if (props.worker) return remoteValue(props.worker, { ...settings, gravity }, onError);
    const world = new CoreWorld({ ...settings, gravity });
    const store = createWorldStore(world, { ...settings, gravity });
    return { world, store, frame: store.getState().frame, worker: null };
  });
  useLayoutEffect(() => {
    const link = value.worker;
    if (link === null) return undefined;
    link.mount();
    return () => link.unmount();
  }, [value]);

  // One value per settings object whose values are the same: the effect runs only on a real change
  // (JSON keeps every number exactly: it writes the shortest text that reads back as the same double).
  const settingsKey = JSON.stringify(settings);
  const applied = useMemo(() => JSON.parse(settingsKey) as typeof settings, [settingsKey]);
  useLayoutEffect(() => {
    value.store.getState().configure({ gravity, ...applied });
  }, [value, gravity, applied]);

  useImperativeHandle(props.ref, () => value.store, [value]);

  const [errors] = useState<ComponentErrorSink>(() => ({
    report: (error, component) => (onError.current ? onError.current(error, component) : console.error(error)),
  }));

  useLayoutEffect(() => {
    const { world } = value;
    // A worker's world times its steps itself and sends its word (see remoteValue).
    if (value.worker !== null) return undefined;
    world.realTime.onSlow = (report) => reportSlow(report, onError.current);
    return () => void (world.realTime.onSlow = undefined);
  }, [value, onError]);

  const sinceStats = useRef(0);
  useFrame((three, delta) => {
    const state = value.store.getState();
    const steps = state.advance(delta);
    if (value.worker !== null) value.worker.frameDone(steps, state.settings.paused);
    // With `frameloop="demand"` nothing else asks for frames: a running simulation does.
    if (!state.settings.paused) three.invalidate();
    sinceStats.current += delta;
    if (sinceStats.current >= statsInterval) {
      sinceStats.current = 0;
      state.refreshStats();
    }
  }, STEP_PRIORITY);

  return (
    <SinewContext.Provider value={value}>
      <ComponentErrorContext.Provider value={errors}>{props.children}</ComponentErrorContext.Provider>
    </SinewContext.Provider>
  );
}

const DEFAULT_GRAVITY = WORLD_DEFAULTS.gravity;

const OUTSIDE_CANVAS =
  "<World> must be rendered inside @react-three/fiber's <Canvas>: it steps in the canvas's frame loop and its bodies are three.js objects. Put it inside <Canvas>…</Canvas>; to step a world without React, use World from 'sinew-physics/core'.";

/** The props' settings with the defaults filled in, checked. */
function validSettings(props: WorldProps): Omit<WorldSettings, 'gravity'> {
  const settings = { ...WORLD_SETTING_DEFAULTS };
  for (const key of Object.keys(WORLD_SETTING_DEFAULTS) as (keyof typeof settings)[]) {
    if (props[key] !== undefined) (settings as Record<string, unknown>)[key] = props[key];
  }
  checkSettings(settings, '<World>');
  return settings;
}

/** The context of a `<World worker>`: a remote world (its worker started once mounted) and a store around its recording proxy. */
function remoteValue(worker: PhysicsWorker, options: WorldOptions & Partial<WorldSettings>, onError: { current: WorldProps['onError'] }): SinewContextValue {
  if (worker === null || typeof worker !== 'object' || typeof (worker as Partial<PhysicsWorker>).open !== 'function')
    throw new TypeError(
      `<World>: worker must be made by physicsWorker() from 'sinew-physics/worker' (import { physicsWorker } from 'sinew-physics/worker'; <World worker={physicsWorker()}>), got ${String(worker)}: the worker support is an entry of its own, so apps that do not use it do not carry it`,
    );
  const link = worker.open(
    options,
    (error) => (onError.current ? onError.current(error, '<World worker>') : console.error(error)),
    (report) => reportSlow(report, onError.current),
  );
  const store = createWorldStore(link.remote.world, options, { shadow: link.remote.shadow });
  return { world: link.remote.world, store, frame: store.getState().frame, worker: link };
}

/** The world's word that it runs slower than real time, as `onError` takes it (a `SlowerThanRealTime` error from `"<World>"`), or a warning without one. */
function reportSlow(report: SlowerThanRealTimeReport, onError: WorldProps['onError']): void {
  if (!onError) return console.warn(report.message);
  const error = new Error(report.message, { cause: report });
  error.name = 'SlowerThanRealTime';
  onError(error, '<World>');
}
