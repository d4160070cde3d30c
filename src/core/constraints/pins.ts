import { PIN_DEFAULTS } from '../defaults.js';
import { ParticleFlag, type ParticleStore } from '../particles.js';
import { ConstraintTable, widen, type TableSnapshot } from './table.js';

/**
 * Pins (paper section 7, inverse kinematics): inside the relaxation loop each
 * pinned particle is set to its target. The world gives particles with a rigid
 * pin (compliance 0) zero inverse mass while pinned, so sticks treat them as
 * infinitely heavy.
 *
 * A pin with a compliance α > 0 (m/N) is instead a zero-length spring of
 * k = 1/α between the particle and its target, solved the XPBD way like the
 * compliant sticks (Macklin, Müller, Chentanez 2016): the particle keeps its
 * mass, and under a load F it stays α·F from the target whatever the substeps
 * and iterations.
 */
export class PinTable extends ConstraintTable {
  /** Particle id held by each pin. */
  particle: Int32Array;
  /** Targets, xyz interleaved. */
  target: Float64Array;
  /** XPBD compliance α in m/N (0: rigid, today's pin); change it with `world.setPin`. */
  compliance: Float64Array;
  /** Constraint damping in N·s/m, a dashpot between the particle and a still target (acts with a compliance > 0); change it with `world.setPin`. */
  damping: Float64Array;
  /** Most force (N) a compliant pin pulls with in a substep; 0 for no limit. Change it with `world.setPin`. */
  maxForce: Float64Array;
  /**
   * Each compliant pin's Lagrange multipliers over the current substep, xyz
   * interleaved (λ of the XPBD paper per axis, in kg·m: the spring's force
   * times h²): scratch of the solver, zeroed every substep by {@link startPinSubstep}.
   */
  lambda: Float64Array;
  /** True while some pin may have a compliance > 0: only then does the solver take the compliant path. */
  compliant = false;
  /** 1/h² of the current substep, set by {@link startPinSubstep}: compliance α acts as α/h². */
  invH2 = 360_000;
  /** 1/h of the current substep, for the damping term. */
  invH = 600;
  protected override readonly savedColumns = ['particle', 'target', 'compliance', 'damping', 'maxForce'] as const;
  /** Snapshots taken before pins had a compliance restore them as rigid, undamped pins without a force limit. */
  protected override readonly optionalColumns = ['compliance', 'damping', 'maxForce'] as const;

  constructor(capacity = 16) {
    super(capacity);
    this.particle = new Int32Array(capacity);
    this.target = new Float64Array(capacity * 3);
    this.compliance = new Float64Array(capacity);
    this.damping = new Float64Array(capacity);
    this.maxForce = new Float64Array(capacity);
    this.lambda = new Float64Array(capacity * 3);
  }

  /**
   * Appends a pin for constraint `id` holding `particle` at (x, y, z) (m), with
   * a compliance (m/N, 0: rigid) and damping (N·s/m), and returns its row;
   * low-level, `world.addPin` also makes the particle immovable while rigidly pinned.
   */
  add(id: number, particle: number, x: number, y: number, z: number, compliance: number = PIN_DEFAULTS.compliance, damping: number = PIN_DEFAULTS.damping, maxForce = Infinity): number {
    const row = this.addRow(id);
    this.particle[row] = particle;
    this.setTarget(row, x, y, z);
    this.setCompliance(row, compliance, damping);
    this.maxForce[row] = maxForce === Infinity ? 0 : maxForce;
    return row;
  }

  /** Moves the target of pin row `row` to (x, y, z) (m); by pin id, use `world.setPinTarget`. */
  setTarget(row: number, x: number, y: number, z: number): void {
    this.target[row * 3] = x;
    this.target[row * 3 + 1] = y;
    this.target[row * 3 + 2] = z;
  }

  /** Sets the compliance (m/N) and damping (N·s/m) of pin row `row`; by pin id, use `world.setPin` (which also frees or holds the particle's mass). */
  setCompliance(row: number, compliance: number, damping: number): void {
    this.compliance[row] = compliance;
    this.damping[row] = damping;
    this.lambda.fill(0, row * 3, row * 3 + 3);
    // A rigid pin makes its particle an anchor, a compliant one does not.
    this.changes++;
    if (compliance !== 0) this.compliant = true;
    else if (this.compliant) this.refreshCompliant();
  }

  /** Removes `row` as {@link ConstraintTable.removeRow} does; the last compliant pin gone, rigid pins take the plain loop again. */
  override removeRow(row: number): number {
    const wasCompliant = this.compliance[row] !== 0;
    const moved = super.removeRow(row);
    if (wasCompliant) this.refreshCompliant();
    return moved;
  }

  private refreshCompliant(): void {
    this.compliant = this.compliance.subarray(0, this.count).some((alpha) => alpha !== 0);
  }

  /** True when pin row `row` holds its particle rigidly (compliance 0). */
  isRigid(row: number): boolean {
    return this.compliance[row] === 0;
  }

  /** Loads a snapshot's pins; the multipliers start from zero (they restart every substep anyway). */
  override load(snap: TableSnapshot): void {
    super.load(snap);
    this.lambda = new Float64Array(this.capacity * 3);
    this.refreshCompliant();
  }

  protected growColumns(capacity: number): void {
    this.particle = widen(this.particle, capacity);
    this.target = widen(this.target, capacity, 3);
    this.compliance = widen(this.compliance, capacity);
    this.damping = widen(this.damping, capacity);
    this.maxForce = widen(this.maxForce, capacity);
    this.lambda = widen(this.lambda, capacity, 3);
  }

  protected copyRow(from: number, to: number): void {
    this.particle[to] = this.particle[from]!;
    this.target.copyWithin(to * 3, from * 3, from * 3 + 3);
    this.compliance[to] = this.compliance[from]!;
    this.damping[to] = this.damping[from]!;
    this.maxForce[to] = this.maxForce[from]!;
    this.lambda.copyWithin(to * 3, from * 3, from * 3 + 3);
  }
}

/**
 * Starts a substep for the compliant pins: keeps its 1/h and 1/h² and zeroes
 * the multipliers, which XPBD accumulates over one substep's passes only
 * ("Small Steps in Physics Simulation", Macklin et al. 2019). Does nothing
 * else while every pin is rigid.
 */
export function startPinSubstep(pins: PinTable, substep: { readonly h: number; readonly h2: number }): void {
  if (!pins.compliant) return;
  pins.invH = 1 / substep.h;
  pins.invH2 = 1 / substep.h2;
  pins.lambda.fill(0, 0, pins.count * 3);
}

/**
 * The last word of a relaxation pass: moves every rigidly pinned particle
 * onto its target, the paper's loop. Compliant pins are springs, pulled just
 * before ({@link solveSpringPins}).
 */
export function solvePins(pins: PinTable, particles: ParticleStore): void {
  const pos = particles.position;
  const target = pins.target;
  const particle = pins.particle;
  const compliance = pins.compliance;
  const compliant = pins.compliant;
  for (let row = 0; row < pins.count; row++) {
    if (compliant && compliance[row] !== 0) continue;
    const p = particle[row]! * 3;
    pos[p] = target[row * 3]!;
    pos[p + 1] = target[row * 3 + 1]!;
    pos[p + 2] = target[row * 3 + 2]!;
  }
}

/**
 * The compliant pins, near the end of a relaxation pass (before the rigid
 * ones). Rigid rows are left to {@link solvePins}. A compliant row is the vector constraint
 * C = x − t (a zero-length spring: three linear constraints, one per axis, so it
 * has no direction to lose when the particle reaches the target), and per pass
 * each axis's multiplier grows by (XPBD paper, eq. 18 and eq. 26 for damping)
 *
 *   Δλ = (−C − α̃·λ − γ·(x − x₀)) / ((1 + γ)·w + α̃),   Δx = w·Δλ,
 *
 * with α̃ = α/h², γ = α·c/h, w the particle's inverse mass and x₀ where it was
 * when the substep began (`particles.previous` after integration). The target is
 * taken as still: the dashpot damps the particle's own velocity. A particle
 * that is also rigidly pinned (w = 0), or asleep, is not moved by the spring.
 * A row with a force limit (`maxForce`) pulls with at most that force over the
 * substep: beyond it the pin lets the particle lag, as a hand lets a heavy
 * load drag.
 */
export function solveSpringPins(pins: PinTable, particles: ParticleStore): void {
  if (!pins.compliant) return;
  const pos = particles.position;
  const prev = particles.previous;
  const w = particles.inverseMass;
  const flags = particles.flags;
  const target = pins.target;
  const particle = pins.particle;
  const compliance = pins.compliance;
  const damping = pins.damping;
  const lambda = pins.lambda;
  const invH2 = pins.invH2;
  const invH = pins.invH;
  for (let row = 0; row < pins.count; row++) {
    const i = particle[row]!;
    const p = i * 3;
    const t = row * 3;
    const alpha = compliance[row]!;
    if (alpha === 0) continue;
    const wi = w[i]!;
    // A sleeping particle is not integrated, so no gravity holds it down this substep: the spring alone would lift it.
    if (wi === 0 || (flags[i]! & ParticleFlag.Asleep) !== 0) continue;
    const at = alpha * invH2;
    const gamma = alpha * damping[row]! * invH;
    const den = (1 + gamma) * wi + at;
    // Inline per axis rather than a helper: doubles passed to a call V8 does not inline are boxed.
    for (let k = 0; k < 3; k++) {
      const x = pos[p + k]!;
      const dl = (target[t + k]! - x - at * lambda[t + k]! - gamma * (x - prev[p + k]!)) / den;
      lambda[t + k] = lambda[t + k]! + dl;
      pos[p + k] = x + wi * dl;
    }
    // A force limit (a drag's) caps the substep's pull: λ is force × h², scaled back whole with the move it made.
    const most = pins.maxForce[row]!;
    if (most === 0) continue;
    const lx = lambda[t]!;
    const ly = lambda[t + 1]!;
    const lz = lambda[t + 2]!;
    const held = Math.sqrt(lx * lx + ly * ly + lz * lz);
    const limit = most / invH2;
    if (held <= limit) continue;
    const back = 1 - limit / held;
    lambda[t] = lx - lx * back;
    lambda[t + 1] = ly - ly * back;
    lambda[t + 2] = lz - lz * back;
    pos[p] = pos[p]! - wi * lx * back;
    pos[p + 1] = pos[p + 1]! - wi * ly * back;
    pos[p + 2] = pos[p + 2]! - wi * lz * back;
  }
}
