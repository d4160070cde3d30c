import { COLLIDER_DEFAULTS } from '../defaults.js';
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
 * restitution, mx, my, mz, gradual]`, the unit normal out of the obstacle, the
 * penetration depth, the surface's μ and restitution, how far the obstacle's
 * surface at the contact moved during this substep (zero for a static collider;
 * friction holds the particle to that motion, not to the world), and 1 when the
 * penetration the particle brought into the substep comes out at most
 * `particles.pushOutRoom` per substep (a particle against a collider), 0 when
 * all at once (a feature's share of a push split between particles: capsule
 * edges, faces, the wall cheat). A six-number contact from older code is read
 * as a static, all-at-once one. Colliders keep one and refill
 * it: passing doubles to a call V8 does not inline boxes them, an allocation per
 * contact that the step loop must not make.
 */
export type Contact = Float64Array;

/** Length of a {@link Contact}. */
export const CONTACT_SIZE = 10;

/**
 * A fresh {@link Contact} for a collider to reuse (obstacle motion zero: a
 * static surface). `gradual` false for pushes that share one feature's
 * penetration between particles (see {@link Contact}).
 */
export function makeContact(gradual = true): Contact {
  const contact = new Float64Array(CONTACT_SIZE);
  contact[9] = gradual ? 1 : 0;
  return contact;
}

/** Writes the surface properties of `collider` (friction, restitution) into `contact`. */
export function setSurface(contact: Contact, collider: Collider): void {
  contact[4] = collider.friction;
  contact[5] = collider.restitution ?? COLLIDER_DEFAULTS.restitution;
}

/**
 * Moves particle `i` by the contact's depth along its normal, applies friction
 * in the same projection, and records the contact. Depths from several passes
 * add up (the total is how far obstacles pushed the particle this substep), and
 * so do the push vectors (what the substep's motion would have been without
 * them, which restitution and the push-out speed limit need).
 *
 * Friction is a position correction too (Macklin et al. 2014, "Unified Particle
 * Physics for Real-Time Applications", section 6.1; Müller et al. 2020,
 * "Detailed Rigid Body Simulation with XPBD", section 3.5): Δt, the particle's
 * move this substep relative to the surface (x − x* − the obstacle's move)
 * across the normal, is taken back whole when it is within μ × the normal push
 * (static friction: the particle keeps its place, gravity's share along a slope
 * included), and by μ × the normal push otherwise (kinetic: a deceleration of
 * μ·g on a floor), never past zero. Since it moves the position, the passes
 * that follow resolve it together with every other contact and constraint, and
 * the velocity (x − x*) loses what the position gave back: friction never adds
 * energy.
 */
export function pushOut(particles: ParticleStore, i: number, contact: Contact): void {
  const nx = contact[0]!;
  const ny = contact[1]!;
  const nz = contact[2]!;
  const p = i * 3;
  const pos = particles.position;
  const prev = particles.previous;
  // Penetration the particle brought with it into this substep (spawned, teleported or
  // held inside) comes out at most `pushOutRoom` per substep; what it moved in by this
  // substep, relative to the surface, is taken back whole. All of it at once would be a
  // velocity of depth / h for the particle, and through its sticks for the whole body:
  // a box made 10 cm inside the floor was thrown 48 m up, a ragdoll 0.5 m inside 350 m.
  let depth = contact[3]!;
  if (contact.length >= CONTACT_SIZE && contact[9] === 1) {
    const approach = (pos[p]! - prev[p]! - contact[6]!) * nx + (pos[p + 1]! - prev[p + 1]! - contact[7]!) * ny + (pos[p + 2]! - prev[p + 2]! - contact[8]!) * nz;
    const room = particles.pushOutRoom - approach;
    if (depth > room) {
      depth = room;
      particles.flags[i] = particles.flags[i]! | ParticleFlag.HeldBack | ParticleFlag.Pushed;
    }
  }
  if (depth <= 0) return;
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
  const mu = particles.friction[i]! * contact[4]!;
  particles.contactFriction[i] = mu;
  const e = particles.restitution[i]!;
  particles.contactRestitution[i] = e > contact[5]! ? e : contact[5]!;
  if (mu <= 0 || depth <= 0) return;
  // The normal force behind this contact: the substep's pushes along its normal. Not the
  // summed depth: a particle in a corner would spend the floor's push on the wall's
  // friction and hang on the wall above the floor.
  const pressed = push[p]! * nx + push[p + 1]! * ny + push[p + 2]! * nz;
  if (pressed <= 0) return;
  // Through a scratch slot: a double passed to a call V8 does not inline is boxed, an allocation per contact.
  frictionLimit[0] = mu * pressed;
  applyFriction(particles, i, contact);
}

/** The friction budget handed from {@link pushOut} to {@link applyFriction}. */
const frictionLimit = new Float64Array(1);

/**
 * The friction half of {@link pushOut}: takes back particle `i`'s move across
 * the contact normal relative to the surface. The corrections of one substep
 * add up in `frictionPush`, and their sum is held within `limit` (μ × the
 * particle's pushes this substep along this contact's normal, in `frictionLimit`), as Box2D clamps an accumulated
 * impulse: while the sum stays inside, the particle keeps its place (static);
 * once it would leave, the sum is scaled back onto the limit (kinetic). Holding
 * the sum, not each pass's share, lets the passes that follow trade corrections
 * back and forth between contacts and sticks without either spending the budget
 * twice or exceeding it, so a body resting on several contacts is held as a
 * whole. Allocates nothing.
 */
function applyFriction(particles: ParticleStore, i: number, contact: Contact): void {
  const limit = frictionLimit[0]!;
  const nx = contact[0]!;
  const ny = contact[1]!;
  const nz = contact[2]!;
  // Nine numbers and up carry the obstacle's motion (slots 6–8); six are a static contact from older code.
  const moving = contact.length >= 9;
  const mx = moving ? contact[6]! : 0;
  const my = moving ? contact[7]! : 0;
  const mz = moving ? contact[8]! : 0;
  const p = i * 3;
  const pos = particles.position;
  const prev = particles.previous;
  const dx = pos[p]! - prev[p]! - mx;
  const dy = pos[p + 1]! - prev[p + 1]! - my;
  const dz = pos[p + 2]! - prev[p + 2]! - mz;
  const dn = dx * nx + dy * ny + dz * nz;
  const tx = dx - dn * nx;
  const ty = dy - dn * ny;
  const tz = dz - dn * nz;
  if (tx === 0 && ty === 0 && tz === 0) return;
  const sum = particles.frictionPush;
  // The sum if this contact took the whole tangential move back.
  const fx = sum[p]! - tx;
  const fy = sum[p + 1]! - ty;
  const fz = sum[p + 2]! - tz;
  const f2 = fx * fx + fy * fy + fz * fz;
  if (f2 <= limit * limit) {
    // Static: back to where the surface carried it, plus its move along the normal.
    // Written from x* (not x − Δt) so that an axis-aligned surface leaves exactly zero sliding.
    pos[p] = prev[p]! + mx + dn * nx;
    pos[p + 1] = prev[p + 1]! + my + dn * ny;
    pos[p + 2] = prev[p + 2]! + mz + dn * nz;
    sum[p] = fx;
    sum[p + 1] = fy;
    sum[p + 2] = fz;
    return;
  }
  // Kinetic: the sum scaled back onto the limit; the change is this contact's correction,
  // kept across the normal and never along the move (friction only takes motion away).
  const scale = limit / Math.sqrt(f2);
  let cx = fx * scale - sum[p]!;
  let cy = fy * scale - sum[p + 1]!;
  let cz = fz * scale - sum[p + 2]!;
  const cn = cx * nx + cy * ny + cz * nz;
  cx -= cn * nx;
  cy -= cn * ny;
  cz -= cn * nz;
  const along = cx * tx + cy * ty + cz * tz;
  if (along > 0) {
    const t2 = tx * tx + ty * ty + tz * tz;
    cx -= (along / t2) * tx;
    cy -= (along / t2) * ty;
    cz -= (along / t2) * tz;
  }
  pos[p] = pos[p]! + cx;
  pos[p + 1] = pos[p + 1]! + cy;
  pos[p + 2] = pos[p + 2]! + cz;
  sum[p] = sum[p]! + cx;
  sum[p + 1] = sum[p + 1]! + cy;
  sum[p + 2] = sum[p + 2]! + cz;
}

/** True when slot `i` holds a live particle (no argument checks: for the solver's loops). */
export function alive(particles: ParticleStore, i: number): boolean {
  return (particles.flags[i]! & ParticleFlag.Alive) !== 0;
}

/** True when particle `i` takes part in collisions: alive, awake and movable. */
export function collides(particles: ParticleStore, i: number): boolean {
  return (particles.flags[i]! & (ParticleFlag.Alive | ParticleFlag.Asleep)) === ParticleFlag.Alive && particles.inverseMass[i]! > 0;
}
