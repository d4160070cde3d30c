import { createCloth } from '../core/bodies/cloth.js';
import { createRope } from '../core/bodies/rope.js';
import { createPlant } from '../core/bodies/plant.js';
import { createSoftBody } from '../core/bodies/softBody.js';
import { createBox, createConvex, createTetrahedron } from '../core/bodies/rigid.js';
import { createRagdoll } from '../core/bodies/ragdoll.js';
import { ballJoint, hinge, stickJoint } from '../core/bodies/joints.js';
import { createWind, Wind } from '../core/forces/wind.js';
import { Attractor } from '../core/forces/attractor.js';
import { Buoyancy } from '../core/forces/buoyancy.js';
import { GravitationalForce } from '../core/forces/gravitation.js';
import { ElectricForce } from '../core/forces/electric.js';
import { Springs } from '../core/forces/spring.js';
import { explode } from '../core/motion/explosion.js';
import { hit } from '../core/motion/hit.js';
import { PinGlide } from '../core/motion/pinGlide.js';
import { BodyDrag, limitBodySpeed } from '../core/motion/bodyDrag.js';
import { BodyReach } from '../core/motion/bodyReach.js';
import { Attachment } from '../core/motion/attachment.js';
import { PoseTrack } from '../core/motion/poseTrack.js';
import { CharacterDriver } from '../core/motion/characterDriver.js';
import { inheritAnimation } from '../core/motion/inheritAnimation.js';
import { BodyAttachment } from '../core/constraints/bodyAttachment.js';
import { CoupledAttachment } from '../core/constraints/coupledAttachment.js';
import { VolumeConstraint } from '../core/constraints/volume.js';
import { addAngleConstraint, setAngleConstraint } from '../core/constraints/angle.js';
import { addPlaneConstraint, setPlaneConstraint } from '../core/constraints/planeConstraint.js';
import { CoupledBody } from '../core/colliders/coupledBody.js';
import { addBodyCapsuleEdges, addCapsuleEdge, setCapsuleEdgeRadius } from '../core/collision/edges.js';
import { addCollisionTriangle, addSurfaceCollision } from '../core/collision/faces.js';
import { protectFromTunnelling } from '../core/collision/sweep.js';
import { enableParticleCollisions } from '../core/collision/particleCollisions.js';
import { enableSelfCollision } from '../core/collision/selfCollision.js';
import { bodyContacts } from '../core/collision/bodyContacts.js';
import { setCollisionGroups } from '../core/collision/collisionGroups.js';

/**
 * The engine's free functions that change a world, by name: a RemoteWorld records
 * `remote.call(createCloth, world, options)` as `{ op: 'fn', name: 'createCloth', … }` and the
 * worker runs the same function on its world. Both sides import this table, so a name means
 * the same code on both. Pure helpers (`boxMesh`, `collisionGroups`, `quatFromEuler`…) need no
 * entry: call them directly and pass their (plain) results.
 */
export const REPLAYABLE_FUNCTIONS = {
  createCloth,
  createRope,
  createPlant,
  createSoftBody,
  createBox,
  createConvex,
  createTetrahedron,
  createRagdoll,
  createWind,
  ballJoint,
  hinge,
  stickJoint,
  explode,
  hit,
  limitBodySpeed,
  inheritAnimation,
  addAngleConstraint,
  setAngleConstraint,
  addPlaneConstraint,
  setPlaneConstraint,
  addCapsuleEdge,
  setCapsuleEdgeRadius,
  addBodyCapsuleEdges,
  addCollisionTriangle,
  addSurfaceCollision,
  protectFromTunnelling,
  enableParticleCollisions,
  enableSelfCollision,
  bodyContacts,
  setCollisionGroups,
} as const;

/**
 * Replayable functions whose only effect is on what the steps use (velocities, a feature that
 * acts after steps) and that hand out nothing: the worker runs them, the shadow world, which
 * never steps, does not (it would keep what they register for the steps forever).
 */
export const STEP_ONLY_FUNCTIONS: ReadonlySet<string> = new Set<ReplayableFunctionName>(['limitBodySpeed']);

/**
 * The engine's classes whose instances a world keeps (forces, constraints, motion helpers), by
 * name: `remote.construct(Attractor, options)` is recorded as `{ op: 'new', name: 'Attractor', … }`.
 */
export const REPLAYABLE_CLASSES = {
  Wind,
  Attractor,
  Buoyancy,
  GravitationalForce,
  ElectricForce,
  Springs,
  PinGlide,
  BodyDrag,
  BodyReach,
  Attachment,
  PoseTrack,
  CharacterDriver,
  BodyAttachment,
  CoupledAttachment,
  VolumeConstraint,
  CoupledBody,
} as const;

/** Name of a function in {@link REPLAYABLE_FUNCTIONS}. */
export type ReplayableFunctionName = keyof typeof REPLAYABLE_FUNCTIONS;
/** Name of a class in {@link REPLAYABLE_CLASSES}. */
export type ReplayableClassName = keyof typeof REPLAYABLE_CLASSES;

/** Names by function and by class, built on first use (nothing runs when the module loads). */
let names: { functions: Map<unknown, string>; classes: Map<unknown, string> } | undefined;
function nameTables(): NonNullable<typeof names> {
  names ??= {
    functions: new Map<unknown, string>(Object.entries(REPLAYABLE_FUNCTIONS).map(([name, fn]) => [fn, name])),
    classes: new Map<unknown, string>(Object.entries(REPLAYABLE_CLASSES).map(([name, cls]) => [cls, name])),
  };
  return names;
}

/** The name `fn` has in {@link REPLAYABLE_FUNCTIONS}, or undefined. */
export function replayableFunctionName(fn: unknown): string | undefined {
  return nameTables().functions.get(fn);
}

/** The name `cls` has in {@link REPLAYABLE_CLASSES}, or undefined. */
export function replayableClassName(cls: unknown): string | undefined {
  return nameTables().classes.get(cls);
}

/** The function named `name` in {@link REPLAYABLE_FUNCTIONS}; throws, naming it, when there is none. */
export function replayableFunction(name: string): (...args: unknown[]) => unknown {
  const fn = (REPLAYABLE_FUNCTIONS as Record<string, unknown>)[name];
  if (typeof fn !== 'function' || !Object.hasOwn(REPLAYABLE_FUNCTIONS, name)) throw new RangeError(`sinew worker: no replayable function named '${name}'`);
  return fn as (...args: unknown[]) => unknown;
}

/** The class named `name` in {@link REPLAYABLE_CLASSES}; throws, naming it, when there is none. */
export function replayableClass(name: string): new (...args: unknown[]) => unknown {
  const cls = (REPLAYABLE_CLASSES as Record<string, unknown>)[name];
  if (typeof cls !== 'function' || !Object.hasOwn(REPLAYABLE_CLASSES, name)) throw new RangeError(`sinew worker: no replayable class named '${name}'`);
  return cls as new (...args: unknown[]) => unknown;
}
