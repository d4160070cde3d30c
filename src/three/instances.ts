import { particleSlot } from '../core/ids.js';
import { Sphere, type InstancedMesh } from 'three';
import type { World } from '../core/world.js';
import { fitBounds } from './bounds.js';
import { composeInto } from './matrices.js';
import type { Blend } from './positions.js';

/** Translation, rotation and scale handed to `composeInto` (see there for why an array). */
const trs = new Float64Array(10);

/**
 * Writes one instance per particle of `[first, first + count)` into `mesh`: a
 * translation to the particle (blended by `blend.alpha`) and a uniform scale of its
 * collision radius, or `radius` when given. Draw it with a unit sphere. Sets
 * `mesh.count` and keeps `mesh.boundingSphere` around the instances so frustum
 * culling sees where they are. Allocates nothing after the first call.
 *
 * @example
 * ```ts
 * useFrame(() => writeParticleInstances(balls.current, world, rope.first, rope.count, frame));
 * ```
 */
export function writeParticleInstances(mesh: InstancedMesh, world: World, first: number, count: number, blend: Blend, radius?: number): void {
  const alpha = blend.alpha;
  const out = mesh.instanceMatrix.array as Float32Array;
  const n = Math.min(count, out.length / 16);
  const p = world.positions;
  const s = world.stepStartPositions;
  const radii = world.particles.radius;
  // The columns are indexed by slot; `first` is an id, which carries its slot's generation.
  const slot = particleSlot(first);
  let largest = 0;
  for (let i = 0; i < n; i++) {
    const k = (slot + i) * 3;
    const x = alpha >= 1 ? p[k]! : s[k]! + (p[k]! - s[k]!) * alpha;
    const y = alpha >= 1 ? p[k + 1]! : s[k + 1]! + (p[k + 1]! - s[k + 1]!) * alpha;
    const z = alpha >= 1 ? p[k + 2]! : s[k + 2]! + (p[k + 2]! - s[k + 2]!) * alpha;
    const r = radius ?? radii[slot + i]!;
    if (r > largest) largest = r;
    trs[0] = x;
    trs[1] = y;
    trs[2] = z;
    trs[3] = trs[4] = trs[5] = 0;
    trs[6] = 1;
    trs[7] = trs[8] = trs[9] = r;
    composeInto(out, i * 16, trs);
  }
  mesh.count = n;
  mesh.instanceMatrix.needsUpdate = true;
  fitInstances(mesh, n);
  // Instances are unit shapes scaled by at most `largest`, so their translations grown by it bound them.
  mesh.boundingSphere!.radius += largest;
}

/** A limb drawn as a capsule: particles `from` and `to` are the ends of its axis (a ragdoll's limbs qualify). */
export interface CapsuleLimb {
  /** Particle id at one end of the capsule's axis. */
  readonly from: number;
  /** Particle id at the other end. */
  readonly to: number;
  /** Capsule radius (m). */
  readonly radius: number;
}

/**
 * Draws capsules between particle pairs with two instanced meshes: `cylinders`
 * (a unit cylinder: radius 1, height 1 along y) gets one instance per limb,
 * stretched between the ends; `caps` (a unit sphere) gets two per limb, one at
 * each end. Scaling one capsule mesh would squash its round ends; a cylinder
 * plus two balls stays round at any length. Allocates nothing.
 *
 * @example
 * ```ts
 * writeCapsuleInstances(cylinders, caps, world, ragdoll.limbs, frame);
 * ```
 */
export function writeCapsuleInstances(cylinders: InstancedMesh, caps: InstancedMesh, world: World, limbs: readonly CapsuleLimb[], blend: Blend): void {
  const alpha = blend.alpha;
  const cyl = cylinders.instanceMatrix.array as Float32Array;
  const ends = caps.instanceMatrix.array as Float32Array;
  const n = Math.min(limbs.length, cyl.length / 16, ends.length / 32);
  const p = world.positions;
  const s = world.stepStartPositions;
  let largest = 0;
  for (let i = 0; i < n; i++) {
    const limb = limbs[i]!;
    const a = particleSlot(limb.from) * 3;
    const b = particleSlot(limb.to) * 3;
    const ax = alpha >= 1 ? p[a]! : s[a]! + (p[a]! - s[a]!) * alpha;
    const ay = alpha >= 1 ? p[a + 1]! : s[a + 1]! + (p[a + 1]! - s[a + 1]!) * alpha;
    const az = alpha >= 1 ? p[a + 2]! : s[a + 2]! + (p[a + 2]! - s[a + 2]!) * alpha;
    const bx = alpha >= 1 ? p[b]! : s[b]! + (p[b]! - s[b]!) * alpha;
    const by = alpha >= 1 ? p[b + 1]! : s[b + 1]! + (p[b + 1]! - s[b + 1]!) * alpha;
    const bz = alpha >= 1 ? p[b + 2]! : s[b + 2]! + (p[b + 2]! - s[b + 2]!) * alpha;
    const r = limb.radius;
    if (r > largest) largest = r;
    let dx = bx - ax;
    let dy = by - ay;
    let dz = bz - az;
    const len = Math.sqrt(dx * dx + dy * dy + dz * dz);
    if (len > 1e-12) {
      dx /= len;
      dy /= len;
      dz /= len;
    } else {
      dx = 0;
      dy = 1;
      dz = 0;
    }
    // The shortest rotation taking +y to d: axis y × d = (dz, 0, -dx), w = 1 + y·d.
    let qx = dz;
    const qy = 0;
    let qz = -dx;
    let qw = 1 + dy;
    const ql = Math.sqrt(qx * qx + qz * qz + qw * qw);
    if (ql < 1e-9) {
      // d points straight down: half a turn about x.
      qx = 1;
      qz = 0;
      qw = 0;
    } else {
      qx /= ql;
      qz /= ql;
      qw /= ql;
    }
    trs[0] = (ax + bx) / 2;
    trs[1] = (ay + by) / 2;
    trs[2] = (az + bz) / 2;
    trs[3] = qx;
    trs[4] = qy;
    trs[5] = qz;
    trs[6] = qw;
    trs[7] = trs[9] = r;
    trs[8] = len;
    composeInto(cyl, i * 16, trs);
    trs[0] = ax;
    trs[1] = ay;
    trs[2] = az;
    trs[3] = trs[4] = trs[5] = 0;
    trs[6] = 1;
    trs[7] = trs[8] = trs[9] = r;
    composeInto(ends, i * 32, trs);
    trs[0] = bx;
    trs[1] = by;
    trs[2] = bz;
    composeInto(ends, i * 32 + 16, trs);
  }
  cylinders.count = n;
  caps.count = n * 2;
  cylinders.instanceMatrix.needsUpdate = true;
  caps.instanceMatrix.needsUpdate = true;
  // Every capsule lies within its two end balls' hull, so the balls bound both meshes.
  fitInstances(caps, n * 2);
  caps.boundingSphere!.radius += largest;
  if (!cylinders.boundingSphere) cylinders.boundingSphere = new Sphere();
  cylinders.boundingSphere.copy(caps.boundingSphere!);
}

/** Fits `mesh.boundingSphere` around the translations of its first `count` instances. */
function fitInstances(mesh: InstancedMesh, count: number): void {
  if (!mesh.boundingSphere) mesh.boundingSphere = new Sphere();
  fitBounds(mesh.instanceMatrix.array, count, mesh.boundingSphere, null, 16, 12);
}
