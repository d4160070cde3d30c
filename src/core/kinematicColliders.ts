import { KinematicCollider, type KinematicPoseOptions } from './colliders/kinematic.js';
import type { FeatureKind, WorldFeature } from './features.js';
import type { ColliderId } from './ids.js';
import type { Vec3Like } from './math.js';
import type { RotationLike } from './quaternion.js';
import type { StepContext, SubstepStage } from './stepContext.js';
import type { World } from './world.js';
import { addSubstepStage, dropSubstepStage } from './stages.js';

/** Moves every kinematic collider to its pose for the substep about to be relaxed. */
const kinematicStage: SubstepStage = {
  afterIntegrate(world: World, context: StepContext): void {
    const list = world.kinematicColliders;
    for (let c = 0; c < list.length; c++) list[c]!.beginSubstep(context);
  },
};

/** What a snapshot keeps of the kinematic colliders: each one's motion (see `KinematicCollider.saveState`) by collider id. */
export type KinematicCollidersState = Record<number, Float64Array>;

/**
 * The kinematic colliders' motion in snapshots: where each one's latest step
 * ended is where its next starts, so a restored world must have it back.
 * Colliders are not in a snapshot (their ids stay taken); their motion is, by id.
 */
const KINEMATIC_COLLIDERS: FeatureKind<WorldFeature> = {
  name: 'kinematicColliders',
  create: (world) => ({
    saveState(): KinematicCollidersState {
      const out: KinematicCollidersState = {};
      for (const [id, collider] of world.colliderIds) if (collider instanceof KinematicCollider) out[id] = collider.saveState();
      return out;
    },
    loadState(_world: World, data: unknown): void {
      if (data !== undefined && (data === null || typeof data !== 'object')) throw new TypeError(`restore: the snapshot's kinematic colliders must be an object, got ${String(data)}`);
      const state = data as KinematicCollidersState | undefined;
      for (const [id, collider] of world.colliderIds) if (collider instanceof KinematicCollider) collider.loadState(world, state?.[id]);
    },
  }),
};

/** A collider was added: a kinematic one joins the world's list, and the substep stage that moves it is registered once. */
export function trackKinematic(world: World, collider: unknown): void {
  if (!(collider instanceof KinematicCollider)) return;
  world.features.of(KINEMATIC_COLLIDERS);
  world.kinematicColliders.push(collider);
  if (collider.body !== null) collider.body.riders.push(collider);
  if (!world.stages.substep.has(kinematicStage)) addSubstepStage(world, 'kinematicColliders', kinematicStage);
}

/** A collider was removed: a kinematic one leaves the list (the stage goes with the last one). */
export function untrackKinematic(world: World, collider: unknown): void {
  if (!(collider instanceof KinematicCollider)) return;
  world.kinematicColliders.splice(world.kinematicColliders.indexOf(collider), 1);
  const riders = collider.body?.riders;
  if (riders && riders.includes(collider)) riders.splice(riders.indexOf(collider), 1);
  if (world.kinematicColliders.length === 0) {
    dropSubstepStage(world, kinematicStage);
  }
}

/**
 * Before a step's sleep check: each kinematic collider fixes the pose it moves
 * to in this step, and sleeping bodies within its sweep wake. Not called at all
 * in a world without kinematic colliders.
 */
export function beginKinematicStep(world: World): void {
  const list = world.kinematicColliders;
  for (let c = 0; c < list.length; c++) {
    const collider = list[c]!;
    if (collider.beginStep(world) && world.sleep.sleepingBodies > 0) world.sleep.wakeInBox(world, collider.sweptBox);
  }
}

/** `world.setColliderPose`: throws unless `id` is a live kinematic collider. */
export function setColliderPose(world: World, id: ColliderId, position: Vec3Like, rotation?: RotationLike, options?: KinematicPoseOptions): void {
  const collider = world.colliderIds.get(id);
  if (!collider) throw new RangeError(`setColliderPose: no collider with id ${id}`);
  if (!(collider instanceof KinematicCollider)) throw new RangeError(`setColliderPose: collider ${id} is static (a '${collider.type}'); add it with kinematic: true to move it`);
  collider.setPose(position, rotation, options);
  if (options?.teleport) world.wakeAll();
}
