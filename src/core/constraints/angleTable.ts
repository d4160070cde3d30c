import { ParticleFlag } from '../particles.js';
import type { Registry } from '../registry.js';
import type { World } from '../world.js';
import type { WorldFeature } from '../features.js';
import type { Constraint } from './constraint.js';
import { HingeProjection } from './hinge.js';
import { ConstraintTable, widen } from './table.js';

/** Rows whose arms are shorter than this (m) are skipped: their angle is undefined. */
const DEGENERATE = 1e-9;

/**
 * Angle constraints between three particles (paper section 6: the angular limits
 * a human body needs), one row each. A violated row moves the three particles
 * along the gradient of the angle θ at the middle one, weighted by inverse mass:
 * Δxᵢ = -s·wᵢ·∇ᵢθ·(θ - limit) / Σ wⱼ|∇ⱼθ|², the course notes' mass-weighted
 * projection, the whole violation at once. (It was capped at 0.03 rad per pass, so
 * that limbs tangled by a hard hit would come apart over several substeps; a fall
 * on the side then bent a hip 10° past its limit, and uncapped no drop in the
 * tests exceeds a limit by more than 0.6° nor gains energy. The hinges keep
 * their cap: see `hinge.ts`.) The gradients
 * sum to zero and θ does not change under rotation, so a correction changes
 * neither momentum nor angular momentum. Rows with a `hinge` also keep to one side
 * of the hinge plane (see {@link AngleOptions.hinge}).
 */
export class AngleTable extends ConstraintTable implements Constraint, WorldFeature {
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
  /** Share of a violation repaired per pass, in (0, 1], per row (its softness depends on the solver settings; a {@link compliance}'s does not). */
  stiffness: Float64Array;
  /** Compliance of the limit in rad/(N·m), per row (0: hard); XPBD, as the sticks (constraints/sticks.ts). */
  compliance: Float64Array;
  /** Each row's accumulated XPBD multiplier of the current substep (scratch, zeroed when a substep begins). */
  lambda: Float64Array;
  /**
   * Σ|Δλ| of each row over the current substep (scratch, zeroed with {@link lambda}):
   * how hard the limit pushed, in kg·m²·rad. A particle at distance r from the
   * middle was pushed m·|Δx| = Σ|Δλ|/r along the limit's normal, what the limit's
   * friction (`bodies/limitFriction.ts`) is proportional to.
   */
  pushed: Float64Array;
  /** The stick table's `substepSerial` when {@link lambda} was last zeroed. */
  private substepSeen = -1;
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
  /**
   * Projects the rows that have a hinge. It gets the cap here rather than
   * importing it: under vitest's module runner an imported number is read through
   * a getter, and reading one in this loop allocated (test/core/rigid-heap.test.ts).
   */
  private readonly hinge = new HingeProjection();

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
    this.compliance = new Float64Array(capacity);
    this.lambda = new Float64Array(capacity);
    this.pushed = new Float64Array(capacity);
    this.axisFrom = new Int32Array(capacity);
    this.axisTo = new Int32Array(capacity);
    this.hingeSlack = new Float64Array(capacity);
    this.hingeLean = new Float64Array(capacity);
  }

  /** Appends a row and returns its public id, issued by the world's registry. */
  add(a: number, middle: number, b: number): number {
    const id = this.registry.issue(this);
    const row = this.addRow(id);
    this.version++;
    this.a[row] = a;
    this.middle[row] = middle;
    this.b[row] = b;
    this.axisFrom[row] = -1;
    this.axisTo[row] = -1;
    this.compliance[row] = 0;
    this.lambda[row] = 0;
    this.pushed[row] = 0;
    this.rows.set(id, row);
    return id;
  }

  /** Removes the row of public id `id` (the world's `removeConstraint` passes its ids on to here). */
  remove(id: number): void {
    const row = this.rows.get(id)!;
    this.rows.delete(id);
    this.registry.release(id);
    const moved = this.removeRow(row);
    this.version++;
    if (moved >= 0) this.rows.set(moved, row);
  }

  /** Removes every row with an arm, its middle or its hinge axis at a particle in `[first, end)`: a removed particle's limit must not act on the slot's next owner. */
  particlesRemoved(_world: World, first: number, end: number): void {
    const inside = (id: number) => id >= first && id < end;
    // Backwards: a removed row is filled from the end, which was already looked at.
    for (let row = this.count - 1; row >= 0; row--) {
      if (inside(this.a[row]!) || inside(this.middle[row]!) || inside(this.b[row]!) || inside(this.axisFrom[row]!) || inside(this.axisTo[row]!)) this.remove(this.ids[row]!);
    }
  }

  /** One pass over every row. Allocates nothing. */
  project(world: World): void {
    this.startSubstep(world);
    for (let row = 0; row < this.count; row++) this.projectRow(world, row, true);
  }

  /**
   * One pass over `rows[0..count)` only (a body's own limits, for its extra
   * passes: see `OwnPasses`). Allocates nothing.
   */
  projectRows(world: World, rows: Int32Array, count: number, hinges: boolean): void {
    this.startSubstep(world);
    for (let i = 0; i < count; i++) this.projectRow(world, rows[i]!, hinges);
  }

  /** Incremented whenever a row is added or removed (rows move on removal). */
  version = 0;

  /** Zeroes the XPBD multipliers when a new substep has begun. */
  private startSubstep(world: World): void {
    const sticks = world.sticks;
    if (this.substepSeen !== sticks.substepSerial) {
      this.substepSeen = sticks.substepSerial;
      this.lambda.fill(0, 0, this.count);
      this.pushed.fill(0, 0, this.count);
    }
  }

  private projectRow(world: World, row: number, hinges: boolean): void {
    const particles = world.particles;
    const pos = particles.position;
    const w = particles.inverseMass;
    const flags = particles.flags;
    const invH2 = world.sticks.invH2;
    const ia = this.a[row]!;
    const im = this.middle[row]!;
    const ib = this.b[row]!;
    // A removed particle leaves its slot zeroed: skip rather than pull on it; a
    // sleeping one must not move (colliders skip it, so nothing would put it back).
    if ((flags[ia]! & flags[im]! & flags[ib]! & ParticleFlag.Alive) === 0 || ((flags[ia]! | flags[im]! | flags[ib]!) & ParticleFlag.Asleep) !== 0) return;
    const wa = w[ia]!;
    const wm = w[im]!;
    const wb = w[ib]!;
    if (wa + wm + wb === 0) return;
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
    if (lu < DEGENERATE || lv < DEGENERATE) return;
    let cos = (ux * vx + uy * vy + uz * vz) / (lu * lv);
    cos = cos > 1 ? 1 : cos < -1 ? -1 : cos;
    // θ < min ⇔ cos θ > cos(min); θ > max ⇔ cos θ < cos(max).
    const limit = cos > this.cosMin[row]! ? this.min[row]! : cos < this.cosMax[row]! ? this.max[row]! : -1;
    const sin = Math.sqrt(1 - cos * cos);
    // At θ = 0 or π the direction to open or close the angle is undefined; the next substep's motion breaks the tie.
    if (limit >= 0 && sin > 1e-9) {
      const error = Math.acos(cos) - limit;
      const alpha = this.compliance[row]!;
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
      let lambda: number;
      if (alpha === 0) lambda = (-this.stiffness[row]! * error) / denominator;
      else {
        // XPBD: a torsion spring of 1/α past the limit, the same at any substeps (see solveCompliantSticks).
        const at = alpha * invH2;
        lambda = (-this.stiffness[row]! * error - at * this.lambda[row]!) / (denominator + at);
        this.lambda[row] = this.lambda[row]! + lambda;
      }
      this.pushed[row] = this.pushed[row]! + (lambda < 0 ? -lambda : lambda);
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
    if (hinges && this.axisFrom[row]! >= 0) this.hinge.project(this, world, row);
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
    this.compliance = widen(this.compliance, capacity);
    this.lambda = widen(this.lambda, capacity);
    this.pushed = widen(this.pushed, capacity);
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
    this.compliance[to] = this.compliance[from]!;
    this.lambda[to] = this.lambda[from]!;
    this.pushed[to] = this.pushed[from]!;
    this.axisFrom[to] = this.axisFrom[from]!;
    this.axisTo[to] = this.axisTo[from]!;
    this.hingeSlack[to] = this.hingeSlack[from]!;
    this.hingeLean[to] = this.hingeLean[from]!;
  }
}
