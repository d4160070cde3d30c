import { checkNumber } from '../math.js';
import { ParticleFlag } from '../particles.js';
import type { Registry } from '../registry.js';
import type { World } from '../world.js';
import type { Constraint } from './constraint.js';
import { ConstraintTable, widen } from './table.js';

/** What {@link addAngleConstraint} takes; angles in radians. */
export interface AngleOptions {
  /** Smallest angle allowed at the middle particle, in [0, π]. Default 0. */
  min?: number;
  /** Largest angle allowed at the middle particle, in [0, π]. Default π (straight). */
  max?: number;
  /** Share of the error repaired per relaxation pass, in (0, 1]. Default 1. */
  stiffness?: number;
  /**
   * Makes the joint a one-way hinge, like a knee: the bend from the direction
   * a → middle to the direction middle → b must turn positively (right-hand rule)
   * about the axis from particle `axis[0]` to particle `axis[1]`, or negatively by
   * at most `tolerance` radians (default 0): the paper's dot-product constraint,
   * b stays on one side of the plane through the middle particle spanned by the
   * axis and a → middle. `sideways` (radians, default π/2: no limit) bounds how
   * far b's limb leans out of the hinge plane relative to a's limb, measured along
   * the axis, e.g. the few tens of degrees a knee's axis turns with the thigh's twist.
   */
  hinge?: { axis: readonly [number, number]; tolerance?: number; sideways?: number };
}

/** Rows whose arms are shorter than this (m) are skipped: their angle is undefined. */
const DEGENERATE = 1e-9;

/**
 * Largest correction per projection, in radians (0.03 rad at 10 substeps of 1/60 s
 * undoes 18 rad/s, faster than limbs swing into their limits).
 */
const MAX_CORRECTION = 0.03;

/**
 * Angle constraints between three particles (paper section 6: the angular limits
 * a human body needs), one row each. A violated row moves the three particles
 * along the gradient of the angle θ at the middle one, weighted by inverse mass:
 * Δxᵢ = -s·wᵢ·∇ᵢθ·(θ - limit) / Σ wⱼ|∇ⱼθ|², the course notes' mass-weighted
 * projection, repairing at most 0.03 rad per pass so that limbs tangled by a hard
 * hit come apart over a few substeps instead of being kicked apart. The gradients
 * sum to zero and θ does not change under rotation, so a correction changes
 * neither momentum nor angular momentum. Rows with a `hinge` also keep to one side
 * of the hinge plane (see {@link AngleOptions.hinge}).
 */
export class AngleTable extends ConstraintTable implements Constraint {
  /** Rows held, for `world.constraintCount`. */
  get constraintCount(): number {
    return this.count;
  }
  /** Particle id at the end of the first arm, per row. */
  a: Int32Array;
  /** Particle id at the vertex of the angle, per row. */
  middle: Int32Array;
  /** Particle id at the end of the second arm, per row. */
  b: Int32Array;
  /** Smallest angle allowed (radians), per row. */
  min: Float64Array;
  /** Largest angle allowed (radians), per row. */
  max: Float64Array;
  /** cos(min), per row: a row within its limits is recognised without an arccos. */
  cosMin: Float64Array;
  /** cos(max), per row. */
  cosMax: Float64Array;
  /** Share of a violation repaired per pass, in (0, 1], per row. */
  stiffness: Float64Array;
  /** Particle id at the start of the hinge axis, -1 when the row has no hinge. */
  axisFrom: Int32Array;
  /** Particle id at the end of the hinge axis, -1 when the row has no hinge. */
  axisTo: Int32Array;
  /** sin(tolerance) of the hinge. */
  hingeSlack: Float64Array;
  /** sin(sideways) of the hinge; -1 for no sideways limit. */
  hingeLean: Float64Array;
  /** Row of each public id. */
  readonly rows = new Map<number, number>();
  /** Scratch of the hinge projection (unit vectors, lengths, gradients per particle). */
  private readonly gradient = new Float64Array(45);
  /** Scratch: the particles of a hinge, a, middle, b, axis from, axis to. */
  private readonly roles = new Int32Array(5);

  /** @param registry the world's, which issues the table's ids. */
  constructor(
    private readonly registry: Registry,
    capacity = 16,
  ) {
    super(capacity);
    this.a = new Int32Array(capacity);
    this.middle = new Int32Array(capacity);
    this.b = new Int32Array(capacity);
    this.min = new Float64Array(capacity);
    this.max = new Float64Array(capacity);
    this.cosMin = new Float64Array(capacity);
    this.cosMax = new Float64Array(capacity);
    this.stiffness = new Float64Array(capacity);
    this.axisFrom = new Int32Array(capacity);
    this.axisTo = new Int32Array(capacity);
    this.hingeSlack = new Float64Array(capacity);
    this.hingeLean = new Float64Array(capacity);
  }

  /** Appends a row and returns its public id, issued by the world's registry. */
  add(a: number, middle: number, b: number): number {
    const id = this.registry.issue(this);
    const row = this.addRow(id);
    this.a[row] = a;
    this.middle[row] = middle;
    this.b[row] = b;
    this.axisFrom[row] = -1;
    this.axisTo[row] = -1;
    this.rows.set(id, row);
    return id;
  }

  /** Removes the row of public id `id` (the world's `removeConstraint` passes its ids on to here). */
  remove(id: number): void {
    const row = this.rows.get(id)!;
    this.rows.delete(id);
    this.registry.release(id);
    const moved = this.removeRow(row);
    if (moved >= 0) this.rows.set(moved, row);
  }

  /** One pass over every row. Allocates nothing. */
  project(world: World): void {
    const particles = world.particles;
    const pos = particles.position;
    const w = particles.inverseMass;
    const flags = particles.flags;
    for (let row = 0; row < this.count; row++) {
      const ia = this.a[row]!;
      const im = this.middle[row]!;
      const ib = this.b[row]!;
      // A removed particle leaves its slot zeroed: skip rather than pull on it; a
      // sleeping one must not move (colliders skip it, so nothing would put it back).
      if ((flags[ia]! & flags[im]! & flags[ib]! & ParticleFlag.Alive) === 0 || ((flags[ia]! | flags[im]! | flags[ib]!) & ParticleFlag.Asleep) !== 0) continue;
      const wa = w[ia]!;
      const wm = w[im]!;
      const wb = w[ib]!;
      if (wa + wm + wb === 0) continue;
      const pa = ia * 3;
      const pm = im * 3;
      const pb = ib * 3;
      const ux = pos[pa]! - pos[pm]!;
      const uy = pos[pa + 1]! - pos[pm + 1]!;
      const uz = pos[pa + 2]! - pos[pm + 2]!;
      const vx = pos[pb]! - pos[pm]!;
      const vy = pos[pb + 1]! - pos[pm + 1]!;
      const vz = pos[pb + 2]! - pos[pm + 2]!;
      const lu = Math.sqrt(ux * ux + uy * uy + uz * uz);
      const lv = Math.sqrt(vx * vx + vy * vy + vz * vz);
      if (lu < DEGENERATE || lv < DEGENERATE) continue;
      let cos = (ux * vx + uy * vy + uz * vz) / (lu * lv);
      cos = cos > 1 ? 1 : cos < -1 ? -1 : cos;
      // θ < min ⇔ cos θ > cos(min); θ > max ⇔ cos θ < cos(max).
      const limit = cos > this.cosMin[row]! ? this.min[row]! : cos < this.cosMax[row]! ? this.max[row]! : -1;
      const sin = Math.sqrt(1 - cos * cos);
      // At θ = 0 or π the direction to open or close the angle is undefined; the next substep's motion breaks the tie.
      if (limit >= 0 && sin > 1e-9) {
        let error = Math.acos(cos) - limit;
        // A deep violation (limbs tangled by a hard hit) is undone over several
        // passes, not at once: a large jump in position would become a large velocity.
        error = error > MAX_CORRECTION ? MAX_CORRECTION : error < -MAX_CORRECTION ? -MAX_CORRECTION : error;
        // ∇ₐθ = -(v̂ - cos θ·û) / (sin θ·|u|), ∇_bθ = -(û - cos θ·v̂) / (sin θ·|v|), ∇ₘθ = -∇ₐθ - ∇_bθ.
        const ka = -1 / (sin * lu);
        const kb = -1 / (sin * lv);
        const gax = ka * (vx / lv - (cos * ux) / lu);
        const gay = ka * (vy / lv - (cos * uy) / lu);
        const gaz = ka * (vz / lv - (cos * uz) / lu);
        const gbx = kb * (ux / lu - (cos * vx) / lv);
        const gby = kb * (uy / lu - (cos * vy) / lv);
        const gbz = kb * (uz / lu - (cos * vz) / lv);
        const gmx = -gax - gbx;
        const gmy = -gay - gby;
        const gmz = -gaz - gbz;
        const denominator = wa / (lu * lu) + wb / (lv * lv) + wm * (gmx * gmx + gmy * gmy + gmz * gmz);
        const lambda = (-this.stiffness[row]! * error) / denominator;
        const sa = lambda * wa;
        const sb = lambda * wb;
        const sm = lambda * wm;
        pos[pa] = pos[pa]! + sa * gax;
        pos[pa + 1] = pos[pa + 1]! + sa * gay;
        pos[pa + 2] = pos[pa + 2]! + sa * gaz;
        pos[pb] = pos[pb]! + sb * gbx;
        pos[pb + 1] = pos[pb + 1]! + sb * gby;
        pos[pb + 2] = pos[pb + 2]! + sb * gbz;
        pos[pm] = pos[pm]! + sm * gmx;
        pos[pm + 1] = pos[pm + 1]! + sm * gmy;
        pos[pm + 2] = pos[pm + 2]! + sm * gmz;
      }
      if (this.axisFrom[row]! >= 0) this.projectHinge(world, row);
    }
  }

  /**
   * The hinge. With û = unit(middle − a), ĥ = unit(axis), n̂ = unit(ĥ × û) (the way
   * the joint may bend), sin = |ĥ × û| and ŝ = unit(b − middle), two inequalities:
   *   C₁ = sin·(ŝ·n̂ + sin(tolerance)) ≥ 0    (bends one way)
   *   C₂ = sin(sideways) − |(ŝ − û)·ĥ| ≥ 0   (leans out of the hinge plane at most so far)
   * Each is projected along its full gradient over all five particles involved
   * (a, middle, b and the two axis particles), mass-weighted. Both functions are
   * unchanged by rotations and translations, so the projection keeps momentum and
   * angular momentum and, unlike a push along a fixed normal, cannot pump energy
   * into a tumbling body.
   *
   * C₁ is weighted by sin so that it stays continuous where the limb lines up with
   * the axis: there n̂ turns over, and ŝ·n̂ alone jumped from allowed to deeply
   * violated as a thigh swept past the hip axis. With a fade standing in for the
   * weight, the limb crossed that region unresisted, and the hinge then pushed the
   * violation back out over many substeps, each push left as velocity: a tumbling
   * ragdoll gained energy (test/core/energy.test.ts: up to 12.5% of the tumble's;
   * in one tumble a knee added 40% within four steps). Weighted, C₁ → 0 at the axis,
   * so a violation only grows by motion against the constraint, whose projection
   * takes speed out; its gradient stays bounded, so it cannot kick either.
   */
  private projectHinge(world: World, row: number): void {
    const g = this.gradient;
    const pos = world.particles.position;
    this.loadHinge(pos, row);
    // g[0..2] û, [3..5] ĥ, [6..8] n̂, [9..11] ŝ; lengths in g[12] |u|, g[13] |h|, g[14] |s|, g[15] |ĥ × û|.
    const sin = g[15]!;
    if (sin < 1e-6) return; // the axis along the limb leaves no side to keep to
    // As the limb turns toward the axis, the lean limit stops making sense (the axis
    // no longer measures a lean): fade it out below 45°.
    const fade = sin > Math.SQRT1_2 ? 1 : 2 * sin * sin;
    const sn = g[9]! * g[6]! + g[10]! * g[7]! + g[11]! * g[8]!;
    const slack = this.hingeSlack[row]!;
    const c1 = sin * (sn + slack);
    if (c1 < 0) {
      // With m = ĥ × û (|m| = sin) and a = ∂C₁/∂m = ŝ + slack·n̂:
      // ∂C₁/∂s = (m − (m·ŝ)ŝ)/|s|, ∂C₁/∂u = P_û(a × ĥ)/|u|, ∂C₁/∂h = P_ĥ(û × a)/|h|,
      // P_x removing the component along x.
      const is = 1 / g[14]!;
      for (let k = 0; k < 3; k++) {
        g[16 + k] = (g[6 + k]! - sn * g[9 + k]!) * sin * is;
        g[19 + k] = g[9 + k]! + slack * g[6 + k]!;
      }
      this.crossGradients();
      g[43] = c1;
      g[44] = 1;
      this.applyHinge(world, row);
      this.loadHinge(pos, row);
    }
    const lean = this.hingeLean[row]!;
    if (lean < 0) return;
    // d = (ŝ − û)·ĥ: how far the lower limb leans along the axis, relative to the upper one.
    const sh = g[9]! * g[3]! + g[10]! * g[4]! + g[11]! * g[5]!;
    const uh = g[0]! * g[3]! + g[1]! * g[4]! + g[2]! * g[5]!;
    const d = sh - uh;
    const c2 = lean - Math.abs(d);
    if (c2 >= 0) return;
    const sign = d > 0 ? -1 : 1;
    const is = sign / g[14]!;
    const iu = sign / g[12]!;
    const ih = sign / g[13]!;
    for (let k = 0; k < 3; k++) {
      g[16 + k] = (g[3 + k]! - sh * g[9 + k]!) * is; // ∂/∂s
      g[22 + k] = -(g[3 + k]! - uh * g[k]!) * iu; // ∂/∂u
      g[25 + k] = (g[9 + k]! - g[k]! - d * g[3 + k]!) * ih; // ∂/∂h
    }
    g[43] = c2;
    g[44] = fade;
    this.applyHinge(world, row);
  }

  /** Fills `gradient[0..15]` with û, ĥ, n̂, ŝ, |u|, |h|, |s| and |ĥ × û| for row `row`. */
  private loadHinge(pos: Float64Array, row: number): void {
    const g = this.gradient;
    const pa = this.a[row]! * 3;
    const pm = this.middle[row]! * 3;
    const pb = this.b[row]! * 3;
    const pf = this.axisFrom[row]! * 3;
    const pt = this.axisTo[row]! * 3;
    for (let k = 0; k < 3; k++) {
      g[k] = pos[pm + k]! - pos[pa + k]!;
      g[3 + k] = pos[pt + k]! - pos[pf + k]!;
      g[9 + k] = pos[pb + k]! - pos[pm + k]!;
    }
    const lu = Math.sqrt(g[0]! * g[0]! + g[1]! * g[1]! + g[2]! * g[2]!) || 1;
    const lh = Math.sqrt(g[3]! * g[3]! + g[4]! * g[4]! + g[5]! * g[5]!) || 1;
    const ls = Math.sqrt(g[9]! * g[9]! + g[10]! * g[10]! + g[11]! * g[11]!) || 1;
    for (let k = 0; k < 3; k++) {
      g[k] = g[k]! / lu;
      g[3 + k] = g[3 + k]! / lh;
      g[9 + k] = g[9 + k]! / ls;
    }
    g[6] = g[4]! * g[2]! - g[5]! * g[1]!;
    g[7] = g[5]! * g[0]! - g[3]! * g[2]!;
    g[8] = g[3]! * g[1]! - g[4]! * g[0]!;
    const ln = Math.sqrt(g[6]! * g[6]! + g[7]! * g[7]! + g[8]! * g[8]!);
    const inverse = ln > 0 ? 1 / ln : 0;
    g[6] = g[6]! * inverse;
    g[7] = g[7]! * inverse;
    g[8] = g[8]! * inverse;
    g[12] = lu;
    g[13] = lh;
    g[14] = ls;
    g[15] = ln;
  }

  /**
   * From a = ∂C/∂m in gradient[19..21], m = ĥ × û: ∂C/∂u = P_û(a × ĥ)/|u| into
   * [22..24] and ∂C/∂h = P_ĥ(û × a)/|h| into [25..27], P_x removing the part along x.
   */
  private crossGradients(): void {
    const g = this.gradient;
    const ax = g[19]!;
    const ay = g[20]!;
    const az = g[21]!;
    const ux = g[0]!;
    const uy = g[1]!;
    const uz = g[2]!;
    const hx = g[3]!;
    const hy = g[4]!;
    const hz = g[5]!;
    const px = ay * hz - az * hy;
    const py = az * hx - ax * hz;
    const pz = ax * hy - ay * hx;
    const pu = px * ux + py * uy + pz * uz;
    const qx = uy * az - uz * ay;
    const qy = uz * ax - ux * az;
    const qz = ux * ay - uy * ax;
    const qh = qx * hx + qy * hy + qz * hz;
    const iu = 1 / g[12]!;
    const ih = 1 / g[13]!;
    g[22] = (px - pu * ux) * iu;
    g[23] = (py - pu * uy) * iu;
    g[24] = (pz - pu * uz) * iu;
    g[25] = (qx - qh * hx) * ih;
    g[26] = (qy - qh * hy) * ih;
    g[27] = (qz - qh * hz) * ih;
  }

  /**
   * Projects a violated hinge inequality of value c = gradient[43] < 0, faded by
   * gradient[44] (passed in the array: a double argument to a call V8 does not
   * inline is boxed, an allocation per pass), whose gradients with
   * respect to s, u and h are in gradient[16..18], [22..24] and [25..27]. Per
   * particle (s = b − middle, u = middle − a, h = to − from): b gets ∂/∂s, middle
   * ∂/∂u − ∂/∂s, a −∂/∂u, to ∂/∂h, from −∂/∂h, summed where one particle plays two
   * parts (a hip is the middle of a hip limit and an end of its axis).
   */
  private applyHinge(world: World, row: number): void {
    const g = this.gradient;
    const c = g[43]!;
    const fade = g[44]!;
    const ids = this.roles;
    const w = world.particles.inverseMass;
    ids[0] = this.a[row]!;
    ids[1] = this.middle[row]!;
    ids[2] = this.b[row]!;
    ids[3] = this.axisFrom[row]!;
    ids[4] = this.axisTo[row]!;
    for (let k = 0; k < 3; k++) {
      g[28 + k] = -g[22 + k]!; // a
      g[31 + k] = g[22 + k]! - g[16 + k]!; // middle
      g[34 + k] = g[16 + k]!; // b
      g[37 + k] = -g[25 + k]!; // from
      g[40 + k] = g[25 + k]!; // to
    }
    // Merge roles played by one particle into its first role.
    for (let r = 1; r < 5; r++) {
      for (let q = 0; q < r; q++) {
        if (ids[q] !== ids[r]) continue;
        for (let k = 0; k < 3; k++) {
          g[28 + q * 3 + k] = g[28 + q * 3 + k]! + g[28 + r * 3 + k]!;
          g[28 + r * 3 + k] = 0;
        }
        break;
      }
    }
    let denominator = 0;
    for (let r = 0; r < 5; r++) {
      const o = 28 + r * 3;
      denominator += w[ids[r]!]! * (g[o]! * g[o]! + g[o + 1]! * g[o + 1]! + g[o + 2]! * g[o + 2]!);
    }
    if (denominator === 0) return;
    const depth = c < -MAX_CORRECTION ? -MAX_CORRECTION : c;
    const lambda = (-depth * fade * this.stiffness[row]!) / denominator;
    const pos = world.particles.position;
    for (let r = 0; r < 5; r++) {
      const o = 28 + r * 3;
      const p = ids[r]! * 3;
      const s = lambda * w[ids[r]!]!;
      pos[p] = pos[p]! + s * g[o]!;
      pos[p + 1] = pos[p + 1]! + s * g[o + 1]!;
      pos[p + 2] = pos[p + 2]! + s * g[o + 2]!;
    }
  }

  protected growColumns(capacity: number): void {
    this.a = widen(this.a, capacity);
    this.middle = widen(this.middle, capacity);
    this.b = widen(this.b, capacity);
    this.min = widen(this.min, capacity);
    this.max = widen(this.max, capacity);
    this.cosMin = widen(this.cosMin, capacity);
    this.cosMax = widen(this.cosMax, capacity);
    this.stiffness = widen(this.stiffness, capacity);
    this.axisFrom = widen(this.axisFrom, capacity);
    this.axisTo = widen(this.axisTo, capacity);
    this.hingeSlack = widen(this.hingeSlack, capacity);
    this.hingeLean = widen(this.hingeLean, capacity);
  }

  protected copyRow(from: number, to: number): void {
    this.a[to] = this.a[from]!;
    this.middle[to] = this.middle[from]!;
    this.b[to] = this.b[from]!;
    this.min[to] = this.min[from]!;
    this.max[to] = this.max[from]!;
    this.cosMin[to] = this.cosMin[from]!;
    this.cosMax[to] = this.cosMax[from]!;
    this.stiffness[to] = this.stiffness[from]!;
    this.axisFrom[to] = this.axisFrom[from]!;
    this.axisTo[to] = this.axisTo[from]!;
    this.hingeSlack[to] = this.hingeSlack[from]!;
    this.hingeLean[to] = this.hingeLean[from]!;
  }
}

const tables = new WeakMap<World, AngleTable>();

/** The world's angle table (created and registered as a constraint on first use). */
export function angleTable(world: World): AngleTable {
  let table = tables.get(world);
  if (!table) {
    table = new AngleTable(world.registry);
    world.addConstraint(table);
    tables.set(world, table);
  }
  return table;
}

/**
 * Keeps the angle at `middle` between the arms to `a` and `b` within
 * [min, max] (radians); returns an id for {@link removeAngleConstraint} or
 * `world.removeConstraint` (the world's registry issues it, so it names no
 * stick or pin). Removing a particle does not remove its angle
 * constraints; remove them first (bodies do it in `record.onRemove`).
 *
 * @example
 * ```ts
 * // an elbow that bends to 30° at most and never past straight
 * addAngleConstraint(world, shoulder, elbow, hand, { min: Math.PI / 6, max: Math.PI });
 * ```
 */
export function addAngleConstraint(world: World, a: number, middle: number, b: number, options: AngleOptions = {}): number {
  world.checkParticle(a, 'addAngleConstraint: a');
  world.checkParticle(middle, 'addAngleConstraint: middle');
  world.checkParticle(b, 'addAngleConstraint: b');
  if (a === middle || b === middle || a === b) throw new RangeError(`addAngleConstraint: a, middle and b must be three different particles, got ${a}, ${middle}, ${b}`);
  const checked = checkOptions(world, options, { min: 0, max: Math.PI, stiffness: 1 }, 'addAngleConstraint');
  const table = angleTable(world);
  const id = table.add(a, middle, b);
  write(table, table.rows.get(id)!, checked);
  return id;
}

/** Changes an angle constraint's limits, stiffness or hinge in place (unset options keep their values). */
export function setAngleConstraint(world: World, id: number, options: AngleOptions): void {
  const table = tables.get(world);
  const row = table?.rows.get(id);
  if (table === undefined || row === undefined) throw new RangeError(`setAngleConstraint: no angle constraint with id ${id}`);
  const current = { min: table.min[row]!, max: table.max[row]!, stiffness: table.stiffness[row]! };
  write(table, row, checkOptions(world, options, current, 'setAngleConstraint'));
}

/** Removes an angle constraint. */
export function removeAngleConstraint(world: World, id: number): void {
  const table = tables.get(world);
  if (table === undefined || !table.rows.has(id)) throw new RangeError(`removeAngleConstraint: no angle constraint with id ${id}`);
  table.remove(id);
}

/** The angle (radians, in [0, π]) at particle `middle` between the arms to `a` and `b`. */
export function angleAt(world: World, a: number, middle: number, b: number): number {
  const p = world.particles.position;
  let dot = 0;
  let lu = 0;
  let lv = 0;
  for (let k = 0; k < 3; k++) {
    const u = p[a * 3 + k]! - p[middle * 3 + k]!;
    const v = p[b * 3 + k]! - p[middle * 3 + k]!;
    dot += u * v;
    lu += u * u;
    lv += v * v;
  }
  return Math.acos(Math.max(-1, Math.min(1, dot / Math.sqrt(lu * lv))));
}

interface CheckedAngle {
  min: number;
  max: number;
  stiffness: number;
  hinge?: { from: number; to: number; slack: number; lean: number };
}

function checkOptions(world: World, o: AngleOptions, defaults: { min: number; max: number; stiffness: number }, what: string): CheckedAngle {
  if (o === null || typeof o !== 'object') throw new TypeError(`${what}: options must be an object, got ${String(o)}`);
  const min = checkNumber(o.min ?? defaults.min, `${what}: min`, 0, Math.PI);
  const max = checkNumber(o.max ?? defaults.max, `${what}: max`, 0, Math.PI);
  if (min > max) throw new RangeError(`${what}: min must not exceed max, got min ${min} and max ${max}`);
  const stiffness = checkNumber(o.stiffness ?? defaults.stiffness, `${what}: stiffness`, 0, 1);
  if (stiffness === 0) throw new RangeError(`${what}: stiffness must be in (0, 1], got 0`);
  if (o.hinge === undefined) return { min, max, stiffness };
  const axis = o.hinge?.axis;
  if (!Array.isArray(axis) || axis.length !== 2) throw new TypeError(`${what}: hinge.axis must be two particle ids, got ${String(axis)}`);
  world.checkParticle(axis[0], `${what}: hinge.axis[0]`);
  world.checkParticle(axis[1], `${what}: hinge.axis[1]`);
  if (axis[0] === axis[1]) throw new RangeError(`${what}: hinge.axis must be two different particles, both are ${axis[0]}`);
  const tolerance = checkNumber(o.hinge.tolerance ?? 0, `${what}: hinge.tolerance`, 0, Math.PI / 2);
  const sideways = checkNumber(o.hinge.sideways ?? Math.PI / 2, `${what}: hinge.sideways`, 0, Math.PI / 2);
  return { min, max, stiffness, hinge: { from: axis[0], to: axis[1], slack: Math.sin(tolerance), lean: sideways >= Math.PI / 2 ? -1 : Math.sin(sideways) } };
}

function write(table: AngleTable, row: number, o: CheckedAngle): void {
  table.min[row] = o.min;
  table.max[row] = o.max;
  table.cosMin[row] = Math.cos(o.min);
  table.cosMax[row] = Math.cos(o.max);
  table.stiffness[row] = o.stiffness;
  if (o.hinge) {
    table.axisFrom[row] = o.hinge.from;
    table.axisTo[row] = o.hinge.to;
    table.hingeSlack[row] = o.hinge.slack;
    table.hingeLean[row] = o.hinge.lean;
  }
}
