import { particleSlot } from '../ids.js';
import type { Vec3 } from '../math.js';
import { ParticleFlag } from '../particles.js';
import { keepHemisphere, quatFromBasis, type Quat } from '../quaternion.js';
import type { World } from '../world.js';

/**
 * The transform of a rigid body made of particles, extracted from them (course
 * notes, "Rigidbodies as emerging behaviour"). Read-back objects are refilled in
 * place, so a renderer can keep one per body and read it every frame.
 */
export interface RigidTransform {
  /** Total mass m = Σ mᵢ (kg): the body's own share of each particle's mass. */
  mass: number;
  /** Centre of mass p = Σ mᵢ pᵢ / m. */
  position: Vec3;
  /**
   * Orientation relative to the body's local frame, a unit quaternion `[x, y, z, w]`.
   * Each read takes the sign nearer the previous read's, so read at least every
   * half turn (every frame does) and it is continuous in time.
   */
  quaternion: Quat;
  /** Where the body's local origin is now (p − q·c, with c the centre of mass in local coordinates): put a mesh here. */
  origin: Vec3;
  /** Velocity of the centre of mass v = Σ mᵢ vᵢ / m, with the Verlet velocities vᵢ = (xᵢ − xᵢ*) / h. */
  velocity: Vec3;
  /** Angular velocity ω = I⁻¹ L about the centre of mass (rad/s): the rigid motion that best fits the particle velocities. */
  angularVelocity: Vec3;
}

/** A fresh, identity {@link RigidTransform}. */
export function makeRigidTransform(): RigidTransform {
  return { mass: 0, position: [0, 0, 0], quaternion: [0, 0, 0, 1], origin: [0, 0, 0], velocity: [0, 0, 0], angularVelocity: [0, 0, 0] };
}

/**
 * The fixed data needed to read a transform back: particle ids, the body's masses
 * and its rest shape. Built once per body; {@link RigidShape.read} allocates nothing.
 */
export class RigidShape {
  /** Particle id of each vertex. */
  readonly vertices: Int32Array;
  /** Weight of each vertex in the centre of mass: the body's own mass there (kg), or 1 for an immovable body. */
  readonly masses: Float64Array;
  /** Total mass (kg); Infinity for an immovable body. */
  readonly mass: number;
  /** Σ masses. */
  private readonly weight: number;
  /** Centre of mass in local coordinates. */
  readonly localCenter: Vec3;
  /** Vertex offsets from the centre of mass in local coordinates, xyz interleaved. */
  readonly offsets: Float64Array;
  /**
   * Local indices of the three vertices whose frame (Gram–Schmidt on two edges)
   * gives the orientation: chosen far apart and far from collinear, so particle
   * errors tilt it least.
   */
  readonly reference: readonly [number, number, number];
  /** The reference frame in the rest pose, columns x, y, z. */
  private readonly restBasis = new Float64Array(9);

  /**
   * @param vertices particle id of each vertex
   * @param local vertex positions in the body's local frame, xyz interleaved
   * @param masses the body's mass at each vertex (kg, > 0)
   * @param immovable the particles are immovable: `masses` only weight the centre and `mass` reads Infinity
   */
  constructor(vertices: ArrayLike<number>, local: ArrayLike<number>, masses: ArrayLike<number>, immovable = false, what = 'RigidShape') {
    const n = vertices.length;
    if (n < 3 || local.length !== n * 3 || masses.length !== n)
      throw new RangeError(`${what}: needs 3 or more vertices with 3 coordinates and one mass each, got ${n} vertices, ${local.length} coordinates, ${masses.length} masses`);
    this.vertices = Int32Array.from(vertices);
    this.masses = Float64Array.from(masses);
    let mass = 0;
    const c: Vec3 = [0, 0, 0];
    for (let i = 0; i < n; i++) {
      const m = this.masses[i]!;
      if (!(m > 0 && Number.isFinite(m))) throw new RangeError(`${what}: vertex masses must be finite numbers > 0, got ${m} at vertex ${i}`);
      mass += m;
      for (let k = 0; k < 3; k++) c[k] = c[k]! + m * local[i * 3 + k]!;
    }
    for (let k = 0; k < 3; k++) c[k] = c[k]! / mass;
    this.weight = mass;
    this.mass = immovable ? Infinity : mass;
    this.localCenter = c;
    this.offsets = new Float64Array(n * 3);
    for (let i = 0; i < n; i++) for (let k = 0; k < 3; k++) this.offsets[i * 3 + k] = local[i * 3 + k]! - c[k]!;
    this.reference = chooseReference(this.offsets, what);
    basisOf(this.offsets, this.reference[0] * 3, this.reference[1] * 3, this.reference[2] * 3, this.restBasis);
  }

  /**
   * Refills `out` from the particles' current positions and velocities. The
   * orientation keeps the sign of `out.quaternion`'s previous value.
   */
  read(world: World, out: RigidTransform): RigidTransform {
    const pos = world.particles.position;
    const prev = world.particles.previous;
    // The substep the solver runs (fewer substeps under a time budget); read outside a step too, so the world's, not the step context's.
    const h = world.substep;
    const vertices = this.vertices;
    const masses = this.masses;
    const n = vertices.length;
    let cx = 0;
    let cy = 0;
    let cz = 0;
    let vx = 0;
    let vy = 0;
    let vz = 0;
    for (let i = 0; i < n; i++) {
      const p = vertices[i]! * 3;
      const m = masses[i]!;
      cx += m * pos[p]!;
      cy += m * pos[p + 1]!;
      cz += m * pos[p + 2]!;
      vx += m * (pos[p]! - prev[p]!);
      vy += m * (pos[p + 1]! - prev[p + 1]!);
      vz += m * (pos[p + 2]! - prev[p + 2]!);
    }
    const mass = this.weight;
    cx /= mass;
    cy /= mass;
    cz /= mass;
    vx /= mass * h;
    vy /= mass * h;
    vz /= mass * h;
    out.mass = this.mass;
    out.position[0] = cx;
    out.position[1] = cy;
    out.position[2] = cz;
    out.velocity[0] = vx;
    out.velocity[1] = vy;
    out.velocity[2] = vz;
    this.readOrientation(world, out);
    this.readAngularVelocity(world, out);
    return out;
  }

  /** q = R·R₀ᵀ with R and R₀ the reference frames now and at rest; origin = p − q·c. */
  private readOrientation(world: World, out: RigidTransform): void {
    const reference = this.reference;
    const vertices = this.vertices;
    const now = scratch;
    basisOf(world.particles.position, vertices[reference[0]]! * 3, vertices[reference[1]]! * 3, vertices[reference[2]]! * 3, now);
    const rest = this.restBasis;
    const rotation = scratchRotation;
    for (let row = 0; row < 3; row++) {
      for (let col = 0; col < 3; col++) {
        // (R R₀ᵀ)[row][col] = Σₖ R[row][k] R₀[col][k]; columns are stored contiguously.
        rotation[col * 3 + row] = now[row]! * rest[col]! + now[3 + row]! * rest[3 + col]! + now[6 + row]! * rest[6 + col]!;
      }
    }
    const q = out.quaternion;
    const px = q[0];
    const py = q[1];
    const pz = q[2];
    const pw = q[3];
    quatFromBasis(rotation, q);
    previousQuat[0] = px;
    previousQuat[1] = py;
    previousQuat[2] = pz;
    previousQuat[3] = pw;
    keepHemisphere(q, previousQuat);
    const c = this.localCenter;
    for (let k = 0; k < 3; k++) out.origin[k] = out.position[k]! - (rotation[k]! * c[0] + rotation[3 + k]! * c[1] + rotation[6 + k]! * c[2]);
  }

  /**
   * ω = I⁻¹ L with L = Σ mᵢ rᵢ × vᵢ and I = Σ mᵢ (|rᵢ|² 1 − rᵢ rᵢᵀ) about the centre
   * of mass: exact for a rigid motion vᵢ = v + ω × rᵢ, and the least-squares fit otherwise.
   */
  // Takes the world, not h: a double passed to a call V8 does not inline is boxed (an allocation per read).
  private readAngularVelocity(world: World, out: RigidTransform): void {
    const pos = world.particles.position;
    const prev = world.particles.previous;
    const h = world.substep;
    const cx = out.position[0];
    const cy = out.position[1];
    const cz = out.position[2];
    const ux = out.velocity[0] * h;
    const uy = out.velocity[1] * h;
    const uz = out.velocity[2] * h;
    const mo = moments;
    mo.fill(0);
    const vertices = this.vertices;
    for (let i = 0; i < vertices.length; i++) {
      const p = vertices[i]! * 3;
      const m = this.masses[i]!;
      const rx = pos[p]! - cx;
      const ry = pos[p + 1]! - cy;
      const rz = pos[p + 2]! - cz;
      // Displacement over the substep relative to the centre of mass (÷h below).
      const dx = pos[p]! - prev[p]! - ux;
      const dy = pos[p + 1]! - prev[p + 1]! - uy;
      const dz = pos[p + 2]! - prev[p + 2]! - uz;
      mo[0] = mo[0]! + m * (ry * dz - rz * dy);
      mo[1] = mo[1]! + m * (rz * dx - rx * dz);
      mo[2] = mo[2]! + m * (rx * dy - ry * dx);
      mo[3] = mo[3]! + m * (ry * ry + rz * rz);
      mo[4] = mo[4]! + m * (rx * rx + rz * rz);
      mo[5] = mo[5]! + m * (rx * rx + ry * ry);
      mo[6] = mo[6]! - m * rx * ry;
      mo[7] = mo[7]! - m * rx * rz;
      mo[8] = mo[8]! - m * ry * rz;
    }
    solveSpin(out.angularVelocity);
    // The displacements were per substep: ω per second.
    for (let k = 0; k < 3; k++) out.angularVelocity[k] = out.angularVelocity[k]! / h;
  }
}

const scratch = new Float64Array(9);
/**
 * Angular momentum L (x, y, z) and inertia tensor I (xx, yy, zz, xy, xz, yz) about
 * a centre of mass, summed in place by the read-back and the damping (a module
 * array: doubles handed to a call V8 does not inline would be boxed).
 */
const moments = new Float64Array(9);
const spin = new Float64Array(3);

/**
 * Solves I ω = L for the `moments` summed last, by the adjugate (I is symmetric
 * positive definite for three or more non-collinear points); ω = 0 when it is singular.
 */
function solveSpin(out: Float64Array | number[]): void {
  const m = moments;
  const lx = m[0]!;
  const ly = m[1]!;
  const lz = m[2]!;
  const ixx = m[3]!;
  const iyy = m[4]!;
  const izz = m[5]!;
  const ixy = m[6]!;
  const ixz = m[7]!;
  const iyz = m[8]!;
  const a00 = iyy * izz - iyz * iyz;
  const a01 = ixz * iyz - ixy * izz;
  const a02 = ixy * iyz - ixz * iyy;
  const a11 = ixx * izz - ixz * ixz;
  const a12 = ixy * ixz - ixx * iyz;
  const a22 = ixx * iyy - ixy * ixy;
  const det = ixx * a00 + ixy * a01 + ixz * a02;
  const inverse = det === 0 ? 0 : 1 / det;
  out[0] = (a00 * lx + a01 * ly + a02 * lz) * inverse;
  out[1] = (a01 * lx + a11 * ly + a12 * lz) * inverse;
  out[2] = (a02 * lx + a12 * ly + a22 * lz) * inverse;
}
const scratchRotation = new Float64Array(9);
const previousQuat: Quat = [0, 0, 0, 1];

/**
 * The orthonormal frame of three points (a, b, c at offsets `ia`, `ib`, `ic` of `p`):
 * x along b − a, z normal to the triangle, y = z × x; written as columns into `out`.
 */
function basisOf(p: ArrayLike<number>, ia: number, ib: number, ic: number, out: Float64Array): void {
  let x0 = p[ib]! - p[ia]!;
  let x1 = p[ib + 1]! - p[ia + 1]!;
  let x2 = p[ib + 2]! - p[ia + 2]!;
  const e0 = p[ic]! - p[ia]!;
  const e1 = p[ic + 1]! - p[ia + 1]!;
  const e2 = p[ic + 2]! - p[ia + 2]!;
  let z0 = x1 * e2 - x2 * e1;
  let z1 = x2 * e0 - x0 * e2;
  let z2 = x0 * e1 - x1 * e0;
  const lx = Math.sqrt(x0 * x0 + x1 * x1 + x2 * x2);
  const lz = Math.sqrt(z0 * z0 + z1 * z1 + z2 * z2);
  x0 /= lx;
  x1 /= lx;
  x2 /= lx;
  z0 /= lz;
  z1 /= lz;
  z2 /= lz;
  out[0] = x0;
  out[1] = x1;
  out[2] = x2;
  out[3] = z1 * x2 - z2 * x1;
  out[4] = z2 * x0 - z0 * x2;
  out[5] = z0 * x1 - z1 * x0;
  out[6] = z0;
  out[7] = z1;
  out[8] = z2;
}

/** Picks a, b, c: a far from the centre, b far from a, c far from the line ab. */
function chooseReference(offsets: Float64Array, what: string): [number, number, number] {
  const n = offsets.length / 3;
  const distance2 = (i: number, j: number) => {
    let s = 0;
    for (let k = 0; k < 3; k++) s += (offsets[i * 3 + k]! - (j < 0 ? 0 : offsets[j * 3 + k]!)) ** 2;
    return s;
  };
  const argmax = (score: (i: number) => number) => {
    let best = 0;
    for (let i = 1; i < n; i++) if (score(i) > score(best)) best = i;
    return best;
  };
  const a = argmax((i) => distance2(i, -1));
  const b = argmax((i) => distance2(i, a));
  const area2 = (i: number) => {
    const u = [0, 1, 2].map((k) => offsets[b * 3 + k]! - offsets[a * 3 + k]!);
    const v = [0, 1, 2].map((k) => offsets[i * 3 + k]! - offsets[a * 3 + k]!);
    return (u[1]! * v[2]! - u[2]! * v[1]!) ** 2 + (u[2]! * v[0]! - u[0]! * v[2]!) ** 2 + (u[0]! * v[1]! - u[1]! * v[0]!) ** 2;
  };
  const c = argmax(area2);
  const size2 = distance2(a, b);
  if (!(area2(c) > 1e-12 * size2 * size2)) throw new RangeError(`${what}: points must not all lie on one line (the orientation needs three non-collinear vertices)`);
  return [a, b, c];
}

/**
 * Damps the motion of particles `[first, first + count)` relative to their best
 * rigid motion (the course notes' extraction: v = Σmᵢvᵢ/m, ω = I⁻¹L), as Müller
 * et al. damp position-based bodies: each velocity moves toward v + ω × rᵢ by the
 * share 1 − e^(−rate·Δt) per step. Linear and angular momentum are kept, so a
 * thrown body flies and spins on; only the flailing of its parts relative to each
 * other dies down, like the friction in a body's joints. Allocates nothing.
 */
export class InternalDamping {
  /** Per-second damping rate of the internal motion. */
  rate: number;
  /** First particle id of the damped range. */
  readonly first: number;
  /** Particles in the damped range. */
  readonly count: number;

  constructor(first: number, count: number, rate: number) {
    this.first = particleSlot(first);
    this.count = count;
    this.rate = rate;
  }

  /** Applies one step's damping (call once per step, before it). */
  apply(world: World): void {
    if (this.rate <= 0 || (world.particles.flags[this.first]! & ParticleFlag.Asleep) !== 0) return;
    const pos = world.particles.position;
    const prev = world.particles.previous;
    const w = world.particles.inverseMass;
    const end = this.first + this.count;
    let mass = 0;
    let cx = 0;
    let cy = 0;
    let cz = 0;
    let dx = 0;
    let dy = 0;
    let dz = 0;
    for (let i = this.first; i < end; i++) {
      if (w[i] === 0) continue;
      const m = 1 / w[i]!;
      const p = i * 3;
      mass += m;
      cx += m * pos[p]!;
      cy += m * pos[p + 1]!;
      cz += m * pos[p + 2]!;
      dx += m * (pos[p]! - prev[p]!);
      dy += m * (pos[p + 1]! - prev[p + 1]!);
      dz += m * (pos[p + 2]! - prev[p + 2]!);
    }
    if (mass === 0) return;
    cx /= mass;
    cy /= mass;
    cz /= mass;
    dx /= mass;
    dy /= mass;
    dz /= mass;
    // Displacements per substep stand in for velocities: the factor h cancels.
    const mo = moments;
    mo.fill(0);
    for (let i = this.first; i < end; i++) {
      if (w[i] === 0) continue;
      const m = 1 / w[i]!;
      const p = i * 3;
      const rx = pos[p]! - cx;
      const ry = pos[p + 1]! - cy;
      const rz = pos[p + 2]! - cz;
      const ux = pos[p]! - prev[p]! - dx;
      const uy = pos[p + 1]! - prev[p + 1]! - dy;
      const uz = pos[p + 2]! - prev[p + 2]! - dz;
      mo[0] = mo[0]! + m * (ry * uz - rz * uy);
      mo[1] = mo[1]! + m * (rz * ux - rx * uz);
      mo[2] = mo[2]! + m * (rx * uy - ry * ux);
      mo[3] = mo[3]! + m * (ry * ry + rz * rz);
      mo[4] = mo[4]! + m * (rx * rx + rz * rz);
      mo[5] = mo[5]! + m * (rx * rx + ry * ry);
      mo[6] = mo[6]! - m * rx * ry;
      mo[7] = mo[7]! - m * rx * rz;
      mo[8] = mo[8]! - m * ry * rz;
    }
    solveSpin(spin);
    const ox = spin[0]!;
    const oy = spin[1]!;
    const oz = spin[2]!;
    const share = 1 - Math.exp(-this.rate * world.timeStepValue);
    for (let i = this.first; i < end; i++) {
      if (w[i] === 0) continue;
      const p = i * 3;
      const rx = pos[p]! - cx;
      const ry = pos[p + 1]! - cy;
      const rz = pos[p + 2]! - cz;
      // Rigid displacement v + ω × r, and the particle's own, both per substep.
      const tx = dx + oy * rz - oz * ry;
      const ty = dy + oz * rx - ox * rz;
      const tz = dz + ox * ry - oy * rx;
      const vx = pos[p]! - prev[p]!;
      const vy = pos[p + 1]! - prev[p + 1]!;
      const vz = pos[p + 2]! - prev[p + 2]!;
      prev[p] = pos[p]! - (vx + (tx - vx) * share);
      prev[p + 1] = pos[p + 1]! - (vy + (ty - vy) * share);
      prev[p + 2] = pos[p + 2]! - (vz + (tz - vz) * share);
    }
  }
}
