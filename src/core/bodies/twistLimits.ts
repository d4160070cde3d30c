import type { Constraint } from '../constraints/constraint.js';
import type { World } from '../world.js';
import type { BodyRecord } from './body.js';
import { armFold, elbowHingeInto, type ElbowHingeParticles } from './elbowHinge.js';
import { projectLimit, type LimitFunction } from './gradientProjection.js';

/** Largest violation repaired per projection, as for the hinges (see `constraints/hinge.ts`). */
const MAX_CORRECTION = 0.03;

/** One shoulder's twist limit: the arm and torso it is read from, and its range and free lean (radians). */
export interface TwistLimitRow {
  particles: ElbowHingeParticles;
  range: number;
  free: number;
}

/**
 * Twist limits of a ragdoll's shoulders. A stick upper arm has no twist of its
 * own; its twist shows in the plane its elbow bends in. With û the upper arm, ŝ
 * the forearm and r̂ the way the elbow folds untwisted (the torso's front carried
 * to the upper arm, see `elbowHinge.ts`), the twist is the angle ψ about û from
 * r̂ to the bend, ψ = atan2(ŝ·(û × r̂), ŝ·r̂). The limit keeps the bend within a
 * wedge of half-angle `range` about r̂,
 *   C = sin(range)·(ŝ·R) − cos(range)·|ŝ·(û × R)| + sin(free)·|cos(range)|·|R| ≥ 0,
 * R = (1 + L·û)·r̂ the elbow hinge's polynomial fold direction, so that C is
 * continuous where r̂ turns over. With the elbow bent by β that is
 * sin β·sin(|ψ| − range) ≤ sin(free)·|cos(range)|: a nearly straight arm, whose
 * bend plane means little, may twist further, and an elbow bent 90° stops
 * twisting at |ψ| = range + asin(sin(free)·|cos(range)|) (`twistStop` in
 * `ragdollSkeleton.ts`). For a range under 90° that is cos(range) times
 * tan(range)·(ŝ·R) + sin(free)·|R| − |ŝ·(û × R)|, where a straight arm may bend
 * `free` sideways; the form above also holds past 90°, where the shoulders' is
 * (a forearm lying on the ground beside a body lying on its back or front is
 * twisted 90°; see `ragdollSkeleton.ts`). C depends on relative positions only,
 * so its projection along its full gradient (`gradientProjection.ts`) keeps
 * momentum and angular momentum. (The thighs' are `hipTwist.ts`.) Skips the
 * body while it sleeps; allocates nothing.
 */
export class TwistLimits implements Constraint {
  private readonly body: BodyRecord;
  private readonly rows: readonly TwistLimitRow[];
  private readonly stiffness: number;
  /** Per row, its six distinct particles, from `offsets[row]`. */
  private readonly ids: Int32Array;
  private readonly offsets: Int32Array;
  private readonly counts: Int32Array;
  /** sin(range), cos(range) and sin(free)·|cos(range)| per row. */
  private readonly sine: Float64Array;
  private readonly cosine: Float64Array;
  private readonly slack: Float64Array;
  private readonly gradient = new Float64Array(18);
  /** The value out, then scratch. */
  private readonly io = new Float64Array(12);
  private readonly evaluate: LimitFunction = (pos, row, io) => this.value(pos, row, io);

  /** sin of the elbow hinge's tolerance: while an elbow is bent the wrong way, its hinge acts and its twist limit waits. */
  private readonly elbowSlack: number;

  constructor(body: BodyRecord, rows: readonly TwistLimitRow[], stiffness: number, elbowTolerance: number) {
    this.body = body;
    this.elbowSlack = Math.sin(elbowTolerance);
    this.rows = rows;
    this.stiffness = stiffness;
    this.offsets = new Int32Array(rows.length);
    this.counts = new Int32Array(rows.length);
    this.sine = Float64Array.from(rows, (r) => Math.sin(r.range));
    this.cosine = Float64Array.from(rows, (r) => Math.cos(r.range));
    this.slack = Float64Array.from(rows, (r) => Math.sin(r.free) * Math.abs(Math.cos(r.range)));
    const ids: number[] = [];
    rows.forEach((r, i) => {
      this.offsets[i] = ids.length;
      const p = r.particles;
      // The arm's own shoulder is one of the two shoulders.
      const mine = [p.elbow, p.hand, p.leftShoulder, p.rightShoulder, p.neck, p.chest];
      this.counts[i] = mine.length;
      ids.push(...mine);
    });
    this.ids = Int32Array.from(ids);
  }

  /** One per limit. */
  get constraintCount(): number {
    return this.rows.length;
  }

  /** Projects the limits twisted too far (one relaxation pass). */
  project(world: World): void {
    const body = this.body;
    if (!body.alive || world.sleep.isAsleep(body.id)) return;
    for (let i = 0; i < this.rows.length; i++) this.projectRow(world, i);
  }

  /** Projects limit `i` if it is twisted past its range; true when it moved particles. */
  projectRow(world: World, i: number): boolean {
    // A forearm bent the wrong way has no twist to limit: its twist reads near
    // ±180°, where |ŝ·(û × R)| turns over, and the two limits pushing at once
    // flipped an elbow made 30° the wrong way overhead to 167° the wrong way.
    const io = this.io;
    io[1] = this.elbowSlack;
    elbowHingeInto(world.particles.position, this.rows[i]!.particles, io);
    if (io[0]! < 0) return false;
    return projectLimit(world.particles.position, world.particles.inverseMass, this.ids, this.offsets[i]!, this.counts[i]!, i, this.evaluate, this.stiffness, MAX_CORRECTION, this.gradient, this.io);
  }

  /** C of limit `row` at `pos` into `io[0]` (see the class); `io[2..]` is scratch. */
  value(pos: Float64Array, row: number, io: Float64Array): void {
    const r = this.rows[row]!;
    const sine = this.sine[row]!;
    const cosine = this.cosine[row]!;
    const slack = this.slack[row]!;
    armFold(pos, r.particles, io, 2);
    // û at 2, R = N at 5, c at 8, ŝ at 9.
    const c = io[8]!;
    const x = io[9]! * io[5]! + io[10]! * io[6]! + io[11]! * io[7]!;
    // ŝ·(û × N)
    const y = io[9]! * (io[3]! * io[7]! - io[4]! * io[6]!) + io[10]! * (io[4]! * io[5]! - io[2]! * io[7]!) + io[11]! * (io[2]! * io[6]! - io[3]! * io[5]!);
    io[0] = sine * x - cosine * Math.abs(y) + slack * (1 + c);
  }
}
