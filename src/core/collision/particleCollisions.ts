import { particleSlot } from '../ids.js';
import type { Constraint } from '../constraints/constraint.js';
import type { WorldFeature } from '../features.js';
import { checkNumber } from '../math.js';
import { ParticleFlag } from '../particles.js';
import type { World } from '../world.js';
import { separatePair } from './pairContact.js';
import { SpatialHash } from './spatialHash.js';
import { addBuiltinConstraint } from '../stages.js';

/** What {@link enableParticleCollisions} takes. */
export interface ParticleCollisionOptions {
  /** Edge of the hash grid's cells (m); default twice the largest particle radius, the widest contact. */
  cellSize?: number;
}

/** Returned by {@link enableParticleCollisions}. */
export interface ParticleCollisions {
  /** Stops particle–particle collisions in this world (the same as `world.remove(collisions)`); harmless when already stopped. */
  remove(): void;
}

/**
 * Particle–particle contacts for one world, a constraint in the relaxation
 * loop: each pass it lists the particles with a radius, hashes them into a grid
 * and separates every overlapping pair that is not in one group.
 */
class ParticleCollisionPass implements Constraint, WorldFeature {
  private hash = new SpatialHash();
  private ids = new Int32Array(64);
  /** The pair's reach and the push-out room of the substep (m): see `separatePair`. */
  private scratch = new Float64Array(2);
  /** Bodies with a serial below this were grouped (serials grow; slots are reused, so `bodies.length` does not tell). */
  private serialSeen = 0;
  /** The pass's id in the world's constraint list, while it is there. */
  id = -1;

  /** @param fixedCellSize the grid cell, or 0 to size it from the largest radius each pass. */
  constructor(private readonly fixedCellSize: number) {}

  /** Leaves the relaxation loop. */
  dispose(world: World): void {
    if (world.hasConstraint(this.id)) world.removeConstraint(this.id);
  }

  project(world: World): void {
    this.groupNewBodies(world);
    const particles = world.particles;
    if (this.ids.length < particles.end) this.ids = new Int32Array(Math.max(particles.end, this.ids.length * 2));
    const ids = this.ids;
    const radius = particles.radius;
    const flags = particles.flags;
    let count = 0;
    let largest = 0;
    for (let i = 0; i < particles.end; i++) {
      if ((flags[i]! & ParticleFlag.Alive) === 0 || radius[i]! === 0) continue;
      ids[count++] = i;
      if (radius[i]! > largest) largest = radius[i]!;
    }
    if (count < 2) return;
    this.scratch[1] = particles.pushOutRoom;
    const hash = this.hash;
    // A plain number on both sides: `undefined ?? x` would box x every pass.
    hash.cellSize = this.fixedCellSize > 0 ? this.fixedCellSize : 2 * largest;
    const pos = particles.position;
    hash.build(pos, ids, count);
    const group = particles.group;
    const inverseMass = particles.inverseMass;
    const buckets = hash.buckets;
    const start = hash.cellStart;
    const entries = hash.entries;
    for (let k = 0; k < count; k++) {
      const i = ids[k]!;
      const gi = group[i]!;
      const ri = radius[i]!;
      const n = hash.neighbourBuckets(pos, i);
      for (let c = 0; c < n; c++) {
        const b = buckets[c]!;
        for (let e = start[b]!; e < start[b + 1]!; e++) {
          const j = entries[e]!;
          if (j <= i || (gi !== 0 && gi === group[j]!)) continue;
          // Most candidates are apart: test here rather than pay a call for each.
          const reach = ri + radius[j]!;
          const dx = pos[j * 3]! - pos[i * 3]!;
          const dy = pos[j * 3 + 1]! - pos[i * 3 + 1]!;
          const dz = pos[j * 3 + 2]! - pos[i * 3 + 2]!;
          if (dx * dx + dy * dy + dz * dz >= reach * reach) continue;
          // Two sleepers stay asleep; two immovables cannot be separated.
          if ((flags[i]! & flags[j]! & ParticleFlag.Asleep) !== 0 || inverseMass[i]! + inverseMass[j]! === 0) continue;
          this.scratch[0] = reach;
          separatePair(world, i, j, this.scratch, false);
        }
      }
    }
  }

  /**
   * Particles of one body do not collide with each other here (a cloth or a
   * ragdoll keeps its own shape; see enableSelfCollision): each body's particles
   * that have no group yet get group body.id + 1.
   */
  private groupNewBodies(world: World): void {
    if (world.nextBodySerial === this.serialSeen) return;
    const bodies = world.bodies;
    const group = world.particles.group;
    for (let k = 0; k < bodies.length; k++) {
      const body = bodies[k]!;
      if (!body.alive || body.serial < this.serialSeen) continue;
      const first = particleSlot(body.first);
      for (let i = first; i < first + body.count; i++) if (group[i] === 0) group[i] = body.id + 1;
    }
    this.serialSeen = world.nextBodySerial;
  }
}

/** The name particle collisions have among the world's features (see `World.features`). */
const FEATURE = 'particleCollisions';

/**
 * Makes particles with a radius collide with each other: any two that are not
 * in the same body (nor in one non-zero `particles.group`) are kept the sum of
 * their radii apart, the overlap shared by inverse mass so momentum is
 * conserved, with friction between them. A uniform-grid spatial hash finds the
 * pairs; it is rebuilt each relaxation pass without allocating. Bodies get
 * `group = body.id + 1` for their particles that had group 0.
 *
 * @example
 * ```ts
 * const collisions = enableParticleCollisions(world);
 * // later: world.remove(collisions), or collisions.remove()
 * ```
 */
export function enableParticleCollisions(world: World, options: ParticleCollisionOptions = {}): ParticleCollisions {
  if (world.features.has(FEATURE)) throw new Error('enableParticleCollisions: already enabled for this world; remove the first one before enabling again');
  const cellSize = options.cellSize === undefined ? 0 : checkNumber(options.cellSize, 'enableParticleCollisions: cellSize', Number.MIN_VALUE);
  const pass = new ParticleCollisionPass(cellSize);
  pass.id = addBuiltinConstraint(world, 'particleCollisions', pass);
  world.features.add(FEATURE, pass);
  return {
    remove() {
      // Only this handle's pass: after a remove and a new enable, an old handle does nothing.
      if (world.hasConstraint(pass.id)) world.features.delete(FEATURE);
    },
  };
}
