import type { Constraint } from '../constraints/constraint.js';
import type { World } from '../world.js';
import type { BodyRecord } from './body.js';

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

/** Step of the finite differences that give the gradient (m). */
const DELTA = 1e-6;

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
  const scratch = new Float64Array(2);
  scratch[1] = slack;
  evaluate(pos, p, scratch);
  return scratch[0]!;
}

/**
 * {@link elbowHingeValue} without allocating: reads the slack from `io[1]`, writes
 * the value to `io[0]` (a double passed to or returned from a call V8 does not
 * inline is boxed, an allocation per call).
 */
function evaluate(pos: Float64Array, p: ElbowHingeParticles, io: Float64Array): void {
  const slack = io[1]!;
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
  const sf = bx * fx + by * fy + bz * fz;
  // ŝ·(w × f)
  const swf = bx * (wy * fz - wz * fy) + by * (wz * fx - wx * fz) + bz * (wx * fy - wy * fx);
  const wf = wx * fx + wy * fy + wz * fz;
  const ws = wx * bx + wy * by + wz * bz;
  const su = bx * ax + by * ay + bz * az;
  io[0] = (1 + c) * (c * sf + swf + slack + ELBOW_TWIST_GIVE * (1 - su)) + wf * ws;
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
  /** Slack in, constraint value out (see `evaluate`). */
  private readonly io = new Float64Array(2);

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
    const pos = world.particles.position;
    const w = world.particles.inverseMass;
    const p = this.elbows[i]!;
    const io = this.io;
    io[1] = this.slack;
    evaluate(pos, p, io);
    const value = io[0]!;
    if (value >= 0) return false;
    const g = this.gradient;
    const ids = this.ids;
    // Finite differences over the first five particles; the chest's gradient is
    // minus their sum, as the value depends on differences of positions only: the
    // gradient then sums to zero exactly and the push keeps momentum to rounding.
    for (let k = 0; k < 3; k++) g[15 + k] = 0;
    for (let r = 0; r < 5; r++) {
      const q = ids[i * 6 + r]! * 3;
      for (let k = 0; k < 3; k++) {
        const x = pos[q + k]!;
        pos[q + k] = x + DELTA;
        evaluate(pos, p, io);
        g[r * 3 + k] = (io[0]! - value) / DELTA;
        g[15 + k] = g[15 + k]! - g[r * 3 + k]!;
        pos[q + k] = x;
      }
    }
    let denominator = 0;
    for (let r = 0; r < 6; r++) {
      const wr = w[ids[i * 6 + r]!]!;
      denominator += wr * (g[r * 3]! * g[r * 3]! + g[r * 3 + 1]! * g[r * 3 + 1]! + g[r * 3 + 2]! * g[r * 3 + 2]!);
    }
    if (denominator === 0) return false;
    const depth = value < -MAX_CORRECTION ? -MAX_CORRECTION : value;
    const lambda = (-depth * this.stiffness) / denominator;
    for (let r = 0; r < 6; r++) {
      const id = ids[i * 6 + r]!;
      const q = id * 3;
      const s = lambda * w[id]!;
      pos[q] = pos[q]! + s * g[r * 3]!;
      pos[q + 1] = pos[q + 1]! + s * g[r * 3 + 1]!;
      pos[q + 2] = pos[q + 2]! + s * g[r * 3 + 2]!;
    }
    return true;
  }
}
