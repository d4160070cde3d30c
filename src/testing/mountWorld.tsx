import { useStore, type RootState } from '@react-three/fiber';
import { create, type ReactThreeTest } from '@react-three/test-renderer';
import { act, createRef, StrictMode, useLayoutEffect, type ReactNode, type RefObject } from 'react';
import { checkInteger, checkNumber, type Vec3 } from '../core/math.js';
import type { World as CoreWorld } from '../core/world.js';
import type { ParticleRef } from '../react/particleRef.js';
import type { WorldStore } from '../react/store.js';
import { World, type WorldProps } from '../react/World.js';
import { track } from './cleanup.js';
import { leftovers } from './leftovers.js';
import { particleIn, type TestScene } from './names.js';

/**
 * The props of a `<World>` that a test sets: all but `children` and `ref`.
 *
 * @example
 * ```tsx
 * const props: WorldSceneProps = { gravity: [0, -1.62, 0], damping: 0.5 };
 * await scene.update(<Moonwalk />, props);
 * ```
 */
export type WorldSceneProps = Omit<WorldProps, 'children' | 'ref'>;

/**
 * Options of {@link mountWorld}: the `<World>`'s props, and whether to mount under `<StrictMode>`.
 *
 * @example
 * ```tsx
 * const scene = await mountWorld(<Flag />, { strict: true, substeps: 20, sleep: false });
 * ```
 */
export interface MountOptions extends WorldSceneProps {
  /**
   * Mount under React's `<StrictMode>`, which mounts every effect twice: a
   * component that registers something twice, or removes it only once, shows
   * up in {@link MountedWorld.leftovers} and in duplicated particles. Default false.
   */
  strict?: boolean;
}

/**
 * A `<World>` mounted by {@link mountWorld}: no canvas, no WebGL, no clock of
 * its own. Nothing moves until the test runs frames; every frame runs the
 * scene's `useFrame` callbacks (the world's stepping, read-back renderers, your
 * own) once, in priority order, with the `delta` the test gives.
 *
 * @example
 * ```tsx
 * const scene: MountedWorld = await mountWorld(<Ragdoll name="doll" position={[0, 1, 0]} />);
 * await scene.frames(10); // ten frames at 60 Hz
 * await scene.seconds(2); // two more seconds of world time
 * const [x, y, z] = scene.position('doll.leftHand');
 * scene.store.getState().pause();
 * expect(await scene.unmount()).toEqual([]);
 * ```
 */
export interface MountedWorld extends TestScene {
  /** The `@react-three/test-renderer` renderer, to query the three.js scene (`renderer.scene.findAllByType('Mesh')`) or fire pointer events. */
  readonly renderer: ReactThreeTest.Renderer;
  /** The `<World>`'s store: settings, names, stats, `pause()`, `step()`. */
  readonly store: WorldStore;
  /** The core world the `<World>` steps: particle arrays, sticks, bodies. */
  readonly world: CoreWorld;
  /** False once {@link MountedWorld.unmount} (or `cleanup`) ran. */
  readonly mounted: boolean;
  /** Renders the same `<World>` with new children and, when given, new props (which replace the old ones). */
  update(children: ReactNode, props?: WorldSceneProps): Promise<void>;
  /**
   * Runs `count` frames of `delta` seconds each (default 1/60): each frame calls
   * every `useFrame` callback once, in priority order, inside React's `act()`,
   * and advances `state.clock.elapsedTime` by `delta`. How many fixed steps that
   * is follows from the `<World>`'s `timeStep`, `timeScale` and `paused`, as on screen.
   */
  frames(count: number, delta?: number): Promise<void>;
  /**
   * Simulates `seconds` of world time: `seconds / timeStep` fixed steps (rounded
   * to whole steps), one per frame, whatever the `timeScale`. Throws while the
   * world is paused or at `timeScale` 0, where no world time passes.
   */
  seconds(seconds: number): Promise<void>;
  /** The live particle id of a handle, id or name (`"hand"`, `"rope.end"`, `"doll.leftHand"`); an error names what is missing. */
  particle(ref: ParticleRef): number;
  /** Where the particle is after the latest step (not interpolated), in m. */
  position(ref: ParticleRef): Vec3;
  /** The particle's velocity over the latest substep, in m/s. */
  velocity(ref: ParticleRef): Vec3;
  /** What is still registered with the world and store (see {@link leftovers}); empty when nothing is. */
  leftovers(): string[];
  /** Unmounts the scene and the `<World>`; returns what was left registered (see {@link leftovers}), `[]` when nothing. */
  unmount(): Promise<string[]>;
}

/**
 * Mounts `<World {...props}>{children}</World>` in the R3F test renderer, with no
 * canvas and no WebGL. Nothing moves but in the frames the test runs, with
 * `frames()` or `seconds()`; read it with `position()` and `velocity()`.
 *
 * The `<World>` mounts empty and the children arrive in an update, because
 * StrictMode double-mounts the effects of components added by an update, not
 * those of a root's very first render; so `strict: true` really exercises it.
 * Sets `globalThis.IS_REACT_ACT_ENVIRONMENT` when nothing set it.
 *
 * @example
 * ```tsx
 * const scene = await mountWorld(<Rope name="rope" from={[0, 2, 0]} to={[1, 2, 0]} segments={10} pinStart />, { strict: true });
 * await scene.seconds(2);
 * expect(scene.position('rope.end')[1]).toBeLessThan(2);
 * expect(await scene.unmount()).toEqual([]);
 * ```
 */
export function mountWorld(children: ReactNode, options: MountOptions = {}): Promise<MountedWorld> {
  return mountScene(children, options, (scene) => scene, 'mountWorld');
}

/** @internal {@link mountWorld} with the user's children passed through `wrap` (which {@link mountHook} uses to add its probe). */
export async function mountScene(children: ReactNode, options: MountOptions, wrap: (children: ReactNode) => ReactNode, who: string): Promise<WorldMount> {
  if (options === null || typeof options !== 'object') throw new TypeError(`${who}: options must be an object of <World> props, got ${String(options)}`);
  const { strict = false, ...props } = options;
  if (typeof strict !== 'boolean') throw new TypeError(`${who}: strict must be true or false, got ${String(strict)}`);
  // React warns on every update made outside act() unless told that act() is in use (what a setup file usually does).
  const env = globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean };
  env.IS_REACT_ACT_ENVIRONMENT ??= true;
  const store = createRef<WorldStore>();
  const root = createRef<RootStore>();
  // A component that fails renders nothing in an app (see `<World onError>`); in a test it fails the mount or update.
  // A world slower than real time is no failure here: a test chooses the frames' deltas.
  const failed: Error[] = [];
  const onError = (error: Error) => void (error.name === 'SlowerThanRealTime' ? undefined : failed.push(error));
  const tree = (node: ReactNode, p: WorldSceneProps, empty = false) => {
    const scene = (
      <>
        <RootProbe into={root} />
        <World ref={store} onError={onError} {...p}>
          {empty ? null : wrap(node)}
        </World>
      </>
    );
    return strict ? <StrictMode>{scene}</StrictMode> : scene;
  };
  const renderer = await create(tree(null, props, true));
  const mount = new WorldMount(renderer, store.current!, root.current!, props, tree, failed);
  track(mount, true);
  try {
    await renderer.update(tree(children, props));
    mount.throwFailure();
  } catch (error) {
    // The scene's error is the one to report, not whatever tearing down the half-mounted root says.
    await mount.unmount().catch(() => undefined);
    throw error;
  }
  return mount;
}

type RootStore = ReturnType<typeof useStore>;

/** Hands the R3F root's store to the mount, whose frames call its `useFrame` subscribers. */
function RootProbe({ into }: { into: RefObject<RootStore | null> }) {
  const root = useStore();
  useLayoutEffect(() => {
    into.current = root;
  }, [into, root]);
  return null;
}

/** @internal The object {@link mountWorld} returns. */
export class WorldMount implements MountedWorld {
  readonly world: CoreWorld;
  #live = true;
  #props: WorldSceneProps;

  constructor(
    readonly renderer: ReactThreeTest.Renderer,
    readonly store: WorldStore,
    private readonly root: RootStore,
    props: WorldSceneProps,
    private readonly tree: (children: ReactNode, props: WorldSceneProps) => ReactNode,
    private readonly failed: Error[] = [],
  ) {
    this.world = store.getState().world;
    this.#props = props;
  }

  get mounted(): boolean {
    return this.#live;
  }

  async update(children: ReactNode, props?: WorldSceneProps): Promise<void> {
    this.check('update');
    if (props !== undefined) this.#props = props;
    await this.renderer.update(this.tree(children, this.#props));
    this.throwFailure();
  }

  /** @internal Throws the first error a sinew component in the scene reported since the last call. */
  throwFailure(): void {
    const error = this.failed.shift();
    this.failed.length = 0;
    if (error) throw error;
  }

  async frames(count: number, delta = 1 / 60): Promise<void> {
    this.check('frames');
    checkInteger(count, 'frames: count', 0);
    if (checkNumber(delta, 'frames: delta', 0) === 0) throw new RangeError('frames: delta must be a number of seconds > 0, got 0');
    for (let i = 0; i < count; i++) await act(async () => runFrame(this.root.getState(), delta));
  }

  async seconds(seconds: number): Promise<void> {
    this.check('seconds');
    checkNumber(seconds, 'seconds: seconds', 0);
    const { timeStep, timeScale, paused } = this.store.getState().settings;
    if (paused)
      throw new Error(
        'seconds: the <World> is paused, so no world time passes; resume it (store.getState().resume() or the paused prop), step it with store.getState().step(n), or run frames() to see that it stays still',
      );
    if (timeScale === 0) throw new Error('seconds: the <World> has timeScale 0, so no world time passes; set a timeScale > 0, or run frames() to see that it stays still');
    await this.frames(Math.round(seconds / timeStep), timeStep / timeScale);
  }

  particle(ref: ParticleRef): number {
    this.check('particle');
    return particleIn(this, ref, 'particle');
  }

  position(ref: ParticleRef): Vec3 {
    this.check('position');
    return this.world.getPosition(particleIn(this, ref, 'position'));
  }

  velocity(ref: ParticleRef): Vec3 {
    this.check('velocity');
    return this.world.getVelocity(particleIn(this, ref, 'velocity'));
  }

  leftovers(): string[] {
    return leftovers(this);
  }

  async unmount(): Promise<string[]> {
    this.check('unmount');
    this.#live = false;
    track(this, false);
    await this.renderer.unmount();
    return leftovers(this);
  }

  /** Throws once the scene is unmounted: stepping, re-rendering or reading it then would do nothing useful, silently. */
  private check(what: string): void {
    if (!this.#live) throw new Error(`${what}: this <World> was unmounted (by unmount() or cleanup()); mount a new one with mountWorld()`);
  }
}

/** One frame as R3F's loop runs it with `frameloop="never"`, without drawing: the clock moves by `delta`, then every `useFrame` callback runs once in priority order. */
function runFrame(state: RootState, delta: number): void {
  state.clock.oldTime = state.clock.elapsedTime;
  state.clock.elapsedTime += delta;
  const subscribers = state.internal.subscribers;
  for (let i = 0; i < subscribers.length; i++) {
    const subscriber = subscribers[i]!;
    subscriber.ref.current(subscriber.store.getState(), delta);
  }
}
