import { particleSlot } from '../ids.js';
import { checkCompliance } from '../materials.js';
import { VOLUME_DEFAULTS } from '../defaults.js';
import { checkNumber } from '../math.js';
import { ParticleFlag } from '../particles.js';
import type { World } from '../world.js';
import type { Constraint } from './constraint.js';

/** What {@link VolumeConstraint} takes besides the particles and triangles. */
export interface VolumeOptions {
  /**
   * Share of the volume error repaired per relaxation pass, in [0, 1] (like a
   * stick's stiffness): how hard the enclosed gas pushes back. Default 1; 0 turns
   * the constraint off.
   */
  pressure?: number;
  /** Target volume as a multiple of the rest volume (overpressure: > 1 inflates). Default 1. */
  inflation?: number;
  /**
   * Compliance in m³/Pa (XPBD): the volume gives ΔV = compliance·Δp under a
   * pressure difference Δp, whatever the solver settings. A gas at pressure p
   * (isothermal) has compliance V/p: 1 litre of air at 101 kPa, about 1e-8.
   * Default 0 (incompressible, as far as `pressure` repairs it).
   */
  compliance?: number;
}

/**
 * Volume preservation for a closed triangle surface (the course notes name volume
 * preservation among the equality constraints; this is its projection in the
 * mass-weighted form of the stick constraint). The constraint is
 * C = V(x) - inflation · V₀ with V = ⅙ Σ xᵢ · (xⱼ × xₖ) over the triangles. Each
 * pass moves every particle along its volume gradient ∇ᵢV = ⅙ Σ xⱼ × xₖ by
 * Δxᵢ = -pressure · C · wᵢ ∇ᵢV / Σ wⱼ |∇ⱼV|², the smallest mass-weighted move that
 * restores the volume (it changes no momentum: the gradients sum to zero).
 *
 * Register it with `world.addConstraint`. Allocates nothing per pass.
 */
export class VolumeConstraint implements Constraint {
  /** Particle slots of the surface, three per triangle, wound outward. */
  readonly triangles: Uint32Array;
  /** First particle slot of the body; every triangle uses slots in `[first, first + count)`. */
  readonly first: number;
  /** Particles in the body's range. */
  readonly count: number;
  /** The volume the surface enclosed when the constraint was made (m³, > 0; a bad value throws, naming it). */
  get restVolume(): number {
    return this.restVolumeValue;
  }
  set restVolume(volume: number) {
    this.restVolumeValue = checkNumber(volume, 'VolumeConstraint: restVolume', Number.MIN_VALUE);
  }
  /** See {@link VolumeOptions.pressure}; in [0, 1] (a bad value throws, naming it). */
  get pressure(): number {
    return this.pressureValue;
  }
  set pressure(pressure: number) {
    this.pressureValue = checkNumber(pressure, 'VolumeConstraint: pressure', 0, 1);
  }
  /** See {@link VolumeOptions.inflation}; > 0 (a bad value throws, naming it). */
  get inflation(): number {
    return this.inflationValue;
  }
  set inflation(inflation: number) {
    this.inflationValue = checkNumber(inflation, 'VolumeConstraint: inflation', Number.MIN_VALUE);
  }
  /** See {@link VolumeOptions.compliance}; change it freely (a bad value throws, naming it). */
  get compliance(): number {
    return this.complianceValue;
  }
  set compliance(compliance: number) {
    this.complianceValue = checkCompliance(compliance, 'VolumeConstraint: compliance');
  }
  private restVolumeValue = 0;
  private pressureValue = 0;
  private inflationValue = 1;
  private complianceValue = 0;
  /** The accumulated XPBD multiplier of the current substep. */
  private lambda = 0;
  /** The stick table's `substepSerial` when {@link lambda} was last zeroed. */
  private substepSeen = -1;
  /** ∇ᵢV per particle of the range, refilled every pass (×6, the ⅙ is folded in later). */
  private readonly gradient: Float64Array;

  /**
   * @param triangles particle ids, three per triangle, counter-clockwise seen from outside (kept as slots)
   * @param first first particle id of the body (all triangle ids lie in `[first, first + count)`)
   */
  constructor(world: World, triangles: Uint32Array, first: number, count: number, options: VolumeOptions = {}) {
    if (triangles.length === 0 || triangles.length % 3 !== 0) throw new RangeError(`VolumeConstraint: triangles must hold a positive multiple of 3 ids, got ${triangles.length}`);
    for (const id of triangles) {
      if (id < first || id >= first + count) throw new RangeError(`VolumeConstraint: triangle particle ${id} lies outside the range [${first}, ${first + count})`);
      world.checkParticle(id, 'VolumeConstraint: triangles');
    }
    this.triangles = triangles.map(particleSlot);
    this.first = particleSlot(first);
    this.count = count;
    this.gradient = new Float64Array(count * 3);
    this.pressure = options.pressure ?? VOLUME_DEFAULTS.pressure;
    this.inflation = options.inflation ?? VOLUME_DEFAULTS.inflation;
    this.compliance = options.compliance ?? VOLUME_DEFAULTS.compliance;
    const enclosed = enclosedVolume(world.particles.position, this.triangles);
    if (!(enclosed > 0)) throw new RangeError(`VolumeConstraint: the surface must enclose a positive volume (faces wound counter-clockwise seen from outside), got ${enclosed}`);
    this.restVolume = enclosed;
  }

  /** The volume the surface encloses now (m³). */
  volume(world: World): number {
    return enclosedVolume(world.particles.position, this.triangles);
  }

  /**
   * The XPBD step for a compliant volume, with C = V − V₀ and ∇V = G/6:
   * Δλ = (−C − α̃λ) / (Σ w |∇V|² + α̃), Δxᵢ = wᵢ ∇ᵢV Δλ; returns the factor of Gᵢ.
   * A method of its own so that the rigid path of {@link project} stays as it was.
   */
  private compliantScale(world: World, error6: number, denominator: number): number {
    const sticks = world.sticks;
    if (this.substepSeen !== sticks.substepSerial) {
      this.substepSeen = sticks.substepSerial;
      this.lambda = 0;
    }
    const at = this.compliance * sticks.invH2;
    const step = ((-this.pressure * error6) / 6 - at * this.lambda) / (denominator / 36 + at);
    this.lambda += step;
    return step / 6;
  }

  /** One projection of the volume constraint (skipped while the body sleeps or `pressure` is 0). */
  project(world: World): void {
    const particles = world.particles;
    if (this.pressure === 0 || (particles.flags[this.first]! & ParticleFlag.Asleep) !== 0) return;
    const pos = particles.position;
    const w = particles.inverseMass;
    const tri = this.triangles;
    const grad = this.gradient;
    const first = this.first;
    for (let i = 0; i < grad.length; i++) grad[i] = 0;
    // Positions relative to one of the body's particles: the volume of a closed
    // surface does not depend on the origin, and a near one keeps the cancellation small.
    const ox = pos[first * 3]!;
    const oy = pos[first * 3 + 1]!;
    const oz = pos[first * 3 + 2]!;
    let six = 0;
    for (let t = 0; t < tri.length; t += 3) {
      const i = tri[t]!;
      const j = tri[t + 1]!;
      const k = tri[t + 2]!;
      const ax = pos[i * 3]! - ox;
      const ay = pos[i * 3 + 1]! - oy;
      const az = pos[i * 3 + 2]! - oz;
      const bx = pos[j * 3]! - ox;
      const by = pos[j * 3 + 1]! - oy;
      const bz = pos[j * 3 + 2]! - oz;
      const cx = pos[k * 3]! - ox;
      const cy = pos[k * 3 + 1]! - oy;
      const cz = pos[k * 3 + 2]! - oz;
      // b × c, c × a and a × b are the (×6) gradients of a · (b × c) at a, b and c.
      const bcx = by * cz - bz * cy;
      const bcy = bz * cx - bx * cz;
      const bcz = bx * cy - by * cx;
      six += ax * bcx + ay * bcy + az * bcz;
      const gi = (i - first) * 3;
      const gj = (j - first) * 3;
      const gk = (k - first) * 3;
      grad[gi] = grad[gi]! + bcx;
      grad[gi + 1] = grad[gi + 1]! + bcy;
      grad[gi + 2] = grad[gi + 2]! + bcz;
      grad[gj] = grad[gj]! + (cy * az - cz * ay);
      grad[gj + 1] = grad[gj + 1]! + (cz * ax - cx * az);
      grad[gj + 2] = grad[gj + 2]! + (cx * ay - cy * ax);
      grad[gk] = grad[gk]! + (ay * bz - az * by);
      grad[gk + 1] = grad[gk + 1]! + (az * bx - ax * bz);
      grad[gk + 2] = grad[gk + 2]! + (ax * by - ay * bx);
    }
    let denominator = 0;
    for (let l = 0; l < this.count; l++) {
      const g = l * 3;
      denominator += w[first + l]! * (grad[g]! * grad[g]! + grad[g + 1]! * grad[g + 1]! + grad[g + 2]! * grad[g + 2]!);
    }
    if (denominator === 0) return;
    // With G = 6∇V: Δxᵢ = -p · C · wᵢ ∇ᵢV / Σ w |∇V|² = -p · 6C · wᵢ Gᵢ / Σ w |G|².
    const error6 = six - 6 * this.inflation * this.restVolume;
    const scale = this.compliance === 0 ? (-this.pressure * error6) / denominator : this.compliantScale(world, error6, denominator);
    for (let l = 0; l < this.count; l++) {
      const f = scale * w[first + l]!;
      if (f === 0) continue;
      const g = l * 3;
      const p = (first + l) * 3;
      pos[p] = pos[p]! + f * grad[g]!;
      pos[p + 1] = pos[p + 1]! + f * grad[g + 1]!;
      pos[p + 2] = pos[p + 2]! + f * grad[g + 2]!;
    }
  }
}

/** The volume enclosed by triangles over `positions` (ids into xyz-interleaved positions): ⅙ Σ a · (b × c). */
export function enclosedVolume(positions: ArrayLike<number>, triangles: ArrayLike<number>, triangleCount = triangles.length / 3): number {
  let six = 0;
  for (let t = 0; t < triangleCount * 3; t += 3) {
    const a = triangles[t]! * 3;
    const b = triangles[t + 1]! * 3;
    const c = triangles[t + 2]! * 3;
    const ax = positions[a]!;
    const ay = positions[a + 1]!;
    const az = positions[a + 2]!;
    const bx = positions[b]!;
    const by = positions[b + 1]!;
    const bz = positions[b + 2]!;
    const cx = positions[c]!;
    const cy = positions[c + 1]!;
    const cz = positions[c + 2]!;
    six += ax * (by * cz - bz * cy) + ay * (bz * cx - bx * cz) + az * (bx * cy - by * cx);
  }
  return six / 6;
}
