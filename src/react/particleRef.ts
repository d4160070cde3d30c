import type { WorldState } from './store.js';

/**
 * A particle as components accept it: a handle returned by a hook (or held in a
 * component's ref), a raw core particle id, a name given with
 * `<Particle name="hand" />`, or `"body.part"` for a particle of a named body
 * (`"rope.0"`, `"rope.end"`, `"doll.leftHand"`).
 */
export type ParticleRef = number | string | { readonly id: number };

/**
 * The live particle id `ref` names in this store's world, or undefined when it names none (yet).
 *
 * @example
 * ```ts
 * const hand = resolveParticle(store.getState(), 'doll.leftHand');
 * ```
 */
export function resolveParticle(state: WorldState, ref: ParticleRef): number | undefined {
  const alive = (id: number) => (state.world.particles.isAlive(id) ? id : undefined);
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
