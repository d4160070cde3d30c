import { makeLineCast } from '../collision/lineCast.js';
import { COLLIDER_DEFAULTS } from '../defaults.js';
import type { Vec3, Vec3Like } from '../math.js';
import { ParticleStore } from '../particles.js';
import { isQuaternionForm, toRotation, type Quat, type QuatLike, type RotationLike } from '../quaternion.js';
import { readQuat, readVec3 } from '../motion/poseTrack.js';
import type { StepContext } from '../stepContext.js';
import type { World } from '../world.js';
import { boundRadius } from './boundRadius.js';
import { collides, makeContact, type Collider } from './collider.js';
import type { CoupledBody, CoupledFrame } from './coupledBody.js';
import { collideCoupledInFrame, collideInFrame } from './kinematicContact.js';
import { packState, unpackState } from './motionState.js';
import { identityPose, measureTurn, poseMatrix, turnedQuaternion, turnToWorld } from './poseMath.js';

/** What {@link KinematicCollider.setPose} takes besides the pose. */
export interface KinematicPoseOptions {
  /**
   * Jump to the pose at once: no velocity, no sweep (placing the collider, not
   * moving it). Particles it lands in come out at `maxPushOutSpeed`. Default false.
   */
  teleport?: boolean;
}

const IDENTITY: RotationLike = [0, 0, 0, 1];
const NO_OPTIONS: KinematicPoseOptions = {};

/**
 * A collider that moves: any built-in shape, given in its own frame, carried by
 * a pose (position and rotation of that frame, the identity at first) that
 * {@link KinematicCollider.setPose} moves. The move is spread over the next step
 * (over the steps of the current `advance()` call when set between calls):
 * each substep sees the pose interpolated from where the step started to the
 * target, at constant linear and angular velocity.
 *
 * Particles are tested in the collider's frame of each substep: a particle's
 * previous position in the frame the substep started with and its position now
 * in the frame it ends with. Seen from there the collider stands still, so
 * (1) a particle the collider swept past is caught by the shape's line cast
 * from the one to the other and put back in front of the face it entered (a
 * paddle moving 2 m per step does not pass through cloth), and (2) the shape's
 * own projection, friction and push-out limit act on the motion relative to
 * the surface: friction carries a cloth along with a moving platform, and a
 * collider that starts a step inside particles pushes them out at most
 * `maxPushOutSpeed` faster than its own surface moves. The surface's move at
 * each contact goes to `particles.contactMotion`, so that `respondToContacts`
 * also caps and bounces relative to it.
 *
 * Add one with `world.addCollider({ ...shape, kinematic: true })`; move it with
 * `world.setColliderPose(id, position, rotation)` or this class's `setPose`.
 * Sleeping bodies within its sweep wake when a step starts.
 *
 * @example
 * ```ts
 * const paddle = world.addCollider({ type: 'obb', halfExtents: [0.5, 0.02, 0.5], kinematic: true });
 * world.setColliderPose(paddle, [0, 1, 0], [0, 0, 0, 1]); // the next step carries it there
 * world.step();
 * ```
 */
export class KinematicCollider implements Collider, CoupledFrame {
  /** Shape name. */
  readonly type = 'kinematic';
  /** The shape in the collider's own frame (a static collider, never added to the world itself). */
  readonly shape: Collider;
  /** Radius (m) of a ball about the frame's origin that holds the shape (Infinity for a plane). */
  readonly boundRadius: number;
  /** Pose at the start of the latest step: position xyz, quaternion xyzw. */
  readonly startPose = identityPose();
  /** Pose the latest step ends at. */
  readonly endPose = identityPose();
  /** Pose {@link KinematicCollider.setPose} asked for. */
  readonly targetPose = identityPose();
  /** Velocity (m/s) of the frame's origin over the latest step. */
  readonly velocity = new Float64Array(3);
  /** Angular velocity (rad/s, world axes) over the latest step. */
  readonly angularVelocity = new Float64Array(3);
  /**
   * Impulse (N·s) the collider gave particles over the latest step, world
   * axes: the sum of its pushes and friction × mass / substep. What the
   * particles pushed back on it is the opposite (the Rapier bridge applies that
   * to the body behind it).
   */
  readonly impulse = new Float64Array(3);
  /** Moment of {@link KinematicCollider.impulse} about the world origin (N·m·s): Σ contact point × impulse. */
  readonly angularImpulse = new Float64Array(3);
  /** World box (min xyz, max xyz) the collider swept over the latest step, grown by {@link WAKE_REACH}: sleepers in it wake. */
  readonly sweptBox = new Float64Array(6);

  private readonly scratchPosition: Vec3 = [0, 0, 0];
  private readonly scratchRotation: Quat = [0, 0, 0, 1];
  /** The running step's turn in the start frame: unit axis xyz, angle (rad). */
  private readonly turn = new Float64Array(4);
  /** @internal The frame the running substep started with: origin, rotation columns. */
  readonly previousOrigin = new Float64Array(3);
  /** @internal The rotation columns of the frame the running substep started with. */
  readonly previousAxes = new Float64Array(9);
  /** The frame the running substep ends with: origin, rotation columns. */
  readonly origin = new Float64Array(3);
  readonly axes = new Float64Array(9);
  /** World box the collider sweeps in the running substep (min xyz, max xyz). */
  private readonly box = new Float64Array(6);
  /** Substeps of the running step begun so far. */
  private substep = 0;
  /**
   * The body this collider rides on and yields with (see {@link CoupledBody}), or
   * null: then it moves as it is told, whatever it meets.
   */
  body: CoupledBody | null = null;
  /** The running substep's frame on the given path, before a coupled body's yield. */
  readonly baseOrigin = new Float64Array(3);
  readonly baseAxes = new Float64Array(9);
  /**
   * False skips the collider's projection (it still moves): set by code that
   * knows no particle can reach it this step, as `sinew-physics/rapier` does for Rapier
   * colliders far from every particle (testing each awake particle against
   * each collider every pass was most of the bridge's cost). Default true.
   */
  near = true;
  /** The next step runs along the path {@link KinematicCollider.followPath} gave, not toward the target. */
  private pathGiven = false;
  /** @internal Scratch for a coupled contact: world pushes and position before the projection (contact xyz, friction xyz, position xyz). */
  readonly pushBefore = new Float64Array(9);
  /** @internal Scratch for a coupled contact: the contact point and the correction's direction, then the body's impulse. */
  readonly exchange = new Float64Array(6);
  /** @internal 1 / the running substep's length (1/s). */
  perSecond = 0;
  /** @internal One particle seen from the collider's frame, for the shape's own projection. */
  readonly local = new ParticleStore(1);
  /** @internal The line cast of a sweep in the collider's frame (see `kinematicContact.ts`). */
  readonly cast = makeLineCast();
  /** @internal The contact a sweep pushes out along. */
  readonly contact = makeContact();
  /** Scratch: the running substep's pose (its quaternion). */
  private readonly pose = identityPose();
  /** @internal Scratch: a point, and the interpolation parameter (passed in an array: a double argument is boxed). */
  readonly point = new Float64Array(4);

  constructor(shape: Collider) {
    this.shape = shape;
    this.boundRadius = boundRadius(shape);
    this.local.allocate(1);
    this.placeFrames(this.endPose);
  }

  /**
   * The collider's motion for a snapshot: its poses (where the latest step
   * started and ended, the target), velocities, impulses, swept box and the
   * running step's turn and frames. The shape and `near` are settings, not in it.
   */
  saveState(): Float64Array {
    return packState(this.motionColumns(), [this.substep, this.pathGiven ? 1 : 0, this.perSecond]);
  }

  /** Returns to {@link KinematicCollider.saveState}'s motion; without one (the collider was added after the snapshot) it stays where it is. */
  loadState(_world: World, data: unknown): void {
    const scalars = unpackState(data, this.motionColumns(), 3, 'kinematic collider');
    if (scalars === undefined) return;
    this.substep = scalars[0]!;
    this.pathGiven = scalars[1] === 1;
    this.perSecond = scalars[2]!;
  }

  private motionColumns(): Float64Array[] {
    return [
      this.startPose,
      this.endPose,
      this.targetPose,
      this.velocity,
      this.angularVelocity,
      this.impulse,
      this.angularImpulse,
      this.sweptBox,
      this.turn,
      this.previousOrigin,
      this.previousAxes,
      this.origin,
      this.axes,
      this.box,
      this.baseOrigin,
      this.baseAxes,
    ];
  }

  /** Coulomb coefficient of the surface (the shape's). */
  get friction(): number {
    return this.shape.friction;
  }
  set friction(mu: number) {
    this.shape.friction = mu;
  }

  /** Bounciness of the surface (the shape's). */
  get restitution(): number {
    return this.shape.restitution ?? COLLIDER_DEFAULTS.restitution;
  }
  set restitution(e: number) {
    this.shape.restitution = e;
  }

  /**
   * Asks for the collider's frame to be at `position`, turned by `rotation` (a
   * quaternion `[x, y, z, w]` or Euler angles, see `RotationLike`), at the end
   * of the next step; the move becomes the collider's velocity. With
   * `teleport` it is there at once, with no velocity.
   */
  setPose(position: Vec3Like, rotation: RotationLike = IDENTITY, options: KinematicPoseOptions = NO_OPTIONS): void {
    // Called every frame for a collider that follows an object: read into scratch without allocating
    // (toVec3 and toRotation return new arrays); Euler angles, the rare form, go through toRotation.
    const p = this.scratchPosition;
    const q = this.scratchRotation;
    readVec3(position, p, 'kinematic collider setPose', 'position');
    if (isQuaternionForm(rotation)) readQuat(rotation as QuatLike, q, 'kinematic collider setPose', 'rotation');
    else {
      const euler = toRotation(rotation, 'kinematic collider setPose: rotation');
      for (let k = 0; k < 4; k++) q[k] = euler[k]!;
    }
    const target = this.targetPose;
    for (let k = 0; k < 3; k++) target[k] = p[k]!;
    for (let k = 0; k < 4; k++) target[3 + k] = q[k]!;
    if (options.teleport) {
      this.startPose.set(target);
      this.endPose.set(target);
      this.velocity.fill(0);
      this.angularVelocity.fill(0);
      this.turn.fill(0);
      this.placeFrames(target);
    }
  }

  /**
   * The whole path of the next step, from one pose to another (both
   * quaternions `[x, y, z, w]`): what another engine's step did to the object
   * this collider follows (`sinew-physics/rapier` calls it before every step). Unlike
   * {@link KinematicCollider.setPose} the step starts where it is told and is
   * not spread over the steps of an `advance()` call.
   */
  followPath(position: Vec3Like, rotation: QuatLike, endPosition: Vec3Like, endRotation: QuatLike): void {
    const p = this.scratchPosition;
    const q = this.scratchRotation;
    readVec3(position, p, 'kinematic collider followPath', 'position');
    readQuat(rotation, q, 'kinematic collider followPath', 'rotation');
    const start = this.startPose;
    for (let k = 0; k < 3; k++) start[k] = p[k]!;
    for (let k = 0; k < 4; k++) start[3 + k] = q[k]!;
    readVec3(endPosition, p, 'kinematic collider followPath', 'endPosition');
    readQuat(endRotation, q, 'kinematic collider followPath', 'endRotation');
    const target = this.targetPose;
    for (let k = 0; k < 3; k++) target[k] = p[k]!;
    for (let k = 0; k < 4; k++) target[3 + k] = q[k]!;
    this.pathGiven = true;
  }

  /**
   * @internal At the start of a step: the step's start is the last one's end;
   * its end moves toward the target by the step's share of the frame (all of it
   * for a bare `step()`), at constant linear and angular velocity. Returns true
   * when the collider moves this step.
   */
  beginStep(world: World): boolean {
    const start = this.startPose;
    const end = this.endPose;
    const target = this.targetPose;
    const turn = this.turn;
    // A given path starts where it was told (the other engine's pose before its step) and runs all the way.
    if (!this.pathGiven) start.set(end);
    const share = this.pathGiven ? 1 : 1 / (world.frameSteps - world.frameStep);
    this.pathGiven = false;
    this.impulse.fill(0);
    this.angularImpulse.fill(0);
    const dt = world.timeStepValue;
    for (let k = 0; k < 3; k++) {
      end[k] = start[k]! + (target[k]! - start[k]!) * share;
      this.velocity[k] = (end[k]! - start[k]!) / dt;
    }
    measureTurn(start, target, turn);
    turn[3] = turn[3]! * share;
    this.point[3] = 1;
    turnedQuaternion(start, turn, this.point, end);
    this.placeFrames(start);
    // ω in world axes: the turn's axis is in the start frame.
    turnToWorld(turn, 0, this.axes, this.angularVelocity, 0);
    for (let k = 0; k < 3; k++) this.angularVelocity[k] = (this.angularVelocity[k]! * turn[3]!) / dt;
    const reach = this.boundRadius + WAKE_REACH;
    for (let k = 0; k < 3; k++) {
      this.sweptBox[k] = Math.min(start[k]!, end[k]!) - reach;
      this.sweptBox[3 + k] = Math.max(start[k]!, end[k]!) + reach;
    }
    return turn[3] !== 0 || end[0] !== start[0] || end[1] !== start[1] || end[2] !== start[2];
  }

  /** @internal At the start of each of the step's substeps: the frames this substep runs from and to. */
  beginSubstep(context: StepContext): void {
    const substeps = context.substeps;
    this.perSecond = 1 / context.h;
    this.previousOrigin.set(this.origin);
    this.previousAxes.set(this.axes);
    this.substep++;
    const f = this.substep >= substeps ? 1 : this.substep / substeps;
    const start = this.startPose;
    const end = this.endPose;
    const pose = this.pose;
    for (let k = 0; k < 3; k++) this.origin[k] = start[k]! + (end[k]! - start[k]!) * f;
    this.point[3] = f;
    turnedQuaternion(start, this.turn, this.point, pose);
    poseMatrix(pose, this.axes);
    const body = this.body;
    if (body !== null) {
      // The body's stage ran first: its offset so far carries this frame off the path.
      this.baseOrigin.set(this.origin);
      this.baseAxes.set(this.axes);
      body.place(this);
    }
    const reach = this.boundRadius;
    const box = this.box;
    for (let k = 0; k < 3; k++) {
      const a = this.previousOrigin[k]!;
      const b = this.origin[k]!;
      box[k] = (a < b ? a : b) - reach;
      box[3 + k] = (a > b ? a : b) + reach;
    }
  }

  /** Projects live, movable particles in `[from, to)` out of the shape, in the frames of the running substep. */
  project(particles: ParticleStore, from: number, to: number): void {
    if (!this.near) return;
    const pos = particles.position;
    const prev = particles.previous;
    const radius = particles.radius;
    const box = this.box;
    for (let i = from; i < to; i++) {
      const p = i * 3;
      const r = radius[i]!;
      // Broad phase: the particle's path this substep against the box the collider swept.
      let a = pos[p]!;
      let b = prev[p]!;
      if ((a > b ? a : b) + r < box[0]! || (a < b ? a : b) - r > box[3]!) continue;
      a = pos[p + 1]!;
      b = prev[p + 1]!;
      if ((a > b ? a : b) + r < box[1]! || (a < b ? a : b) - r > box[4]!) continue;
      a = pos[p + 2]!;
      b = prev[p + 2]!;
      if ((a > b ? a : b) + r < box[2]! || (a < b ? a : b) - r > box[5]!) continue;
      if (!collides(particles, i)) continue;
      // Two paths rather than checks inside collide(): with them there, V8 does not inline it
      // and a cloth on a moving kinematic box steps 1.5× slower (test/bench/rapierBridge.bench.ts).
      if (this.body === null) collideInFrame(this, particles, i);
      else collideCoupledInFrame(this, particles, i, this.body);
    }
  }

  /** Places both substep frames at `pose` and restarts the substep count. */
  private placeFrames(pose: Float64Array): void {
    for (let k = 0; k < 3; k++) this.origin[k] = pose[k]!;
    poseMatrix(pose, this.axes);
    this.previousOrigin.set(this.origin);
    this.previousAxes.set(this.axes);
    this.substep = 0;
    const r = this.boundRadius;
    for (let k = 0; k < 3; k++) {
      this.box[k] = this.origin[k]! - r;
      this.box[3 + k] = this.origin[k]! + r;
    }
  }
}

/** How far (m) beyond a kinematic collider's bounds its sweep wakes sleeping bodies. */
export const WAKE_REACH = 0.25;
