import { particleSlot } from '../core/ids.js';
import { describeParticle, type TestScene } from './names.js';

/**
 * Ids of the live particles whose position or previous position (and so
 * velocity) holds a NaN or an infinity; empty in a healthy world. Once one
 * particle has one, sticks spread it to everything they join at the next step.
 *
 * @example
 * ```ts
 * expect(nonFiniteParticles(scene)).toEqual([]);
 * ```
 */
export function nonFiniteParticles(scene: TestScene): number[] {
  const world = scene.store.getState().world;
  const p = world.particles.position;
  const q = world.particles.previous;
  const bad: number[] = [];
  for (let slot = 0; slot < world.particles.end; slot++) {
    if (!world.particles.isAlive(slot)) continue;
    for (let k = slot * 3; k < slot * 3 + 3; k++) {
      if (!Number.isFinite(p[k]!) || !Number.isFinite(q[k]!)) {
        bad.push(world.particles.idOf(slot));
        break;
      }
    }
  }
  return bad;
}

/**
 * Throws if any particle's position or velocity is NaN or infinite (see
 * {@link nonFiniteParticles}), naming the first few by name and saying how many.
 *
 * @example
 * ```ts
 * await scene.seconds(5);
 * expectFinite(scene); // throws e.g.: expectFinite: 40 of 41 particles hold NaN or Infinity: "rope.0" at [NaN, NaN, NaN], ...
 * ```
 */
export function expectFinite(scene: TestScene): void {
  const bad = nonFiniteParticles(scene);
  if (bad.length === 0) return;
  const state = scene.store.getState();
  const world = state.world;
  const shown = bad.slice(0, 3).map((id) => `${describeParticle(state, id)} at [${Array.from(world.particles.position.subarray(particleSlot(id) * 3, particleSlot(id) * 3 + 3)).join(', ')}]`);
  throw new Error(`expectFinite: ${bad.length} of ${world.particleCount} particles hold NaN or Infinity: ${shown.join(', ')}${bad.length > 3 ? ', …' : ''}`);
}
