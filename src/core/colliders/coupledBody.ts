import { checkNumber, type Vec3, type Vec3Like } from '../math.js';
import { readQuat, readVec3 } from '../motion/poseTrack.js';
import type { Quat, QuatLike } from '../quaternion.js';
import type { StepContext, SubstepStage } from '../stepContext.js';
import type { World } from '../world.js';
import { packState, unpackState } from './motionState.js';
import { measureTurn, poseMatrix, turnedQuaternion } from './poseMath.js';
import { markCoupledBody } from './coupledBodies.js';
import { addSubstepStage, dropSubstepStage } from '../stages.js';

/** What a frame that rides on a {@link CoupledBody} keeps: its frame on the body's given path, and the frame it is at. */
export interface CoupledFrame {
  /** The frame on the path the body was given, for the running substep (origin xyz; rotation columns). */
  readonly baseOrigin: Float64Array;
  readonly baseAxes: Float64Array;
  /** The frame with the body's yield applied: where contacts meet it. */
  readonly origin: Float64Array;
  readonly axes: Float64Array;
}

/**
 * A rigid body that another engine moves (a dynamic Rapier body, say) and that
 * yields to sinew inside sinew's step: two-way coupling without handing the
 * body to sinew's solver.
 *
 * Each step the body is given a path, its centre of mass and rotation before
 * and after the other engine's step ({@link CoupledBody.setStep}), which it
 * follows over the substeps, plus an *offset* that sinew's contacts and
 * attachments build up. Every correction between a particle and the body is
 * shared by their generalised inverse masses, as in Müller et al. 2020,
 * "Detailed Rigid Body Simulation with Extended Position Based Dynamics":
 * with n the correction's direction and r the arm from the centre of mass,
 * w_body = 1/m + (r×n)ᵀ I⁻¹ (r×n), the particle moves w_p/(w_p + w_body) of
 * it and the body the rest, as a translation and a turn about its centre of
 * mass. The body's share also becomes velocity (Δx/h), which carries the
 * offset on through the remaining substeps, so the body yields during the
 * step rather than being pushed a step late (which pumps energy into a stiff
 * cloth: a ball bounced higher on every catch).
 *
 * Momentum is kept exactly: the particle gains P/h and the body −P/h for each
 * position impulse P, and both turn into velocity the same substep. After the
 * step, {@link CoupledBody.endPosition}, {@link CoupledBody.endRotation},
 * {@link CoupledBody.velocityChange} and {@link CoupledBody.angularVelocityChange}
 * say where the body ended and how much faster it goes: write them back to the
 * other engine. Restitution between the body and particles is 0.
 *
 * Kinematic colliders ride on it with `world.addCollider({ ...shape, kinematic: true, body })`;
 * particles tie to it with `CoupledAttachment`. `sinew-physics/rapier` does all of this
 * for Rapier bodies.
 *
 * @example
 * ```ts
 * const body = new CoupledBody(world, { mass: 1, inverseInertia: 1 / (0.4 * 0.15 ** 2) });
 * const ball = world.getCollider(world.addCollider({ type: 'sphere', radius: 0.15, kinematic: true, body })) as KinematicCollider;
 * // every step: where the other engine moved it (centre of mass, rotation), before and after
 * body.setStep([0, 1, 0], [0, 0, 0, 1], [0, 0.99, 0], [0, 0, 0, 1]);
 * ball.followPath([0, 1, 0], [0, 0, 0, 1], [0, 0.99, 0], [0, 0, 0, 1]);
 * world.step();
 * body.velocityChange; // add to the body's velocity in the other engine
 * ```
 */
export class CoupledBody implements SubstepStage {
  /** 1 / mass (1/kg, finite, ≥ 0; a bad value throws, naming it); 0 makes the body immovable (it then acts as a kinematic collider's frame). */
  get inverseMass(): number {
    return this.inverseMassValue;
  }
  set inverseMass(inverseMass: number) {
    this.inverseMassValue = checkNumber(inverseMass, 'CoupledBody: inverseMass', 0);
  }
  private inverseMassValue = 1;
  /** Inverse inertia tensor in world axes (1/(kg·m²)), row-major 3 × 3, for the coming step. */
  readonly inverseInertia = new Float64Array(9);
  /** Centre of mass and rotation (xyzw) where the step starts: position xyz, quaternion xyzw. */
  readonly startPose = identityPose();
  /** Centre of mass and rotation where the given path ends. */
  readonly endPose = identityPose();
  /** How far (m) sinew has moved the centre of mass off its path so far this step. */
  readonly offset = new Float64Array(3);
  /** The turn (a unit quaternion, world axes, about the centre of mass) sinew has given the body so far this step. */
  readonly offsetRotation = new Float64Array([0, 0, 0, 1]);
  /**
   * Acceleration (m/s²) sinew gives the body over its substeps, as it gives
   * its particles gravity. Give the path without it (the other engine's
   * velocity change minus its gravity's): a body that got its weight as one
   * kick at the start of each step would strike whatever holds it up 60 times
   * a second, and leave each step still rebounding. Default zero.
   */
  readonly gravity = new Float64Array(3);
  /** Velocity (m/s) sinew has added to the centre of mass this step: its gravity and its contacts. */
  readonly velocityChange = new Float64Array(3);
  /** Angular velocity (rad/s, world axes) sinew has added this step. */
  readonly angularVelocityChange = new Float64Array(3);
  /** Impulse (N·s) particles gave the body this step: its momentum change. */
  readonly impulse = new Float64Array(3);
  /** Angular impulse (N·m·s) about the centre of mass particles gave the body this step. */
  readonly angularImpulse = new Float64Array(3);
  /** True once a particle moved the body; the code that writes the body back clears it. */
  yielded = false;
  /** @internal The frames riding on this body (its colliders). */
  readonly riders: CoupledFrame[] = [];

  private readonly world: World;
  /** Its name among the world's features (its motion is in snapshots). */
  private readonly feature: string;
  private pathGiven = false;
  private stepSeen = -1;
  /** Substeps of the running step begun so far. */
  private substep = 0;
  private h = 1 / 600;
  /** The running step's turn in the start frame (axis, angle), and scratch for the parameter along it. */
  private readonly turn = new Float64Array(4);
  private readonly fraction = new Float64Array(4);
  /** The path's pose at the running substep, its rotation columns, and the offset's rotation columns. */
  private readonly pathPose = identityPose();
  private readonly pathAxes = new Float64Array(9);
  private readonly offsetAxes = new Float64Array([1, 0, 0, 0, 1, 0, 0, 0, 1]);
  /** Scratch: arm, arm × direction, I⁻¹ × that. */
  private readonly arm = new Float64Array(3);
  private readonly cross = new Float64Array(3);
  private readonly turned = new Float64Array(3);
  private readonly scratchPosition: Vec3 = [0, 0, 0];
  private readonly scratchRotation: Quat = [0, 0, 0, 1];

  /**
   * Registers the body with `world` (a substep stage ahead of the others, so
   * that its colliders see it moved). `mass` in kg (> 0; Infinity = immovable),
   * `inverseInertia` the world-axes inverse inertia tensor (1/(kg·m²)) as nine
   * numbers row by row, or one number for a sphere-like body (that times the identity).
   */
  constructor(world: World, options: { mass: number; inverseInertia: number | ArrayLike<number> }) {
    this.world = world;
    this.setMass(options.mass, options.inverseInertia);
    addSubstepStage(world, 'coupledBodies', this);
    markCoupledBody(this);
    this.feature = world.features.addInstance('coupledBody', this);
  }

  /**
   * The body's motion for a snapshot: the step's path, sinew's offset and turn
   * off it, what it added to the velocities and the impulses, and where the
   * running step is. Mass, inertia and gravity are settings, not in it.
   */
  saveState(): Float64Array {
    return packState(this.motionColumns(), [this.pathGiven ? 1 : 0, this.stepSeen, this.substep, this.h, this.yielded ? 1 : 0]);
  }

  /** Returns to {@link CoupledBody.saveState}'s motion; without one (the body was made after the snapshot) it stays. */
  loadState(_world: World, data: unknown): void {
    const scalars = unpackState(data, this.motionColumns(), 5, 'coupled body');
    if (scalars === undefined) return;
    this.pathGiven = scalars[0] === 1;
    this.stepSeen = scalars[1]!;
    this.substep = scalars[2]!;
    this.h = scalars[3]!;
    this.yielded = scalars[4] === 1;
  }

  private motionColumns(): Float64Array[] {
    return [
      this.startPose,
      this.endPose,
      this.offset,
      this.offsetRotation,
      this.offsetAxes,
      this.velocityChange,
      this.angularVelocityChange,
      this.impulse,
      this.angularImpulse,
      this.turn,
      this.pathPose,
      this.pathAxes,
    ];
  }

  /** Sets mass (kg, > 0, Infinity = immovable) and world-axes inverse inertia (see the constructor). */
  setMass(mass: number, inverseInertia: number | ArrayLike<number>): void {
    if (mass !== Infinity) checkNumber(mass, 'CoupledBody: mass', 0);
    if (!(mass > 0)) throw new RangeError(`CoupledBody: mass must be > 0 (Infinity for immovable), got ${mass}`);
    this.inverseMass = mass === Infinity ? 0 : 1 / mass;
    const inertia = this.inverseInertia;
    if (typeof inverseInertia === 'number') {
      checkNumber(inverseInertia, 'CoupledBody: inverseInertia', 0);
      inertia.fill(0);
      inertia[0] = inertia[4] = inertia[8] = inverseInertia;
      return;
    }
    if (inverseInertia === null || typeof inverseInertia !== 'object' || inverseInertia.length !== 9) {
      throw new TypeError(`CoupledBody: inverseInertia must be a number or 9 numbers (a 3 × 3 matrix row by row), got ${String(inverseInertia)}`);
    }
    for (let k = 0; k < 9; k++) inertia[k] = checkNumber(inverseInertia[k], `CoupledBody: inverseInertia[${k}]`);
  }

  /**
   * The path of the coming step: centre of mass and rotation (a quaternion
   * `[x, y, z, w]`) where it starts and where the other engine's step ended.
   * Without a call the body stands still at the last end (plus what sinew moved it).
   */
  setStep(position: Vec3Like, rotation: QuatLike, endPosition: Vec3Like, endRotation: QuatLike): void {
    readPose(position, rotation, this.startPose, this.scratchPosition, this.scratchRotation, 'start');
    readPose(endPosition, endRotation, this.endPose, this.scratchPosition, this.scratchRotation, 'end');
    this.pathGiven = true;
  }

  /** Where the centre of mass is after the step: the path's end plus sinew's offset. */
  endPosition(out: Vec3 = [0, 0, 0]): Vec3 {
    for (let k = 0; k < 3; k++) out[k] = this.endPose[k]! + this.offset[k]!;
    return out;
  }

  /** The rotation after the step: sinew's turn after the path's end rotation, a quaternion `[x, y, z, w]`. */
  endRotation(out: Quat = [0, 0, 0, 1]): Quat {
    const o = this.offsetRotation;
    const e = this.endPose;
    multiply(o[0]!, o[1]!, o[2]!, o[3]!, e[3]!, e[4]!, e[5]!, e[6]!, out);
    return out;
  }

  /** Stops the body's substep stage. Its colliders should be removed first. */
  remove(): void {
    dropSubstepStage(this.world, this);
    this.world.features.delete(this.feature);
  }

  /** Once per substep, ahead of the other stages: the path's pose for this substep, and the offset carried on at its velocity. */
  afterIntegrate(world: World, context: StepContext): void {
    if (world.stepCount !== this.stepSeen) this.beginStep(world);
    this.substep++;
    const h = context.h;
    this.h = h;
    const f = this.substep >= context.substeps ? 1 : this.substep / context.substeps;
    const start = this.startPose;
    const end = this.endPose;
    const path = this.pathPose;
    for (let k = 0; k < 3; k++) path[k] = start[k]! + (end[k]! - start[k]!) * f;
    this.fraction[3] = f;
    turnedQuaternion(start, this.turn, this.fraction, path);
    poseMatrix(path, this.pathAxes);
    const u = this.velocityChange;
    const g = this.gravity;
    for (let k = 0; k < 3; k++) {
      u[k] = u[k]! + g[k]! * h;
      this.offset[k] = this.offset[k]! + u[k]! * h;
    }
    const w = this.angularVelocityChange;
    const spin = this.turned;
    for (let k = 0; k < 3; k++) spin[k] = w[k]! * h;
    this.rotateOffset(spin);
  }

  /** @internal Generalised inverse mass at world point `point[0..2]` along the unit direction `point[3..5]`. */
  inverseMassAlong(point: Float64Array): number {
    const r = this.arm;
    const path = this.pathPose;
    for (let k = 0; k < 3; k++) r[k] = point[k]! - path[k]! - this.offset[k]!;
    const c = this.cross;
    crossInto(r, point, c);
    const t = this.turned;
    this.applyInverseInertia(c, t);
    return this.inverseMass + c[0]! * t[0]! + c[1]! * t[1]! + c[2]! * t[2]!;
  }

  /**
   * @internal The body takes the position impulse `point[3..5]` (kg·m) at world point
   * `point[0..2]`: it moves by P/m and turns by I⁻¹(r × P), and its velocity changes by
   * those over h. Its riders are placed again.
   */
  push(point: Float64Array): void {
    const r = this.arm;
    const path = this.pathPose;
    for (let k = 0; k < 3; k++) r[k] = point[k]! - path[k]! - this.offset[k]!;
    const px = point[3]!;
    const py = point[4]!;
    const pz = point[5]!;
    const im = this.inverseMass;
    const perSecond = 1 / this.h;
    const u = this.velocityChange;
    this.offset[0] = this.offset[0]! + px * im;
    this.offset[1] = this.offset[1]! + py * im;
    this.offset[2] = this.offset[2]! + pz * im;
    u[0] = u[0]! + px * im * perSecond;
    u[1] = u[1]! + py * im * perSecond;
    u[2] = u[2]! + pz * im * perSecond;
    this.impulse[0] = this.impulse[0]! + px * perSecond;
    this.impulse[1] = this.impulse[1]! + py * perSecond;
    this.impulse[2] = this.impulse[2]! + pz * perSecond;
    const c = this.cross;
    crossInto(r, point, c);
    const L = this.angularImpulse;
    for (let k = 0; k < 3; k++) L[k] = L[k]! + c[k]! * perSecond;
    const t = this.turned;
    this.applyInverseInertia(c, t);
    const w = this.angularVelocityChange;
    for (let k = 0; k < 3; k++) w[k] = w[k]! + t[k]! * perSecond;
    this.rotateOffset(t);
    this.yielded = true;
    const riders = this.riders;
    for (let k = 0; k < riders.length; k++) this.place(riders[k]!);
  }

  /** @internal The world point of `local[0..2]` (body frame, about the centre of mass) now, into `out[o..o+2]`. */
  pointToWorld(local: Float64Array, out: Float64Array, o: number): void {
    const a = this.pathAxes;
    const x = local[0]! * a[0]! + local[1]! * a[3]! + local[2]! * a[6]!;
    const y = local[0]! * a[1]! + local[1]! * a[4]! + local[2]! * a[7]!;
    const z = local[0]! * a[2]! + local[1]! * a[5]! + local[2]! * a[8]!;
    const b = this.offsetAxes;
    const path = this.pathPose;
    out[o] = path[0]! + this.offset[0]! + x * b[0]! + y * b[3]! + z * b[6]!;
    out[o + 1] = path[1]! + this.offset[1]! + x * b[1]! + y * b[4]! + z * b[7]!;
    out[o + 2] = path[2]! + this.offset[2]! + x * b[2]! + y * b[5]! + z * b[8]!;
  }

  /** @internal Puts `frame` where the body's offset carries its frame on the path: turned about the centre of mass, then moved. */
  place(frame: CoupledFrame): void {
    const b = this.offsetAxes;
    const path = this.pathPose;
    const base = frame.baseOrigin;
    const x = base[0]! - path[0]!;
    const y = base[1]! - path[1]!;
    const z = base[2]! - path[2]!;
    const origin = frame.origin;
    origin[0] = path[0]! + this.offset[0]! + x * b[0]! + y * b[3]! + z * b[6]!;
    origin[1] = path[1]! + this.offset[1]! + x * b[1]! + y * b[4]! + z * b[7]!;
    origin[2] = path[2]! + this.offset[2]! + x * b[2]! + y * b[5]! + z * b[8]!;
    const from = frame.baseAxes;
    const to = frame.axes;
    for (let c = 0; c < 9; c += 3) {
      const ax = from[c]!;
      const ay = from[c + 1]!;
      const az = from[c + 2]!;
      to[c] = ax * b[0]! + ay * b[3]! + az * b[6]!;
      to[c + 1] = ax * b[1]! + ay * b[4]! + az * b[7]!;
      to[c + 2] = ax * b[2]! + ay * b[5]! + az * b[8]!;
    }
  }

  /** A new step: the path given (or standing at the last end), and nothing yielded yet. */
  private beginStep(world: World): void {
    this.stepSeen = world.stepCount;
    if (!this.pathGiven) {
      // Not moved by the other engine: it stands where sinew left it.
      const end = this.endPose;
      this.endPosition(this.scratchPosition);
      this.endRotation(this.scratchRotation);
      for (let k = 0; k < 3; k++) end[k] = this.scratchPosition[k]!;
      for (let k = 0; k < 4; k++) end[3 + k] = this.scratchRotation[k]!;
      this.startPose.set(end);
    }
    this.pathGiven = false;
    this.substep = 0;
    this.offset.fill(0);
    this.offsetRotation.set(IDENTITY_QUAT);
    this.offsetAxes.set(IDENTITY_AXES);
    this.velocityChange.fill(0);
    this.angularVelocityChange.fill(0);
    this.impulse.fill(0);
    this.angularImpulse.fill(0);
    measureTurn(this.startPose, this.endPose, this.turn);
  }

  /** Turns the offset rotation by the small rotation vector (x, y, z) (rad, world axes): q ← q + ½(θ, 0)·q, renormalised (XPBD's update). */
  /** Turns the offset rotation by the small rotation vector `by[0..2]` (rad); in an array, as a double passed to a call V8 does not inline is boxed. */
  private rotateOffset(by: Float64Array): void {
    const x = by[0]!;
    const y = by[1]!;
    const z = by[2]!;
    if (x === 0 && y === 0 && z === 0) return;
    const q = this.offsetRotation;
    const qx = q[0]!;
    const qy = q[1]!;
    const qz = q[2]!;
    const qw = q[3]!;
    const nx = qx + 0.5 * (x * qw + y * qz - z * qy);
    const ny = qy + 0.5 * (y * qw + z * qx - x * qz);
    const nz = qz + 0.5 * (z * qw + x * qy - y * qx);
    const nw = qw - 0.5 * (x * qx + y * qy + z * qz);
    const n = 1 / Math.sqrt(nx * nx + ny * ny + nz * nz + nw * nw);
    q[0] = nx * n;
    q[1] = ny * n;
    q[2] = nz * n;
    q[3] = nw * n;
    quatAxes(q, this.offsetAxes);
  }

  private applyInverseInertia(v: Float64Array, out: Float64Array): void {
    const m = this.inverseInertia;
    out[0] = m[0]! * v[0]! + m[1]! * v[1]! + m[2]! * v[2]!;
    out[1] = m[3]! * v[0]! + m[4]! * v[1]! + m[5]! * v[2]!;
    out[2] = m[6]! * v[0]! + m[7]! * v[1]! + m[8]! * v[2]!;
  }
}

const IDENTITY_QUAT = [0, 0, 0, 1];
const IDENTITY_AXES = [1, 0, 0, 0, 1, 0, 0, 0, 1];

function identityPose(): Float64Array {
  const pose = new Float64Array(7);
  pose[6] = 1;
  return pose;
}

function readPose(position: Vec3Like, rotation: QuatLike, pose: Float64Array, p: Vec3, q: Quat, which: string): void {
  readVec3(position, p, 'CoupledBody setStep', `${which} position`);
  readQuat(rotation, q, 'CoupledBody setStep', `${which} rotation`);
  for (let k = 0; k < 3; k++) pose[k] = p[k]!;
  for (let k = 0; k < 4; k++) pose[3 + k] = q[k]!;
}

/** a[0..2] × b[3..5] into out[0..2] (arrays, not doubles: a double passed to a call V8 does not inline is boxed). */
function crossInto(a: Float64Array, b: Float64Array, out: Float64Array): void {
  const ax = a[0]!;
  const ay = a[1]!;
  const az = a[2]!;
  const bx = b[3]!;
  const by = b[4]!;
  const bz = b[5]!;
  out[0] = ay * bz - az * by;
  out[1] = az * bx - ax * bz;
  out[2] = ax * by - ay * bx;
}

/** a·b for quaternions given xyzw, into out[0..3]. */
function multiply(ax: number, ay: number, az: number, aw: number, bx: number, by: number, bz: number, bw: number, out: Quat): void {
  out[0] = aw * bx + ax * bw + ay * bz - az * by;
  out[1] = aw * by - ax * bz + ay * bw + az * bx;
  out[2] = aw * bz + ax * by - ay * bx + az * bw;
  out[3] = aw * bw - ax * bx - ay * by - az * bz;
}

/** Rotation columns of the unit quaternion q[0..3] (xyzw). */
function quatAxes(q: Float64Array, axes: Float64Array): void {
  const x = q[0]!;
  const y = q[1]!;
  const z = q[2]!;
  const w = q[3]!;
  axes[0] = 1 - 2 * (y * y + z * z);
  axes[1] = 2 * (x * y + z * w);
  axes[2] = 2 * (x * z - y * w);
  axes[3] = 2 * (x * y - z * w);
  axes[4] = 1 - 2 * (x * x + z * z);
  axes[5] = 2 * (y * z + x * w);
  axes[6] = 2 * (x * z + y * w);
  axes[7] = 2 * (y * z - x * w);
  axes[8] = 1 - 2 * (x * x + y * y);
}
