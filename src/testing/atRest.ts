import { checkNumber } from '../core/math.js';
import type { ParticleRef } from '../react/particleRef.js';
import { format } from './format.js';
import { nameParticle, particleIn, type TestScene } from './names.js';

/**
 * Throws unless the particle moves slower than `speed` (m/s, default 0.01) over
 * the latest substep: it has come to rest, or is pinned, or asleep. Returns its
 * speed. The message names the particle and says how fast it moves.
 *
 * @example
 * ```ts
 * await scene.seconds(3);
 * expectAtRest(scene, 'rope.end'); // throws e.g.: expectAtRest: "rope.end" moves at 0.42 m/s, not below 0.01 m/s
 * expectAtRest(scene, 'ball', { speed: 0.05 });
 * ```
 */
export function expectAtRest(scene: TestScene, particle: ParticleRef, options: { speed?: number } = {}): number {
  const limit = checkNumber(options.speed ?? 0.01, 'expectAtRest: speed', 0);
  const state = scene.store.getState();
  const id = particleIn(scene, particle, 'expectAtRest');
  const [x, y, z] = state.world.getVelocity(id);
  const speed = Math.hypot(x, y, z);
  if (!(speed < limit)) throw new Error(`expectAtRest: ${nameParticle(state, particle, id)} moves at ${format(speed)} m/s, not below ${limit} m/s (velocity [${[x, y, z].map(format).join(', ')}])`);
  return speed;
}
