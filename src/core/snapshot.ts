import { resumeOrder } from './constraints/coloring.js';
import type { TethersSnapshot } from './constraints/tethers.js';
import type { FeaturesSnapshot } from './features.js';
import type { Vec3 } from './math.js';
import type { SleepSnapshot } from './sleep.js';
import type { World } from './world.js';

/** Scalars of the world that a snapshot carries besides the arrays. */
export interface SnapshotScalars {
  /** Seconds waiting in `advance()`'s accumulator. */
  accumulator: number;
  /** The next constraint id the world hands out. */
  nextConstraintId: number;
  /** Seconds per step. */
  timeStep: number;
  /** Substeps per step. */
  substeps: number;
  /** Gravity (m/s²). */
  gravity: number[];
}

/**
 * The whole dynamic state of a {@link World}: particle arrays, constraint tables,
 * time and the random generator. Plain data (typed arrays and numbers), so it can
 * be structured-cloned, e.g. posted to a worker.
 */
export interface WorldSnapshot extends SnapshotScalars {
  /** Particle slots allocated. */
  capacity: number;
  /** One past the highest slot ever used. */
  end: number;
  /** Live particles. */
  count: number;
  /** Free slots below `end`, reused first. */
  free: number[];
  /** Copies of the particle columns (positions, previous positions, forces, masses, radii...). */
  particles: Record<ParticleColumn, Float64Array | Int32Array | Uint8Array | Uint32Array>;
  /**
   * Copy of the stick table. `compliance` and `damping` are absent from older
   * snapshots (restored as 0: rigid, undamped); the XPBD multipliers start from
   * zero every substep, so they need no copy.
   */
  sticks: { count: number; ids: Int32Array; a: Int32Array; b: Int32Array; rest: Float64Array; stiffness: Float64Array; compliance?: Float64Array; damping?: Float64Array; kind: Uint8Array };
  /** Copy of the pin table; `compliance` and `damping` are absent from older snapshots (restored as 0: rigid pins). */
  pins: { count: number; ids: Int32Array; particle: Int32Array; target: Float64Array; compliance?: Float64Array; damping?: Float64Array };
  /** Simulated seconds. */
  time: number;
  /** Steps taken. */
  stepCount: number;
  /** Leftover step fraction of the latest `advance()`. */
  alpha: number;
  /** The jitter generator's state. */
  randomState: number;
  /** Relaxation passes per substep. */
  iterations: number;
  /** Per-second drag. */
  damping: number;
  /** Square-root approximation for sticks. */
  sqrtApprox: boolean;
  /** Serials of the bodies alive when it was taken: a snapshot restores the state of the same scene. */
  bodies: number[];
}

const particleColumns = ['position', 'previous', 'force', 'heldForce', 'inverseMass', 'freeInverseMass', 'radius', 'friction', 'restitution', 'flags', 'group', 'body', 'generation'] as const;
type ParticleColumn = (typeof particleColumns)[number];

export function takeSnapshot(world: World, scalars: SnapshotScalars): WorldSnapshot {
  const p = world.particles;
  const s = world.sticks;
  const pins = world.pins;
  return {
    ...scalars,
    capacity: p.capacity,
    end: p.end,
    count: p.count,
    free: p.free.slice(),
    particles: Object.fromEntries(particleColumns.map((c) => [c, p[c].slice()])) as WorldSnapshot['particles'],
    // Each table copies its own rows (its savedColumns).
    sticks: s.save() as WorldSnapshot['sticks'],
    pins: pins.save() as WorldSnapshot['pins'],
    time: world.time,
    stepCount: world.stepCount,
    alpha: world.alpha,
    randomState: world.random.state,
    iterations: world.iterations,
    damping: world.damping,
    sqrtApprox: world.sqrtApprox,
    bodies: world.bodies.filter((b) => b.alive).map((b) => b.serial),
  };
}

/** Throws before anything is written unless `snap` has every part a restore reads. */
function checkComplete(world: World, snap: WorldSnapshot): void {
  if (!snap || typeof snap !== 'object' || !snap.particles || !snap.sticks || !snap.pins) throw new TypeError('restore: not a snapshot (it needs particles, sticks and pins)');
  for (const c of particleColumns) {
    const column = snap.particles[c];
    // Older snapshots lack these: restored as "no body" and "never freed".
    if (column === undefined && (c === 'body' || c === 'generation')) continue;
    if (!ArrayBuffer.isView(column) || column.length < snap.end * (c === 'position' || c === 'previous' || c === 'force' || c === 'heldForce' ? 3 : 1))
      throw new TypeError(`restore: the snapshot's ${c} column is missing or too short`);
  }
  world.sticks.checkSnapshot(snap.sticks, 'sticks');
  world.pins.checkSnapshot(snap.pins, 'pins');
  if (!Array.isArray(snap.free)) throw new TypeError("restore: the snapshot's free list is missing");
}

/**
 * Throws unless `world` has exactly the bodies `snap` was taken with. Body records
 * hold what a snapshot cannot (their constraints, clean-ups), so restoring across
 * an added or removed body would leave records that disagree with the particles.
 */
function checkSameBodies(world: World, snap: WorldSnapshot): void {
  const then = new Set(snap.bodies ?? []);
  const now = new Set<number>();
  for (const body of world.bodies) {
    if (!body.alive) continue;
    now.add(body.serial);
    if (!then.has(body.serial)) throw new Error(`restore: body ${body.id} (a ${body.kind}) was added after this snapshot was taken; remove it before restoring`);
  }
  for (const serial of then)
    if (!now.has(serial))
      throw new Error(`restore: the snapshot has body #${serial}, which was removed after it was taken (or belongs to another world); a snapshot restores the state of the same scene`);
}

/** Writes a snapshot back into `world` (copies, so the snapshot can be restored again). */
export function restoreSnapshot(world: World, snap: WorldSnapshot): SnapshotScalars {
  checkComplete(world, snap);
  checkSameBodies(world, snap);
  const p = world.particles;
  p.grow(snap.capacity);
  for (const c of particleColumns) {
    const target = p[c];
    // Slots past the snapshot's are free: no body holds them.
    target.fill(c === 'body' ? -1 : 0);
    // Columns an older snapshot lacks stay as filled above.
    const column = snap.particles[c];
    if (column) target.set(column as never);
  }
  p.contactDepth.fill(0);
  p.contactPush.fill(0);
  p.end = snap.end;
  p.count = snap.count;
  p.setFree(snap.free);
  world.sticks.load(snap.sticks);
  world.pins.load(snap.pins);
  world.time = snap.time;
  world.stepCount = snap.stepCount;
  world.alpha = snap.alpha;
  world.random.state = snap.randomState;
  world.iterations = snap.iterations;
  world.damping = snap.damping;
  world.sqrtApprox = snap.sqrtApprox;
  return snap;
}

/** What a snapshot carries for the solver besides the particle and constraint arrays. */
interface SolverSnapshot {
  solver?: { sleep: SleepSnapshot; sticksOrdered: boolean; activeSubsteps: number; activeIterations: number };
  /** The tethers' lengths and paused pins (absent from older snapshots: the next step measures them again). */
  tethers?: TethersSnapshot;
  /** Each feature's state by name (see `World.features`); absent from older snapshots: the features start from rest. */
  features?: FeaturesSnapshot;
}

/** A copy of `world`'s whole dynamic state (the body of `World.snapshot`). */
export function snapshotWorld(world: World): WorldSnapshot {
  const snapshot: WorldSnapshot & SolverSnapshot = takeSnapshot(world, {
    accumulator: world.accumulator,
    nextConstraintId: world.registry.next,
    timeStep: world.timeStepValue,
    substeps: world.substepsValue,
    gravity: [...world.gravityValue],
  });
  snapshot.tethers = world.tethers.save(world);
  snapshot.features = world.features.save();
  snapshot.solver = { sleep: world.sleep.save(), sticksOrdered: world.sticks.ordered, activeSubsteps: world.activeSubsteps, activeIterations: world.activeIterations };
  return snapshot;
}

/** Returns `world` to `snapshot` (the body of `World.restore`). */
export function restoreWorld(world: World, snapshot: WorldSnapshot): void {
  const scalars = restoreSnapshot(world, snapshot);
  world.accumulator = scalars.accumulator;
  // Colliders and user constraints are not in a snapshot: ids handed out since must stay taken.
  world.registry.next = Math.max(world.registry.next, scalars.nextConstraintId);
  world.timeStepValue = scalars.timeStep;
  world.substepsValue = scalars.substeps;
  world.gravityValue = [...scalars.gravity] as Vec3;
  world.stickRows = new Map(Array.from(world.sticks.ids.subarray(0, world.sticks.count), (id, row) => [id, row]));
  world.pinRows = new Map(Array.from(world.pins.ids.subarray(0, world.pins.count), (id, row) => [id, row]));
  world.syncCapacity();
  world.placeKernelColumns();
  // The step that led to the snapshot is not in it: draw the restored positions as they are.
  world.stepStartPositions.set(world.particles.position.subarray(0, world.particles.end * 3));
  // The solver's own state: stick segments, sleep timers, substeps in use.
  const solver = (snapshot as WorldSnapshot & SolverSnapshot).solver;
  resumeOrder(world.sticks, world.particles, world.orderScratch, solver?.sticksOrdered ?? false);
  world.sleep.load(world, solver?.sleep);
  world.activeSubsteps = solver?.activeSubsteps ?? world.substepsValue;
  world.activeIterations = solver?.activeIterations ?? world.iterations;
  world.tethers.load(world, (snapshot as WorldSnapshot & SolverSnapshot).tethers);
  world.features.load((snapshot as WorldSnapshot & SolverSnapshot).features);
}
