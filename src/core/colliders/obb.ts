import { COLLIDER_DEFAULTS } from '../defaults.js';
import { checkNumber, toVec3, type Vec3, type Vec3Like } from '../math.js';
import type { Placement } from '../placement.js';
import type { ParticleStore } from '../particles.js';
import { toRotation, type RotationLike } from '../quaternion.js';
import { collides, makeContact, pushOut, setSurface, type Collider } from './collider.js';

/** A box of half extents `halfExtents` around `position`, turned by `rotation`. */
export interface ObbShape extends Placement {
  /** Shape name. */
  type: 'obb';
  /** Half the edge lengths along the local axes (m), each >= 0. */
  halfExtents: Vec3Like;
  /** Orientation about `position`: a quaternion `[x, y, z, w]` or Euler angles `[x, y, z]` in radians (see `RotationLike`). Default none. */
  rotation?: RotationLike;
  /** Surface friction coefficient, default 1. */
  friction?: number;
  /** Bounciness in [0, 1], default 0: a contact bounces with the larger of this and the particle's (see `respondToContacts`). */
  restitution?: number;
}

/**
 * A static oriented box. A particle is pushed out to the box grown by its radius
 * with rounded edges and corners (the exact Minkowski sum): from outside, away
 * from the nearest box point; from inside, through the face it is closest to.
 * Plain projection like this lets a fast particle that ends a substep past the
 * middle of a thin box leave through the far face; see `protectFromTunnelling`.
 *
 * @example
 * ```ts
 * world.addCollider({ type: 'obb', position: [0, 1, 0], halfExtents: [1, 0.05, 1], rotation: [0, 0, 0.2618] }); // a board tilted 15° about z
 * ```
 */
export class ObbCollider implements Collider {
  /** Shape name. */
  readonly type = 'obb';
  /** Centre of the box; move it with {@link ObbCollider.setPose}. */
  readonly center: Vec3;
  /** Half the edge lengths along the local axes (m). */
  readonly halfExtents: Vec3;
  /** Local axes in world space, 3 per axis: axes[3k..3k+2] is where local axis k points. */
  readonly axes = new Float64Array(9);
  /** Coulomb coefficient of the surface; a contact's μ is particle friction × this. */
  friction: number;
  /** Bounciness of the surface in [0, 1]; a contact bounces with the larger of this and the particle's. */
  restitution: number;
  private contact = makeContact();

  constructor(shape: ObbShape) {
    this.center = toVec3(shape.position ?? [0, 0, 0], 'obb collider: position');
    this.halfExtents = toVec3(shape.halfExtents, 'obb collider: halfExtents');
    for (let k = 0; k < 3; k++) {
      if (this.halfExtents[k]! < 0) throw new RangeError(`obb collider: halfExtents must be >= 0, got [${this.halfExtents.join(', ')}]`);
    }
    this.setRotation(shape.rotation ?? [0, 0, 0, 1], 'obb collider: rotation');
    this.friction = checkNumber(shape.friction ?? COLLIDER_DEFAULTS.friction, 'obb collider: friction', 0);
    this.restitution = checkNumber(shape.restitution ?? COLLIDER_DEFAULTS.restitution, 'obb collider: restitution', 0, 1);
  }

  /** Moves the box's centre to `position` and turns it to `rotation` (a quaternion or Euler angles, see `RotationLike`), e.g. to follow an animated object. */
  setPose(position: Vec3Like, rotation: RotationLike = [0, 0, 0, 1]): void {
    const c = toVec3(position, 'obb collider setPose: position');
    this.setRotation(rotation, 'obb collider setPose: rotation');
    for (let k = 0; k < 3; k++) this.center[k] = c[k]!;
  }

  /** Projects live, movable particles in `[from, to)` out of the box grown by their radius. */
  project(particles: ParticleStore, from: number, to: number): void {
    const pos = particles.position;
    const radius = particles.radius;
    const ax = this.axes;
    const cx = this.center[0]!;
    const cy = this.center[1]!;
    const cz = this.center[2]!;
    const hx = this.halfExtents[0]!;
    const hy = this.halfExtents[1]!;
    const hz = this.halfExtents[2]!;
    const contact = this.contact;
    setSurface(contact, this);
    for (let i = from; i < to; i++) {
      const p = i * 3;
      const wx = pos[p]! - cx;
      const wy = pos[p + 1]! - cy;
      const wz = pos[p + 2]! - cz;
      const lx = wx * ax[0]! + wy * ax[1]! + wz * ax[2]!;
      const ly = wx * ax[3]! + wy * ax[4]! + wz * ax[5]!;
      const lz = wx * ax[6]! + wy * ax[7]! + wz * ax[8]!;
      const r = radius[i]!;
      if (lx >= hx + r || lx <= -hx - r || ly >= hy + r || ly <= -hy - r || lz >= hz + r || lz <= -hz - r) continue;
      if (!collides(particles, i)) continue;
      const ox = lx > hx ? lx - hx : lx < -hx ? lx + hx : 0;
      const oy = ly > hy ? ly - hy : ly < -hy ? ly + hy : 0;
      const oz = lz > hz ? lz - hz : lz < -hz ? lz + hz : 0;
      const d2 = ox * ox + oy * oy + oz * oz;
      let nx: number;
      let ny: number;
      let nz: number;
      if (d2 > 0) {
        // Outside the core box: the nearest box point is unique, push away from it.
        if (d2 >= r * r) continue;
        const d = Math.sqrt(d2);
        nx = ox / d;
        ny = oy / d;
        nz = oz / d;
        contact[3] = r - d;
      } else {
        // Inside: leave through the face with the least penetration.
        const px = hx - Math.abs(lx);
        const py = hy - Math.abs(ly);
        const pz = hz - Math.abs(lz);
        nx = 0;
        ny = 0;
        nz = 0;
        if (px <= py && px <= pz) {
          nx = lx < 0 ? -1 : 1;
          contact[3] = px + r;
        } else if (py <= pz) {
          ny = ly < 0 ? -1 : 1;
          contact[3] = py + r;
        } else {
          nz = lz < 0 ? -1 : 1;
          contact[3] = pz + r;
        }
      }
      contact[0] = nx * ax[0]! + ny * ax[3]! + nz * ax[6]!;
      contact[1] = nx * ax[1]! + ny * ax[4]! + nz * ax[7]!;
      contact[2] = nx * ax[2]! + ny * ax[5]! + nz * ax[8]!;
      pushOut(particles, i, contact);
    }
  }

  private setRotation(rotation: RotationLike, what: string): void {
    const [x, y, z, w] = toRotation(rotation, what);
    const ax = this.axes;
    // Columns of the rotation matrix: the images of the local x, y and z axes.
    ax[0] = 1 - 2 * (y * y + z * z);
    ax[1] = 2 * (x * y + z * w);
    ax[2] = 2 * (x * z - y * w);
    ax[3] = 2 * (x * y - z * w);
    ax[4] = 1 - 2 * (x * x + z * z);
    ax[5] = 2 * (y * z + x * w);
    ax[6] = 2 * (x * z + y * w);
    ax[7] = 2 * (y * z - x * w);
    ax[8] = 1 - 2 * (x * x + y * y);
  }
}
