import { GRAVITATION_DEFAULTS } from '../defaults.js';
import { checkNumber } from '../math.js';
import type { World } from '../world.js';
import type { Force } from './force.js';
import { applyInverseSquarePairs, gatherFree } from './inverseSquare.js';

/** What {@link GravitationalForce} takes. */
export interface GravitationalForceOptions {
  /** Gravitational constant in N·m²/kg², default the real 6.674e-11 (scenes of kilogram masses want far more). */
  G?: number;
  /** Softening length ε (m): r² becomes r² + ε², so close passes stay finite. Default 0 (the exact law). */
  softening?: number;
  /** Ids of the particles that attract each other; default every particle in the world. */
  particles?: ArrayLike<number>;
}

/**
 * Newton's gravitation between particles as the course notes write it:
 * f_a = G·m_a·m_b·(p_b − p_a) / |p_b − p_a|³, f_b = −f_a. The pair forces are
 * equal and opposite, so total momentum is conserved. Immovable particles take no
 * part (their mass is undefined; use an {@link Attractor} for a fixed well). Every
 * pair is visited: O(n²) per substep, so give `particles` in large scenes.
 *
 * @example
 * ```ts
 * world.addForce(new GravitationalForce({ G: 1, particles: [sun, planet] }));
 * ```
 */
export class GravitationalForce implements Force {
  // Numbers from the start (not undefined), so later stores of doubles are not boxed.
  private gValue = 0;
  private softeningValue = 0;
  private readonly members: Int32Array | null;
  private scratch: Int32Array = new Int32Array(16);
  private readonly count = new Int32Array(1);
  private readonly params = new Float64Array(2);

  constructor(options: GravitationalForceOptions = {}) {
    if (!options || typeof options !== 'object') throw new TypeError(`GravitationalForce: options must be an object, got ${String(options)}`);
    this.G = checkNumber(options.G ?? GRAVITATION_DEFAULTS.G, 'GravitationalForce: G', 0);
    this.softening = checkNumber(options.softening ?? GRAVITATION_DEFAULTS.softening, 'GravitationalForce: softening', 0);
    this.members = options.particles === undefined ? null : checkIds(options.particles, 'GravitationalForce: particles');
  }

  /** Gravitational constant (N·m²/kg², >= 0; anything else throws, naming it). */
  get G(): number {
    return this.gValue;
  }
  set G(value: number) {
    this.gValue = checkNumber(value, 'GravitationalForce: G', 0);
  }

  /** Softening length (m, >= 0). */
  get softening(): number {
    return this.softeningValue;
  }
  set softening(value: number) {
    this.softeningValue = checkNumber(value, 'GravitationalForce: softening', 0);
  }

  /** Adds this substep's gravitational pull between every pair to `world.particles.force`. */
  apply(world: World): void {
    const particles = world.particles;
    const members = this.members;
    this.scratch = gatherFree(particles, members, members === null ? 0 : members.length, this.scratch, this.count);
    this.params[0] = this.G;
    this.params[1] = this.softening * this.softening;
    applyInverseSquarePairs(particles, this.scratch, this.count[0]!, null, this.params);
  }
}

/** Copies a list of particle ids into an Int32Array, checking each is an integer >= 0. */
function checkIds(ids: ArrayLike<number>, what: string): Int32Array {
  if (!ids || typeof ids.length !== 'number') throw new TypeError(`${what} must be an array of particle ids, got ${String(ids)}`);
  const out = new Int32Array(ids.length);
  for (let k = 0; k < ids.length; k++) {
    const id = ids[k];
    if (typeof id !== 'number' || !Number.isInteger(id) || id < 0) throw new RangeError(`${what}[${k}] must be a particle id, got ${String(id)}`);
    out[k] = id;
  }
  return out;
}
