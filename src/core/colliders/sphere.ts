import { COLLIDER_DEFAULTS } from '../defaults.js';
import { checkNumber, toVec3, type Vec3 } from '../math.js';
import type { Placement } from '../placement.js';
import type { ParticleStore } from '../particles.js';
import { collides, makeContact, pushOut, setSurface, type Collider } from './collider.js';

/** A ball; with `inside: true` particles are kept inside it instead. */
export interface SphereShape extends Placement {
  /** Shape name. */
  type: 'sphere';
  /** Radius (m), >= 0. */
  radius: number;
  /** Keep particles inside the ball (a container) instead of outside it. Default false. */
  inside?: boolean;
  /** Surface friction coefficient, default 1. */
  friction?: number;
  /** Bounciness in [0, 1], default 0: a contact bounces with the larger of this and the particle's (see `respondToContacts`). */
  restitution?: number;
}

/** A static sphere obstacle (or container). */
export class SphereCollider implements Collider {
  /** Shape name. */
  readonly type = 'sphere';
  /** Centre of the ball. */
  readonly center: Vec3;
  /** Radius (m). */
  radius: number;
  /** True: a container that keeps particles inside; false: a solid obstacle. */
  inside: boolean;
  /** Coulomb coefficient of the surface; a contact's μ is particle friction × this. */
  friction: number;
  /** Bounciness of the surface in [0, 1]; a contact bounces with the larger of this and the particle's. */
  restitution: number;
  private contact = makeContact();

  constructor(shape: SphereShape) {
    this.center = toVec3(shape.position ?? [0, 0, 0], 'sphere collider: position');
    this.radius = checkNumber(shape.radius, 'sphere collider: radius', 0);
    this.inside = shape.inside ?? false;
    this.friction = checkNumber(shape.friction ?? COLLIDER_DEFAULTS.friction, 'sphere collider: friction', 0);
    this.restitution = checkNumber(shape.restitution ?? COLLIDER_DEFAULTS.restitution, 'sphere collider: restitution', 0, 1);
  }

  /** Projects live, movable particles in `[from, to)` out of the ball (into it when `inside`). */
  project(particles: ParticleStore, from: number, to: number): void {
    const cx = this.center[0]!;
    const cy = this.center[1]!;
    const cz = this.center[2]!;
    const contact = this.contact;
    setSurface(contact, this);
    const pos = particles.position;
    const radius = particles.radius;
    for (let i = from; i < to; i++) {
      const p = i * 3;
      const dx = pos[p]! - cx;
      const dy = pos[p + 1]! - cy;
      const dz = pos[p + 2]! - cz;
      const d2 = dx * dx + dy * dy + dz * dz;
      if (this.inside) {
        const limit = this.radius - radius[i]!;
        if (d2 <= limit * limit || !collides(particles, i)) continue;
        const d = Math.sqrt(d2);
        setContact(contact, -dx / d, -dy / d, -dz / d, d - limit);
        pushOut(particles, i, contact);
      } else {
        const limit = this.radius + radius[i]!;
        if (d2 >= limit * limit || !collides(particles, i)) continue;
        const d = Math.sqrt(d2);
        // A particle exactly at the centre has no outward direction; push it up.
        if (d === 0) setContact(contact, 0, 1, 0, limit);
        else setContact(contact, dx / d, dy / d, dz / d, limit - d);
        pushOut(particles, i, contact);
      }
    }
  }
}

function setContact(c: Float64Array, nx: number, ny: number, nz: number, depth: number): void {
  c[0] = nx;
  c[1] = ny;
  c[2] = nz;
  c[3] = depth;
}
