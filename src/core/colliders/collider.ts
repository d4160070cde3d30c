import { ParticleFlag, type ParticleStore } from '../particles.js';

/**
 * A static obstacle. Particles that penetrate it are projected out (paper section 3)
 * and the penetration depth is recorded so friction can act after the relaxation
 * passes (paper section 7).
 */
export interface Collider {
  /** Shape name, e.g. `'plane'`. */
  readonly type: string;
  /** Coulomb coefficient of the surface; a contact's μ is particle friction × this. */
  friction: number;
  /** Projects live, movable particles in `[from, to)` out of the collider. */
  project(particles: ParticleStore, from: number, to: number): void;
}

/**
 * A contact handed to {@link pushOut}: `[nx, ny, nz, depth, friction]`, the unit
 * normal out of the obstacle, the penetration depth and the surface μ. Colliders
 * keep one and refill it: passing doubles to a call V8 does not inline boxes them,
 * an allocation per contact that the step loop must not make.
 */
export type Contact = Float64Array;

/** A fresh {@link Contact} for a collider to reuse. */
export function makeContact(): Contact {
  return new Float64Array(5);
}

/**
 * Moves particle `i` by the contact's depth along its normal and records the
 * contact for friction. Depths from several passes add up: the total is how far
 * the obstacle pushed the particle this substep.
 */
export function pushOut(particles: ParticleStore, i: number, contact: Contact): void {
  const nx = contact[0]!;
  const ny = contact[1]!;
  const nz = contact[2]!;
  const depth = contact[3]!;
  const p = i * 3;
  const pos = particles.position;
  pos[p] = pos[p]! + nx * depth;
  pos[p + 1] = pos[p + 1]! + ny * depth;
  pos[p + 2] = pos[p + 2]! + nz * depth;
  particles.contactDepth[i] = particles.contactDepth[i]! + depth;
  particles.contactNormal[p] = nx;
  particles.contactNormal[p + 1] = ny;
  particles.contactNormal[p + 2] = nz;
  particles.contactFriction[i] = particles.friction[i]! * contact[4]!;
}

/**
 * The paper's friction (section 7): after projection, the tangential part of the
 * particle's last displacement shrinks by μ × penetration depth, and stops rather
 * than reverses. Done by moving the previous position, so Verlet carries it on.
 * With gravity pressing a resting particle g·h² into the floor each substep, this is
 * a deceleration of μ·g: Coulomb friction.
 */
export function applyFriction(particles: ParticleStore, from: number, to: number): void {
  const pos = particles.position;
  const prev = particles.previous;
  const depth = particles.contactDepth;
  const normal = particles.contactNormal;
  const mu = particles.contactFriction;
  for (let i = from; i < to; i++) {
    const d = depth[i]!;
    if (d === 0) continue;
    depth[i] = 0;
    const p = i * 3;
    const vx = pos[p]! - prev[p]!;
    const vy = pos[p + 1]! - prev[p + 1]!;
    const vz = pos[p + 2]! - prev[p + 2]!;
    const nx = normal[p]!;
    const ny = normal[p + 1]!;
    const nz = normal[p + 2]!;
    const vn = vx * nx + vy * ny + vz * nz;
    const tx = vx - vn * nx;
    const ty = vy - vn * ny;
    const tz = vz - vn * nz;
    const t = Math.sqrt(tx * tx + ty * ty + tz * tz);
    if (t === 0) continue;
    const cut = mu[i]! * d >= t ? 1 : (mu[i]! * d) / t;
    prev[p] = prev[p]! + tx * cut;
    prev[p + 1] = prev[p + 1]! + ty * cut;
    prev[p + 2] = prev[p + 2]! + tz * cut;
  }
}

/** True when slot `i` holds a live particle (no argument checks: for the solver's loops). */
export function alive(particles: ParticleStore, i: number): boolean {
  return (particles.flags[i]! & ParticleFlag.Alive) !== 0;
}

/** True when particle `i` takes part in collisions: alive, awake and movable. */
export function collides(particles: ParticleStore, i: number): boolean {
  return (particles.flags[i]! & (ParticleFlag.Alive | ParticleFlag.Asleep)) === ParticleFlag.Alive && particles.inverseMass[i]! > 0;
}
