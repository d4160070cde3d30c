import { useLayoutEffect } from './effects.js';
import { massOfEachParticle } from '../../core/bodies/shapes.js';
import { checkCollisionGroups } from '../../core/collision/collisionGroups.js';
import { particleSlot } from '../../core/ids.js';
import { checkInteger, checkNumber } from '../../core/math.js';
import type { BodyHandle, CoreBody } from './useBody.js';

/** Per-particle options every body builder takes, which can change without re-building the body. */
export interface LiveParticleOptions {
  /** Mass of the whole body (kg), spread evenly over its particles (see `MassOptions`). */
  mass?: number;
  /** Mass of each particle (kg); give this or `mass`. */
  particleMass?: number;
  /** Collision radius of each particle (m). */
  radius?: number;
  /** Coulomb friction μ of each particle. */
  friction?: number;
  /** Bounciness of each particle against colliders, in [0, 1]. */
  restitution?: number;
  /** Relaxation passes per substep for this body (default: the world's). */
  iterations?: number;
  /** Which other bodies this one collides with (`collisionGroups(memberships, filter)`); default every body. */
  collisionGroups?: number;
}

/**
 * Applies mass, radius, friction, restitution, iterations and collision groups to a body in place
 * whenever they change, so a slider on any of them never resets the simulation.
 * (A re-created body already got the latest values from its builder.) Errors
 * name `who`.
 *
 * @example
 * ```ts
 * useLiveParticles(cloth, '<Cloth>', { mass: props.mass, friction: props.friction });
 * ```
 */
export function useLiveParticles(api: BodyHandle<CoreBody>, who: string, options: LiveParticleOptions): void {
  const { mass, particleMass, radius, friction, restitution, iterations, collisionGroups } = options;
  useLayoutEffect(() => {
    const body = api.current;
    if (!body) return;
    const world = api.world;
    const { first, count } = body;
    if (mass !== undefined || particleMass !== undefined) {
      const m = massOfEachParticle({ mass, particleMass }, count, who);
      for (let id = first; id < first + count; id++) world.setMass(id, m);
    }
    // The columns are indexed by slot; `first` is an id, which carries its slots' generation once they are reused.
    const from = particleSlot(first);
    if (radius !== undefined) world.particles.radius.fill(checkNumber(radius, `${who}: radius`, 0), from, from + count);
    if (friction !== undefined) world.particles.friction.fill(checkNumber(friction, `${who}: friction`, 0), from, from + count);
    if (restitution !== undefined) world.particles.restitution.fill(checkNumber(restitution, `${who}: restitution`, 0, 1), from, from + count);
    // Left alone when not given: builders have their own defaults (a plant relaxes once per substep).
    if (iterations !== undefined) body.body.iterations = checkInteger(iterations, `${who}: iterations`, 1);
    // Back to every body when the prop goes away.
    body.body.collisionGroups = checkCollisionGroups(collisionGroups, `${who}: collisionGroups`);
  }, [api, who, mass, particleMass, radius, friction, restitution, iterations, collisionGroups]);
}
