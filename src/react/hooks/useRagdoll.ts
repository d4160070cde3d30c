import { createRagdoll, type Ragdoll, type RagdollOptions } from '../../core/bodies/ragdoll.js';
import { ragdollParts, type RagdollPart } from '../../core/bodies/ragdollSkeleton.js';
import type { Vec3Like } from '../../core/math.js';
import { hit } from '../../core/motion/hit.js';
import { BodyHandle, useBody } from './useBody.js';
import { useLiveParticles } from './useLiveParticles.js';
import { buildOn } from '../../worker/builders.js';

/** Options of {@link useRagdoll}; the `<Ragdoll>` props. Those of `createRagdoll`, plus a name. */
export interface UseRagdollOptions extends RagdollOptions {
  /** Registers the ragdoll in its `<World>`: `"doll.leftHand"` names that part's particle. */
  name?: string;
}

/** A stable handle on a ragdoll; `current` is the core `Ragdoll` while it exists..
 *
 * @example
 * ```ts
 * doll.hit('head', [0, 0, -1], 0.03);
 * world.addPin(doll.part('leftHand'));
 * ```
 */
export class RagdollApi extends BodyHandle<Ragdoll> {
  /** Particle id of a named part (`'leftHand'`, `'head'`...). */
  part(name: RagdollPart): number {
    if (!this.current) throw new Error('RagdollApi.part: the ragdoll does not exist (its component is not mounted)');
    return this.current.part(name);
  }
  /** A blow on a part (by name or index): it moves `strength` m along `direction` and the body follows (paper section 7). */
  override hit(part: RagdollPart | number, direction: Vec3Like, strength: number): void {
    buildOn(this.world, hit, this.world, typeof part === 'number' ? this.particle(part) : this.part(part), direction, strength);
  }
}

/**
 * A ragdoll (paper section 6): 16 particles, limbs as sticks, joints limited
 * by angle constraints. `height`, `mass`, `pose`, `angleStiffness` and
 * `selfCollision` build it; `feet`, `rotation` and `velocity` are read
 * once; friction and iterations change in place.
 *
 * @example
 * ```tsx
 * function Victim() {
 *   const doll = useRagdoll({ name: 'doll', feet: [0, 0.2, 0], pose: 'T' });
 *   useEffect(() => doll.hit('chest', [0, 0, -1], 0.02), [doll]);
 *   return <Pin particle="doll.leftHand" />;
 * }
 * ```
 */
export function useRagdoll(options: UseRagdollOptions = {}): RagdollApi {
  return useRagdollAs('useRagdoll()', options);
}

/** @internal {@link useRagdoll} with errors that name `who`, the component using it. */
export function useRagdollAs(who: string, options: UseRagdollOptions = {}): RagdollApi {
  if (!options || typeof options !== 'object') throw new TypeError(`${who}: options must be an object, got ${String(options)}`);
  const { height, mass, pose, angleStiffness, selfCollision, jointDamping, capsules, protectFromTunnelling, elbowHinges, twistLimits, limitFriction, ownPasses, name } = options;
  // Options the core reads only when it builds the ragdoll rebuild it when they change.
  const key = JSON.stringify([height, mass, pose, angleStiffness, selfCollision, jointDamping, capsules, protectFromTunnelling, elbowHinges, twistLimits, limitFriction, ownPasses]);
  const api = useBody<Ragdoll, RagdollApi>(
    {
      who,
      builder: 'createRagdoll',
      key,
      name,
      options,
      create: (w, o = options) => buildOn(w, createRagdoll, w, o as RagdollOptions),
      resolve: (ragdoll, part) => ((ragdollParts as readonly string[]).includes(part) ? ragdoll.part(part as RagdollPart) : undefined),
    },
    (w) => new RagdollApi(w),
  );
  useLiveParticles(api, who, { friction: options.friction, restitution: options.restitution, iterations: options.iterations, collisionGroups: options.collisionGroups });
  return api;
}
