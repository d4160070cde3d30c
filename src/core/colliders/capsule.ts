import { COLLIDER_DEFAULTS } from '../defaults.js';
import { checkNumber, toVec3, type Vec3, type Vec3Like } from '../math.js';
import type { ParticleStore } from '../particles.js';
import { collides, makeContact, pushOut, setSurface, type Collider } from './collider.js';

/** A capped cylinder: every point within `radius` of the segment from `a` to `b`. */
export interface CapsuleShape {
  /** Shape name. */
  type: 'capsule';
  /** One end of the capsule's axis. */
  a: Vec3Like;
  /** The other end of the axis (equal to `a` for a sphere). */
  b: Vec3Like;
  /** Radius around the axis (m), >= 0. */
  radius: number;
  /** Surface friction coefficient, default 1. */
  friction?: number;
  /** Bounciness in [0, 1], default 0: a contact bounces with the larger of this and the particle's (see `respondToContacts`). */
  restitution?: number;
}

/**
 * A static capsule (the paper's capped cylinder, section 6). A particle closer
 * to the axis than capsule radius + particle radius is pushed straight away from
 * the nearest axis point to that distance. `a === b` makes it a sphere.
 *
 * @example
 * ```ts
 * world.addCollider({ type: 'capsule', a: [-1, 0.5, 0], b: [1, 0.5, 0], radius: 0.2 }); // a horizontal bar
 * ```
 */
export class CapsuleCollider implements Collider {
  /** Shape name. */
  readonly type = 'capsule';
  /** The axis's end points; change them with {@link CapsuleCollider.set}. */
  readonly a: Vec3;
  /** The axis's other end point; change it with {@link CapsuleCollider.set}. */
  readonly b: Vec3;
  /** Radius around the axis (m). */
  radius: number;
  /** Coulomb coefficient of the surface; a contact's μ is particle friction × this. */
  friction: number;
  /** Bounciness of the surface in [0, 1]; a contact bounces with the larger of this and the particle's. */
  restitution: number;
  private contact = makeContact();

  constructor(shape: CapsuleShape) {
    this.a = toVec3(shape.a, 'capsule collider: a');
    this.b = toVec3(shape.b, 'capsule collider: b');
    this.radius = checkNumber(shape.radius, 'capsule collider: radius', 0);
    this.friction = checkNumber(shape.friction ?? COLLIDER_DEFAULTS.friction, 'capsule collider: friction', 0);
    this.restitution = checkNumber(shape.restitution ?? COLLIDER_DEFAULTS.restitution, 'capsule collider: restitution', 0, 1);
  }

  /** Moves the capsule (e.g. to follow an animated object); `radius` is kept when omitted. */
  set(a: Vec3Like, b: Vec3Like, radius = this.radius): void {
    const na = toVec3(a, 'capsule collider set: a');
    const nb = toVec3(b, 'capsule collider set: b');
    this.radius = checkNumber(radius, 'capsule collider set: radius', 0);
    for (let k = 0; k < 3; k++) {
      this.a[k] = na[k]!;
      this.b[k] = nb[k]!;
    }
  }

  /** Projects live, movable particles in `[from, to)` out of the capsule. */
  project(particles: ParticleStore, from: number, to: number): void {
    const ax = this.a[0]!;
    const ay = this.a[1]!;
    const az = this.a[2]!;
    const dx = this.b[0]! - ax;
    const dy = this.b[1]! - ay;
    const dz = this.b[2]! - az;
    const len2 = dx * dx + dy * dy + dz * dz;
    const contact = this.contact;
    setSurface(contact, this);
    const pos = particles.position;
    const radius = particles.radius;
    for (let i = from; i < to; i++) {
      const p = i * 3;
      const px = pos[p]! - ax;
      const py = pos[p + 1]! - ay;
      const pz = pos[p + 2]! - az;
      let t = len2 > 0 ? (px * dx + py * dy + pz * dz) / len2 : 0;
      t = t < 0 ? 0 : t > 1 ? 1 : t;
      const ox = px - t * dx;
      const oy = py - t * dy;
      const oz = pz - t * dz;
      const d2 = ox * ox + oy * oy + oz * oz;
      const limit = this.radius + radius[i]!;
      if (d2 >= limit * limit || !collides(particles, i)) continue;
      const d = Math.sqrt(d2);
      if (d > 0) {
        contact[0] = ox / d;
        contact[1] = oy / d;
        contact[2] = oz / d;
      } else {
        // On the axis there is no outward direction; any perpendicular will do.
        perpendicular(contact, dx, dy, dz);
      }
      contact[3] = limit - d;
      pushOut(particles, i, contact);
    }
  }
}

/** Writes into c[0..2] a unit vector perpendicular to (dx, dy, dz) (up when that is zero). */
function perpendicular(c: Float64Array, dx: number, dy: number, dz: number): void {
  // Cross with the world axis least aligned with d.
  const ax = Math.abs(dx);
  const ay = Math.abs(dy);
  const az = Math.abs(dz);
  let x: number;
  let y: number;
  let z: number;
  if (ax + ay + az === 0) {
    x = 0;
    y = 1;
    z = 0;
  } else if (ay <= ax && ay <= az) {
    // d × (0, 1, 0)
    x = -dz;
    y = 0;
    z = dx;
  } else if (ax <= az) {
    // d × (1, 0, 0)
    x = 0;
    y = dz;
    z = -dy;
  } else {
    // d × (0, 0, 1)
    x = dy;
    y = -dx;
    z = 0;
  }
  const l = Math.sqrt(x * x + y * y + z * z);
  c[0] = x / l;
  c[1] = y / l;
  c[2] = z / l;
}
