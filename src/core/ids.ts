// Typed ids. Every id the world hands out is a plain number at run time (an index
// into a column, or a registry number), so they cost nothing and survive a
// structured clone. Their types carry an optional brand: a number you computed
// (`ragdoll.first + 3`) is accepted wherever a particle id is, but an id of one kind
// passed where another kind is expected (a stick's id to `getPosition`, a collider's
// id to `removeCollider`) is a type error.

declare const idKind: unique symbol;

/**
 * A particle: its slot (the index into the particle columns) in the low
 * {@link PARTICLE_SLOT_BITS} bits and the slot's generation above them. A slot
 * first used has generation 0, so its id is its index (`positions[id * 3]`);
 * a slot reused after a removal gets a new generation, so an id kept from its
 * former particle is refused rather than read as the newcomer. Any integer you
 * computed from a body's `first` is one (a body's particles share a generation);
 * {@link particleSlot} gives the index of an id.
 */
export type ParticleId = number & { readonly [idKind]?: 'particle' };

/** A constraint of any kind (stick, pin, user constraint, angle, plane, capsule edge, face, spring), from the world's registry. */
export type ConstraintId = number & { readonly [idKind]?: 'constraint' };

/** A static collider, from the world's registry. */
export type ColliderId = number & { readonly [idKind]?: 'collider' };

/** A force generator added with `addForce`, from the world's registry. */
export type ForceId = number & { readonly [idKind]?: 'force' };

/** A before- or after-step callback added with `onBeforeStep` / `onAfterStep`, from the world's registry. */
export type CallbackId = number & { readonly [idKind]?: 'callback' };

/** A body: its slot in `world.bodies` (reused after the body is removed; a snapshot names bodies by `serial`). */
export type BodyId = number & { readonly [idKind]?: 'body' };

/** Any id `world.remove` takes: what `addStick`, `addPin`, `addConstraint`, `addCollider`, `addForce`, `onBeforeStep` and `onAfterStep` return. */
export type RemovableId = ConstraintId | ColliderId | ForceId | CallbackId;

/** Bits of a particle id that hold its slot: a world holds at most 2^20 (1,048,576) particles. */
export const PARTICLE_SLOT_BITS = 20;

/** Generations a particle id tells apart: an id held through 1,024 reuses of its slot would name the particle there (as Jolt's 8-bit and Box2D's 16-bit sequence numbers wrap). */
export const PARTICLE_GENERATIONS = 2 ** (30 - PARTICLE_SLOT_BITS);

/** The most particles a world holds at once. */
export const MAX_PARTICLES = 2 ** PARTICLE_SLOT_BITS;

/**
 * The slot of particle `id`, the index into the particle columns
 * (`world.positions[particleSlot(id) * 3]`). It does not check the id: the
 * world's accessors do.
 */
export function particleSlot(id: ParticleId): number {
  return id & (MAX_PARTICLES - 1);
}
