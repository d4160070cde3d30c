import type { ConstraintId, ParticleId } from '../ids.js';
import { widen } from '../constraints/table.js';
import type { WorldFeature } from '../features.js';
import { SPRING_DEFAULTS } from '../defaults.js';
import { checkNumber } from '../math.js';
import { ParticleFlag } from '../particles.js';
import type { World } from '../world.js';
import type { Force } from './force.js';

/** What {@link Springs.add} takes. */
export interface SpringOptions {
  /** Hooke's k in N/m, > 0. */
  stiffness: number;
  /** Rest length l (m); default the particles' current distance. */
  length?: number;
  /** Damping along the spring (N·s/m): opposes the ends' relative speed. Default 0. */
  damping?: number;
}

/**
 * Hooke springs, the force-based alternative to sticks (course notes):
 * f_a = k·(|p_b − p_a| − l)·(p_b − p_a)/|p_b − p_a|, f_b = −f_a, plus optional
 * damping along the spring. A mass m on a spring to a fixed point oscillates at
 * ω = √(k/m); two free masses at ω = √(k/μ) with μ = m_a·m_b/(m_a + m_b). Unlike a
 * stick, a spring stretches under load, and a stiff one needs a small time step:
 * an explicit integrator is stable only while ω·h stays below about 2.
 *
 * One `Springs` holds any number of springs in typed arrays.
 *
 * @example
 * ```ts
 * const springs = new Springs(world);
 * springs.add(anchor, bob, { stiffness: 100 }); // rest length: current distance
 * world.addForce(springs);
 * ```
 */
export class Springs implements Force, WorldFeature {
  private readonly world: World;
  /** The name it has among the world's features while it holds springs (it hears of removed particles then), else undefined. */
  private feature: string | undefined;
  private a = new Int32Array(16);
  private b = new Int32Array(16);
  private rest = new Float64Array(16);
  private stiffness = new Float64Array(16);
  private damping = new Float64Array(16);
  private ids = new Int32Array(16);
  private rows = new Map<number, number>();
  /** Springs in use. */
  count = 0;

  /** Springs between particles of `world` (add the result to that world with `world.addForce`). */
  constructor(world: World) {
    if (!world || typeof world.checkParticle !== 'function') throw new TypeError(`Springs: world must be a World, got ${String(world)}`);
    this.world = world;
  }

  /** Adds a spring between particles `a` and `b` and returns its id. */
  add(idA: ParticleId, idB: ParticleId, options: SpringOptions): ConstraintId {
    const world = this.world;
    const a = world.checkParticle(idA, 'Springs.add: a');
    const b = world.checkParticle(idB, 'Springs.add: b');
    if (a === b) throw new RangeError(`Springs.add: a and b must differ, both are particle ${idA}`);
    if (!options || typeof options !== 'object') throw new TypeError(`Springs.add: options must be an object, got ${String(options)}`);
    const k = checkNumber(options.stiffness, 'Springs.add: stiffness', 0);
    if (k === 0) throw new RangeError('Springs.add: stiffness must be > 0, got 0');
    const p = world.particles.position;
    const length = options.length ?? Math.hypot(p[b * 3]! - p[a * 3]!, p[b * 3 + 1]! - p[a * 3 + 1]!, p[b * 3 + 2]! - p[a * 3 + 2]!);
    checkNumber(length, 'Springs.add: length', 0);
    const damping = checkNumber(options.damping ?? SPRING_DEFAULTS.damping, 'Springs.add: damping', 0);
    if (this.count === this.a.length) this.grow(this.count * 2);
    const row = this.count++;
    const id = world.registry.issue(this);
    this.a[row] = a;
    this.b[row] = b;
    this.rest[row] = length;
    this.stiffness[row] = k;
    this.damping[row] = damping;
    this.ids[row] = id;
    this.rows.set(id, row);
    this.feature ??= world.features.addInstance('springs', this);
    return id;
  }

  /** Removes every spring with an end in `[first, end)`: a removed particle's spring must not pull the slot's next owner. */
  particlesRemoved(_world: World, first: number, end: number): void {
    for (let row = this.count - 1; row >= 0; row--) {
      const a = this.a[row]!;
      const b = this.b[row]!;
      if ((a >= first && a < end) || (b >= first && b < end)) this.remove(this.ids[row]!);
    }
  }

  /** Removes spring `id` (the last spring moves into its row). */
  remove(id: number): void {
    const row = this.rows.get(id);
    if (row === undefined) throw new RangeError(`Springs.remove: no spring with id ${String(id)}`);
    this.rows.delete(id);
    this.world.registry.release(id);
    const last = --this.count;
    // With no springs left it has nothing to hear about: the world lets go of it.
    if (last === 0 && this.feature !== undefined) {
      this.world.features.delete(this.feature);
      this.feature = undefined;
    }
    if (row === last) return;
    this.a[row] = this.a[last]!;
    this.b[row] = this.b[last]!;
    this.rest[row] = this.rest[last]!;
    this.stiffness[row] = this.stiffness[last]!;
    this.damping[row] = this.damping[last]!;
    this.ids[row] = this.ids[last]!;
    this.rows.set(this.ids[row]!, row);
  }

  /** Current length of spring `id` (m). */
  length(id: number): number {
    const row = this.rows.get(id);
    if (row === undefined) throw new RangeError(`Springs.length: no spring with id ${String(id)}`);
    const p = this.world.particles.position;
    const a = this.a[row]! * 3;
    const b = this.b[row]! * 3;
    return Math.hypot(p[b]! - p[a]!, p[b + 1]! - p[a + 1]!, p[b + 2]! - p[a + 2]!);
  }

  /** Adds this substep's force of every spring to `world.particles.force`. */
  apply(world: World): void {
    const particles = world.particles;
    const pos = particles.position;
    const prev = particles.previous;
    const force = particles.force;
    const w = particles.inverseMass;
    const flags = particles.flags;
    const h = world.stepContext.h;
    for (let s = 0; s < this.count; s++) {
      const a = this.a[s]!;
      const b = this.b[s]!;
      // A removed particle leaves its springs inert.
      if ((flags[a]! & flags[b]! & ParticleFlag.Alive) === 0) continue;
      const pa = a * 3;
      const pb = b * 3;
      const dx = pos[pb]! - pos[pa]!;
      const dy = pos[pb + 1]! - pos[pa + 1]!;
      const dz = pos[pb + 2]! - pos[pa + 2]!;
      const d = Math.sqrt(dx * dx + dy * dy + dz * dz);
      if (d === 0) continue;
      // Relative velocity along the spring, from the Verlet velocities (x - x*) / h.
      const vx = pos[pb]! - prev[pb]! - (pos[pa]! - prev[pa]!);
      const vy = pos[pb + 1]! - prev[pb + 1]! - (pos[pa + 1]! - prev[pa + 1]!);
      const vz = pos[pb + 2]! - prev[pb + 2]! - (pos[pa + 2]! - prev[pa + 2]!);
      const closing = (vx * dx + vy * dy + vz * dz) / (d * h);
      const magnitude = this.stiffness[s]! * (d - this.rest[s]!) + this.damping[s]! * closing;
      const scale = magnitude / d;
      if (w[a]! > 0) {
        force[pa] = force[pa]! + dx * scale;
        force[pa + 1] = force[pa + 1]! + dy * scale;
        force[pa + 2] = force[pa + 2]! + dz * scale;
      }
      if (w[b]! > 0) {
        force[pb] = force[pb]! - dx * scale;
        force[pb + 1] = force[pb + 1]! - dy * scale;
        force[pb + 2] = force[pb + 2]! - dz * scale;
      }
    }
  }

  private grow(capacity: number): void {
    this.a = widen(this.a, capacity);
    this.b = widen(this.b, capacity);
    this.rest = widen(this.rest, capacity);
    this.stiffness = widen(this.stiffness, capacity);
    this.damping = widen(this.damping, capacity);
    this.ids = widen(this.ids, capacity);
  }
}
