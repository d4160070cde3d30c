import { ParticleFlag, type ParticleStore } from '../particles.js';

/**
 * Gathers the live, movable particles among `from` (or all particles when null)
 * into `into`, growing it when needed, and returns it with the count in `out[0]`.
 * Pair forces skip immovable particles: their mass is undefined and, exerting
 * without receiving, they would break momentum conservation.
 * @internal
 */
export function gatherFree(particles: ParticleStore, from: Int32Array | null, fromCount: number, into: Int32Array, out: Int32Array): Int32Array {
  const n = from === null ? particles.end : fromCount;
  let list = into;
  if (list.length < n) list = new Int32Array(Math.max(n, list.length * 2));
  const flags = particles.flags;
  const w = particles.inverseMass;
  let count = 0;
  for (let k = 0; k < n; k++) {
    const i = from === null ? k : from[k]!;
    if (i < particles.end && (flags[i]! & ParticleFlag.Alive) !== 0 && w[i]! > 0) list[count++] = i;
  }
  out[0] = count;
  return list;
}

/**
 * The course notes' inverse-square pair force for every pair i, j of
 * `ids[0..count)`: f_i = C·s_i·s_j·(p_j − p_i) / (r² + ε²)^{3/2} and f_j = −f_i,
 * where s is `coupling[id]` (charges) or, when `coupling` is null, the particle's
 * mass. `params` holds [C, ε²] (a typed array: doubles passed as arguments would
 * be boxed). Equal and opposite by construction, so total momentum is conserved.
 * @internal
 */
export function applyInverseSquarePairs(particles: ParticleStore, ids: Int32Array, count: number, coupling: Float64Array | null, params: Float64Array): void {
  const pos = particles.position;
  const force = particles.force;
  const w = particles.inverseMass;
  const constant = params[0]!;
  const soft2 = params[1]!;
  for (let m = 0; m < count; m++) {
    const i = ids[m]!;
    const pi = i * 3;
    const si = coupling === null ? 1 / w[i]! : coupling[i]!;
    const xi = pos[pi]!;
    const yi = pos[pi + 1]!;
    const zi = pos[pi + 2]!;
    let fx = 0;
    let fy = 0;
    let fz = 0;
    for (let n = m + 1; n < count; n++) {
      const j = ids[n]!;
      const pj = j * 3;
      const dx = pos[pj]! - xi;
      const dy = pos[pj + 1]! - yi;
      const dz = pos[pj + 2]! - zi;
      const r2 = dx * dx + dy * dy + dz * dz + soft2;
      // Coincident particles have no direction between them: no force.
      if (r2 === 0) continue;
      const sj = coupling === null ? 1 / w[j]! : coupling[j]!;
      const scale = (constant * si * sj) / (r2 * Math.sqrt(r2));
      fx += dx * scale;
      fy += dy * scale;
      fz += dz * scale;
      force[pj] = force[pj]! - dx * scale;
      force[pj + 1] = force[pj + 1]! - dy * scale;
      force[pj + 2] = force[pj + 2]! - dz * scale;
    }
    force[pi] = force[pi]! + fx;
    force[pi + 1] = force[pi + 1]! + fy;
    force[pi + 2] = force[pi + 2]! + fz;
  }
}
