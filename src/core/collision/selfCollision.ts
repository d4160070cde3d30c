import type { BodyRecord } from '../bodies/body.js';
import type { Constraint } from '../constraints/constraint.js';
import { checkNumber } from '../math.js';
import { ParticleFlag } from '../particles.js';
import type { World } from '../world.js';
import { separatePair } from './pairContact.js';
import { SpatialHash } from './spatialHash.js';

/** What {@link enableSelfCollision} takes. */
export interface SelfCollisionOptions {
  /** Least distance (m) between two particles of the body that no stick joins; keep it below the stick lengths. */
  thickness: number;
}

/** Returned by {@link enableSelfCollision}. */
export interface SelfCollision {
  /** Stops the body's self-collision. */
  disable(): void;
}

/**
 * Self-collision of one body (a cloth folding onto itself): each relaxation
 * pass its particles are hashed with cells one thickness wide, and every pair
 * closer than the thickness is pushed apart, except pairs a stick joins (their
 * distance is the stick's business; the paper keeps limbs apart the same way,
 * with inequality sticks).
 */
class SelfCollisionPass implements Constraint {
  private hash = new SpatialHash();
  private ids: Int32Array;
  private scratch: Float64Array;

  /**
   * @param joined for particle first + k, its stick neighbours are
   *   joined[joinedStart[k] .. joinedStart[k + 1]).
   */
  constructor(
    private readonly first: number,
    private readonly count: number,
    thickness: number,
    private readonly joinedStart: Int32Array,
    private readonly joined: Int32Array,
  ) {
    this.ids = new Int32Array(count);
    this.scratch = new Float64Array([thickness]);
    this.hash.cellSize = thickness;
  }

  project(world: World): void {
    const particles = world.particles;
    const flags = particles.flags;
    const ids = this.ids;
    let n = 0;
    for (let i = this.first; i < this.first + this.count; i++) if ((flags[i]! & ParticleFlag.Alive) !== 0) ids[n++] = i;
    if (n < 2) return;
    // A sleeping body has no motion to fix.
    if ((flags[ids[0]!]! & ParticleFlag.Asleep) !== 0) return;
    const hash = this.hash;
    const pos = particles.position;
    hash.build(pos, ids, n);
    const reach = this.scratch[0]!;
    const buckets = hash.buckets;
    const start = hash.cellStart;
    const entries = hash.entries;
    for (let k = 0; k < n; k++) {
      const i = ids[k]!;
      const found = hash.neighbourBuckets(pos, i);
      for (let c = 0; c < found; c++) {
        const b = buckets[c]!;
        for (let e = start[b]!; e < start[b + 1]!; e++) {
          const j = entries[e]!;
          if (j <= i) continue;
          const dx = pos[j * 3]! - pos[i * 3]!;
          const dy = pos[j * 3 + 1]! - pos[i * 3 + 1]!;
          const dz = pos[j * 3 + 2]! - pos[i * 3 + 2]!;
          if (dx * dx + dy * dy + dz * dz >= reach * reach || this.areJoined(i, j)) continue;
          separatePair(world, i, j, this.scratch);
        }
      }
    }
  }

  private areJoined(i: number, j: number): boolean {
    const k = i - this.first;
    const other = j - this.first;
    for (let e = this.joinedStart[k]!; e < this.joinedStart[k + 1]!; e++) if (this.joined[e] === other) return true;
    return false;
  }
}

/**
 * Keeps the particles of one body at least `thickness` apart, except pairs a
 * stick joins directly, so a cloth folded onto itself does not pass through
 * itself. The sticks are read now: add them before enabling. Mass-weighted and
 * with friction, like {@link enableParticleCollisions} (which skips pairs
 * inside one body).
 *
 * @example
 * ```ts
 * const cloth = world.bodies[clothId];
 * enableSelfCollision(world, cloth, { thickness: 0.02 });
 * ```
 */
export function enableSelfCollision(world: World, body: BodyRecord | number, options: SelfCollisionOptions): SelfCollision {
  const record = typeof body === 'number' ? world.bodies[body] : body;
  if (!record || !record.alive) throw new RangeError(`enableSelfCollision: body must be a live body or body id, got ${typeof body === 'number' ? body : String(body?.id)}`);
  if (!options || typeof options !== 'object') throw new TypeError(`enableSelfCollision: options must be { thickness }, got ${String(options)}`);
  const thickness = checkNumber(options.thickness, 'enableSelfCollision: thickness', Number.MIN_VALUE);
  const { joinedStart, joined } = stickNeighbours(world, record);
  const id = world.addConstraint(new SelfCollisionPass(record.first, record.count, thickness, joinedStart, joined));
  let on = true;
  const handle = {
    disable() {
      if (!on) return;
      on = false;
      if (world.hasConstraint(id)) world.removeConstraint(id);
    },
  };
  record.onRemove.push(handle.disable);
  return handle;
}

/** Stick neighbours inside the body, as compressed rows (body-relative indices). */
function stickNeighbours(world: World, body: BodyRecord): { joinedStart: Int32Array; joined: Int32Array } {
  const lists: number[][] = Array.from({ length: body.count }, () => []);
  const sticks = world.sticks;
  const end = body.first + body.count;
  for (let row = 0; row < sticks.count; row++) {
    const a = sticks.a[row]!;
    const b = sticks.b[row]!;
    if (a < body.first || a >= end || b < body.first || b >= end) continue;
    lists[a - body.first]!.push(b - body.first);
    lists[b - body.first]!.push(a - body.first);
  }
  const joinedStart = new Int32Array(body.count + 1);
  for (let k = 0; k < body.count; k++) joinedStart[k + 1] = joinedStart[k]! + lists[k]!.length;
  const joined = new Int32Array(lists.flat());
  return { joinedStart, joined };
}
