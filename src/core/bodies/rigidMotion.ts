import type { FeatureKind, WorldFeature } from '../features.js';
import { ParticleFlag } from '../particles.js';
import type { StepContext, SubstepStage } from '../stepContext.js';
import type { World } from '../world.js';
import type { BodyRecord } from './body.js';
import { fitRotation, quatFromRotationVector, rotateSymmetric, rotationVector, solveSymmetric } from './rotationFit.js';
import { addSubstepStage } from '../stages.js';

/** One rigid body the stage moves. */
interface Entry {
  readonly body: BodyRecord;
  readonly vertices: Int32Array;
  /** The last substep's rotation, the warm start of the next fit (a quaternion). */
  readonly turn: Float64Array;
}

const FIT_ROUNDS = 32;
/** Turn per substep (rad) below which a body keeps Verlet's prediction (see `move`). */
const SLOW_TURN = 1e-3;
const INERTIA_ROUNDS = 3;

/**
 * Free rigid motion for rigid bodies made of particles. Verlet moves every
 * particle along the chord of its last substep: for a spinning body that chord
 * cuts inside the circle, the sticks pull the particle back out along the radius,
 * and the turn per substep comes out smaller each time (tan⁻¹ of it, roughly): a
 * box spinning at 6 rad/s would lose 5.6% of its angular momentum per second
 * at damping 0. This stage replaces the chord prediction of a free rigid
 * body's particles by a rigid one: the body keeps its centre of mass's Verlet
 * prediction and turns about it by the angle the angular momentum asks for.
 *
 * The angular momentum is read from the last substep as a turn, not as chord
 * velocities: the best-fit rotation from the body's offsets at the start of the
 * last substep to those at its end (whatever contacts and joints did to it
 * included), times the inertia halfway through that turn. The next turn θ solves
 * L = I(halfway through θ)·θ/h, so L is kept exactly while the inertia turns with
 * the body (a box spinning about its middle axis tumbles, as it should).
 * Forces other than gravity keep their linear kick per particle, so their torque
 * reaches the body; damping scales the turn like every velocity.
 *
 * Only bodies whose particles are all their own, movable and unpinned are moved
 * (joined bodies share particles with another body's prediction, and a pinned
 * vertex is not free); for the others nothing changes.
 */
export class RigidMotion implements SubstepStage, WorldFeature {
  private readonly entries: Entry[] = [];
  private offsetsBefore = new Float64Array(3 * 8);
  private offsetsAfter = new Float64Array(3 * 8);
  private readonly s = new Float64Array(9);
  private readonly inertiaBefore = new Float64Array(9);
  private readonly inertiaAfter = new Float64Array(9);
  private readonly inertiaNext = new Float64Array(9);
  private readonly inertiaMid = new Float64Array(9);
  private readonly theta = new Float64Array(3);
  private readonly momentum = new Float64Array(3);
  private readonly turnNext = new Float64Array(4);
  private readonly half = new Float64Array(4);

  /** Moves `body`'s particles `vertices` rigidly from the next substep on, until the body is removed. */
  add(body: BodyRecord, vertices: ArrayLike<number>): void {
    const entry: Entry = { body, vertices: Int32Array.from(vertices), turn: new Float64Array([0, 0, 0, 1]) };
    this.entries.push(entry);
    if (this.offsetsBefore.length < 3 * entry.vertices.length) {
      this.offsetsBefore = new Float64Array(3 * entry.vertices.length);
      this.offsetsAfter = new Float64Array(3 * entry.vertices.length);
    }
  }

  /** A removed body is moved no more. */
  bodyRemoved(_world: World, body: BodyRecord): void {
    const at = this.entries.findIndex((e) => e.body === body);
    if (at >= 0) this.entries.splice(at, 1);
  }

  /** Each body's last turn (the warm start of its next fit), by body serial: a spinning body restored from a snapshot turns on as it did. */
  saveState(): { serials: number[]; turns: Float64Array } {
    const turns = new Float64Array(this.entries.length * 4);
    this.entries.forEach((e, k) => turns.set(e.turn, k * 4));
    return { serials: this.entries.map((e) => e.body.serial), turns };
  }

  /** Returns each body's turn to the snapshot's; a body the snapshot lacks starts from no turn. */
  loadState(_world: World, data: unknown): void {
    const saved = data as { serials: number[]; turns: Float64Array } | undefined;
    for (const entry of this.entries) {
      const k = saved === undefined ? -1 : saved.serials.indexOf(entry.body.serial);
      if (k >= 0) entry.turn.set(saved!.turns.subarray(k * 4, k * 4 + 4));
      else entry.turn.set([0, 0, 0, 1]);
    }
  }

  /** Bodies moved. */
  get count(): number {
    return this.entries.length;
  }

  afterIntegrate(world: World, context: StepContext): void {
    const sleep = world.sleep;
    for (let e = 0; e < this.entries.length; e++) {
      const entry = this.entries[e]!;
      if (!sleep.isAsleep(entry.body.id)) this.move(world, context, entry);
    }
  }

  private move(world: World, context: StepContext, entry: Entry): void {
    const particles = world.particles;
    const x = particles.position;
    const p = particles.previous;
    const force = particles.force;
    const w = particles.inverseMass;
    const flags = particles.flags;
    const ids = entry.vertices;
    const n = ids.length;
    const h2 = context.h2;
    const keep = context.keep;
    if (!(keep > 0)) return;
    // Centres of mass: before the last substep (x*, recovered from the prediction), at its end (p), predicted (x).
    let mass = 0;
    let bx = 0;
    let by = 0;
    let bz = 0;
    let cx = 0;
    let cy = 0;
    let cz = 0;
    let px = 0;
    let py = 0;
    let pz = 0;
    // Σ m·|p|² and Σ m·|p − x*|², for the size of the body and of its last substep's motion.
    let spread = 0;
    let moved = 0;
    for (let k = 0; k < n; k++) {
      const i = ids[k]!;
      const wi = w[i]!;
      if (wi === 0 || (flags[i]! & ParticleFlag.Pinned) !== 0) return;
      const m = 1 / wi;
      const o = i * 3;
      // x = p + keep·(p − x*) + a·h², with a = g + F·w: the chord's start x*.
      const sx = p[o]! - (x[o]! - p[o]! - (context.gx + force[o]! * wi) * h2) / keep;
      const sy = p[o + 1]! - (x[o + 1]! - p[o + 1]! - (context.gy + force[o + 1]! * wi) * h2) / keep;
      const sz = p[o + 2]! - (x[o + 2]! - p[o + 2]! - (context.gz + force[o + 2]! * wi) * h2) / keep;
      this.offsetsBefore[k * 3] = sx;
      this.offsetsBefore[k * 3 + 1] = sy;
      this.offsetsBefore[k * 3 + 2] = sz;
      mass += m;
      bx += m * sx;
      by += m * sy;
      bz += m * sz;
      cx += m * p[o]!;
      cy += m * p[o + 1]!;
      cz += m * p[o + 2]!;
      px += m * x[o]!;
      py += m * x[o + 1]!;
      pz += m * x[o + 2]!;
      spread += m * (p[o]! * p[o]! + p[o + 1]! * p[o + 1]! + p[o + 2]! * p[o + 2]!);
      moved += m * ((p[o]! - sx) * (p[o]! - sx) + (p[o + 1]! - sy) * (p[o + 1]! - sy) + (p[o + 2]! - sz) * (p[o + 2]! - sz));
    }
    bx /= mass;
    by /= mass;
    bz /= mass;
    cx /= mass;
    cy /= mass;
    cz /= mass;
    px /= mass;
    py /= mass;
    pz /= mass;
    // (Turn per substep)² ≈ mean square of the motion about the centre over mean square radius. Below
    // 1e-3 rad the chords lose (1e-3)²/3 of the spin per substep, 0.02% a second at 600 substeps a
    // second: a body at rest or sliding keeps Verlet's prediction and skips the fit.
    const tx = cx - bx;
    const ty = cy - by;
    const tz = cz - bz;
    const turning = moved / mass - (tx * tx + ty * ty + tz * tz);
    const radius2 = spread / mass - (cx * cx + cy * cy + cz * cz);
    if (turning < SLOW_TURN * SLOW_TURN * radius2) {
      entry.turn.fill(0);
      entry.turn[3] = 1;
      return;
    }
    // Offsets about the centres of mass, the cross-covariance S = Σ m·after·beforeᵀ, both inertia tensors,
    // and the angular momentum of the chords, Σ m·after × (after − before)/h.
    const s = this.s;
    s.fill(0);
    this.inertiaBefore.fill(0);
    this.inertiaAfter.fill(0);
    const before = this.offsetsBefore;
    const after = this.offsetsAfter;
    let lx = 0;
    let ly = 0;
    let lz = 0;
    for (let k = 0; k < n; k++) {
      const i = ids[k]!;
      const m = 1 / w[i]!;
      const o = i * 3;
      const ax = before[k * 3]! - bx;
      const ay = before[k * 3 + 1]! - by;
      const az = before[k * 3 + 2]! - bz;
      const qx = p[o]! - cx;
      const qy = p[o + 1]! - cy;
      const qz = p[o + 2]! - cz;
      before[k * 3] = ax;
      before[k * 3 + 1] = ay;
      before[k * 3 + 2] = az;
      after[k * 3] = qx;
      after[k * 3 + 1] = qy;
      after[k * 3 + 2] = qz;
      s[0] = s[0]! + m * qx * ax;
      s[1] = s[1]! + m * qx * ay;
      s[2] = s[2]! + m * qx * az;
      s[3] = s[3]! + m * qy * ax;
      s[4] = s[4]! + m * qy * ay;
      s[5] = s[5]! + m * qy * az;
      s[6] = s[6]! + m * qz * ax;
      s[7] = s[7]! + m * qz * ay;
      s[8] = s[8]! + m * qz * az;
      addInertia(this.inertiaBefore, w, i, before, k);
      addInertia(this.inertiaAfter, w, i, after, k);
      // after × (after − before) = before × after
      lx += m * (ay * qz - az * qy);
      ly += m * (az * qx - ax * qz);
      lz += m * (ax * qy - ay * qx);
    }
    // The last substep's turn R. Its angular momentum as a turn, I(halfway)·θ/h, is what the chords under-read
    // (by sin θ/θ and worse once the sticks pull the chord back): keep the chords' reading for whatever was not
    // a turn (a kick on one vertex) and replace the turn's share, Σ m·after × (after − R⁻¹·after), by the turn's.
    fitRotation(s, entry.turn, FIT_ROUNDS);
    const rx = -entry.turn[0]!;
    const ry = -entry.turn[1]!;
    const rz = -entry.turn[2]!;
    const rw = entry.turn[3]!;
    let residual = 0;
    for (let k = 0; k < n; k++) {
      const m = 1 / w[ids[k]!]!;
      const vx = after[k * 3]!;
      const vy = after[k * 3 + 1]!;
      const vz = after[k * 3 + 2]!;
      const tx = 2 * (ry * vz - rz * vy);
      const ty = 2 * (rz * vx - rx * vz);
      const tz = 2 * (rx * vy - ry * vx);
      // The turned-back offset R⁻¹·after; after × (after − it) = it × after.
      const ux = vx + rw * tx + (ry * tz - rz * ty);
      const uy = vy + rw * ty + (rz * tx - rx * tz);
      const uz = vz + rw * tz + (rx * ty - ry * tx);
      lx -= m * (uy * vz - uz * vy);
      ly -= m * (uz * vx - ux * vz);
      lz -= m * (ux * vy - uy * vx);
      // What was not a turn moved by (R⁻¹·after − before): its energy (×2h²).
      const dx = ux - before[k * 3]!;
      const dy = uy - before[k * 3 + 1]!;
      const dz = uz - before[k * 3 + 2]!;
      residual += m * (dx * dx + dy * dy + dz * dz);
    }
    rotationVector(entry.turn, this.theta);
    const mid = this.inertiaMid;
    for (let k = 0; k < 9; k++) mid[k] = 0.5 * (this.inertiaBefore[k]! + this.inertiaAfter[k]!);
    const t = this.theta;
    // The last substep's energy about the centre of mass (×2h², damped like every velocity): the turn's, θ·I·θ, and the rest's.
    const energyBefore =
      keep *
      keep *
      (t[0]! * (mid[0]! * t[0]! + mid[1]! * t[1]! + mid[2]! * t[2]!) +
        t[1]! * (mid[3]! * t[0]! + mid[4]! * t[1]! + mid[5]! * t[2]!) +
        t[2]! * (mid[6]! * t[0]! + mid[7]! * t[1]! + mid[8]! * t[2]!) +
        residual);
    // h·L, damped like every velocity.
    const hl = this.momentum;
    hl[0] = keep * (mid[0]! * t[0]! + mid[1]! * t[1]! + mid[2]! * t[2]! + lx);
    hl[1] = keep * (mid[3]! * t[0]! + mid[4]! * t[1]! + mid[5]! * t[2]! + ly);
    hl[2] = keep * (mid[6]! * t[0]! + mid[7]! * t[1]! + mid[8]! * t[2]! + lz);
    // The next turn θ' with I(halfway through θ')·θ' = h·L, by fixed point from the last turn.
    if (!solveSymmetric(this.inertiaAfter, hl, t)) return;
    for (let round = 0; round < INERTIA_ROUNDS; round++) {
      quatFromRotationVector(t, this.half);
      rotateSymmetric(this.half, this.inertiaAfter, this.inertiaNext);
      for (let k = 0; k < 9; k++) mid[k] = 0.5 * (this.inertiaAfter[k]! + this.inertiaNext[k]!);
      if (!solveSymmetric(mid, hl, t)) return;
    }
    // A turn that keeps L may still carry more energy than the last (the inertia halfway through a tumbling
    // turn is only estimated): never more, so the spin's energy can only fall.
    const energyNext = t[0]! * hl[0]! + t[1]! * hl[1]! + t[2]! * hl[2]!;
    if (energyNext > energyBefore && energyNext > 0) {
      const shrink = Math.sqrt(energyBefore / energyNext);
      t[0] = t[0]! * shrink;
      t[1] = t[1]! * shrink;
      t[2] = t[2]! * shrink;
    }
    quatFromRotationVector(t, this.turnNext);
    entry.turn.set(this.turnNext);
    // Each particle: the centre's prediction, the turned offset, and its own share of the non-uniform forces.
    const q = this.turnNext;
    const qx = q[0]!;
    const qy = q[1]!;
    const qz = q[2]!;
    const qw = q[3]!;
    let ax = 0;
    let ay = 0;
    let az = 0;
    for (let k = 0; k < n; k++) {
      const o = ids[k]! * 3;
      ax += force[o]!;
      ay += force[o + 1]!;
      az += force[o + 2]!;
    }
    ax /= mass;
    ay /= mass;
    az /= mass;
    for (let k = 0; k < n; k++) {
      const i = ids[k]!;
      const o = i * 3;
      const wi = w[i]!;
      const vx = this.offsetsAfter[k * 3]!;
      const vy = this.offsetsAfter[k * 3 + 1]!;
      const vz = this.offsetsAfter[k * 3 + 2]!;
      // v' = v + 2w(q×v) + 2 q×(q×v), with q the vector part.
      const tx = 2 * (qy * vz - qz * vy);
      const ty = 2 * (qz * vx - qx * vz);
      const tz = 2 * (qx * vy - qy * vx);
      x[o] = px + vx + qw * tx + (qy * tz - qz * ty) + (force[o]! * wi - ax) * h2;
      x[o + 1] = py + vy + qw * ty + (qz * tx - qx * tz) + (force[o + 1]! * wi - ay) * h2;
      x[o + 2] = pz + vz + qw * tz + (qx * ty - qy * tx) + (force[o + 2]! * wi - az) * h2;
    }
  }
}

/**
 * inertia += m·(|r|²·1 − r·rᵀ) for particle `i` (m = 1 / w[i]) at the offset r in
 * `offsets[3k..3k+2]`. (Its mass is looked up here: a double passed to a call V8
 * does not inline is boxed, an allocation per call.)
 */
function addInertia(inertia: Float64Array, w: Float64Array, i: number, offsets: Float64Array, k: number): void {
  const m = 1 / w[i]!;
  const x = offsets[k * 3]!;
  const y = offsets[k * 3 + 1]!;
  const z = offsets[k * 3 + 2]!;
  const r2 = x * x + y * y + z * z;
  inertia[0] = inertia[0]! + m * (r2 - x * x);
  inertia[1] = inertia[1]! - m * x * y;
  inertia[2] = inertia[2]! - m * x * z;
  inertia[3] = inertia[3]! - m * y * x;
  inertia[4] = inertia[4]! + m * (r2 - y * y);
  inertia[5] = inertia[5]! - m * y * z;
  inertia[6] = inertia[6]! - m * z * x;
  inertia[7] = inertia[7]! - m * z * y;
  inertia[8] = inertia[8]! + m * (r2 - z * z);
}

/** The world's rigid-motion stage as a feature of it (see `World.features`). */
export const RIGID_MOTION: FeatureKind<RigidMotion> = {
  name: 'rigidMotion',
  create: (world) => {
    const table = new RigidMotion();
    addSubstepStage(world, 'rigidMotion', table);
    return table;
  },
};

/** The world's rigid-motion stage, created and registered on first use. */
export function rigidMotion(world: World): RigidMotion {
  return world.features.of(RIGID_MOTION);
}
