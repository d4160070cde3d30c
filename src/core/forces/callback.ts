import type { World } from '../world.js';
import type { Force } from './force.js';

/**
 * A force written as a plain function, called at the start of every step: add
 * newtons to `world.particles.force` (xyz interleaved) or call `world.applyForce`.
 * Equivalent to `world.addForce({ apply })`. The callback runs every step, so it
 * should allocate nothing: keep its scratch vectors outside it.
 *
 * @example
 * ```ts
 * // A steady 2 N push along x on particle `id`.
 * world.addForce(new ForceCallback((w) => { w.particles.force[id * 3] += 2; }));
 * ```
 */
export class ForceCallback implements Force {
  /** The function called every step. */
  readonly callback: (world: World) => void;

  constructor(callback: (world: World) => void) {
    if (typeof callback !== 'function') throw new TypeError(`ForceCallback: callback must be a function, got ${String(callback)}`);
    this.callback = callback;
  }

  apply(world: World): void {
    this.callback(world);
  }
}
