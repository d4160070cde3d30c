/**
 * sinew/core: the headless engine. Verlet particles, sticks, pins and colliders
 * solved by relaxation (Jakobsen, "Advanced Character Physics"). No React, no three.js.
 * @packageDocumentation
 */
export type { BodyRecord, BodyOptions, Surface } from './bodies/body.js';
export { World, type WorldOptions, type ParticleOptions, type StickOptions, type ColliderShape } from './world.js';
export type { WorldSnapshot } from './snapshot.js';
export { ParticleStore, ParticleFlag } from './particles.js';
export { StickTable, type StickKind } from './constraints/sticks.js';
export { PinTable } from './constraints/pins.js';
export type { Constraint } from './constraints/constraint.js';
export type { Force } from './forces/force.js';
export { type Collider, type Contact, makeContact, pushOut, collides } from './colliders/collider.js';
export { PlaneCollider, type PlaneShape } from './colliders/plane.js';
export { SphereCollider, type SphereShape } from './colliders/sphere.js';
export { BoxCollider, type BoxShape } from './colliders/box.js';
export { SeededRandom } from './random.js';
export type { Vec3, Vec3Like } from './math.js';
