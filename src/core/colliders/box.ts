import { COLLIDER_DEFAULTS } from '../defaults.js';
import { checkNumber, toVec3, type Vec3, type Vec3Like } from '../math.js';
import type { ParticleStore } from '../particles.js';
import { collides, makeContact, pushOut, setSurface, type Collider } from './collider.js';

/** An axis-aligned box between `min` and `max`; with `inside: true` it is a container (the paper's cube world). */
export interface BoxShape {
  /** Shape name. */
  type: 'box';
  /** The corner with the smallest x, y and z (m). */
  min: Vec3Like;
  /** The corner with the largest x, y and z (m). */
  max: Vec3Like;
  /** Keep particles inside the box (a container) instead of outside it. Default false. */
  inside?: boolean;
  /** Surface friction coefficient, default 1. */
  friction?: number;
  /** Bounciness in [0, 1], default 0: a contact bounces with the larger of this and the particle's (see `respondToContacts`). */
  restitution?: number;
}

/**
 * A static axis-aligned box. Outside mode pushes a particle out through the face
 * it penetrates least (the box grown by the particle's radius, so corners are square);
 * inside mode clamps each coordinate, exactly the paper's section 3 code.
 */
export class BoxCollider implements Collider {
  /** Shape name. */
  readonly type = 'box';
  /** The corner with the smallest x, y and z (m). */
  readonly min: Vec3;
  /** The corner with the largest x, y and z (m). */
  readonly max: Vec3;
  /** True: a container that keeps particles inside; false: a solid obstacle. */
  inside: boolean;
  /** Coulomb coefficient of the surface; a contact's μ is particle friction × this. */
  friction: number;
  /** Bounciness of the surface in [0, 1]; a contact bounces with the larger of this and the particle's. */
  restitution: number;
  private contact = makeContact();

  constructor(shape: BoxShape) {
    this.min = toVec3(shape.min, 'box collider: min');
    this.max = toVec3(shape.max, 'box collider: max');
    for (let k = 0; k < 3; k++) {
      if (this.min[k]! > this.max[k]!) throw new RangeError(`box collider: min [${this.min.join(', ')}] must not exceed max [${this.max.join(', ')}]`);
    }
    this.inside = shape.inside ?? false;
    this.friction = checkNumber(shape.friction ?? COLLIDER_DEFAULTS.friction, 'box collider: friction', 0);
    this.restitution = checkNumber(shape.restitution ?? COLLIDER_DEFAULTS.restitution, 'box collider: restitution', 0, 1);
  }

  /** Projects live, movable particles in `[from, to)` out of the box (into it when `inside`). */
  project(particles: ParticleStore, from: number, to: number): void {
    if (this.inside) this.keepInside(particles, from, to);
    else this.keepOutside(particles, from, to);
  }

  private keepInside(particles: ParticleStore, from: number, to: number): void {
    const pos = particles.position;
    for (let i = from; i < to; i++) {
      const r = particles.radius[i]!;
      for (let k = 0; k < 3; k++) {
        const x = pos[i * 3 + k]!;
        const low = this.min[k]! + r - x;
        const high = x - (this.max[k]! - r);
        if ((low > 0 || high > 0) && collides(particles, i)) {
          this.axisContact(k, low > 0 ? 1 : -1, low > 0 ? low : high);
          pushOut(particles, i, this.contact);
        }
      }
    }
  }

  private keepOutside(particles: ParticleStore, from: number, to: number): void {
    const pos = particles.position;
    for (let i = from; i < to; i++) {
      const r = particles.radius[i]!;
      let best = Infinity;
      let axis = 0;
      let sign = 1;
      for (let k = 0; k < 3; k++) {
        const x = pos[i * 3 + k]!;
        const low = x - (this.min[k]! - r);
        const high = this.max[k]! + r - x;
        if (low <= 0 || high <= 0) {
          best = -1;
          break;
        }
        if (low < best) {
          best = low;
          axis = k;
          sign = -1;
        }
        if (high < best) {
          best = high;
          axis = k;
          sign = 1;
        }
      }
      if (best > 0 && collides(particles, i)) {
        this.axisContact(axis, sign, best);
        pushOut(particles, i, this.contact);
      }
    }
  }

  /** Fills the contact for a push along axis `axis` in direction `sign`. */
  private axisContact(axis: number, sign: number, depth: number): void {
    const c = this.contact;
    c[0] = axis === 0 ? sign : 0;
    c[1] = axis === 1 ? sign : 0;
    c[2] = axis === 2 ? sign : 0;
    c[3] = depth;
    setSurface(c, this);
  }
}
