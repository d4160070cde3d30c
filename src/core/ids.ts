// Typed ids. Every id the world hands out is a plain number at run time (an index
// into a column, or a registry number), so they cost nothing and survive a
// structured clone. Their types carry an optional brand: a number you computed
// (`ragdoll.first + 3`) is accepted wherever a particle id is, but an id of one kind
// passed where another kind is expected (a stick's id to `getPosition`, a collider's
// id to `removeCollider`) is a type error.

declare const idKind: unique symbol;

/** A particle: an index into the particle columns (`positions[id * 3]`). Any integer you computed from a body's `first` is one. */
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
