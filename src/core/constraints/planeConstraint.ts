import type { ConstraintId, ParticleId } from '../ids.js';
import { checkCompliance } from '../materials.js';
import { PLANE_CONSTRAINT_DEFAULTS } from '../defaults.js';
import { checkNumber, toVec3, type Vec3Like } from '../math.js';
import { ParticleFlag } from '../particles.js';
import type { FeatureKind, WorldFeature } from '../features.js';
import type { Registry } from '../registry.js';
import type { World } from '../world.js';
import type { Constraint } from './constraint.js';
import { ConstraintTable, widen } from './table.js';
import { addBuiltinConstraint } from '../stages.js';

/** `'on'`: stay on the plane (an equality); `'above'`: stay on the side the normal points to (an inequality). */
export type PlaneMode = 'on' | 'above';

/** What {@link addPlaneConstraint} takes. */
export interface PlaneConstraintOptions {
  /** The plane's normal (normalised here); "above" is the side it points to. */
  normal: Vec3Like;
  /** The plane is the set of points x with normal·x = offset (normal taken unit). Default 0. */
  offset?: number;
  /** Default `'on'`. */
  mode?: PlaneMode;
  /**
   * Share of the distance repaired per relaxation pass, in (0, 1]. Default 1.
   * Below 1 the softness depends on the substeps and iterations; `compliance`
   * gives one that does not.
   */
  stiffness?: number;
  /** Compliance in m/N (XPBD): each particle is held by a spring of k = 1/compliance, whatever the solver settings. Default 0 (hard). */
  compliance?: number;
}

const enum PlaneModeCode {
  On = 0,
  Above = 1,
}

/**
 * Plane constraints (paper section 6: "particles can also be restricted to move
 * in certain planes only"): each row holds one particle to a plane, or to the
 * side of it the normal points to, by moving it along the normal. Unlike a plane
 * collider this acts on chosen particles only, ignores their radius and adds no
 * friction. Immovable and sleeping particles are left where they are.
 */
export class PlaneConstraintTable extends ConstraintTable implements Constraint, WorldFeature {
  /** Rows held, for `world.constraintCount`. */
  get constraintCount(): number {
    return this.count;
  }
  /** Particle id held by each row. */
  particle: Int32Array;
  /** Unit normals, xyz interleaved. */
  normal: Float64Array;
  /** Each row's plane is normal·x = offset (m). */
  offset: Float64Array;
  /** Mode of each row: 0 `'on'`, 1 `'above'`. */
  mode: Uint8Array;
  /** Share of the distance repaired per pass, in (0, 1], per row (its softness depends on the solver settings; a {@link compliance}'s does not). */
  stiffness: Float64Array;
  /** Compliance in m/N per row (0: hard); XPBD, as the sticks (constraints/sticks.ts). */
  compliance: Float64Array;
  /** Each row's accumulated XPBD multiplier of the current substep (scratch). */
  lambda: Float64Array;
  /** The stick table's `substepSerial` when {@link lambda} was last zeroed. */
  private substepSeen = -1;
  /** @param registry the world's, which issues the table's ids. */
  constructor(
    private readonly registry: Registry,
    capacity = 16,
  ) {
    super(capacity);
    this.particle = new Int32Array(capacity);
    this.normal = new Float64Array(capacity * 3);
    this.offset = new Float64Array(capacity);
    this.mode = new Uint8Array(capacity);
    this.stiffness = new Float64Array(capacity);
    this.compliance = new Float64Array(capacity);
    this.lambda = new Float64Array(capacity);
  }

  /** A fresh public id from the world's registry; every row of one constraint carries it. */
  newId(): number {
    return this.registry.issue(this);
  }

  /** Appends a row for constraint `id`. */
  add(id: number, particle: number, plane: CheckedPlane): void {
    const row = this.addRow(id);
    this.particle[row] = particle;
    this.write(row, plane);
  }

  /** Overwrites the plane of row `row`. */
  write(row: number, plane: CheckedPlane): void {
    this.normal[row * 3] = plane.normal[0];
    this.normal[row * 3 + 1] = plane.normal[1];
    this.normal[row * 3 + 2] = plane.normal[2];
    this.offset[row] = plane.offset;
    this.mode[row] = plane.mode === 'above' ? PlaneModeCode.Above : PlaneModeCode.On;
    this.stiffness[row] = plane.stiffness;
    this.compliance[row] = plane.compliance;
    this.lambda[row] = 0;
  }

  /** Removes every row of constraint `id`; returns how many there were. */
  remove(id: number): number {
    this.registry.release(id);
    let removed = 0;
    // Backwards: the row moved into a hole comes from the end, which was already checked.
    for (let row = this.count - 1; row >= 0; row--) {
      if (this.ids[row] === id) {
        this.removeRow(row);
        removed++;
      }
    }
    return removed;
  }

  /** Removes the rows of particles in `[first, end)`; a constraint left with no rows gives its id back. */
  particlesRemoved(_world: World, first: number, end: number): void {
    const gone = new Set<number>();
    for (let row = this.count - 1; row >= 0; row--) {
      const p = this.particle[row]!;
      if (p < first || p >= end) continue;
      gone.add(this.ids[row]!);
      this.removeRow(row);
    }
    for (let row = 0; row < this.count; row++) gone.delete(this.ids[row]!);
    for (const id of gone) this.registry.release(id);
  }

  /** One pass over every row. Allocates nothing. */
  project(world: World): void {
    const particles = world.particles;
    const pos = particles.position;
    const w = particles.inverseMass;
    const flags = particles.flags;
    const normal = this.normal;
    const sticks = world.sticks;
    if (this.substepSeen !== sticks.substepSerial) {
      this.substepSeen = sticks.substepSerial;
      this.lambda.fill(0, 0, this.count);
    }
    const invH2 = sticks.invH2;
    for (let row = 0; row < this.count; row++) {
      const i = this.particle[row]!;
      if (w[i] === 0 || (flags[i]! & (ParticleFlag.Alive | ParticleFlag.Asleep)) !== ParticleFlag.Alive) continue;
      const p = i * 3;
      const nx = normal[row * 3]!;
      const ny = normal[row * 3 + 1]!;
      const nz = normal[row * 3 + 2]!;
      const distance = nx * pos[p]! + ny * pos[p + 1]! + nz * pos[p + 2]! - this.offset[row]!;
      if (distance === 0 || (distance > 0 && this.mode[row] === PlaneModeCode.Above)) continue;
      const alpha = this.compliance[row]!;
      let move: number;
      if (alpha === 0) move = -distance * this.stiffness[row]!;
      else {
        // XPBD with C = distance, ∇C = n: Δλ = (−C − α̃λ) / (w + α̃), Δx = w·n·Δλ.
        const at = alpha * invH2;
        const step = (-distance * this.stiffness[row]! - at * this.lambda[row]!) / (w[i]! + at);
        this.lambda[row] = this.lambda[row]! + step;
        move = w[i]! * step;
      }
      pos[p] = pos[p]! + nx * move;
      pos[p + 1] = pos[p + 1]! + ny * move;
      pos[p + 2] = pos[p + 2]! + nz * move;
    }
  }

  protected growColumns(capacity: number): void {
    this.particle = widen(this.particle, capacity);
    this.normal = widen(this.normal, capacity, 3);
    this.offset = widen(this.offset, capacity);
    this.mode = widen(this.mode, capacity);
    this.stiffness = widen(this.stiffness, capacity);
    this.compliance = widen(this.compliance, capacity);
    this.lambda = widen(this.lambda, capacity);
  }

  protected copyRow(from: number, to: number): void {
    this.particle[to] = this.particle[from]!;
    this.normal.copyWithin(to * 3, from * 3, from * 3 + 3);
    this.offset[to] = this.offset[from]!;
    this.mode[to] = this.mode[from]!;
    this.stiffness[to] = this.stiffness[from]!;
    this.compliance[to] = this.compliance[from]!;
    this.lambda[to] = this.lambda[from]!;
  }
}

/** A validated plane. */
export interface CheckedPlane {
  normal: [number, number, number];
  offset: number;
  mode: PlaneMode;
  stiffness: number;
  compliance: number;
}

/** The world's plane-constraint table as a feature of it (see `World.features`). */
export const PLANE_CONSTRAINTS: FeatureKind<PlaneConstraintTable> = {
  name: 'planeConstraints',
  create: (world) => {
    const table = new PlaneConstraintTable(world.registry);
    addBuiltinConstraint(world, 'planes', table);
    return table;
  },
};

/** The world's plane-constraint table (created and registered as a constraint on first use). */
export function planeConstraintTable(world: World): PlaneConstraintTable {
  return world.features.of(PLANE_CONSTRAINTS);
}

/**
 * Keeps `particles` on a plane (`mode: 'on'`) or on the side its normal points to
 * (`'above'`). Returns an id that `world.remove` takes (the registry's, so it
 * names no other constraint).
 *
 * @example
 * ```ts
 * // a 2D ragdoll: every particle stays in the plane z = 0
 * const id = addPlaneConstraint(world, ragdoll.vertices, { normal: [0, 0, 1], offset: 0 });
 * ```
 */
export function addPlaneConstraint(world: World, particles: readonly ParticleId[] | ParticleId, options: PlaneConstraintOptions): ConstraintId {
  const list = typeof particles === 'number' ? [particles] : particles;
  if (!Array.isArray(list) || list.length === 0) throw new RangeError(`addPlaneConstraint: particles must be a particle id or a non-empty array of them, got ${String(particles)}`);
  const slots = list.map((id, i) => world.checkParticle(id, `addPlaneConstraint: particles[${i}]`));
  const plane = checkPlane(options, undefined, 'addPlaneConstraint');
  const table = planeConstraintTable(world);
  const id = table.newId();
  for (const particle of slots) table.add(id, particle, plane);
  return id;
}

/** Moves or re-configures a plane constraint in place (unset options keep their values). */
export function setPlaneConstraint(world: World, id: number, options: Partial<PlaneConstraintOptions>): void {
  const table = world.features.get(PLANE_CONSTRAINTS);
  let first = -1;
  if (table) for (let row = 0; row < table.count && first < 0; row++) if (table.ids[row] === id) first = row;
  if (table === undefined || first < 0) throw new RangeError(`setPlaneConstraint: no plane constraint with id ${id}`);
  const current: CheckedPlane = {
    normal: [table.normal[first * 3]!, table.normal[first * 3 + 1]!, table.normal[first * 3 + 2]!],
    offset: table.offset[first]!,
    mode: table.mode[first] === PlaneModeCode.Above ? 'above' : 'on',
    stiffness: table.stiffness[first]!,
    compliance: table.compliance[first]!,
  };
  const plane = checkPlane(options, current, 'setPlaneConstraint');
  for (let row = first; row < table.count; row++) if (table.ids[row] === id) table.write(row, plane);
}

function checkPlane(o: Partial<PlaneConstraintOptions>, current: CheckedPlane | undefined, what: string): CheckedPlane {
  if (o === null || typeof o !== 'object') throw new TypeError(`${what}: options must be an object, got ${String(o)}`);
  let normal = current?.normal;
  if (o.normal !== undefined || current === undefined) {
    const n = toVec3(o.normal, `${what}: normal`);
    const length = Math.hypot(n[0], n[1], n[2]);
    if (length === 0) throw new RangeError(`${what}: normal must not be [0, 0, 0]`);
    normal = [n[0] / length, n[1] / length, n[2] / length];
  }
  const offset = checkNumber(o.offset ?? current?.offset ?? PLANE_CONSTRAINT_DEFAULTS.offset, `${what}: offset`);
  const mode = o.mode ?? current?.mode ?? PLANE_CONSTRAINT_DEFAULTS.mode;
  if (mode !== 'on' && mode !== 'above') throw new RangeError(`${what}: mode must be 'on' or 'above', got ${String(mode)}`);
  const stiffness = checkNumber(o.stiffness ?? current?.stiffness ?? PLANE_CONSTRAINT_DEFAULTS.stiffness, `${what}: stiffness`, 0, 1);
  if (stiffness === 0) throw new RangeError(`${what}: stiffness must be in (0, 1], got 0`);
  const compliance = checkCompliance(o.compliance ?? current?.compliance ?? PLANE_CONSTRAINT_DEFAULTS.compliance, `${what}: compliance`);
  return { normal: normal!, offset, mode, stiffness, compliance };
}
