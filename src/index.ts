/**
 * sinew: interactive Verlet physics for @react-three/fiber. This entry is what an
 * app imports: the React components and hooks, the three.js read-back helpers
 * for drawing bodies yourself, the engine classes a component's `ref` or a
 * hook's handle gives you, and the types their props use. The whole engine is
 * `sinew-physics/core`; the textbook integrators and target practice are `sinew-physics/teaching`.
 * @packageDocumentation
 */
export * from './three/index.js';
export * from './react/index.js';

// The engine, picked by hand rather than `export *`: `sinew-physics/core` exports about a
// hundred names (tables, collision helpers, builders) that an app holding a
// `<World>` never calls, and they crowded this entry's autocomplete. What stays
// is what a component's ref or a hook's handle is, what its props take, and the
// quaternion helpers that make the orientations those props take.

// Where an engine class and a React component share a name, `sinew-physics` gives the
// component (from ./react above); the engine's classes are aliased `Core…` here
// and keep their own names in `sinew-physics/core`. Everything comes through the core's
// index, so this entry can only pick from the engine's public API.
export {
  World as CoreWorld,
  RigidBody as CoreRigidBody,
  Ragdoll as CoreRagdoll,
  Wind as CoreWind,
  Attractor as CoreAttractor,
  BoxCollider as CoreBoxCollider,
  SphereCollider as CoreSphereCollider,
  CapsuleCollider as CoreCapsuleCollider,
  type ParticleCollisions as CoreParticleCollisions,
  type Quat,
  type QuatLike,
  type RotationLike,
  type EulerLike,
  type EulerOrder,
  toQuat,
  toRotation,
  quatFromEuler,
  quatFromAxisAngle,
  quatMultiply,
  quatConjugate,
  rotateVector,
  collisionGroups,
  particleSlot,
} from './core/index.js';

// Types only (no runtime names): what the components' props, the hooks' options
// and handles, and `useWorld()`'s world are declared with, so an app can name them.
export type {
  Vec3,
  Vec3Like,
  Placement,
  ParticleId,
  ConstraintId,
  ColliderId,
  ForceId,
  CallbackId,
  BodyId,
  RemovableId,
  Removable,
  WorldOptions,
  WorldStats,
  ParticleOptions,
  StickOptions,
  PinOptions,
  StickKind,
  StickKernel,
  ColliderShape,
  Collider,
  Constraint,
  Force,
  BodyRecord,
  Surface,
  ExplosionOptions,
  AttractorOptions,
  WindOptions,
  WindHandle,
  ClothOptions,
  ClothHandle,
  ClothPin,
  ClothPinName,
  RopeOptions,
  RopeHandle,
  FabricName,
  FabricMaterial,
  RopeName,
  RopeMaterial,
  PlantOptions,
  PlantHandle,
  SoftBodyOptions,
  SoftBodyHandle,
  RigidBodyOptions,
  TetrahedronOptions,
  BoxOptions,
  ConvexOptions,
  SharedVertices,
  RagdollOptions,
  RagdollPart,
  RagdollLimbName,
  CollisionGroups,
} from './core/index.js';
