import type { World } from '../world.js';
import type { Force } from './force.js';

/**
 * A force written as a plain function, called at the start of every substep,
 * before integration: add newtons to `world.particles.force` (xyz interleaved) or
 * call `world.applyForce`; from inside the callback both act on the current
 * substep only. Equivalent to `world.addForce({ apply })`. The callback runs
 * every substep, so it should allocate nothing: keep its scratch vectors outside it.
 *
 * @example
 * ```ts
 * // A steady 2 N push along x on particle `id`.
 * world.addForce(new ForceCallback((w) => { w.particles.force[id * 3] += 2; }));
 * ```
 */
export class ForceCallback implements Force {
  /** The function called every substep. */
  readonly callback: (world: World) => void;

  constructor(callback: (world: World) => void) {
    if (typeof callback !== 'function') throw new TypeError(`ForceCallback: callback must be a function, got ${String(callback)}`);
    this.callback = callback;
  }

  /** Calls {@link ForceCallback.callback}; the solver does this every substep. */
  apply(world: World): void {
    this.callback(world);
  }
}
