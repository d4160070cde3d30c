import { particleSlot } from '../core/ids.js';
import type { ParticleRef } from '../react/particleRef.js';
import { format } from './format.js';
import { bodyIn, type TestScene } from './names.js';

/**
 * True while the body is asleep: it came to rest and the solver skips it until
 * something wakes it. `body` is a body's name (`"crate"`), or any of its
 * particles by handle, id or name (`"doll.head"`).
 *
 * @example
 * ```ts
 * await scene.seconds(3);
 * expect(isAsleep(scene, 'crate')).toBe(true);
 * ```
 */
export function isAsleep(scene: TestScene, body: ParticleRef): boolean {
  const record = bodyIn(scene, body, 'isAsleep');
  return scene.store.getState().world.sleep.isAsleep(record.id);
}

/**
 * Throws unless the body is asleep (see {@link isAsleep}); the message says why
 * it may not be: sleeping turned off, or the body still moving.
 *
 * @example
 * ```ts
 * await scene.seconds(3);
 * expectAsleep(scene, 'crate'); // throws e.g.: expectAsleep: body "crate" (a box) is awake ...
 * ```
 */
export function expectAsleep(scene: TestScene, body: ParticleRef): void {
  const record = bodyIn(scene, body, 'expectAsleep');
  const world = scene.store.getState().world;
  if (world.sleep.isAsleep(record.id)) return;
  const label = typeof body === 'string' && !body.includes('.') ? `body "${body}"` : `the body of ${typeof body === 'string' ? `"${body}"` : `particle ${typeof body === 'number' ? body : body.id}`}`;
  if (!world.sleep.enabled) throw new Error(`expectAsleep: ${label} (a ${record.kind}) is awake: sleeping is off in this <World> (its sleep prop is false)`);
  let fastest = 0;
  const p = world.particles.position;
  const q = world.particles.previous;
  for (let i = particleSlot(record.first); i < particleSlot(record.first) + record.count; i++) {
    if (!world.particles.isAlive(i)) continue;
    fastest = Math.max(fastest, Math.hypot(p[i * 3]! - q[i * 3]!, p[i * 3 + 1]! - q[i * 3 + 1]!, p[i * 3 + 2]! - q[i * 3 + 2]!) / world.substep);
  }
  throw new Error(
    `expectAsleep: ${label} (a ${record.kind}) is awake; its fastest particle moves at ${format(fastest)} m/s (it falls asleep after resting below ${world.sleep.speed} m/s for ${world.sleep.time} s)`,
  );
}
