import type { RagdollPart } from '../core/bodies/ragdollSkeleton.js';
import type { ClothCorner } from './hooks/useCloth.js';
import type { WorldState } from './store.js';

/**
 * A particle as components accept it: a handle returned by a hook (or held in a
 * component's ref), a raw core particle id, a name given with
 * `<Particle name="hand" />`, or `"body.part"` for a particle of a named body
 * (`"rope.0"`, `"rope.end"`, `"doll.leftHand"`).
 */
export type ParticleRef = number | string | { readonly id: number };

/**
 * What may follow the dot in `"body.part"`: a particle index (`"rope.3"`),
 * `start` and `end` (a rope's, or any body's first and last particle), a
 * ragdoll part (`"doll.leftHand"`) or a cloth's corner (`"flag.topRight"`).
 */
export type BodyPartName = `${number}` | 'start' | 'end' | RagdollPart | ClothCorner;

/**
 * A {@link ParticleRef} whose name, written as a string literal, is checked at
 * compile time: `"hand"`, `"rope.end"` and `"doll.leftHand"` type-check,
 * `"doll.lefthand"` and `"rope.ned"` do not (no body has such a part). Names
 * held in a `string` variable are not checked here; the component checks them
 * when it mounts. `N` is inferred from the prop.
 *
 * @example
 * ```tsx
 * function Leash<N extends string>({ to }: { to: TypedParticleRef<N> }) {
 *   return <Pin particle={to} target={[0, 1, 0]} />;
 * }
 * ```
 */
export type TypedParticleRef<N extends string = string> = number | { readonly id: number } | (N & CheckedParticleName<N>);

/** `N` when it names a particle sinew can resolve: a plain name, or `"body.part"` with a {@link BodyPartName}; otherwise a message, which nothing is assignable to. */
export type CheckedParticleName<N extends string> = N extends `${string}.${infer Part}`
  ? Part extends BodyPartName
    ? N
    : `"${N}" names no part: after the dot use an index, 'start', 'end', a ragdoll part or a cloth corner`
  : N;

/**
 * The live particle id `ref` names in this store's world, or undefined when it names none (yet).
 *
 * @example
 * ```ts
 * const hand = resolveParticle(store.getState(), 'doll.leftHand');
 * ```
 */
export function resolveParticle(state: WorldState, ref: ParticleRef): number | undefined {
  const alive = (id: number) => (state.world.particles.slotOf(id) >= 0 ? id : undefined);
  if (typeof ref === 'number') return alive(ref);
  if (typeof ref === 'object' && ref !== null) return alive(ref.id);
  if (typeof ref !== 'string') return undefined;
  const named = Object.hasOwn(state.particles, ref) ? state.particles[ref] : undefined;
  if (named) return alive(named.id);
  const dot = ref.indexOf('.');
  if (dot < 0) return undefined;
  const bodyName = ref.slice(0, dot);
  const body = Object.hasOwn(state.bodies, bodyName) ? state.bodies[bodyName] : undefined;
  if (!body || body.first < 0) return undefined;
  const part = ref.slice(dot + 1);
  const custom = body.resolve?.(part);
  if (custom !== undefined) return alive(custom);
  if (part === 'start') return alive(body.first);
  if (part === 'end') return alive(body.first + body.count - 1);
  const index = /^\d+$/.test(part) ? Number(part) : NaN;
  return index < body.count ? alive(body.first + index) : undefined;
}

/**
 * Like {@link resolveParticle} but throws an error that names the component and
 * the prop: `<Stick>: a names no particle "hand" in this <World>`.
 *
 * @example
 * ```ts
 * const id = requireParticle(store.getState(), props.a, '<Stick>', 'a');
 * ```
 */
export function requireParticle(state: WorldState, ref: ParticleRef, who: string, prop: string): number {
  const id = resolveParticle(state, ref);
  if (id !== undefined) return id;
  if (typeof ref === 'string') throw new Error(`${who}: ${prop} names no particle "${ref}" in this <World>`);
  if (typeof ref === 'number') throw new Error(`${who}: ${prop} is particle id ${ref}, which is not alive in this <World>`);
  if (typeof ref === 'object' && ref !== null) throw new Error(`${who}: ${prop} is a handle whose particle is not in this <World> (id ${String(ref.id)})`);
  throw new TypeError(`${who}: ${prop} must be a particle handle, id or name, got ${String(ref)}`);
}
