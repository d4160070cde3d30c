import { useEffect } from './effects.js';
import type { Force } from '../../core/forces/force.js';
import { useSinew } from '../context.js';

/**
 * Applies a force generator (anything with `apply(world)`: the core's
 * `Attractor`, `Springs`, `Buoyancy`, your own) in the nearest `<World>` while
 * mounted. A new `force` object replaces the old one; mutate its fields to
 * change it live.
 *
 * @example
 * ```tsx
 * function Vortex() {
 *   const force = useMemo(() => new Attractor({ position: [0, 1, 0], strength: 15, radius: 2 }), []);
 *   useForce(force);
 *   useFrame(({ clock }) => (force.strength = 15 * Math.sin(clock.elapsedTime)));
 *   return null;
 * }
 * ```
 */
export function useForce(force: Force): void {
  const { world, worker } = useSinew('useForce()');
  if (!force || typeof force.apply !== 'function') throw new TypeError(`useForce(): force must have an apply(world) method, got ${String(force)}`);
  if (worker !== null && !worker.remote.handedOut(force))
    throw new TypeError(
      `useForce(): in a <World worker> the force must be made by the world, got ${force.constructor?.name ?? 'an object'} made on this thread: its apply() would run in the physics worker, which cannot receive code. Make an engine force with makeOn(world, Attractor, options) (sinew-physics/worker; world from useWorld()), use <Attractor> or <Wind>, or remove the worker prop from this <World>`,
    );
  useEffect(() => {
    const id = world.addForce(force);
    return () => world.remove(id);
  }, [world, force]);
}
