import { ELECTRIC_DEFAULTS } from '../defaults.js';
import { checkNumber } from '../math.js';
import type { World } from '../world.js';
import type { Force } from './force.js';
import { applyInverseSquarePairs, gatherFree } from './inverseSquare.js';

/** What {@link ElectricForce} takes. */
export interface ElectricForceOptions {
  /** Coulomb's constant in N·m²/C², default the real 8.9875517923e9. */
  K?: number;
  /** Softening length ε (m): r² becomes r² + ε², so close passes stay finite. Default 0 (the exact law). */
  softening?: number;
}

/**
 * Coulomb's force between charged particles as the course notes write it:
 * f_a = −K·q_a·q_b·(p_b − p_a) / |p_b − p_a|³, f_b = −f_a: like charges repel,
 * unlike attract, and total momentum is conserved. Give particles a charge with
 * {@link ElectricForce.setCharge}; uncharged and immovable particles take no part.
 * Every charged pair is visited: O(n²) in the charged particles.
 *
 * @example
 * ```ts
 * const electric = new ElectricForce({ K: 1 });
 * electric.setCharge(a, 1);
 * electric.setCharge(b, -1); // a and b attract
 * world.addForce(electric);
 * ```
 */
export class ElectricForce implements Force {
  // Numbers from the start (not undefined), so later stores of doubles are not boxed.
  private kValue = 0;
  private softeningValue = 0;
  /** Charge (C) by particle id. */
  private charges = new Float64Array(16);
  /** Ids with a non-zero charge, in `[0, chargedCount)`. */
  private charged = new Int32Array(16);
  private chargedCount = 0;
  private scratch: Int32Array = new Int32Array(16);
  private readonly count = new Int32Array(1);
  private readonly params = new Float64Array(2);

  constructor(options: ElectricForceOptions = {}) {
    if (!options || typeof options !== 'object') throw new TypeError(`ElectricForce: options must be an object, got ${String(options)}`);
    this.K = checkNumber(options.K ?? ELECTRIC_DEFAULTS.K, 'ElectricForce: K', 0);
    this.softening = checkNumber(options.softening ?? ELECTRIC_DEFAULTS.softening, 'ElectricForce: softening', 0);
  }

  /** Coulomb's constant (N·m²/C², >= 0; anything else throws, naming it). */
  get K(): number {
    return this.kValue;
  }
  set K(value: number) {
    this.kValue = checkNumber(value, 'ElectricForce: K', 0);
  }

  /** Softening length (m, >= 0). */
  get softening(): number {
    return this.softeningValue;
  }
  set softening(value: number) {
    this.softeningValue = checkNumber(value, 'ElectricForce: softening', 0);
  }

  /**
   * Sets the charge (C) of particle `id`; 0 removes it from the force. The charge
   * belongs to the id: set it to 0 before removing the particle, since ids are reused.
   */
  setCharge(id: number, charge: number): void {
    if (typeof id !== 'number' || !Number.isInteger(id) || id < 0) throw new RangeError(`ElectricForce.setCharge: id must be a particle id, got ${String(id)}`);
    checkNumber(charge, 'ElectricForce.setCharge: charge');
    if (id >= this.charges.length) {
      const grown = new Float64Array(Math.max(id + 1, this.charges.length * 2));
      grown.set(this.charges);
      this.charges = grown;
    }
    const was = this.charges[id]!;
    this.charges[id] = charge;
    if (was === 0 && charge !== 0) this.listAdd(id);
    else if (was !== 0 && charge === 0) this.listRemove(id);
  }

  /** Charge (C) of particle `id`, 0 when it has none. */
  getCharge(id: number): number {
    return this.charges[id] ?? 0;
  }

  /** Adds this substep's Coulomb force on every charged particle to `world.particles.force`. */
  apply(world: World): void {
    const particles = world.particles;
    this.scratch = gatherFree(particles, this.charged, this.chargedCount, this.scratch, this.count);
    this.params[0] = -this.K;
    this.params[1] = this.softening * this.softening;
    applyInverseSquarePairs(particles, this.scratch, this.count[0]!, this.charges, this.params);
  }

  private listAdd(id: number): void {
    if (this.chargedCount === this.charged.length) {
      const grown = new Int32Array(this.charged.length * 2);
      grown.set(this.charged);
      this.charged = grown;
    }
    this.charged[this.chargedCount++] = id;
  }

  private listRemove(id: number): void {
    for (let k = 0; k < this.chargedCount; k++) {
      if (this.charged[k] === id) {
        this.charged[k] = this.charged[--this.chargedCount]!;
        return;
      }
    }
  }
}
