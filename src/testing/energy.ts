import { particleSlot } from '../core/ids.js';
import { checkNumber } from '../core/math.js';
import type { ParticleRef } from '../react/particleRef.js';
import { format } from './format.js';
import type { MountedWorld } from './mountWorld.js';
import { bodyIn, type TestScene } from './names.js';

/**
 * A scene's mechanical energy in joules (see {@link energy}).
 *
 * @example
 * ```ts
 * const { kinetic, potential, total }: Energy = energy(scene, 'rope');
 * ```
 */
export interface Energy {
  /** ½·m·|v|² summed over the movable particles, v over the latest substep. */
  kinetic: number;
  /** m·(−g·x) summed over the movable particles: zero at the origin, so under the default gravity it is m·g·height above y = 0. */
  potential: number;
  /** `kinetic + potential`. */
  total: number;
}

/**
 * The kinetic and gravitational potential energy of the world's movable
 * particles, or of one body's (`body`: its name, or one of its particles).
 * Pinned and immovable particles carry none. The velocity of a substep belongs
 * to its middle, so the potential is taken there too (halfway between the
 * latest two positions): under gravity alone that sum is exactly what Verlet
 * conserves, so what changes it is the constraints, contacts, damping and forces.
 *
 * @example
 * ```ts
 * const before = energy(scene).total;
 * await scene.seconds(1);
 * expect(energy(scene).total).toBeLessThanOrEqual(before + 1e-6); // nothing drives it, so nothing gains energy
 * ```
 */
export function energy(scene: TestScene, body?: ParticleRef): Energy {
  const world = scene.store.getState().world;
  let first = 0;
  let end = world.particles.end;
  if (body !== undefined) {
    const record = bodyIn(scene, body, 'energy');
    first = particleSlot(record.first);
    end = particleSlot(record.first) + record.count;
  }
  const p = world.particles.position;
  const q = world.particles.previous;
  const w = world.particles.inverseMass;
  const g = world.gravity;
  const h = world.substep;
  let kinetic = 0;
  let potential = 0;
  for (let slot = first; slot < end; slot++) {
    if (!world.particles.isAlive(slot) || w[slot] === 0) continue;
    const m = 1 / w[slot]!;
    let v2 = 0;
    for (let k = 0; k < 3; k++) {
      const v = (p[slot * 3 + k]! - q[slot * 3 + k]!) / h;
      v2 += v * v;
      potential -= m * g[k]! * ((p[slot * 3 + k]! + q[slot * 3 + k]!) / 2);
    }
    kinetic += 0.5 * m * v2;
  }
  return { kinetic, potential, total: kinetic + potential };
}

/**
 * Options of {@link expectEnergyNotGrowing}.
 *
 * @example
 * ```ts
 * await expectEnergyNotGrowing(scene, { seconds: 5, tolerance: 0.001, body: 'doll' });
 * ```
 */
export interface EnergyOptions {
  /** World time to run and watch, in s. Default 2. */
  seconds?: number;
  /** Largest allowed rise, as a fraction of the starting energy (see {@link expectEnergyNotGrowing}). Default 0.01 (1%). */
  tolerance?: number;
  /** Watch only this body (its name, or one of its particles); default the whole world. */
  body?: ParticleRef;
}

/**
 * Runs the scene for `seconds` of world time, one step per frame, and throws at
 * the first step whose {@link energy} is above the starting energy by more than
 * `tolerance` of it (or, when larger, of the energy of the scene's movable mass
 * dropped by 1 m, so that a scene starting near zero energy gets room for
 * rounding). For scenes that nothing drives: wind, attractors, pins being
 * dragged and explosions put energy in by design. Returns the energy after each
 * step, the starting energy first.
 *
 * @example
 * ```ts
 * const scene = await mountWorld(<Rope from={[0, 2, 0]} to={[1, 2, 0]} segments={12} pinStart />, { damping: 0 });
 * await expectEnergyNotGrowing(scene, { seconds: 3 }); // the swinging rope never gains energy
 * ```
 */
export async function expectEnergyNotGrowing(scene: MountedWorld, options: EnergyOptions = {}): Promise<number[]> {
  const seconds = checkNumber(options.seconds ?? 2, 'expectEnergyNotGrowing: seconds', 0);
  const tolerance = checkNumber(options.tolerance ?? 0.01, 'expectEnergyNotGrowing: tolerance', 0);
  const world = scene.world;
  const start = energy(scene, options.body).total;
  const allowed = tolerance * Math.max(Math.abs(start), movableMass(scene, options.body) * Math.hypot(...world.gravity) * ROOM_DROP) + 1e-12;
  const { timeStep } = scene.store.getState().settings;
  const steps = Math.round(seconds / timeStep);
  const totals = [start];
  for (let i = 0; i < steps; i++) {
    await scene.seconds(timeStep);
    const now = energy(scene, options.body).total;
    totals.push(now);
    if (now - start > allowed) {
      throw new Error(
        `expectEnergyNotGrowing: the energy${options.body === undefined ? '' : ` of ${String(options.body)}`} rose from ${format(start)} J to ${format(now)} J (+${format(now - start)} J) after ${format((i + 1) * timeStep)} s, more than the ${format(allowed)} J allowed (tolerance ${format(tolerance)})`,
      );
    }
    if (Number.isNaN(now)) throw new Error(`expectEnergyNotGrowing: the energy became NaN after ${format((i + 1) * timeStep)} s (see expectFinite)`);
  }
  return totals;
}

/** The drop (m) whose energy is the smallest base of `tolerance`. */
const ROOM_DROP = 1;

/** Mass (kg) of the movable particles `energy` counts. */
function movableMass(scene: TestScene, body: ParticleRef | undefined): number {
  const world = scene.store.getState().world;
  const record = body === undefined ? undefined : bodyIn(scene, body, 'expectEnergyNotGrowing');
  // The columns are indexed by slot; a body's first id carries its slots' generation.
  const first = record ? particleSlot(record.first) : 0;
  const end = record ? first + record.count : world.particles.end;
  let mass = 0;
  for (let slot = first; slot < end; slot++) if (world.particles.isAlive(slot) && world.particles.inverseMass[slot]! > 0) mass += 1 / world.particles.inverseMass[slot]!;
  return mass;
}
