import type { Constraint } from '../constraints/constraint.js';
import type { World } from '../world.js';
import type { BodyRecord } from './body.js';
import { projectLimit, type LimitFunction } from './gradientProjection.js';

/**
 * Largest violation repaired per projection, as for the knees' hinge (see
 * `constraints/hinge.ts`): an elbow folded far the wrong way unfolds over a few
 * substeps instead of throwing the arm.
 */
const MAX_CORRECTION = 0.03;

/**
 * How much a bent elbow's forearm may lean past the fold plane toward the wrong
 * side, per unit of (1 − cos bend): the stick figure has no upper-arm twist, which
 * in a person lets a bent forearm sweep round. A straight arm keeps the plain
 * hinge. Without it, a ragdoll lying face down with a forearm flat on the ground
 * out sideways (bent 90° along the ground, just past the fold plane) had the hinge
 * pressing that forearm into the ground every substep, and the body crept at
 * 3 mm/s for 5 s (test/core/ragdollLimits.test.ts, landing with a leg straight).
 */
export const ELBOW_TWIST_GIVE = 0.5;

/** The particles of one elbow hinge: the arm and the torso frame it bends in. */
export interface ElbowHingeParticles {
  /** The arm's shoulder (its upper arm runs from here to the elbow). */
  shoulder: number;
  elbow: number;
  hand: number;
  /** The torso frame: the figure's left and right shoulders, the neck above the chest. */
  leftShoulder: number;
  rightShoulder: number;
  neck: number;
  chest: number;
  /** +1 for the left arm, -1 for the right. */
  side: 1 | -1;
}

/**
 * Which way an elbow may bend, for every direction of the upper arm.
 *
 * A hinge about a fixed axis ĥ (the knees' hinge, about the hip line) lets the
 * joint bend along n̂ = ĥ × û, û the upper arm; n̂ vanishes where the arm lies
 * along ±ĥ. About the shoulder line that is the arm stretched sideways (a T
 * pose, common in a fall), where such a hinge has no effect. Any smooth field of
 * bend directions over the arm's directions must vanish somewhere (the hairy-ball
 * theorem), but a field can vanish at a single direction: this one is the torso's
 * front f carried along the great circle from the arm stretched out sideways
 * (the torso's lateral L, where the elbow bends forward) to û,
 *   n̂(û) = R(L→û) f = c·f + w × f + (w·f)·w / (1 + c),   w = L × û, c = L·û,
 * which turns over only at û = −L, the arm pointing sideways into the chest,
 * inside the cone the shoulder limit forbids (35° about the shoulder–neck line).
 * So the elbow bends forward with the arm down or out sideways, up with the arm
 * forward (palm up), toward the other side with the arm across the chest, and the
 * direction turns smoothly between them.
 *
 * The constraint is (ŝ·n̂ + sin tolerance + give·(1 − ŝ·û))·(1 + c) ≥ 0, ŝ the
 * forearm (`give` = {@link ELBOW_TWIST_GIVE}), written with the polynomial
 * (1 + c)·ŝ·n̂ = (1 + c)(c ŝ·f + ŝ·(w × f)) + (w·f)(w·ŝ), so it is
 * smooth everywhere and fades to 0 at the one direction where n̂ is undefined
 * (as the knees' hinge fades where the thigh meets its axis). It depends on the
 * arm and on the torso frame only through their relative pose, so its gradient
 * over all six particles (found by finite differences, 16 evaluations when
 * violated) sums to zero and has no torque: the mass-weighted projection keeps
 * momentum and angular momentum, and pushes the torso back as it pushes the arm.
 */
export function elbowHingeValue(pos: Float64Array, p: ElbowHingeParticles, slack: number): number {
  const scratch = new Float64Array(12);
  scratch[1] = slack;
  elbowHingeInto(pos, p, scratch);
  return scratch[0]!;
}

/**
 * {@link elbowHingeValue} without allocating: reads the slack from `io[1]`, writes
 * the value to `io[0]` (a double passed to or returned from a call V8 does not
 * inline is boxed, an allocation per call); `io[2..11]` is scratch.
 */
export function elbowHingeInto(pos: Float64Array, p: ElbowHingeParticles, io: Float64Array): void {
  const a = io;
  armFold(pos, p, a, 2);
  const c = a[8]!;
  const sN = a[9]! * a[5]! + a[10]! * a[6]! + a[11]! * a[7]!;
  const su = a[9]! * a[2]! + a[10]! * a[3]! + a[11]! * a[4]!;
  a[0] = sN + (1 + c) * (a[1]! + ELBOW_TWIST_GIVE * (1 - su));
}

/**
 * The arm's frame for its elbow and its twist, written to `out` from `at` on:
 * û (the upper arm, unit) at `at`, N = (1 + c)·n̂ (the fold direction of
 * {@link elbowHingeValue} times 1 + c, a polynomial, so smooth everywhere) at
 * `at + 3`, c = L·û at `at + 6` and ŝ (the forearm, unit) at `at + 7`.
 * N ⟂ û, |N| = 1 + c.
 */
export function armFold(pos: Float64Array, p: ElbowHingeParticles, out: Float64Array, at: number): void {
  const ls = p.leftShoulder * 3;
  const rs = p.rightShoulder * 3;
  const nk = p.neck * 3;
  const ch = p.chest * 3;
  // Lateral L = side·unit(left − right); front f = unit((left − right) × (neck − chest)).
  let lx = pos[ls]! - pos[rs]!;
  let ly = pos[ls + 1]! - pos[rs + 1]!;
  let lz = pos[ls + 2]! - pos[rs + 2]!;
  const ux = pos[nk]! - pos[ch]!;
  const uy = pos[nk + 1]! - pos[ch + 1]!;
  const uz = pos[nk + 2]! - pos[ch + 2]!;
  let fx = ly * uz - lz * uy;
  let fy = lz * ux - lx * uz;
  let fz = lx * uy - ly * ux;
  const il = p.side / (Math.sqrt(lx * lx + ly * ly + lz * lz) || 1);
  lx *= il;
  ly *= il;
  lz *= il;
  const iff = 1 / (Math.sqrt(fx * fx + fy * fy + fz * fz) || 1);
  fx *= iff;
  fy *= iff;
  fz *= iff;
  const s = p.shoulder * 3;
  const e = p.elbow * 3;
  const h = p.hand * 3;
  let ax = pos[e]! - pos[s]!;
  let ay = pos[e + 1]! - pos[s + 1]!;
  let az = pos[e + 2]! - pos[s + 2]!;
  const ia = 1 / (Math.sqrt(ax * ax + ay * ay + az * az) || 1);
  ax *= ia;
  ay *= ia;
  az *= ia;
  let bx = pos[h]! - pos[e]!;
  let by = pos[h + 1]! - pos[e + 1]!;
  let bz = pos[h + 2]! - pos[e + 2]!;
  const ib = 1 / (Math.sqrt(bx * bx + by * by + bz * bz) || 1);
  bx *= ib;
  by *= ib;
  bz *= ib;
  const c = lx * ax + ly * ay + lz * az;
  const wx = ly * az - lz * ay;
  const wy = lz * ax - lx * az;
  const wz = lx * ay - ly * ax;
  const wf = wx * fx + wy * fy + wz * fz;
  // N = (1 + c)(c·f + w × f) + (w·f)·w
  out[at] = ax;
  out[at + 1] = ay;
  out[at + 2] = az;
  out[at + 3] = (1 + c) * (c * fx + wy * fz - wz * fy) + wf * wx;
  out[at + 4] = (1 + c) * (c * fy + wz * fx - wx * fz) + wf * wy;
  out[at + 5] = (1 + c) * (c * fz + wx * fy - wy * fx) + wf * wz;
  out[at + 6] = c;
  out[at + 7] = bx;
  out[at + 8] = by;
  out[at + 9] = bz;
}

/**
 * The ragdoll's one-way elbows (see {@link elbowHingeValue}), a constraint of the
 * world's relaxation loop (after the sticks, before the colliders, like the angle
 * limits). Run once per substep after the loop, with the colliders after it, it
 * held an arm lying against the ground by a push the next substep's passes undid,
 * and the body crept at 3 mm/s for 5 s before it could sleep. Skips the body
 * while it sleeps; allocates nothing.
 */
export class ElbowHinges implements Constraint {
  private readonly body: BodyRecord;
  private readonly elbows: readonly ElbowHingeParticles[];
  /** sin(tolerance): how far past straight the elbow may bend the wrong way. */
  private readonly slack: number;
  private readonly stiffness: number;
  /** Per elbow, its six distinct particles: elbow, hand, left and right shoulder, neck, chest. */
  private readonly ids: Int32Array;
  /** Gradient over the six particles, xyz interleaved. */
  private readonly gradient = new Float64Array(18);
  /** Slack in, constraint value out, scratch (see `evaluate`). */
  private readonly io = new Float64Array(12);
  /** Elbow `row`'s value (made once: a closure per call would allocate). */
  private readonly evaluate: LimitFunction = (pos, row, io) => elbowHingeInto(pos, this.elbows[row]!, io);

  constructor(body: BodyRecord, elbows: readonly ElbowHingeParticles[], tolerance: number, stiffness: number) {
    this.body = body;
    this.elbows = elbows;
    this.slack = Math.sin(tolerance);
    this.stiffness = stiffness;
    this.ids = new Int32Array(elbows.length * 6);
    elbows.forEach((p, i) => this.ids.set([p.elbow, p.hand, p.leftShoulder, p.rightShoulder, p.neck, p.chest], i * 6));
  }

  /** Two hinges, one per elbow. */
  get constraintCount(): number {
    return this.elbows.length;
  }

  /** Projects the elbows bent the wrong way (one relaxation pass). */
  project(world: World): void {
    const body = this.body;
    if (!body.alive || world.sleep.isAsleep(body.id)) return;
    for (let i = 0; i < this.elbows.length; i++) this.projectElbow(world, i);
  }

  /** Projects elbow `i` if it is bent the wrong way; true when it moved particles. */
  projectElbow(world: World, i: number): boolean {
    this.io[1] = this.slack;
    return projectLimit(world.particles.position, world.particles.inverseMass, this.ids, i * 6, 6, i, this.evaluate, this.stiffness, MAX_CORRECTION, this.gradient, this.io);
  }
}
