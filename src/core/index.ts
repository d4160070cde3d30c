/**
 * sinew-physics/core: the headless engine. Verlet particles, sticks, pins and colliders
 * solved by relaxation (Jakobsen, "Advanced Character Physics"). No React, no three.js.
 * @packageDocumentation
 */
export type { BodyRecord, BodyOptions, Surface } from './bodies/body.js';
export { World, type WorldOptions, type ParticleOptions, type StickOptions, type PinOptions, type ColliderShape, type Removable } from './world.js';
export type { ParticleId, ConstraintId, ColliderId, ForceId, CallbackId, BodyId, RemovableId } from './ids.js';
export { particleSlot, MAX_PARTICLES, PARTICLE_SLOT_BITS, PARTICLE_GENERATIONS } from './ids.js';
export { WORLD_DEFAULTS, checkSolverSettings, type SolverSettings } from './worldOptions.js';
export {
  PARTICLE_DEFAULTS,
  STICK_DEFAULTS,
  PIN_DEFAULTS,
  COLLIDER_DEFAULTS,
  ANGLE_DEFAULTS,
  PLANE_CONSTRAINT_DEFAULTS,
  VOLUME_DEFAULTS,
  ATTACHMENT_DEFAULTS,
  BODY_ATTACHMENT_DEFAULTS,
  SPRING_DEFAULTS,
  BUOYANCY_DEFAULTS,
  GRAVITATION_DEFAULTS,
  ELECTRIC_DEFAULTS,
  WIND_DEFAULTS,
  ATTRACTOR_DEFAULTS,
  EXPLOSION_DEFAULTS,
  CLOTH_DEFAULTS,
  ROPE_DEFAULTS,
  SOFT_BODY_DEFAULTS,
  RIGID_DEFAULTS,
  RAGDOLL_DEFAULTS,
  PLANT_DEFAULTS,
} from './defaults.js';
export type { WorldStats } from './stats.js';
export { RealTimeWatch, type SlowerThanRealTimeReport } from './realTime.js';
export { TimeBudget } from './budget.js';
export { SleepSystem, type SleepSnapshot } from './sleep.js';
export type { WorldSnapshot } from './snapshot.js';
export { ParticleStore, ParticleFlag } from './particles.js';
export { StickTable, type StickKind } from './constraints/sticks.js';
export { wasmKernelAvailable, type StickKernel } from './wasm/stickKernel.js';
export { PinTable } from './constraints/pins.js';
export type { Constraint } from './constraints/constraint.js';
export type { Force } from './forces/force.js';
export { type Collider, type Contact, makeContact, pushOut, setSurface, collides } from './colliders/collider.js';
export { ContactSettings, respondToContacts } from './colliders/contactResponse.js';
export { StepContext, type SubstepStage } from './stepContext.js';
export { PlaneCollider, type PlaneShape } from './colliders/plane.js';
export { SphereCollider, type SphereShape } from './colliders/sphere.js';
export { BoxCollider, type BoxShape } from './colliders/box.js';
export { SeededRandom } from './random.js';
export type { Vec3, Vec3Like } from './math.js';
export type { Placement } from './placement.js';
// Forces and motion control. (The teaching integrators and target practice are sinew-physics/teaching.)
export { Attractor, type AttractorOptions } from './forces/attractor.js';
export { Buoyancy, type BuoyancyOptions } from './forces/buoyancy.js';
export { GravitationalForce, type GravitationalForceOptions } from './forces/gravitation.js';
export { ElectricForce, type ElectricForceOptions } from './forces/electric.js';
export { Springs, type SpringOptions } from './forces/spring.js';
export { ForceCallback } from './forces/callback.js';
export { explode, type ExplosionOptions } from './motion/explosion.js';
export { hit } from './motion/hit.js';
export { PinGlide } from './motion/pinGlide.js';
export { BodyDrag, HELD_PASSES, limitBodySpeed } from './motion/bodyDrag.js';
export { BodyReach } from './motion/bodyReach.js';
export { dragSpring, DRAG_DAMPING_RATIO, DRAG_FREQUENCY, DRAG_STRETCH, DRAG_WEIGHTS, type DragSpringSettings } from './motion/dragSpring.js';
export { Attachment, BREAKABLE_COMPLIANCE, type AttachmentOptions } from './motion/attachment.js';
export { PoseTrack } from './motion/poseTrack.js';
export { CharacterDriver, type CharacterDriverOptions } from './motion/characterDriver.js';
export { PoseBlend, smoothstep } from './motion/poseBlend.js';
export { BodyAttachment, type BodyAttachmentOptions } from './constraints/bodyAttachment.js';
export { Tethers } from './constraints/tethers.js';
export { CoupledAttachment, type CoupledAttachmentOptions } from './constraints/coupledAttachment.js';
export { FreePoint } from './colliders/freePoint.js';
export { inheritAnimation } from './motion/inheritAnimation.js';
// Rigid bodies, joints, ragdolls, angle and plane constraints.
export {
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
  quatFromBasis,
  keepHemisphere,
} from './quaternion.js';
export { RigidShape, InternalDamping, makeRigidTransform, type RigidTransform } from './bodies/rigidTransform.js';
export { RigidBody, createTetrahedron, createBox, createConvex, RIGID_MIN_ITERATIONS, type RigidBodyOptions, type TetrahedronOptions, type BoxOptions, type ConvexOptions } from './bodies/rigid.js';
export { DEFAULT_RIGID_DENSITY, convexHullVolume } from './bodies/rigidVolume.js';
export { ballJoint, hinge, stickJoint, type SharedVertices, type Jointable, type JointEnd } from './bodies/joints.js';
// Cloth, ropes, plants, soft bodies and wind.
export {
  createCloth,
  clothPinNames,
  DEFAULT_CLOTH_AREAL_DENSITY,
  type ClothOptions,
  type ClothHandle,
  type ClothPin,
  type ClothPinName,
  type ClothStickOptions,
  type ClothStickFamily,
} from './bodies/cloth.js';
export { ClothTearing, ClothStickKind, type ClothSticks } from './bodies/clothTearing.js';
export { createRope, DEFAULT_ROPE_LINEAR_DENSITY, type RopeOptions, type RopeHandle } from './bodies/rope.js';
export { createPlant, type PlantOptions, type PlantHandle } from './bodies/plant.js';
export { createSoftBody, type SoftBodyOptions, type SoftBodyHandle, type SoftBodyMesh } from './bodies/softBody.js';
export { boxMesh, sphereMesh, meshEdges, massOfEachParticle, checkStiffness, type TriangleMesh, type MassOptions } from './bodies/shapes.js';
export { VolumeConstraint, enclosedVolume, type VolumeOptions } from './constraints/volume.js';
export { Wind, createWind, type WindOptions, type WindHandle } from './forces/wind.js';
export { AngleTable, angleTable, addAngleConstraint, setAngleConstraint, angleAt, type AngleOptions } from './constraints/angle.js';
export { PlaneConstraintTable, planeConstraintTable, addPlaneConstraint, setPlaneConstraint, type PlaneConstraintOptions, type PlaneMode } from './constraints/planeConstraint.js';
export { Ragdoll, createRagdoll, type RagdollOptions, type RagdollLimb, type RagdollAngle } from './bodies/ragdoll.js';
export { ragdollParts, type RagdollPart, type RagdollPose, type RagdollLimbName, type RagdollJoint } from './bodies/ragdollSkeleton.js';
export { LimbFrames, type LimbFrame, type LimbFrameSpec, type FrontReference } from './bodies/limbFrames.js';
// Collision: capsule, oriented box and triangle mesh colliders, capsule edges, faces, fast objects, particle collisions.
export { CapsuleCollider, type CapsuleShape } from './colliders/capsule.js';
export { ObbCollider, type ObbShape } from './colliders/obb.js';
export { TriangleMeshCollider, type MeshShape } from './colliders/triangleMesh.js';
export { Bvh } from './colliders/bvh.js';
export { KinematicCollider, type KinematicPoseOptions, WAKE_REACH } from './colliders/kinematic.js';
export { CoupledBody, type CoupledFrame } from './colliders/coupledBody.js';
export { addCapsuleEdge, setCapsuleEdgeRadius, addBodyCapsuleEdges, type CapsuleEdgeOptions, type CapsuleEdges } from './collision/edges.js';
export { addCollisionTriangle, addSurfaceCollision, type SurfaceCollision } from './collision/faces.js';
export { protectFromTunnelling, type TunnellingOptions, type TunnellingProtection } from './collision/sweep.js';
export { enableParticleCollisions, type ParticleCollisionOptions, type ParticleCollisions } from './collision/particleCollisions.js';
export { enableSelfCollision, type SelfCollisionOptions, type SelfCollision } from './collision/selfCollision.js';
export { SpatialHash } from './collision/spatialHash.js';
// Collisions between bodies (on by default) and the collision groups that opt bodies out of them.
export { BodyContacts, bodyContacts } from './collision/bodyContacts.js';
export { BodyBroadPhase } from './collision/bodyBroadPhase.js';
export { hullOf, type HullShape } from './collision/hull.js';
export { collisionGroups, setCollisionGroups, getCollisionGroups, groupsInteract, ALL_GROUPS, type CollisionGroups, type CollisionGroupOptions } from './collision/collisionGroups.js';
// Materials in physical units: compliance (m/N), damping (N·s/m) and presets of real fabrics and ropes.
export {
  FABRICS,
  ROPES,
  fabric,
  ropeMaterial,
  fabricSticks,
  complianceOf,
  axialCompliance,
  complianceForStiffness,
  checkCompliance,
  checkDamping,
  type FabricMaterial,
  type FabricName,
  type RopeMaterial,
  type RopeName,
} from './materials.js';
