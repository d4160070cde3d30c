import { ParticleFlag, type ParticleStore } from '../particles.js';

/**
 * A static obstacle. Particles that penetrate it are projected out (paper section 3)
 * and the push is recorded, so that friction, restitution and the push-out speed
 * limit act after the relaxation passes (`respondToContacts`).
 */
export interface Collider {
  /** Shape name, e.g. `'plane'`. */
  readonly type: string;
  /** Coulomb coefficient of the surface; a contact's μ is particle friction × this. */
  friction: number;
  /** Bounciness of the surface in [0, 1], default 0; a contact bounces with the larger of this and the particle's. */
  restitution?: number;
  /** Projects live, movable particles in `[from, to)` out of the collider. */
  project(particles: ParticleStore, from: number, to: number): void;
}

/**
 * A contact handed to {@link pushOut}: `[nx, ny, nz, depth, friction,
 * restitution]`, the unit normal out of the obstacle, the penetration depth and
 * the surface's μ and restitution. Colliders keep one and refill it: passing
 * doubles to a call V8 does not inline boxes them, an allocation per contact that
 * the step loop must not make.
 */
export type Contact = Float64Array;

/** A fresh {@link Contact} for a collider to reuse. */
export function makeContact(): Contact {
  return new Float64Array(6);
}

/** Writes the surface properties of `collider` (friction, restitution) into `contact`. */
export function setSurface(contact: Contact, collider: Collider): void {
  contact[4] = collider.friction;
  contact[5] = collider.restitution ?? 0;
}

/**
 * Moves particle `i` by the contact's depth along its normal and records the
 * contact. Depths from several passes add up (the total is how far obstacles
 * pushed the particle this substep, which friction turns into a normal force), and
 * so do the push vectors (what the substep's motion would have been without them,
 * which restitution and the push-out speed limit need).
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
  const push = particles.contactPush;
  push[p] = push[p]! + nx * depth;
  push[p + 1] = push[p + 1]! + ny * depth;
  push[p + 2] = push[p + 2]! + nz * depth;
  particles.contactDepth[i] = particles.contactDepth[i]! + depth;
  particles.contactNormal[p] = nx;
  particles.contactNormal[p + 1] = ny;
  particles.contactNormal[p + 2] = nz;
  particles.contactFriction[i] = particles.friction[i]! * contact[4]!;
  const e = particles.restitution[i]!;
  particles.contactRestitution[i] = e > contact[5]! ? e : contact[5]!;
}

/** True when slot `i` holds a live particle (no argument checks: for the solver's loops). */
export function alive(particles: ParticleStore, i: number): boolean {
  return (particles.flags[i]! & ParticleFlag.Alive) !== 0;
}

/** True when particle `i` takes part in collisions: alive, awake and movable. */
export function collides(particles: ParticleStore, i: number): boolean {
  return (particles.flags[i]! & (ParticleFlag.Alive | ParticleFlag.Asleep)) === ParticleFlag.Alive && particles.inverseMass[i]! > 0;
}
