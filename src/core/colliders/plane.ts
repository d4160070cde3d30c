import { COLLIDER_DEFAULTS } from '../defaults.js';
import { checkNumber, toVec3, type Vec3, type Vec3Like } from '../math.js';
import type { ParticleStore } from '../particles.js';
import { collides, makeContact, pushOut, setSurface, type Collider } from './collider.js';

/** A half-space: points x with normal·x >= offset are outside (free). */
export interface PlaneShape {
  /** Shape name. */
  type: 'plane';
  /** Points out of the solid side; normalised on construction. */
  normal: Vec3Like;
  /** Distance of the plane from the origin along the normal (m): the plane is normal·x = offset. */
  offset: number;
  /** Surface friction coefficient, default 1. */
  friction?: number;
  /** Bounciness in [0, 1], default 0: a contact bounces with the larger of this and the particle's (see `respondToContacts`). */
  restitution?: number;
}

/** An infinite plane; everything below it is solid, so nothing tunnels through. */
export class PlaneCollider implements Collider {
  /** Shape name. */
  readonly type = 'plane';
  /** Unit normal, pointing out of the solid side. */
  readonly normal: Vec3;
  /** The plane is normal·x = offset (m); points with normal·x < offset are inside the solid. */
  offset: number;
  /** Coulomb coefficient of the surface; a contact's μ is particle friction × this. */
  friction: number;
  /** Bounciness of the surface in [0, 1]; a contact bounces with the larger of this and the particle's. */
  restitution: number;
  private contact = makeContact();

  constructor(shape: PlaneShape) {
    const n = toVec3(shape.normal, 'plane collider: normal');
    const len = Math.hypot(n[0], n[1], n[2]);
    if (len === 0) throw new RangeError('plane collider: normal must not be [0, 0, 0]');
    this.normal = [n[0] / len, n[1] / len, n[2] / len];
    this.offset = checkNumber(shape.offset, 'plane collider: offset');
    this.friction = checkNumber(shape.friction ?? COLLIDER_DEFAULTS.friction, 'plane collider: friction', 0);
    this.restitution = checkNumber(shape.restitution ?? COLLIDER_DEFAULTS.restitution, 'plane collider: restitution', 0, 1);
  }

  /** Projects live, movable particles in `[from, to)` out of the solid side. */
  project(particles: ParticleStore, from: number, to: number): void {
    const nx = this.normal[0]!;
    const ny = this.normal[1]!;
    const nz = this.normal[2]!;
    const contact = this.contact;
    contact[0] = nx;
    contact[1] = ny;
    contact[2] = nz;
    setSurface(contact, this);
    const pos = particles.position;
    const radius = particles.radius;
    for (let i = from; i < to; i++) {
      const p = i * 3;
      const depth = this.offset + radius[i]! - (nx * pos[p]! + ny * pos[p + 1]! + nz * pos[p + 2]!);
      if (depth > 0 && collides(particles, i)) {
        contact[3] = depth;
        pushOut(particles, i, contact);
      }
    }
  }
}
