import { particleSlot } from '../ids.js';
import { existingAngleTable } from '../constraints/angle.js';
import type { SubstepStage } from '../stepContext.js';
import type { World } from '../world.js';
import type { BodyRecord } from './body.js';

/**
 * One limb whose angle limit has friction: the particle at its free end swings
 * against the limit, and the limit is fixed in a frame of particles that move
 * together (the torso for the neck and shoulders).
 */
export interface LimitFrictionLimb {
  /** Public id of the angle constraint (see `addAngleConstraint`). */
  angle: number;
  /** The particle that swings against the limit: an end of the angle's arms. */
  swinging: number;
  /** The particle at the angle's vertex, about which `swinging` turns. */
  pivot: number;
  /** Three or more particles, not in a line, that hold the limit's cone: the body part the limb hangs from. */
  frame: readonly number[];
}

/**
 * Coulomb friction in a ragdoll's joints while they press on their limits.
 *
 * A ragdoll lying with its head bent against the neck's cone swings the head
 * around the cone's edge like a pendulum, with nothing but the joint damping to
 * slow it: of 60 random drops, in 4 the head still swung at 6.6–7.8 cm/s 3 s
 * after landing (test/core/ragdollRandomDrops.test.ts). A joint held at its stop
 * does not slide freely along it; here the stop's push, the limit's normal
 * impulse, bounds a friction impulse μ·jₙ that resists the limb's motion along
 * the stop, as a contact's friction does (Macklin et al. 2014, "Unified Particle
 * Physics", friction from the penetration depth).
 *
 * The motion resisted is the swinging particle's relative to the frame's rigid
 * motion (the best mass-weighted fit of the frame particles' displacements this
 * substep), less its parts along the limit's normal and along the bone. The
 * impulse is shared as between a particle and a rigid body (inverse masses
 * w = 1/m + (r×t)ᵀI⁻¹(r×t)), and its reaction moves the frame rigidly, so a
 * correction changes neither momentum nor angular momentum, and it never more
 * than stops the relative motion, so it only takes energy out. A limb flung
 * against its limit in flight does not change the body's spin.
 *
 * Registered as a substep stage after the relaxation passes (and after the
 * body's own passes); skips the body while it sleeps. Allocates nothing per step.
 */
export class LimitFriction implements SubstepStage {
  /** Friction coefficient of the limits: the friction impulse is at most `coefficient` × the limit's normal impulse. */
  coefficient: number;
  private readonly body: BodyRecord;
  private readonly limbs: readonly LimitFrictionLimb[];
  /** Each limb's row in the angle table, found again when the table's rows move. */
  private readonly rows: Int32Array;
  private rowsVersion = -1;
  /**
   * Scratch: the frame's inertia (xx yy zz xy xz yz) in [0, 6), a solve's answer
   * in [6, 9) and right-hand side in [9, 12), the limit's push in [12]. Doubles go
   * through here rather than through arguments: a double passed to a call V8
   * does not inline is boxed, an allocation per call (test/core/rigid-heap.test.ts).
   */
  private readonly fit = new Float64Array(13);

  constructor(body: BodyRecord, limbs: readonly LimitFrictionLimb[], coefficient: number) {
    this.body = body;
    this.limbs = limbs;
    this.coefficient = coefficient;
    this.rows = new Int32Array(limbs.length).fill(-1);
  }

  /** Nothing to do before the passes. */
  afterIntegrate(): void {}

  /** The friction of this substep, after every pass has pushed. */
  afterRelax(world: World): void {
    if (this.coefficient === 0 || !this.body.alive || world.sleep.isAsleep(this.body.id)) return;
    const angles = existingAngleTable(world);
    if (angles === undefined) return;
    if (this.rowsVersion !== angles.version) {
      this.rowsVersion = angles.version;
      for (let k = 0; k < this.limbs.length; k++) this.rows[k] = angles.rows.get(this.limbs[k]!.angle) ?? -1;
    }
    let rubbed = false;
    for (let k = 0; k < this.limbs.length; k++) {
      const row = this.rows[k]!;
      if (row < 0) continue;
      const pushed = angles.pushed[row]!;
      if (pushed === 0) continue;
      const limb = this.limbs[k]!;
      // The angle's other arm, which the limit's normal lies in the plane of.
      const other = angles.a[row] === limb.swinging ? angles.b[row]! : angles.a[row]!;
      this.fit[12] = pushed;
      rubbed = this.rub(world, limb, other) || rubbed;
    }
    // The frame's rigid share can move a particle resting on the ground into it
    // (by under a micrometre); the colliders keep the last word, as after the passes.
    if (rubbed) {
      const colliders = world.colliders;
      const first = particleSlot(this.body.first);
      const end = first + this.body.count;
      for (let c = 0; c < colliders.length; c++) colliders[c]!.project(world.particles, first, end);
    }
  }

  /** Applies one limb's friction; true if it moved anything. */
  private rub(world: World, limb: LimitFrictionLimb, other: number): boolean {
    const particles = world.particles;
    const pos = particles.position;
    const prev = particles.previous;
    const w = particles.inverseMass;
    const s = limb.swinging;
    const ws = w[s]!;
    if (ws === 0) return false;
    const frame = limb.frame;
    const fit = this.fit;
    // The frame's centre of mass and mean displacement; a pinned frame particle makes it immovable here.
    let mass = 0;
    let cx = 0;
    let cy = 0;
    let cz = 0;
    let dx = 0;
    let dy = 0;
    let dz = 0;
    for (let k = 0; k < frame.length; k++) {
      const i = frame[k]!;
      if (w[i] === 0) return false;
      const m = 1 / w[i]!;
      const p = i * 3;
      mass += m;
      cx += m * pos[p]!;
      cy += m * pos[p + 1]!;
      cz += m * pos[p + 2]!;
      dx += m * (pos[p]! - prev[p]!);
      dy += m * (pos[p + 1]! - prev[p + 1]!);
      dz += m * (pos[p + 2]! - prev[p + 2]!);
    }
    cx /= mass;
    cy /= mass;
    cz /= mass;
    dx /= mass;
    dy /= mass;
    dz /= mass;
    // Inertia about the centre and the frame's angular displacement: I·θ = Σ m·r × (d − d̄).
    let ixx = 0;
    let iyy = 0;
    let izz = 0;
    let ixy = 0;
    let ixz = 0;
    let iyz = 0;
    let lx = 0;
    let ly = 0;
    let lz = 0;
    for (let k = 0; k < frame.length; k++) {
      const i = frame[k]!;
      const m = 1 / w[i]!;
      const p = i * 3;
      const rx = pos[p]! - cx;
      const ry = pos[p + 1]! - cy;
      const rz = pos[p + 2]! - cz;
      const ux = pos[p]! - prev[p]! - dx;
      const uy = pos[p + 1]! - prev[p + 1]! - dy;
      const uz = pos[p + 2]! - prev[p + 2]! - dz;
      lx += m * (ry * uz - rz * uy);
      ly += m * (rz * ux - rx * uz);
      lz += m * (rx * uy - ry * ux);
      ixx += m * (ry * ry + rz * rz);
      iyy += m * (rx * rx + rz * rz);
      izz += m * (rx * rx + ry * ry);
      ixy -= m * rx * ry;
      ixz -= m * rx * rz;
      iyz -= m * ry * rz;
    }
    fit[0] = ixx;
    fit[1] = iyy;
    fit[2] = izz;
    fit[3] = ixy;
    fit[4] = ixz;
    fit[5] = iyz;
    fit[9] = lx;
    fit[10] = ly;
    fit[11] = lz;
    if (!solveSymmetric(fit)) return false;
    const ox = fit[6]!;
    const oy = fit[7]!;
    const oz = fit[8]!;
    // The swinging particle's displacement against the frame's rigid motion at its place.
    const ps = s * 3;
    const rx = pos[ps]! - cx;
    const ry = pos[ps + 1]! - cy;
    const rz = pos[ps + 2]! - cz;
    let ex = pos[ps]! - prev[ps]! - dx - (oy * rz - oz * ry);
    let ey = pos[ps + 1]! - prev[ps + 1]! - dy - (oz * rx - ox * rz);
    let ez = pos[ps + 2]! - prev[ps + 2]! - dz - (ox * ry - oy * rx);
    // Less its part along the bone (the stick's business) and along the limit's
    // normal (the limit's): the normal is the in-plane perpendicular to the bone,
    // in the plane of the bone and the angle's other arm.
    const pm = limb.pivot * 3;
    let bx = pos[ps]! - pos[pm]!;
    let by = pos[ps + 1]! - pos[pm + 1]!;
    let bz = pos[ps + 2]! - pos[pm + 2]!;
    const bone = Math.sqrt(bx * bx + by * by + bz * bz);
    if (bone < 1e-9) return false;
    bx /= bone;
    by /= bone;
    bz /= bone;
    let along = ex * bx + ey * by + ez * bz;
    ex -= along * bx;
    ey -= along * by;
    ez -= along * bz;
    // The other arm's part across the bone is the normal.
    const po = other * 3;
    let nx = pos[po]! - pos[pm]!;
    let ny = pos[po + 1]! - pos[pm + 1]!;
    let nz = pos[po + 2]! - pos[pm + 2]!;
    along = nx * bx + ny * by + nz * bz;
    nx -= along * bx;
    ny -= along * by;
    nz -= along * bz;
    const nl = Math.sqrt(nx * nx + ny * ny + nz * nz);
    if (nl > 1e-9) {
      along = (ex * nx + ey * ny + ez * nz) / (nl * nl);
      ex -= along * nx;
      ey -= along * ny;
      ez -= along * nz;
    }
    const slide = Math.sqrt(ex * ex + ey * ey + ez * ez);
    if (slide < 1e-15) return false;
    const tx = ex / slide;
    const ty = ey / slide;
    const tz = ez / slide;
    // Generalised inverse mass of the pair along t: the particle's, plus the frame's at r.
    const qx = ry * tz - rz * ty;
    const qy = rz * tx - rx * tz;
    const qz = rx * ty - ry * tx;
    fit[9] = qx;
    fit[10] = qy;
    fit[11] = qz;
    if (!solveSymmetric(fit)) return false;
    const iqx = fit[6]!;
    const iqy = fit[7]!;
    const iqz = fit[8]!;
    const wFrame = 1 / mass + qx * iqx + qy * iqy + qz * iqz;
    // Normal impulse at the swinging particle: Σ|Δλ| / r (see AngleTable.pushed).
    const normal = fit[12]! / bone;
    const stop = slide / (ws + wFrame);
    const j = stop < this.coefficient * normal ? stop : this.coefficient * normal;
    // The particle is slowed along −t; the frame takes +j·t at r, as a rigid body.
    pos[ps] = pos[ps]! - ws * j * tx;
    pos[ps + 1] = pos[ps + 1]! - ws * j * ty;
    pos[ps + 2] = pos[ps + 2]! - ws * j * tz;
    const lin = j / mass;
    const ax = j * iqx;
    const ay = j * iqy;
    const az = j * iqz;
    for (let k = 0; k < frame.length; k++) {
      const p = frame[k]! * 3;
      const fx = pos[p]! - cx;
      const fy = pos[p + 1]! - cy;
      const fz = pos[p + 2]! - cz;
      pos[p] = pos[p]! + lin * tx + (ay * fz - az * fy);
      pos[p + 1] = pos[p + 1]! + lin * ty + (az * fx - ax * fz);
      pos[p + 2] = pos[p + 2]! + lin * tz + (ax * fy - ay * fx);
    }
    return true;
  }
}

/**
 * Solves I·x = b for the symmetric I in `m[0..6)` (xx yy zz xy xz yz) and b in
 * `m[9..12)` by the adjugate, into `m[6..9)`. False when I is singular (the
 * frame's particles in a line).
 */
function solveSymmetric(m: Float64Array): boolean {
  const bx = m[9]!;
  const by = m[10]!;
  const bz = m[11]!;
  const a = m[0]!;
  const d = m[1]!;
  const f = m[2]!;
  const b = m[3]!;
  const c = m[4]!;
  const e = m[5]!;
  const c00 = d * f - e * e;
  const c01 = c * e - b * f;
  const c02 = b * e - c * d;
  const det = a * c00 + b * c01 + c * c02;
  if (!(Math.abs(det) > 1e-30)) return false;
  const c11 = a * f - c * c;
  const c12 = b * c - a * e;
  const c22 = a * d - b * b;
  m[6] = (c00 * bx + c01 * by + c02 * bz) / det;
  m[7] = (c01 * bx + c11 * by + c12 * bz) / det;
  m[8] = (c02 * bx + c12 * by + c22 * bz) / det;
  return true;
}
