import type { Constraint } from '../constraints/constraint.js';
import type { World } from '../world.js';
import type { BodyRecord } from './body.js';
import { projectLimit, type LimitFunction } from './gradientProjection.js';

/** Largest violation repaired per projection, as for the hinges (see `constraints/hinge.ts`). */
const MAX_CORRECTION = 0.03;

/** The particles of one hip's twist limit: the leg, and the hip line the knee hinges about. */
export interface HipTwistParticles {
  /** The leg's hip (its thigh runs from here to the knee): one of `leftHip`, `rightHip`. */
  hip: number;
  knee: number;
  foot: number;
  leftHip: number;
  rightHip: number;
}

/** One hip's twist limit: its leg, and its range and free sideways bend (radians, range in (0, π/2)). */
export interface HipTwistRow {
  particles: HipTwistParticles;
  range: number;
  free: number;
}

/**
 * The thigh's frame for its twist, written to `out` from `at` on: û (the thigh,
 * unit) at `at`, N = ĥ × û (ĥ the unit hip line, left minus right) at `at + 3`,
 * ŝ (the shin, unit) at `at + 6`, |N| at `at + 9`. N is the knee hinge's bend
 * direction times |N| = sin(thigh, hip line), a polynomial in û and ĥ, so smooth
 * where the thigh lines up with the hip line and the direction is undefined.
 */
export function legFold(pos: Float64Array, p: HipTwistParticles, out: Float64Array, at: number): void {
  const l = p.leftHip * 3;
  const r = p.rightHip * 3;
  let hx = pos[l]! - pos[r]!;
  let hy = pos[l + 1]! - pos[r + 1]!;
  let hz = pos[l + 2]! - pos[r + 2]!;
  const ih = 1 / (Math.sqrt(hx * hx + hy * hy + hz * hz) || 1);
  hx *= ih;
  hy *= ih;
  hz *= ih;
  const a = p.hip * 3;
  const m = p.knee * 3;
  const b = p.foot * 3;
  let ux = pos[m]! - pos[a]!;
  let uy = pos[m + 1]! - pos[a + 1]!;
  let uz = pos[m + 2]! - pos[a + 2]!;
  const iu = 1 / (Math.sqrt(ux * ux + uy * uy + uz * uz) || 1);
  ux *= iu;
  uy *= iu;
  uz *= iu;
  let sx = pos[b]! - pos[m]!;
  let sy = pos[b + 1]! - pos[m + 1]!;
  let sz = pos[b + 2]! - pos[m + 2]!;
  const is = 1 / (Math.sqrt(sx * sx + sy * sy + sz * sz) || 1);
  sx *= is;
  sy *= is;
  sz *= is;
  const nx = hy * uz - hz * uy;
  const ny = hz * ux - hx * uz;
  const nz = hx * uy - hy * ux;
  out[at] = ux;
  out[at + 1] = uy;
  out[at + 2] = uz;
  out[at + 3] = nx;
  out[at + 4] = ny;
  out[at + 5] = nz;
  out[at + 6] = sx;
  out[at + 7] = sy;
  out[at + 8] = sz;
  out[at + 9] = Math.sqrt(nx * nx + ny * ny + nz * nz);
}

/**
 * Twist limits of a ragdoll's hips. A stick thigh has no twist of its own; its
 * twist shows in the plane its knee bends in. The knee hinges about the hip line
 * (`constraints/hinge.ts`): untwisted, the shin folds along n̂ = ĥ × û (ĥ the hip
 * line, û the thigh), straight back with the thigh down, straight down with the
 * thigh raised forward. The twist is the angle ψ about û from n̂ to the bend,
 * ψ = atan2(ŝ·(û × n̂), ŝ·n̂), ŝ the shin. With x = ŝ·N and y = ŝ·(û × N),
 * N = ĥ × û, the point (x, y) is the shin's bend seen along the thigh, and the
 * limit keeps it within a wedge about the fold direction, as the shoulders'
 * (`twistLimits.ts`):
 *   W = { |y| ≤ t·x + f },   t = tan(range),   f = sin(free)·|N|.
 * With the knee bent by β that is sin β·(sin|ψ| − tan(range)·cos ψ) ≤ sin(free)
 * (times |N|): a knee bent 90° stops twisting at the root of
 * sin ψ − tan(range)·cos ψ = sin(free) (`twistStop` in `ragdollSkeleton.ts`), and
 * a nearly straight knee, whose bend plane means little, may bend `free` sideways.
 *
 * C is the signed distance of (x, y) to W: (t·x + f − |y|)·cos(range) inside and
 * beyond the wedge's edges, and minus the distance to its apex (−f/t, 0) behind
 * it, where the knee is bent the wrong way. It is continuous everywhere, with
 * no gate and no fade:
 * - as the knee straightens, (x, y) → 0 and C → f·cos(range) > 0;
 * - as the thigh turns onto the hip line N vanishes, x, y and f with it, so C → 0
 *   (the knee hinge's C₁ is weighted by the same |N|);
 * - a knee bent the wrong way is pushed toward straight, as its hinge pushes it.
 * The first version read −|y| there too, and waited (skipped the row) while the
 * knee was bent the wrong way past its hinge's tolerance, as the shoulders' limit
 * waits for the elbow: a knee leaving that region sideways met the limit already
 * violated by up to |y|, and its projection, left as velocity, made a ragdoll
 * tumbling with its legs loose gain 18% of its internal energy in 60 s
 * (test/core/energy.test.ts). Read as −|y| behind the apex, the limit would turn a
 * knee bent the wrong way and twisted past 125° on toward 180° (straight the
 * wrong way), against the hinge; the distance to the apex straightens it.
 *
 * Why not the knee hinge's lean limit, |(ŝ − û)·ĥ| ≤ sin(sideways)? It bounds the
 * twist too, but the lean is reduced as well by turning the thigh toward the
 * shin, and half its correction did that: a thigh twisted to 80° spread outward
 * and stayed twisted. C's gradient with respect to the thigh vanishes with the
 * knee bent 90° and the thigh square to the hip line (there ŝ·(û × N) =
 * ŝ·ĥ − (û·ĥ)(ŝ·û), ŝ·N = û·(ŝ × ĥ) and |N| are stationary in û), so the
 * projection turns the shin about the thigh, back toward n̂, and the hip line
 * (the pelvis) the other way.
 *
 * C depends on relative positions only, so its projection along its full
 * gradient over the leg and both hips (`gradientProjection.ts`) keeps momentum
 * and angular momentum. Skips the body while it sleeps; allocates nothing.
 */
export class HipTwistLimits implements Constraint {
  private readonly body: BodyRecord;
  private readonly rows: readonly HipTwistRow[];
  private readonly stiffness: number;
  /** Per row, its four distinct particles: knee, foot, left hip, right hip. */
  private readonly ids: Int32Array;
  /** tan(range), cos(range) and sin(free) per row. */
  private readonly tangent: Float64Array;
  private readonly cosine: Float64Array;
  private readonly free: Float64Array;
  private readonly gradient = new Float64Array(12);
  /** The value out, then scratch. */
  private readonly io = new Float64Array(12);
  private readonly evaluate: LimitFunction = (pos, row, io) => this.value(pos, row, io);

  constructor(body: BodyRecord, rows: readonly HipTwistRow[], stiffness: number) {
    this.body = body;
    this.rows = rows;
    this.stiffness = stiffness;
    this.tangent = Float64Array.from(rows, (r) => Math.tan(r.range));
    this.cosine = Float64Array.from(rows, (r) => Math.cos(r.range));
    this.free = Float64Array.from(rows, (r) => Math.sin(r.free));
    this.ids = new Int32Array(rows.length * 4);
    rows.forEach((r, i) => {
      const p = r.particles;
      this.ids.set([p.knee, p.foot, p.leftHip, p.rightHip], i * 4);
    });
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
    return projectLimit(world.particles.position, world.particles.inverseMass, this.ids, i * 4, 4, i, this.evaluate, this.stiffness, MAX_CORRECTION, this.gradient, this.io);
  }

  /** C of limit `row` at `pos` into `io[0]` (see the class); `io[2..]` is scratch. */
  value(pos: Float64Array, row: number, io: Float64Array): void {
    legFold(pos, this.rows[row]!.particles, io, 2);
    // û at 2, N at 5, ŝ at 8, |N| at 11.
    const x = io[8]! * io[5]! + io[9]! * io[6]! + io[10]! * io[7]!;
    // ŝ·(û × N)
    const y = io[8]! * (io[3]! * io[7]! - io[4]! * io[6]!) + io[9]! * (io[4]! * io[5]! - io[2]! * io[7]!) + io[10]! * (io[2]! * io[6]! - io[3]! * io[5]!);
    const t = this.tangent[row]!;
    const f = this.free[row]! * io[11]!;
    const side = Math.abs(y);
    // Behind the apex (−f/t, 0) the nearest point of the wedge is the apex.
    const back = x + f / t;
    io[0] = back + t * side < 0 ? -Math.sqrt(back * back + side * side) : (t * x + f - side) * this.cosine[row]!;
  }
}
