import { particleSlot } from '../ids.js';
import type { Vec3 } from '../math.js';
import { keepHemisphere, quatFromBasis, type Quat } from '../quaternion.js';
import type { World } from '../world.js';

/**
 * Where a limb is and how it is turned, for a renderer or a skinned mesh (paper
 * section 6: "the position and orientation for each limb are derived from the
 * particle positions using various cross products and vector normalizations").
 * Local axes: +y runs along the bone from `from` to `to` (three.js bones and
 * capsules are built along y), +z is the limb's front (the side a knee cap faces,
 * the inside of an elbow), +x = y × z. A stick figure does not simulate a limb's
 * twist about its length; the front is chosen so knees and elbows bend naturally.
 */
export interface LimbFrame {
  /** The limb's name (for a ragdoll, a `RagdollLimbName` such as `'leftThigh'`). */
  readonly name: string;
  /** Particle at the bone's start (the joint nearer the torso). */
  readonly from: number;
  /** Particle at the bone's end. */
  readonly to: number;
  /** Capsule radius (m). */
  readonly radius: number;
  /** The start joint: where a skinned mesh's bone sits. */
  readonly position: Vec3;
  /** Midpoint of the bone: where a capsule mesh sits. */
  readonly center: Vec3;
  /** Rotation from the limb's local axes to the world, `[x, y, z, w]`, continuous between updates. */
  readonly quaternion: Quat;
  /** The limb's local +x in world space (unit): y × z. */
  readonly xAxis: Vec3;
  /** The limb's local +y in world space (unit): along the bone from `from` to `to`. */
  readonly yAxis: Vec3;
  /** The limb's local +z in world space (unit): its front. */
  readonly zAxis: Vec3;
  /** Current bone length (m). */
  length: number;
}

/** A reference front: (left − right) × (high − low), particle ids. */
export interface FrontReference {
  /** Particle id on the figure's left (a left shoulder or hip). */
  left: number;
  /** Particle id on the figure's right. */
  right: number;
  /** Particle id at the lower end of the up direction (e.g. the chest, below the neck). */
  low: number;
  /** Particle id at the upper end of the up direction. */
  high: number;
}

/** What a limb frame is built from (particle ids). */
export interface LimbFrameSpec {
  /** Name given to the limb's frame. */
  name: string;
  /** Particle at the bone's start (the joint nearer the torso). */
  from: number;
  /** Particle at the bone's end. */
  to: number;
  /** Capsule radius (m). */
  radius: number;
  /** Index into the front references: the front a straight limb falls back on. */
  front: number;
  /**
   * The joint shared with a neighbouring bone and that bone's far end: the front is
   * `sign` × the part of (far − joint) across this bone (+1: the joint folds to the
   * front, an elbow; -1: it sticks out to the front, a knee).
   */
  bend?: { joint: number; far: number; sign: number };
}

/**
 * Weight of the reference front in a bent limb's front. A straight limb has no
 * bend to read a front from; the blend hands over smoothly, and for a joint that
 * bends the natural way both terms agree anyway.
 */
const REFERENCE_WEIGHT = 0.25;

/** Limb frames of a stick figure, refilled in place by {@link LimbFrames.update}. */
export class LimbFrames {
  /** One frame per spec, in the order given; refilled in place by `update`. */
  readonly frames: readonly LimbFrame[];
  private readonly specs: readonly LimbFrameSpec[];
  private readonly references: readonly FrontReference[];
  /** Unit front of each reference, xyz interleaved, refilled per update. */
  private readonly forward: Float64Array;
  private readonly basis = new Float64Array(9);
  private readonly previous: Quat = [0, 0, 0, 1];

  constructor(world: World, specs: readonly LimbFrameSpec[], references: readonly FrontReference[]) {
    // Read inside every frame update: slots, not ids (the frames keep the ids).
    this.specs = specs.map((s) => ({ ...s, from: particleSlot(s.from), to: particleSlot(s.to), bend: s.bend && { ...s.bend, joint: particleSlot(s.bend.joint), far: particleSlot(s.bend.far) } }));
    this.references = references.map((r) => ({ left: particleSlot(r.left), right: particleSlot(r.right), low: particleSlot(r.low), high: particleSlot(r.high) }));
    this.forward = new Float64Array(references.length * 3);
    this.frames = specs.map((s) => ({
      name: s.name,
      from: s.from,
      to: s.to,
      radius: s.radius,
      position: [0, 0, 0],
      center: [0, 0, 0],
      quaternion: [0, 0, 0, 1],
      xAxis: [1, 0, 0],
      yAxis: [0, 1, 0],
      zAxis: [0, 0, 1],
      length: 0,
    }));
    this.update(world);
  }

  /** Recomputes every frame from the particles. Allocates nothing. */
  update(world: World): readonly LimbFrame[] {
    const pos = world.particles.position;
    const forward = this.forward;
    for (let t = 0; t < this.references.length; t++) {
      const r = this.references[t]!;
      const sx = pos[r.left * 3]! - pos[r.right * 3]!;
      const sy = pos[r.left * 3 + 1]! - pos[r.right * 3 + 1]!;
      const sz = pos[r.left * 3 + 2]! - pos[r.right * 3 + 2]!;
      const ux = pos[r.high * 3]! - pos[r.low * 3]!;
      const uy = pos[r.high * 3 + 1]! - pos[r.low * 3 + 1]!;
      const uz = pos[r.high * 3 + 2]! - pos[r.low * 3 + 2]!;
      const fx = sy * uz - sz * uy;
      const fy = sz * ux - sx * uz;
      const fz = sx * uy - sy * ux;
      const length = Math.sqrt(fx * fx + fy * fy + fz * fz) || 1;
      forward[t * 3] = fx / length;
      forward[t * 3 + 1] = fy / length;
      forward[t * 3 + 2] = fz / length;
    }
    for (let i = 0; i < this.frames.length; i++) this.updateFrame(pos, i);
    return this.frames;
  }

  private updateFrame(pos: Float64Array, i: number): void {
    const spec = this.specs[i]!;
    const frame = this.frames[i]!;
    const a = spec.from * 3;
    const b = spec.to * 3;
    let yx = pos[b]! - pos[a]!;
    let yy = pos[b + 1]! - pos[a + 1]!;
    let yz = pos[b + 2]! - pos[a + 2]!;
    const length = Math.sqrt(yx * yx + yy * yy + yz * yz);
    frame.length = length;
    frame.position[0] = pos[a]!;
    frame.position[1] = pos[a + 1]!;
    frame.position[2] = pos[a + 2]!;
    frame.center[0] = (pos[a]! + pos[b]!) / 2;
    frame.center[1] = (pos[a + 1]! + pos[b + 1]!) / 2;
    frame.center[2] = (pos[a + 2]! + pos[b + 2]!) / 2;
    if (length > 0) {
      yx /= length;
      yy /= length;
      yz /= length;
    } else {
      yx = frame.yAxis[0];
      yy = frame.yAxis[1];
      yz = frame.yAxis[2];
    }
    const f = spec.front * 3;
    let zx = this.forward[f]! * REFERENCE_WEIGHT;
    let zy = this.forward[f + 1]! * REFERENCE_WEIGHT;
    let zz = this.forward[f + 2]! * REFERENCE_WEIGHT;
    const bend = spec.bend;
    if (bend !== undefined) {
      const j = bend.joint * 3;
      const k = bend.far * 3;
      const dx = pos[k]! - pos[j]!;
      const dy = pos[k + 1]! - pos[j + 1]!;
      const dz = pos[k + 2]! - pos[j + 2]!;
      const scale = bend.sign / (Math.sqrt(dx * dx + dy * dy + dz * dz) || 1);
      zx += dx * scale;
      zy += dy * scale;
      zz += dz * scale;
    }
    // Keep only the part across the bone, then normalise.
    let along = zx * yx + zy * yy + zz * yz;
    zx -= along * yx;
    zy -= along * yy;
    zz -= along * yz;
    let lz = Math.sqrt(zx * zx + zy * zy + zz * zz);
    if (lz < 1e-9) {
      // No front to read (the reference along the bone): keep the last one.
      zx = frame.zAxis[0];
      zy = frame.zAxis[1];
      zz = frame.zAxis[2];
      along = zx * yx + zy * yy + zz * yz;
      zx -= along * yx;
      zy -= along * yy;
      zz -= along * yz;
      lz = Math.sqrt(zx * zx + zy * zy + zz * zz);
      if (lz < 1e-9) {
        // Any direction across y will do.
        zx = Math.abs(yx) < 0.9 ? 0 : -yz;
        zy = Math.abs(yx) < 0.9 ? -yz : 0;
        zz = Math.abs(yx) < 0.9 ? yy : yx;
        lz = Math.sqrt(zx * zx + zy * zy + zz * zz);
      }
    }
    zx /= lz;
    zy /= lz;
    zz /= lz;
    const basis = this.basis;
    basis[0] = yy * zz - yz * zy;
    basis[1] = yz * zx - yx * zz;
    basis[2] = yx * zy - yy * zx;
    basis[3] = yx;
    basis[4] = yy;
    basis[5] = yz;
    basis[6] = zx;
    basis[7] = zy;
    basis[8] = zz;
    for (let k = 0; k < 3; k++) {
      frame.xAxis[k] = basis[k]!;
      frame.yAxis[k] = basis[3 + k]!;
      frame.zAxis[k] = basis[6 + k]!;
    }
    const q = frame.quaternion;
    const previous = this.previous;
    for (let k = 0; k < 4; k++) previous[k] = q[k]!;
    quatFromBasis(basis, q);
    keepHemisphere(q, previous);
  }
}
