import type { Vec3, Vec3Like } from '../math.js';
import type { Quat, QuatLike } from '../quaternion.js';

/**
 * The pose of a moving object (position, orientation, scale) as the simulation
 * sees it between two frames. The object's pose arrives once per frame
 * ({@link PoseTrack.set}); the frame's steps and substeps then see it move from
 * where it was when the frame began to that goal in equal parts (position and
 * scale lerped, rotation slerped), so a fast object does not yank what hangs on
 * it in the frame's first substep. {@link PoseTrack.sample} writes the pose at
 * {@link PoseTrack.share} into the `position`/`quaternion`/`scale` fields;
 * {@link PoseTrack.toWorld} maps a local point through it.
 *
 * Nothing here allocates, and the hot calls take no number arguments (a double
 * passed to a call V8 does not inline is boxed): set `share`, then `sample()`.
 *
 * @example
 * ```ts
 * const track = new PoseTrack([0, 1, 0], [0, 0, 0, 1]);
 * track.set([1, 1, 0], [0, 0, 0, 1]); // this frame's pose
 * track.share = 0.5;
 * track.sample(); // track.position is [0.5, 1, 0]
 * ```
 */
export class PoseTrack {
  /** The pose when the current frame began. */
  readonly fromPosition: Vec3 = [0, 0, 0];
  readonly fromQuaternion: Quat = [0, 0, 0, 1];
  readonly fromScale: Vec3 = [1, 1, 1];
  /** The pose the frame ends at. */
  readonly goalPosition: Vec3 = [0, 0, 0];
  readonly goalQuaternion: Quat = [0, 0, 0, 1];
  readonly goalScale: Vec3 = [1, 1, 1];
  /** The sampled pose (written by {@link PoseTrack.sample}). */
  readonly position: Vec3 = [0, 0, 0];
  readonly quaternion: Quat = [0, 0, 0, 1];
  readonly scale: Vec3 = [1, 1, 1];
  /** How far through the frame {@link PoseTrack.sample} samples: 0 is the frame's start pose, 1 its goal. */
  share = 1;
  /** True from a {@link PoseTrack.set} that changed the goal until {@link PoseTrack.arrive}. */
  moving = false;

  /** @param who names the owner in errors, e.g. `"Attachment"`. */
  constructor(position: Vec3Like, quaternion: QuatLike, scale: Vec3Like = ONE, who = 'PoseTrack') {
    this.set(position, quaternion, scale, who);
    this.arrive();
    this.share = 1;
    this.sample();
  }

  /**
   * The frame's goal pose; checked, copied without allocating (called every
   * frame). A quaternion is normalised; `scale` defaults to the current goal's.
   */
  set(position: Vec3Like, quaternion: QuatLike, scale?: Vec3Like, who = 'PoseTrack'): void {
    // The names are joined only for an error: a template string here would allocate every frame.
    readVec3(position, this.goalPosition, who, 'position');
    readQuat(quaternion, this.goalQuaternion, who, 'quaternion');
    if (scale !== undefined) readVec3(scale, this.goalScale, who, 'scale');
    // The shorter way round: q and −q are the same rotation, the slerp must not take the long arc.
    const f = this.fromQuaternion;
    const g = this.goalQuaternion;
    if (f[0] * g[0] + f[1] * g[1] + f[2] * g[2] + f[3] * g[3] < 0) for (let k = 0; k < 4; k++) g[k] = -g[k]!;
    this.moving = !this.atGoal();
  }

  /** The track as 32 numbers (start, goal and sampled poses, share, moving), for snapshots. */
  save(): Float64Array {
    const out = new Float64Array(32);
    const parts = [this.fromPosition, this.fromQuaternion, this.fromScale, this.goalPosition, this.goalQuaternion, this.goalScale, this.position, this.quaternion, this.scale];
    let o = 0;
    for (const part of parts) for (let k = 0; k < part.length; k++) out[o++] = part[k]!;
    out[30] = this.share;
    out[31] = this.moving ? 1 : 0;
    return out;
  }

  /** Returns to what {@link PoseTrack.save} gave. */
  load(saved: Float64Array): void {
    const parts = [this.fromPosition, this.fromQuaternion, this.fromScale, this.goalPosition, this.goalQuaternion, this.goalScale, this.position, this.quaternion, this.scale];
    let o = 0;
    for (const part of parts) for (let k = 0; k < part.length; k++) part[k] = saved[o++]!;
    this.share = saved[30]!;
    this.moving = saved[31] === 1;
  }

  /** The frame is over: the goal becomes the start of the next one. */
  arrive(): void {
    for (let k = 0; k < 3; k++) {
      this.fromPosition[k] = this.goalPosition[k]!;
      this.fromScale[k] = this.goalScale[k]!;
    }
    for (let k = 0; k < 4; k++) this.fromQuaternion[k] = this.goalQuaternion[k]!;
    this.moving = false;
  }

  /** Writes the pose at {@link PoseTrack.share} of the way from the frame's start to its goal. */
  sample(): void {
    const t = this.share;
    for (let k = 0; k < 3; k++) {
      this.position[k] = this.fromPosition[k]! + (this.goalPosition[k]! - this.fromPosition[k]!) * t;
      this.scale[k] = this.fromScale[k]! + (this.goalScale[k]! - this.fromScale[k]!) * t;
    }
    const a = this.fromQuaternion;
    const b = this.goalQuaternion;
    const q = this.quaternion;
    const cos = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
    let wa = 1 - t;
    let wb = t;
    // Nearly the same rotation: sin θ → 0 and the lerp is exact to rounding (normalised below).
    if (cos < 0.9999) {
      const theta = Math.acos(Math.min(cos, 1));
      const sin = Math.sin(theta);
      wa = Math.sin((1 - t) * theta) / sin;
      wb = Math.sin(t * theta) / sin;
    }
    let length = 0;
    for (let k = 0; k < 4; k++) {
      q[k] = a[k]! * wa + b[k]! * wb;
      length += q[k]! * q[k]!;
    }
    length = Math.sqrt(length);
    for (let k = 0; k < 4; k++) q[k] = q[k]! / length;
  }

  /** `out` = the sampled pose applied to the local point `local` (scale, then rotation, then translation). */
  toWorld(local: Readonly<Vec3>, out: Vec3): void {
    const vx = local[0] * this.scale[0];
    const vy = local[1] * this.scale[1];
    const vz = local[2] * this.scale[2];
    const q = this.quaternion;
    const qx = q[0];
    const qy = q[1];
    const qz = q[2];
    const qw = q[3];
    // t = 2 q⃗ × v;  v' = v + w t + q⃗ × t
    const tx = 2 * (qy * vz - qz * vy);
    const ty = 2 * (qz * vx - qx * vz);
    const tz = 2 * (qx * vy - qy * vx);
    out[0] = this.position[0] + vx + qw * tx + qy * tz - qz * ty;
    out[1] = this.position[1] + vy + qw * ty + qz * tx - qx * tz;
    out[2] = this.position[2] + vz + qw * tz + qx * ty - qy * tx;
  }

  /** `out` = the local point that the sampled pose maps onto the world point `point`. */
  toLocal(point: Readonly<Vec3>, out: Vec3): void {
    const dx = point[0] - this.position[0];
    const dy = point[1] - this.position[1];
    const dz = point[2] - this.position[2];
    const q = this.quaternion;
    const qx = q[0];
    const qy = q[1];
    const qz = q[2];
    const qw = q[3];
    // The inverse rotation is the conjugate's: q⃗ negated.
    const tx = 2 * (-qy * dz + qz * dy);
    const ty = 2 * (-qz * dx + qx * dz);
    const tz = 2 * (-qx * dy + qy * dx);
    out[0] = (dx + qw * tx - qy * tz + qz * ty) / this.scale[0];
    out[1] = (dy + qw * ty - qz * tx + qx * tz) / this.scale[1];
    out[2] = (dz + qw * tz - qx * ty + qy * tx) / this.scale[2];
  }

  private atGoal(): boolean {
    for (let k = 0; k < 3; k++) if (this.fromPosition[k] !== this.goalPosition[k] || this.fromScale[k] !== this.goalScale[k]) return false;
    for (let k = 0; k < 4; k++) if (this.fromQuaternion[k] !== this.goalQuaternion[k]) return false;
    return true;
  }
}

const ONE: Vec3Like = [1, 1, 1];

/** Copies a checked vector into `out` without allocating; the error names `who` and `name` and shows the value. */
export function readVec3(v: Vec3Like, out: Vec3, who: string, name: string): void {
  if (typeof v !== 'object' || v === null) throw new TypeError(`${who}: ${name} must be [x, y, z] or {x, y, z}, got ${String(v)}`);
  const isArray = Array.isArray(v);
  if (isArray && (v as readonly number[]).length !== 3) throw new TypeError(`${who}: ${name} must have 3 components, got ${(v as readonly number[]).length}`);
  const o = v as { x: number; y: number; z: number };
  const x = isArray ? (v as readonly number[])[0]! : o.x;
  const y = isArray ? (v as readonly number[])[1]! : o.y;
  const z = isArray ? (v as readonly number[])[2]! : o.z;
  if (typeof x !== 'number' || typeof y !== 'number' || typeof z !== 'number' || !Number.isFinite(x + y + z)) throw new RangeError(`${who}: ${name} must be finite numbers, got [${x}, ${y}, ${z}]`);
  out[0] = x;
  out[1] = y;
  out[2] = z;
}

/** Copies a checked quaternion into `out`, normalised, without allocating. */
export function readQuat(q: QuatLike, out: Quat, who: string, name: string): void {
  if (typeof q !== 'object' || q === null) throw new TypeError(`${who}: ${name} must be [x, y, z, w] or {x, y, z, w}, got ${String(q)}`);
  const isArray = Array.isArray(q);
  if (isArray && (q as readonly number[]).length !== 4) throw new TypeError(`${who}: ${name} must have 4 components, got ${(q as readonly number[]).length}`);
  const o = q as { x: number; y: number; z: number; w: number };
  const x = isArray ? (q as readonly number[])[0]! : o.x;
  const y = isArray ? (q as readonly number[])[1]! : o.y;
  const z = isArray ? (q as readonly number[])[2]! : o.z;
  const w = isArray ? (q as readonly number[])[3]! : o.w;
  if (typeof x !== 'number' || typeof y !== 'number' || typeof z !== 'number' || typeof w !== 'number' || !Number.isFinite(x + y + z + w))
    throw new RangeError(`${who}: ${name} must be finite numbers, got [${x}, ${y}, ${z}, ${w}]`);
  // Not Math.hypot: V8's builtin allocates for its arguments, and this runs every frame.
  const length = Math.sqrt(x * x + y * y + z * z + w * w);
  if (length === 0) throw new RangeError(`${who}: ${name} must not be [0, 0, 0, 0]`);
  out[0] = x / length;
  out[1] = y / length;
  out[2] = z / length;
  out[3] = w / length;
}
