/**
 * sinew's three.js glue: read a core world's positions back into geometries,
 * instance matrices and object transforms, in place, every frame.
 * @packageDocumentation
 */
export { readRange, readPosition, settleRange, CURRENT, type Blend } from './positions.js';
export { fitBounds } from './bounds.js';
export { computeNormals } from './normals.js';
export { BodyGeometry, type BodyGeometryOptions } from './bodyGeometry.js';
export { TubeGeometry, type TubeGeometryOptions } from './tubeGeometry.js';
export { writeTransform } from './matrices.js';
export { writeParticleInstances, writeCapsuleInstances, type CapsuleLimb } from './instances.js';
export { makeFrame, blendFrames, type Frame, type FrameLike } from './frames.js';
export { FrameTrack } from './frameTrack.js';
export { BoneDriver, type DrivenBone } from './boneDriver.js';
export { pickParticle, type PickQuery } from './pick.js';
export { ParticleDrag } from './particleDrag.js';
export { collectTriangles } from './collectTriangles.js';
export { ParticlePoints, StickLines } from './debugViews.js';
export { ColliderWireframes } from './colliderWireframes.js';
// Animated characters that turn ragdolls. Kept to four runtime names: `sinew-physics` must stay short
// (test/react/entryPoints.test.tsx); `mixamoNames`, `SwingDriver` and `dualQuaternionVertex`
// stay in their modules.
export { fitRagdoll, type FitRagdollOptions, type RagdollFit, type PartAnchor } from './fitRagdoll.js';
export { AnimatedRagdoll, type AnimatedRagdollOptions, type RagdollStrength } from './animatedRagdoll.js';
export { ANIMATED_RAGDOLL_DEFAULTS } from '../core/defaults.js';
export { type SwungBone } from './swingDriver.js';
export { dualQuaternionSkinning } from './dualQuaternionSkinning.js';
