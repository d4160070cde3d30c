import { particleSlot } from '../core/ids.js';
import { checkNumber } from '../core/math.js';
import type { World } from '../core/world.js';
import type { ParticleRef } from '../react/particleRef.js';
import { format } from './format.js';
import { nameParticle, particleIn, type TestScene } from './names.js';

/**
 * Options of {@link expectStickLength}.
 *
 * @example
 * ```ts
 * const options: StickLengthOptions = { length: 0.5, tolerance: 0.02 }; // 0.5 m ± 2%
 * expectStickLength(scene, 'hand', 'elbow', options);
 * ```
 */
export interface StickLengthOptions {
  /** The length to compare with (m); default the rest length of the stick that joins the two particles. */
  length?: number;
  /** Largest allowed difference as a fraction of that length: 0.01 (the default) is 1%. */
  tolerance?: number;
}

/**
 * Throws unless particles `a` and `b` are `length` apart within `tolerance` (a
 * fraction of the length); without `length`, the rest length of the stick that
 * joins them, so a stretched or crushed stick fails. Returns the distance (m).
 *
 * @example
 * ```ts
 * expectStickLength(scene, 'rope.0', 'rope.1'); // the rope's first link is within 1% of its rest length
 * expectStickLength(scene, 'rope.start', 'rope.end', { length: 2, tolerance: 0.05 }); // the whole rope spans 2 m ± 5%
 * ```
 */
export function expectStickLength(scene: TestScene, a: ParticleRef, b: ParticleRef, options: StickLengthOptions = {}): number {
  const tolerance = checkNumber(options.tolerance ?? 0.01, 'expectStickLength: tolerance', 0);
  const state = scene.store.getState();
  const world = state.world;
  const ia = particleIn(scene, a, 'expectStickLength: a');
  const ib = particleIn(scene, b, 'expectStickLength: b');
  const names = `${nameParticle(state, a, ia)}–${nameParticle(state, b, ib)}`;
  // The stick table holds slots.
  const length = options.length === undefined ? restLength(world, particleSlot(ia), particleSlot(ib), names) : checkNumber(options.length, 'expectStickLength: length', 0);
  const p = world.positions;
  const sa = particleSlot(ia);
  const sb = particleSlot(ib);
  const distance = Math.hypot(p[sb * 3]! - p[sa * 3]!, p[sb * 3 + 1]! - p[sa * 3 + 1]!, p[sb * 3 + 2]! - p[sa * 3 + 2]!);
  const off = Math.abs(distance - length);
  if (!(off <= tolerance * length)) {
    const relative = length > 0 ? `${format((100 * (distance - length)) / length)}%` : `${format(distance)} m`;
    throw new Error(
      `expectStickLength: ${names} is ${format(distance)} m long, ${relative} off ${options.length === undefined ? 'its rest length' : 'the length'} ${format(length)} m (allowed ${format(100 * tolerance)}%)`,
    );
  }
  return distance;
}

/** Rest length of the stick joining `a` and `b`, or an error saying no stick does. */
function restLength(world: World, a: number, b: number, names: string): number {
  const sticks = world.sticks;
  const found = new Set<number>();
  for (let row = 0; row < sticks.count; row++) {
    const sa = sticks.a[row]!;
    const sb = sticks.b[row]!;
    if ((sa === a && sb === b) || (sa === b && sb === a)) found.add(sticks.rest[row]!);
  }
  if (found.size === 1) return [...found][0]!;
  if (found.size === 0) throw new Error(`expectStickLength: no stick joins ${names}; pass { length } to compare their distance with a length of your own`);
  throw new Error(`expectStickLength: ${found.size} sticks of different rest lengths (${[...found].map(format).join(', ')} m) join ${names}; pass { length } to say which`);
}
