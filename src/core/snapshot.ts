import type { World } from './world.js';

/** Scalars of the world that a snapshot carries besides the arrays. */
export interface SnapshotScalars {
  accumulator: number;
  nextConstraintId: number;
  timeStep: number;
  substeps: number;
  gravity: number[];
}

/**
 * The whole dynamic state of a {@link World}: particle arrays, constraint tables,
 * time and the random generator. Plain data (typed arrays and numbers), so it can
 * be structured-cloned, e.g. posted to a worker.
 */
export interface WorldSnapshot extends SnapshotScalars {
  capacity: number;
  end: number;
  count: number;
  free: number[];
  particles: Record<ParticleColumn, Float64Array | Uint8Array | Uint32Array>;
  sticks: { count: number; ids: Int32Array; a: Int32Array; b: Int32Array; rest: Float64Array; stiffness: Float64Array; kind: Uint8Array };
  pins: { count: number; ids: Int32Array; particle: Int32Array; target: Float64Array };
  time: number;
  stepCount: number;
  alpha: number;
  randomState: number;
  iterations: number;
  damping: number;
  sqrtApprox: boolean;
}

const particleColumns = ['position', 'previous', 'force', 'heldForce', 'inverseMass', 'freeInverseMass', 'radius', 'friction', 'flags', 'group'] as const;
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
    sticks: { count: s.count, ids: s.ids.slice(), a: s.a.slice(), b: s.b.slice(), rest: s.rest.slice(), stiffness: s.stiffness.slice(), kind: s.kind.slice() },
    pins: { count: pins.count, ids: pins.ids.slice(), particle: pins.particle.slice(), target: pins.target.slice() },
    time: world.time,
    stepCount: world.stepCount,
    alpha: world.alpha,
    randomState: world.random.state,
    iterations: world.iterations,
    damping: world.damping,
    sqrtApprox: world.sqrtApprox,
  };
}

/** Writes a snapshot back into `world` (copies, so the snapshot can be restored again). */
export function restoreSnapshot(world: World, snap: WorldSnapshot): SnapshotScalars {
  const p = world.particles;
  p.grow(snap.capacity);
  for (const c of particleColumns) {
    const target = p[c];
    target.fill(0);
    target.set(snap.particles[c] as never);
  }
  p.contactDepth.fill(0);
  p.end = snap.end;
  p.count = snap.count;
  p.setFree(snap.free);
  const sticks = world.sticks;
  sticks.capacity = snap.sticks.ids.length;
  sticks.count = snap.sticks.count;
  sticks.ids = snap.sticks.ids.slice();
  sticks.a = snap.sticks.a.slice();
  sticks.b = snap.sticks.b.slice();
  sticks.rest = snap.sticks.rest.slice();
  sticks.stiffness = snap.sticks.stiffness.slice();
  sticks.kind = snap.sticks.kind.slice();
  const pins = world.pins;
  pins.capacity = snap.pins.ids.length;
  pins.count = snap.pins.count;
  pins.ids = snap.pins.ids.slice();
  pins.particle = snap.pins.particle.slice();
  pins.target = snap.pins.target.slice();
  world.time = snap.time;
  world.stepCount = snap.stepCount;
  world.alpha = snap.alpha;
  world.random.state = snap.randomState;
  world.iterations = snap.iterations;
  world.damping = snap.damping;
  world.sqrtApprox = snap.sqrtApprox;
  return snap;
}
