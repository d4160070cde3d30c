/**
 * sinew's React layer: `<World>`, components that register particles and
 * constraints with it, and hooks. Components read positions back in `useFrame`
 * and never re-render while the scene runs.
 * @packageDocumentation
 */
export { World, STEP_PRIORITY, type WorldProps } from './World.js';
export type { WorkerLink } from '../worker/link.js';
export { createWorldStore, WORLD_SETTING_DEFAULTS, type WorldStore, type WorldState, type WorldSettings, type WorldStoreStats, type FrameInfo, type NamedParticle, type BodyEntry } from './store.js';
export { SinewContext, type SinewContextValue } from './context.js';
export { resolveParticle, requireParticle, type ParticleRef, type TypedParticleRef, type BodyPartName, type CheckedParticleName } from './particleRef.js';

export { useWorld } from './hooks/useWorld.js';
export { useWorldStore, useWorldStoreApi } from './hooks/useWorldStore.js';
export { useParticle, type UseParticleOptions, type ParticleHandle } from './hooks/useParticle.js';
export { useStick, type StickHandle } from './hooks/useStick.js';
export { usePin, type PinHandle } from './hooks/usePin.js';
export { useAttach, type AttachTarget, type AttachHandle, type UseAttachOptions } from './hooks/useAttach.js';
export { useBeforeStep, useAfterStep } from './hooks/useStepCallbacks.js';
export { useExplosion } from './hooks/useExplosion.js';
export { useForce } from './hooks/useForce.js';
export { useCollider, type ColliderHandle } from './hooks/useCollider.js';
export { BodyHandle, useBody, type CoreBody, type BodyRecipe } from './hooks/useBody.js';
export { useCloth, ClothApi, type UseClothOptions, type ClothCorner } from './hooks/useCloth.js';
export { useRope, RopeApi, type UseRopeOptions } from './hooks/useRope.js';
export { useSoftBody, SoftBodyApi, type UseSoftBodyOptions } from './hooks/useSoftBody.js';
export { usePlant, PlantApi, type UsePlantOptions } from './hooks/usePlant.js';
export { useRigidBody, RigidBodyApi, type SharedParticles, type UseRigidBodyOptions } from './hooks/useRigidBody.js';
export { useRagdoll, RagdollApi, type UseRagdollOptions } from './hooks/useRagdoll.js';

export { Particle, type ParticleProps } from './components/Particle.js';
export { Stick, type StickProps } from './components/Stick.js';
export { Pin, type PinProps } from './components/Pin.js';
export { Attach, type AttachProps } from './components/Attach.js';
export { Rope, type RopeProps } from './components/Rope.js';
export { Cloth, type ClothProps } from './components/Cloth.js';
export { SoftBody, type SoftBodyProps } from './components/SoftBody.js';
export { RigidBody, type RigidBodyProps } from './components/RigidBody.js';
export { Ragdoll, type RagdollProps } from './components/Ragdoll.js';
export { CharacterRagdoll, type CharacterRagdollProps } from './components/CharacterRagdoll.js';
export { Plant, type PlantProps } from './components/Plant.js';
export { Ground, type GroundProps } from './components/Ground.js';
export { BoxCollider, type BoxColliderProps } from './components/BoxCollider.js';
export { SphereCollider, type SphereColliderProps } from './components/SphereCollider.js';
export { CapsuleCollider, type CapsuleColliderProps } from './components/CapsuleCollider.js';
export { MeshCollider, type MeshColliderProps } from './components/MeshCollider.js';
export { Gravity, type GravityProps } from './components/Gravity.js';
export { Wind, type WindProps } from './components/Wind.js';
export { Attractor, type AttractorProps } from './components/Attractor.js';
export { DragControls, type DragControlsProps, type ToggleableControls } from './components/DragControls.js';
export { IKHandle, type IKHandleProps } from './components/IKHandle.js';
export { Debug, formatStats, type DebugProps } from './components/Debug.js';
export { ParticleCollisions, type ParticleCollisionsProps } from './components/ParticleCollisions.js';
