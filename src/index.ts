/**
 * sinew: interactive Verlet physics for @react-three/fiber.
 * @packageDocumentation
 */
export * from './core/index.js';
export * from './three/index.js';
export * from './react/index.js';
// Where an engine class and a React component share a name, `sinew` gives the
// component; the engine's classes stay in `sinew/core` and are aliased here.
export { World, RigidBody, Ragdoll, Wind, Attractor, BoxCollider, SphereCollider, CapsuleCollider, ParticleCollisions } from './react/index.js';
export type { ParticleCollisions as CoreParticleCollisions } from './core/collision/particleCollisions.js';
export { World as CoreWorld } from './core/world.js';
export { RigidBody as CoreRigidBody } from './core/bodies/rigid.js';
export { Ragdoll as CoreRagdoll } from './core/bodies/ragdoll.js';
export { Wind as CoreWind } from './core/forces/wind.js';
export { Attractor as CoreAttractor } from './core/forces/attractor.js';
export { BoxCollider as CoreBoxCollider } from './core/colliders/box.js';
export { SphereCollider as CoreSphereCollider } from './core/colliders/sphere.js';
export { CapsuleCollider as CoreCapsuleCollider } from './core/colliders/capsule.js';
