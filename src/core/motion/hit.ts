import { checkNumber, component, toVec3, type Vec3Like } from '../math.js';
import type { World } from '../world.js';

/**
 * A blow (Jakobsen, section 7: "if a person is hit at the shoulder, move the
 * shoulder particle backwards over a distance proportional to the strength of the
 * blow"): moves particle `particle` by `strength` metres along `direction`. Only
 * the position moves, not the previous position, so the Verlet integrator sets the
 * particle off at strength / `world.substep` m/s and its constraints pass the motion
 * on to the rest of the body. Immovable (and pinned) particles are left alone.
 * Wakes the particle's body.
 *
 * @example
 * ```ts
 * hit(world, shoulder, [0, 0, -1], 0.02); // knocked 2 cm backwards
 * ```
 */
export function hit(world: World, id: number, direction: Vec3Like, strength: number): void {
  const particle = world.checkParticle(id, 'hit: particle');
  // Read in place, calling toVec3 only to raise its error: a game may hit something every frame.
  if (direction === null || typeof direction !== 'object' || (Array.isArray(direction) && direction.length !== 3)) toVec3(direction, 'hit: direction');
  const dx = component(direction, 0);
  const dy = component(direction, 1);
  const dz = component(direction, 2);
  if (!Number.isFinite(dx) || !Number.isFinite(dy) || !Number.isFinite(dz)) toVec3(direction, 'hit: direction');
  const length = Math.sqrt(dx * dx + dy * dy + dz * dz);
  if (length === 0) throw new RangeError('hit: direction must be non-zero, got [0, 0, 0]');
  checkNumber(strength, 'hit: strength', 0);
  const particles = world.particles;
  if (particles.inverseMass[particle] === 0) return;
  const pos = particles.position;
  const scale = strength / length;
  const p = particle * 3;
  pos[p] = pos[p]! + dx * scale;
  pos[p + 1] = pos[p + 1]! + dy * scale;
  pos[p + 2] = pos[p + 2]! + dz * scale;
  world.wake(particle);
}
