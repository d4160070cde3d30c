import { createStore, type StoreApi } from 'zustand/vanilla';
import { checkBoolean, checkInteger, checkNumber, type Vec3 } from '../core/math.js';
import type { World } from '../core/world.js';
import { checkSolverSettings, WORLD_DEFAULTS, type SolverSettings } from '../core/worldOptions.js';

/**
 * The settings a `<World>` applies to its core world; each is a `<World>` prop
 * and changes live. The solver's are the core's {@link SolverSettings} (one
 * type, one check: `checkSolverSettings`); `<World>` adds gravity and its
 * frame loop's. Defaults: {@link WORLD_SETTING_DEFAULTS} (sleeping on, at a
 * looser rest speed of 0.05 m/s, unlike the core's).
 */
export interface WorldSettings extends SolverSettings {
  /** Gravity (m/s²) from the `<World>` prop; a mounted `<Gravity>` overrides it. Default `[0, -9.81, 0]`. */
  gravity: Vec3;
  /** Stop stepping (the store's `step()` still single-steps). Default false. */
  paused: boolean;
  /** Simulated seconds per real second, e.g. 0.25 for slow motion; the fixed step stays. Default 1. */
  timeScale: number;
  /** Blend rendered positions between the last two steps, so motion is smooth at any refresh rate. Default true. */
  interpolate: boolean;
}

/**
 * The `<World>` defaults, derived from the core's one definition
 * (`WORLD_DEFAULTS`): the same solver, with sleeping on at a looser rest speed
 * (an app's scene holds many resting things, and its colliders come and go as
 * components, which wakes everything), plus the frame loop's own settings.
 */
export const WORLD_SETTING_DEFAULTS: Readonly<Omit<WorldSettings, 'gravity'>> = {
  timeStep: WORLD_DEFAULTS.timeStep,
  iterations: WORLD_DEFAULTS.iterations,
  substeps: WORLD_DEFAULTS.substeps,
  damping: WORLD_DEFAULTS.damping,
  sqrtApprox: WORLD_DEFAULTS.sqrtApprox,
  kernel: WORLD_DEFAULTS.kernel,
  maxStepsPerAdvance: WORLD_DEFAULTS.maxStepsPerAdvance,
  seed: WORLD_DEFAULTS.seed,
  budgetMs: WORLD_DEFAULTS.budgetMs,
  minSubsteps: WORLD_DEFAULTS.minSubsteps,
  minIterations: WORLD_DEFAULTS.minIterations,
  sleep: true,
  sleepSpeed: 0.05,
  sleepTime: WORLD_DEFAULTS.sleepTime,
  maxPushOutSpeed: WORLD_DEFAULTS.maxPushOutSpeed,
  restitutionThreshold: WORLD_DEFAULTS.restitutionThreshold,
  tethers: WORLD_DEFAULTS.tethers,
  paused: false,
  timeScale: 1,
  interpolate: true,
};

/**
 * Calls `onChange` whenever what names can resolve to may have changed: a body or
 * particle was added, re-created or removed, or a name was given or taken back.
 * Returns the unsubscribe function.
 *
 * @example
 * ```ts
 * useEffect(() => subscribeRegistry(store, (state) => resync(state)), [store]);
 * ```
 */
export function subscribeRegistry(store: WorldStore, onChange: (state: WorldState) => void): () => void {
  return store.subscribe((state, previous) => {
    if (state.registryVersion !== previous.registryVersion || state.particles !== previous.particles || state.bodies !== previous.bodies) onChange(state);
  });
}

/**
 * Throws unless every setting is in range, naming `who` and the setting:
 * `<World>: iterations must be an integer >= 1, got 0`.
 *
 * @example
 * ```ts
 * checkSettings({ ...store.getState().settings, iterations: 4 }, 'configure');
 * ```
 */
export function checkSettings(settings: Omit<WorldSettings, 'gravity'>, who: string): void {
  const s = settings;
  // Every solver setting, given or not: a <World> always has them all.
  for (const key of Object.keys(WORLD_SETTING_DEFAULTS) as (keyof typeof WORLD_SETTING_DEFAULTS)[]) {
    if (s[key] === undefined) throw new TypeError(`${who}: ${key} must be given, got undefined`);
  }
  checkSolverSettings(s, who);
  checkNumber(s.timeScale, `${who}: timeScale`, 0);
  for (const flag of ['paused', 'interpolate'] as const) checkBoolean(s[flag], `${who}: ${flag}`);
}

/** Numbers about a world, published a few times a second (not per frame, so subscribers re-render rarely). */
export interface WorldStoreStats {
  /** Live particles. */
  particles: number;
  /** Live sticks, pins and user constraints (see `World.constraintCount`). */
  constraints: number;
  /** Static colliders. */
  colliders: number;
  /** Live bodies (cloths, ropes, rigid bodies, ragdolls...). */
  bodies: number;
  /** Steps taken since the world was created. */
  steps: number;
  /** Simulated seconds. */
  time: number;
  /** Mean wall-clock milliseconds of one step, smoothed over recent frames. */
  msPerStep: number;
  /** Substeps of the latest step (fewer than the setting under a time budget). */
  substepsUsed: number;
  /** Relaxation passes of the latest step (fewer than the setting under a time budget). */
  iterationsUsed: number;
  /** Bodies simulated after the latest step. */
  awakeBodies: number;
  /** Bodies asleep after the latest step. */
  sleepingBodies: number;
  /** Simulated seconds per second of real time (scaled by `timeScale`), measured over windows of a second: 1 while the world keeps up. */
  realTimeRatio: number;
  /** True while the world runs slower than real time (see `WorldStats.slowerThanRealTime`). */
  slowerThanRealTime: boolean;
}

/**
 * What renderers read every frame. It is one object mutated in place (never
 * replaced), so reading it costs nothing and changing it re-renders nothing.
 */
export interface FrameInfo {
  /** Blend factor from `world.stepStartPositions` to `world.positions` for this frame (1 = current positions). */
  alpha: number;
  /** Steps run in the latest frame. */
  steps: number;
  /** Smoothed milliseconds per step, updated every frame that steps. */
  msPerStep: number;
}

/** A particle registered under a name; `id` follows the particle if it is re-created. */
export interface NamedParticle {
  /** The particle's id in the core world (-1 while it does not exist). */
  readonly id: number;
}

/** A body registered under a name, so its particles can be named as `"body.part"`. */
export interface BodyEntry {
  /** The body's kind (`'cloth'`, `'rope'`, `'ragdoll'`...). */
  readonly kind: string;
  /** First particle id of the body's contiguous range (-1 while it does not exist). */
  readonly first: number;
  /** Particles in the range (0 while it does not exist). */
  readonly count: number;
  /** Maps a part name (e.g. a ragdoll's `"leftHand"`) to a particle id; numeric parts index the range. */
  resolve?(part: string): number | undefined;
}

/** The state of a world store: settings, registry, stats and actions. */
export interface WorldState {
  /** The core world this store drives. */
  readonly world: World;
  /** Per-frame read-back info, mutated in place. */
  readonly frame: FrameInfo;
  /** The settings in force (each a `<World>` prop). */
  settings: WorldSettings;
  /** Numbers about the world, refreshed a few times a second. */
  stats: WorldStoreStats;
  /** Particles registered by name (`<Particle name="hand" />`). */
  particles: Readonly<Record<string, NamedParticle>>;
  /** Bodies registered by name (`<Rope name="rope" />`). */
  bodies: Readonly<Record<string, BodyEntry>>;
  /** Bumped whenever a component adds or removes particles, so references re-resolve. */
  registryVersion: number;
  /** Changes settings and applies them to the world in place (the simulation is not reset). */
  configure(settings: Partial<WorldSettings>): void;
  /** Stops the frame loop's stepping (`configure({ paused: true })`). */
  pause(): void;
  /** Starts it again. */
  resume(): void;
  /** Runs `count` fixed steps now, paused or not, and shows their result without interpolation. */
  step(count?: number): void;
  /** Advances the world by `delta` real seconds (scaled by `timeScale`); the `<World>` calls this every frame. */
  advance(delta: number): number;
  /** Publishes fresh `stats` if anything changed. */
  refreshStats(): void;
  /** Registers a named particle; `who` names the component for the duplicate-name error. Returns the unregistration. */
  nameParticle(name: string, particle: NamedParticle, who: string): () => void;
  /** Registers a named body. Returns the unregistration. */
  nameBody(name: string, body: BodyEntry, who: string): () => void;
  /** Tells references that particles were added or removed. */
  touchRegistry(): void;
  /** Overrides gravity (the latest override wins) until the returned function is called. */
  overrideGravity(gravity: Vec3): () => void;
}

/** A vanilla zustand store around one core world. */
export type WorldStore = StoreApi<WorldState>;

/**
 * What a store around a RemoteWorld's `world` needs (see `createWorldStore`): the shadow world,
 * read for stats without going through the recording proxy; the step cost then comes from the
 * worker's own `stats.msPerStep`, which arrives with each frame, not from this thread's clock.
 */
export interface RemoteStoreOptions {
  /** The RemoteWorld's shadow world. */
  shadow: World;
}

/** Weight of the newest frame in the smoothed milliseconds per step. */
const SMOOTHING = 0.1;

/**
 * Creates the store of a `<World>`. Plain zustand: no React here, so it can be
 * driven from tests or from outside the canvas (`store.getState().pause()`).
 *
 * Settings not given in `initial` are read from the world as it is (and the
 * store's own default: running, time scale 1, interpolated). For a RemoteWorld's
 * `world`, pass `remote` (see {@link RemoteStoreOptions}).
 *
 * @example
 * ```ts
 * const world = new World();
 * const store = createWorldStore(world, { timeScale: 0.5 });
 * store.getState().advance(1 / 60);
 * store.getState().pause();
 * ```
 */
export function createWorldStore(world: World, overrides: Partial<WorldSettings> = {}, remote?: RemoteStoreOptions): WorldStore {
  const initial: WorldSettings = {
    gravity: [world.gravity[0], world.gravity[1], world.gravity[2]],
    timeStep: world.timeStep,
    iterations: world.iterations,
    substeps: world.substeps,
    damping: world.damping,
    sqrtApprox: world.sqrtApprox,
    kernel: world.kernel,
    maxStepsPerAdvance: world.maxStepsPerAdvance,
    seed: world.random.state,
    budgetMs: world.budgetMs,
    minSubsteps: world.budget.minSubsteps,
    minIterations: world.budget.minIterations,
    sleep: world.sleep.enabled,
    sleepSpeed: world.sleep.speed,
    sleepTime: world.sleep.time,
    maxPushOutSpeed: world.contacts.maxPushOutSpeed,
    restitutionThreshold: world.contacts.restitutionThreshold,
    tethers: world.tethers.enabled,
    paused: false,
    timeScale: 1,
    interpolate: true,
    ...overrides,
  };
  const frame: FrameInfo = { alpha: 1, steps: 0, msPerStep: 0 };
  const gravityOverrides: { gravity: Vec3 }[] = [];

  const applyGravity = (settings: WorldSettings) => {
    world.gravity = gravityOverrides[gravityOverrides.length - 1]?.gravity ?? settings.gravity;
  };

  const apply = (next: WorldSettings, prev: WorldSettings | undefined) => {
    if (!prev || next.gravity !== prev.gravity) applyGravity(next);
    // timeStep and substeps setters rescale velocities, so only touch them on a real change.
    if (next.timeStep !== world.timeStep) world.timeStep = next.timeStep;
    if (next.substeps !== world.substeps) world.substeps = next.substeps;
    world.iterations = next.iterations;
    world.damping = next.damping;
    world.sqrtApprox = next.sqrtApprox;
    // Only on a change: a world that fell back to 'js' (no SIMD, no memory) stays there until asked again.
    if (!prev || next.kernel !== prev.kernel) world.kernel = next.kernel;
    world.maxStepsPerAdvance = next.maxStepsPerAdvance;
    if (prev && next.seed !== prev.seed) world.random.state = next.seed >>> 0;
    world.budget.minSubsteps = next.minSubsteps;
    world.budget.minIterations = next.minIterations;
    if (next.budgetMs !== world.budgetMs) world.budgetMs = next.budgetMs;
    if (prev && prev.sleep && !next.sleep) world.sleep.wakeAll(world);
    world.sleep.enabled = next.sleep;
    world.sleep.speed = next.sleepSpeed;
    world.sleep.time = next.sleepTime;
    world.contacts.maxPushOutSpeed = next.maxPushOutSpeed;
    world.contacts.restitutionThreshold = next.restitutionThreshold;
    // Bodies asleep under the tethers' hold rest on different constraints now: they wake to settle again.
    if (prev && prev.tethers !== next.tethers) world.sleep.wakeAll(world);
    world.tethers.enabled = next.tethers;
  };

  apply(initial, undefined);

  return createStore<WorldState>()((set, get) => ({
    world,
    frame,
    settings: initial,
    stats: measure(remote?.shadow ?? world, 0),
    particles: {},
    bodies: {},
    registryVersion: 0,

    configure(partial) {
      const prev = get().settings;
      let changed = false;
      for (const key of Object.keys(partial) as (keyof WorldSettings)[]) {
        if (partial[key] !== undefined && partial[key] !== prev[key]) changed = true;
      }
      if (!changed) return;
      const next = { ...prev };
      for (const key of Object.keys(partial) as (keyof WorldSettings)[]) {
        if (partial[key] !== undefined) (next as Record<string, unknown>)[key] = partial[key];
      }
      checkSettings(next, 'configure');
      apply(next, prev);
      set({ settings: next });
    },

    pause() {
      get().configure({ paused: true });
    },

    resume() {
      get().configure({ paused: false });
    },

    step(count = 1) {
      checkInteger(count, 'step: count', 0);
      for (let i = 0; i < count; i++) world.step();
      frame.alpha = 1;
      frame.steps = count;
      get().refreshStats();
    },

    advance(delta) {
      const { paused, timeScale, interpolate } = get().settings;
      if (paused) {
        frame.steps = 0;
        return 0;
      }
      if (remote) {
        const steps = world.advance(delta * timeScale);
        if (steps > 0) frame.msPerStep = remote.shadow.stats.msPerStep;
        frame.steps = steps;
        frame.alpha = interpolate ? remote.shadow.alpha : 1;
        return steps;
      }
      const start = performance.now();
      const steps = world.advance(delta * timeScale);
      if (steps > 0) {
        const ms = (performance.now() - start) / steps;
        frame.msPerStep = frame.msPerStep === 0 ? ms : frame.msPerStep + (ms - frame.msPerStep) * SMOOTHING;
      }
      frame.steps = steps;
      frame.alpha = interpolate ? world.alpha : 1;
      return steps;
    },

    refreshStats() {
      const prev = get().stats;
      const next = measure(remote?.shadow ?? world, frame.msPerStep);
      for (const key of Object.keys(next) as (keyof WorldStoreStats)[]) {
        if (next[key] !== prev[key]) {
          set({ stats: next });
          return;
        }
      }
    },

    nameParticle(name, particle, who) {
      if (Object.hasOwn(get().particles, name)) throw new Error(`${who}: name "${name}" is already used by another particle in this <World>`);
      set({ particles: { ...get().particles, [name]: particle } });
      return () => {
        if (!Object.hasOwn(get().particles, name) || get().particles[name] !== particle) return;
        const rest = { ...get().particles };
        delete rest[name];
        set({ particles: rest });
      };
    },

    nameBody(name, body, who) {
      if (Object.hasOwn(get().bodies, name)) throw new Error(`${who}: name "${name}" is already used by another body in this <World>`);
      set({ bodies: { ...get().bodies, [name]: body } });
      return () => {
        if (!Object.hasOwn(get().bodies, name) || get().bodies[name] !== body) return;
        const rest = { ...get().bodies };
        delete rest[name];
        set({ bodies: rest });
      };
    },

    touchRegistry() {
      set({ registryVersion: get().registryVersion + 1 });
      get().refreshStats();
    },

    overrideGravity(gravity) {
      const entry = { gravity };
      gravityOverrides.push(entry);
      applyGravity(get().settings);
      return () => {
        const i = gravityOverrides.indexOf(entry);
        if (i >= 0) gravityOverrides.splice(i, 1);
        applyGravity(get().settings);
      };
    },
  }));
}

function measure(world: World, msPerStep: number): WorldStoreStats {
  let bodies = 0;
  for (const body of world.bodies) if (body.alive) bodies++;
  return {
    particles: world.particleCount,
    constraints: world.constraintCount,
    colliders: world.colliders.length,
    bodies,
    steps: world.stepCount,
    time: world.time,
    msPerStep,
    substepsUsed: world.stats.substepsUsed,
    iterationsUsed: world.stats.iterationsUsed,
    awakeBodies: world.stats.awakeBodies,
    sleepingBodies: world.stats.sleepingBodies,
    realTimeRatio: world.stats.realTimeRatio,
    slowerThanRealTime: world.stats.slowerThanRealTime,
  };
}
