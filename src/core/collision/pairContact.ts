import { ParticleFlag, type ParticleStore } from '../particles.js';
import type { World } from '../world.js';

/**
 * Keeps particles `i` and `j` at least `scratch[0]` apart (the minimum
 * distance; a double in an array so that none crosses the call). The overlap is
 * shared by inverse mass, so Σ m·Δx = 0 and momentum is conserved. As against
 * colliders, what the pair closed in by this substep is taken back whole and
 * an overlap older than that at most `scratch[1]` a substep (the push-out room,
 * m): two particles made inside each other part at the push-out speed, not all
 * at once. Friction then removes up to μ·depth of their relative tangential
 * motion this substep (μ = product of the two particles' coefficients, as at
 * colliders), also shared by inverse mass. A sleeping particle that gets
 * pushed is woken. A pair that passed through each other in the substep
 * (`crossed`) is parted along its separation at the substep's start, however
 * far apart it is now (within the same room). Returns true when they were in
 * contact.
 */
export function separatePair(world: World, i: number, j: number, scratch: Float64Array, crossed: boolean): boolean {
  const particles = world.particles;
  const pos = particles.position;
  const pi = i * 3;
  const pj = j * 3;
  let dx = pos[pj]! - pos[pi]!;
  let dy = pos[pj + 1]! - pos[pi + 1]!;
  let dz = pos[pj + 2]! - pos[pi + 2]!;
  let d2 = dx * dx + dy * dy + dz * dz;
  const minimum = scratch[0]!;
  if (!crossed && d2 >= minimum * minimum) return false;
  const wi = particles.inverseMass[i]!;
  const wj = particles.inverseMass[j]!;
  if (wi + wj === 0) return false;
  if ((particles.flags[i]! & ParticleFlag.Asleep) !== 0) world.wake(i);
  if ((particles.flags[j]! & ParticleFlag.Asleep) !== 0) world.wake(j);
  if (d2 === 0) {
    // Coincident particles are dislocated at random (paper section 7).
    dx = (world.random.next() - 0.5) * 1e-9;
    dy = (world.random.next() - 0.5) * 1e-9;
    dz = (world.random.next() - 0.5) * 1e-9;
    d2 = dx * dx + dy * dy + dz * dz;
  }
  let nx: number;
  let ny: number;
  let nz: number;
  let depth: number;
  const prev = particles.previous;
  if (crossed) {
    // They passed through each other this substep (a thin layer struck vertex on vertex, faster
    // than the minimum a substep): parted along the way they stood at its start, not left through.
    const px = prev[pj]! - prev[pi]!;
    const py = prev[pj + 1]! - prev[pi + 1]!;
    const pz = prev[pj + 2]! - prev[pi + 2]!;
    const p = Math.sqrt(px * px + py * py + pz * pz);
    nx = px / p;
    ny = py / p;
    nz = pz / p;
    depth = minimum - (px * dx + py * dy + pz * dz) / p;
  } else {
    const d = Math.sqrt(d2);
    nx = dx / d;
    ny = dy / d;
    nz = dz / d;
    depth = minimum - d;
  }
  // How far the pair parted along the normal this substep already, pushes of earlier passes included.
  const moved =
    (pos[pj]! - prev[pj]! - (pos[pi]! - prev[pi]!)) * nx + (pos[pj + 1]! - prev[pj + 1]! - (pos[pi + 1]! - prev[pi + 1]!)) * ny + (pos[pj + 2]! - prev[pj + 2]! - (pos[pi + 2]! - prev[pi + 2]!)) * nz;
  const room = scratch[1]! - moved;
  if (room < depth) depth = room;
  if (depth <= 0) return true;
  const wSum = wi + wj;
  const si = (depth * wi) / wSum;
  const sj = (depth * wj) / wSum;
  pos[pi] = pos[pi]! - nx * si;
  pos[pi + 1] = pos[pi + 1]! - ny * si;
  pos[pi + 2] = pos[pi + 2]! - nz * si;
  pos[pj] = pos[pj]! + nx * sj;
  pos[pj + 1] = pos[pj + 1]! + ny * sj;
  pos[pj + 2] = pos[pj + 2]! + nz * sj;
  // Relative displacement of i against j over the substep, tangential part.
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

/**
 * Whether particle `i`, moved along `sign` × the direction `push[o .. o + 3)`, would go back into
 * a collider that pushed it this substep (its contact normal against that move). A contact run
 * after the colliders treats such a particle as immovable, so that a layer lying on the ground
 * holds what falls on it instead of giving way for the ground to push back next pass.
 */
export function pressedIntoCollider(particles: ParticleStore, i: number, push: Float64Array, o: number, sign: number): boolean {
  if (particles.contactDepth[i] === 0) return false;
  const n = particles.contactNormal;
  return sign * (n[i * 3]! * push[o]! + n[i * 3 + 1]! * push[o + 1]! + n[i * 3 + 2]! * push[o + 2]!) < 0;
}
