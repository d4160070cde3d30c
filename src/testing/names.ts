import type { BodyRecord } from '../core/bodies/body.js';
import { ragdollParts } from '../core/bodies/ragdollSkeleton.js';
import { clothCorners } from '../react/hooks/useCloth.js';
import { resolveParticle, type ParticleRef } from '../react/particleRef.js';
import type { WorldState, WorldStore } from '../react/store.js';

/**
 * What the `sinew-physics/testing` helpers read a scene through: anything holding a
 * `<World>`'s store, such as what {@link mountWorld} and {@link mountHook} return.
 *
 * @example
 * ```ts
 * const scene: TestScene = await mountWorld(<Rope name="rope" from={[0, 2, 0]} to={[1, 2, 0]} segments={8} />);
 * expectFinite(scene);
 * ```
 */
export interface TestScene {
  /** The `<World>`'s store; its state holds the core world and the registry of names. */
  readonly store: WorldStore;
}

/**
 * The live particle id `ref` names in the scene, or an error that says why it
 * names none: an unknown name lists the names there are, an unknown part names
 * the body it was looked for in. `who` starts the message.
 *
 * @example
 * ```ts
 * const hand = particleIn(scene, 'doll.leftHand', 'myHelper'); // a particle id
 * particleIn(scene, 'doll.leftHnd', 'myHelper'); // throws: myHelper: body "doll" (a ragdoll) has no particle "leftHnd"
 * ```
 */
export function particleIn(scene: TestScene, ref: ParticleRef, who: string): number {
  const state = scene.store.getState();
  const id = resolveParticle(state, ref);
  if (id !== undefined) return id;
  if (typeof ref === 'number') throw new RangeError(`${who}: no live particle with id ${ref} in this <World>`);
  if (typeof ref === 'object' && ref !== null) throw new RangeError(`${who}: the handle's particle (id ${String(ref.id)}) is not in this <World>; is its component mounted?`);
  if (typeof ref !== 'string') throw new TypeError(`${who}: a particle is a handle, an id or a name, got ${String(ref)}`);
  const dot = ref.indexOf('.');
  const bodyName = dot < 0 ? undefined : ref.slice(0, dot);
  const body = bodyName !== undefined && Object.hasOwn(state.bodies, bodyName) ? state.bodies[bodyName] : undefined;
  if (body) {
    if (body.first < 0) throw new RangeError(`${who}: body "${bodyName}" has no particles now (it is being rebuilt or was removed)`);
    throw new RangeError(`${who}: body "${bodyName}" (a ${body.kind} of ${body.count} particles) has no particle "${ref.slice(dot + 1)}"`);
  }
  throw new RangeError(`${who}: no particle named "${ref}" in this <World>; ${knownNames(state)}`);
}

/**
 * The live body `name` names (a `<Rope name="rope">`), or the body holding the
 * particle `name` refers to when it is a particle name or id; an error that names
 * the problem otherwise.
 *
 * @example
 * ```ts
 * bodyIn(scene, 'crate', 'myHelper').kind; // 'box'
 * bodyIn(scene, 'doll.head', 'myHelper'); // the ragdoll
 * ```
 */
export function bodyIn(scene: TestScene, name: ParticleRef, who: string): BodyRecord {
  const state = scene.store.getState();
  const entry = typeof name === 'string' && Object.hasOwn(state.bodies, name) ? state.bodies[name] : undefined;
  if (entry) {
    const record = entry.first >= 0 ? state.world.bodyOf(entry.first) : undefined;
    if (!record) throw new RangeError(`${who}: body "${String(name)}" has no particles now (it is being rebuilt or was removed)`);
    return record;
  }
  const id = particleIn(scene, name, who);
  const record = state.world.bodyOf(id);
  if (!record) throw new RangeError(`${who}: ${describeParticle(state, id)} belongs to no body (a loose particle)`);
  return record;
}

/** Part names a body's particle may go by besides its index: a ragdoll's parts and a cloth's corners. */
const PART_NAMES: readonly string[] = [...ragdollParts, ...clothCorners];

/**
 * How the helpers' messages name particle `id`: by the name it was given
 * (`"hand"`), or as a part of a named body, as {@link ParticleRef} names it: a
 * ragdoll's part or a cloth's corner (`"doll.leftHand"`, `"flag.topRight"`),
 * `"end"` for a body's last particle (`"rope.end"`), its index otherwise
 * (`"rope.3"`); or by id.
 *
 * @example
 * ```ts
 * describeParticle(scene.store.getState(), 5); // '"rope.5"'
 * ```
 */
export function describeParticle(state: WorldState, id: number): string {
  for (const [name, particle] of Object.entries(state.particles)) if (particle.id === id) return `"${name}"`;
  for (const [name, body] of Object.entries(state.bodies)) {
    if (body.first < 0 || id < body.first || id >= body.first + body.count) continue;
    if (body.resolve) for (const part of PART_NAMES) if (body.resolve(part) === id) return `"${name}.${part}"`;
    return id === body.first + body.count - 1 ? `"${name}.end"` : `"${name}.${id - body.first}"`;
  }
  return `particle ${id}`;
}

/**
 * How the helpers' messages name the particle a test referred to as `ref`
 * (resolved to `id`): by the test's own name for it when it gave one
 * (`"rope.end"`, `"doll.leftHand"`, `"rope.3"`), by {@link describeParticle} for a handle or an id.
 *
 * @example
 * ```ts
 * nameParticle(scene.store.getState(), 'rope.end', id); // '"rope.end"'
 * ```
 */
export function nameParticle(state: WorldState, ref: ParticleRef, id: number): string {
  return typeof ref === 'string' ? `"${ref}"` : describeParticle(state, id);
}

/** The message's list of the names a scene has. */
function knownNames(state: WorldState): string {
  const particles = Object.keys(state.particles);
  const bodies = Object.entries(state.bodies).map(([name, body]) => `${name} (${body.kind})`);
  if (particles.length === 0 && bodies.length === 0) return 'nothing in it has a name (give a component a `name` prop)';
  const parts: string[] = [];
  if (particles.length > 0) parts.push(`named particles: ${particles.join(', ')}`);
  if (bodies.length > 0) parts.push(`named bodies: ${bodies.join(', ')} (their particles are "body.0", "body.end", or a part such as "doll.leftHand")`);
  return parts.join('; ');
}
