import { ParticleFlag } from '../particles.js';
import type { World } from '../world.js';

/**
 * Keeps particles `i` and `j` at least `scratch[0]` apart (the minimum
 * distance; a double in an array so that none crosses the call). The overlap is
 * shared by inverse mass, so Σ m·Δx = 0 and momentum is conserved. Friction
 * then removes up to μ·depth of their relative tangential motion this substep
 * (μ = product of the two particles' coefficients, as at colliders), also
 * shared by inverse mass. A sleeping particle that gets pushed is woken.
 * Returns true when they were in contact.
 */
export function separatePair(world: World, i: number, j: number, scratch: Float64Array): boolean {
  const particles = world.particles;
  const pos = particles.position;
  const pi = i * 3;
  const pj = j * 3;
  let dx = pos[pj]! - pos[pi]!;
  let dy = pos[pj + 1]! - pos[pi + 1]!;
  let dz = pos[pj + 2]! - pos[pi + 2]!;
  let d2 = dx * dx + dy * dy + dz * dz;
  const minimum = scratch[0]!;
  if (d2 >= minimum * minimum) return false;
  const wi = particles.inverseMass[i]!;
  const wj = particles.inverseMass[j]!;
  const wSum = wi + wj;
  if (wSum === 0) return false;
  if ((particles.flags[i]! & ParticleFlag.Asleep) !== 0) world.wake(i);
  if ((particles.flags[j]! & ParticleFlag.Asleep) !== 0) world.wake(j);
  if (d2 === 0) {
    // Coincident particles are dislocated at random (paper section 7).
    dx = (world.random.next() - 0.5) * 1e-9;
    dy = (world.random.next() - 0.5) * 1e-9;
    dz = (world.random.next() - 0.5) * 1e-9;
    d2 = dx * dx + dy * dy + dz * dz;
  }
  const d = Math.sqrt(d2);
  const nx = dx / d;
  const ny = dy / d;
  const nz = dz / d;
  const depth = minimum - d;
  const si = (depth * wi) / wSum;
  const sj = (depth * wj) / wSum;
  pos[pi] = pos[pi]! - nx * si;
  pos[pi + 1] = pos[pi + 1]! - ny * si;
  pos[pi + 2] = pos[pi + 2]! - nz * si;
  pos[pj] = pos[pj]! + nx * sj;
  pos[pj + 1] = pos[pj + 1]! + ny * sj;
  pos[pj + 2] = pos[pj + 2]! + nz * sj;
  // Relative displacement of i against j over the substep, tangential part.
  const prev = particles.previous;
  const rx = pos[pi]! - prev[pi]! - (pos[pj]! - prev[pj]!);
  const ry = pos[pi + 1]! - prev[pi + 1]! - (pos[pj + 1]! - prev[pj + 1]!);
  const rz = pos[pi + 2]! - prev[pi + 2]! - (pos[pj + 2]! - prev[pj + 2]!);
  const rn = rx * nx + ry * ny + rz * nz;
  const tx = rx - rn * nx;
  const ty = ry - rn * ny;
  const tz = rz - rn * nz;
  const t = Math.sqrt(tx * tx + ty * ty + tz * tz);
  const grip = particles.friction[i]! * particles.friction[j]! * depth;
  if (t === 0 || grip === 0) return true;
  const cut = grip >= t ? 1 : grip / t;
  const fi = (cut * wi) / wSum;
  const fj = (cut * wj) / wSum;
  pos[pi] = pos[pi]! - tx * fi;
  pos[pi + 1] = pos[pi + 1]! - ty * fi;
  pos[pi + 2] = pos[pi + 2]! - tz * fi;
  pos[pj] = pos[pj]! + tx * fj;
  pos[pj + 1] = pos[pj + 1]! + ty * fj;
  pos[pj + 2] = pos[pj + 2]! + tz * fj;
  return true;
}

/** Moves particle `i` of `pos` by `by` along (x, y, z): a contact's share of a push along its normal. */
export function moveAlong(pos: Float64Array, i: number, x: number, y: number, z: number, by: number): void {
  pos[i * 3] = pos[i * 3]! + x * by;
  pos[i * 3 + 1] = pos[i * 3 + 1]! + y * by;
  pos[i * 3 + 2] = pos[i * 3 + 2]! + z * by;
}
