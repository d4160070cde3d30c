import { castLine } from '../collision/lineCast.js';
import { ParticleFlag, type ParticleStore } from '../particles.js';
import { pushOut, setSurface } from './collider.js';
import type { CoupledBody } from './coupledBody.js';
import type { KinematicCollider } from './kinematic.js';
import { toFrame, toWorld, turnToFrame, turnToWorld } from './poseMath.js';

// A kinematic collider's contacts, seen from its moving frame: a particle's
// previous position in the frame the substep started with and its position in
// the frame it ends with, where the shape stands still (see KinematicCollider).

/**
 * Particle `i` seen from the collider's frames: its previous position in the
 * substep's starting frame, its position in the ending one, and what this
 * substep's contacts already did to it. The shape, which stands still there,
 * sweeps and projects it; whatever it changed goes back to the world, with
 * the surface's move at the contact.
 */
export function collideInFrame(collider: KinematicCollider, particles: ParticleStore, i: number): void {
  const local = collider.local;
  const p = i * 3;
  toFrame(particles.position, p, collider.origin, collider.axes, local.position, 0);
  toFrame(particles.previous, p, collider.previousOrigin, collider.previousAxes, local.previous, 0);
  turnToFrame(particles.contactPush, p, collider.axes, local.contactPush, 0);
  turnToFrame(particles.frictionPush, p, collider.axes, local.frictionPush, 0);
  local.radius[0] = particles.radius[i]!;
  local.friction[0] = particles.friction[i]!;
  local.restitution[0] = particles.restitution[i]!;
  local.inverseMass[0] = particles.inverseMass[i]!;
  local.pushOutRoom = particles.pushOutRoom;
  const before = particles.contactDepth[i]!;
  local.contactDepth[0] = before;
  // A relative move shorter than the particle's radius cannot carry it past a face
  // unseen: the projection alone pushes it back out the way it came, as a static collider does.
  const lp = local.position;
  const lq = local.previous;
  const dx = lp[0]! - lq[0]!;
  const dy = lp[1]! - lq[1]!;
  const dz = lp[2]! - lq[2]!;
  const r = local.radius[0]!;
  if (dx * dx + dy * dy + dz * dz > r * r) sweepInFrame(collider);
  collider.shape.project(local, 0, 1);
  // Held inside: the world's particle answers to the launch guard as against a static collider.
  const flags = local.flags[0]!;
  if ((flags & ParticleFlag.Pushed) !== 0) {
    local.flags[0] = flags & ~ParticleFlag.Pushed;
    particles.flags[i] = particles.flags[i]! | ParticleFlag.Pushed;
  }
  if (local.contactDepth[0] === before) return;
  const pos = particles.position;
  const point = collider.point;
  for (let k = 0; k < 3; k++) point[k] = pos[p + k]!;
  toWorld(local.position, 0, collider.origin, collider.axes, pos, p);
  // The momentum this projection gave the particle: mass × its move / the substep.
  const m = collider.perSecond / particles.inverseMass[i]!;
  const jx = (pos[p]! - point[0]!) * m;
  const jy = (pos[p + 1]! - point[1]!) * m;
  const jz = (pos[p + 2]! - point[2]!) * m;
  const impulse = collider.impulse;
  impulse[0] = impulse[0]! + jx;
  impulse[1] = impulse[1]! + jy;
  impulse[2] = impulse[2]! + jz;
  const turn = collider.angularImpulse;
  turn[0] = turn[0]! + pos[p + 1]! * jz - pos[p + 2]! * jy;
  turn[1] = turn[1]! + pos[p + 2]! * jx - pos[p]! * jz;
  turn[2] = turn[2]! + pos[p]! * jy - pos[p + 1]! * jx;
  turnToWorld(local.contactPush, 0, collider.axes, particles.contactPush, p);
  turnToWorld(local.frictionPush, 0, collider.axes, particles.frictionPush, p);
  turnToWorld(local.contactNormal, 0, collider.axes, particles.contactNormal, p);
  particles.contactDepth[i] = local.contactDepth[0]!;
  particles.contactFriction[i] = local.contactFriction[0]!;
  particles.contactRestitution[i] = local.contactRestitution[0]!;
  // The surface point under the particle now was here when the substep began.
  toWorld(local.position, 0, collider.previousOrigin, collider.previousAxes, collider.point, 0);
  const motion = particles.contactMotion;
  motion[p] = pos[p]! - collider.point[0]!;
  motion[p + 1] = pos[p + 1]! - collider.point[1]!;
  motion[p + 2] = pos[p + 2]! - collider.point[2]!;
}

/**
 * A contact with a coupled body: {@link collideInFrame} projects
 * particle `i` out of the shape by d, as if the body were immovable; then the
 * particle keeps w_p/(w_p + w_body) of d and the body takes the position
 * impulse −d/(w_p + w_body) at the contact (XPBD's split), so the gap closes
 * and momentum is kept. What the projection wrote for the whole of d (the pushes
 * the contact response reads, the impulse read-out, the surface's motion) is
 * set to the particle's share.
 */
export function collideCoupledInFrame(collider: KinematicCollider, particles: ParticleStore, i: number, body: CoupledBody): void {
  const p = i * 3;
  const pos = particles.position;
  const saved = collider.pushBefore;
  for (let k = 0; k < 3; k++) {
    saved[k] = particles.contactPush[p + k]!;
    saved[3 + k] = particles.frictionPush[p + k]!;
    saved[6 + k] = pos[p + k]!;
  }
  const depth = particles.contactDepth[i]!;
  collideInFrame(collider, particles, i);
  if (particles.contactDepth[i] === depth) return;
  const dx = pos[p]! - saved[6]!;
  const dy = pos[p + 1]! - saved[7]!;
  const dz = pos[p + 2]! - saved[8]!;
  const length = Math.sqrt(dx * dx + dy * dy + dz * dz);
  if (length === 0) return;
  const x = collider.exchange;
  const r = particles.radius[i]!;
  x[3] = dx / length;
  x[4] = dy / length;
  x[5] = dz / length;
  // The contact: the particle's surface point facing the body, along the contact normal (the
  // correction's direction, which friction tilts, would put it off the surface).
  const normal = particles.contactNormal;
  for (let k = 0; k < 3; k++) x[k] = pos[p + k]! - normal[p + k]! * r;
  const wp = particles.inverseMass[i]!;
  const total = wp + body.inverseMassAlong(x);
  const keep = wp / total;
  // The read-outs collide() booked for the whole move, J = m·d/h at the full position, come off.
  const m = collider.perSecond / wp;
  const impulse = collider.impulse;
  const turn = collider.angularImpulse;
  const jx = dx * m;
  const jy = dy * m;
  const jz = dz * m;
  impulse[0] = impulse[0]! - jx * (1 - keep);
  impulse[1] = impulse[1]! - jy * (1 - keep);
  impulse[2] = impulse[2]! - jz * (1 - keep);
  turn[0] = turn[0]! - (pos[p + 1]! * jz - pos[p + 2]! * jy);
  turn[1] = turn[1]! - (pos[p + 2]! * jx - pos[p]! * jz);
  turn[2] = turn[2]! - (pos[p]! * jy - pos[p + 1]! * jx);
  pos[p] = saved[6]! + dx * keep;
  pos[p + 1] = saved[7]! + dy * keep;
  pos[p + 2] = saved[8]! + dz * keep;
  turn[0] = turn[0]! + (pos[p + 1]! * jz - pos[p + 2]! * jy) * keep;
  turn[1] = turn[1]! + (pos[p + 2]! * jx - pos[p]! * jz) * keep;
  turn[2] = turn[2]! + (pos[p]! * jy - pos[p + 1]! * jx) * keep;
  const push = particles.contactPush;
  const friction = particles.frictionPush;
  for (let k = 0; k < 3; k++) {
    push[p + k] = saved[k]! + (push[p + k]! - saved[k]!) * keep;
    friction[p + k] = saved[3 + k]! + (friction[p + k]! - saved[3 + k]!) * keep;
  }
  x[3] = -dx / total;
  x[4] = -dy / total;
  x[5] = -dz / total;
  body.push(x);
  // The body moved: the surface point under the particle now, and where it was when the substep began.
  const local = collider.local;
  const point = collider.point;
  toFrame(pos, p, collider.origin, collider.axes, local.position, 0);
  toWorld(local.position, 0, collider.previousOrigin, collider.previousAxes, point, 0);
  const motion = particles.contactMotion;
  motion[p] = pos[p]! - point[0]!;
  motion[p + 1] = pos[p + 1]! - point[1]!;
  motion[p + 2] = pos[p + 2]! - point[2]!;
}

/**
 * The paper's swept test in the collider's frame: when the particle's path
 * from its previous position to now enters the shape, it goes back in front
 * of the face entered, by its radius (a fast collider would otherwise carry
 * it through, or out through the far face).
 */
function sweepInFrame(collider: KinematicCollider): void {
  const local = collider.local;
  const q = collider.cast;
  for (let k = 0; k < 3; k++) {
    q[k] = local.previous[k]!;
    q[3 + k] = local.position[k]!;
  }
  if (!castLine(collider.shape, q)) return;
  const t = q[6]!;
  const c = collider.contact;
  let depth = local.radius[0]!;
  for (let k = 0; k < 3; k++) {
    c[k] = q[7 + k]!;
    depth += (q[k]! + (q[3 + k]! - q[k]!) * t - q[3 + k]!) * c[k]!;
  }
  c[3] = depth;
  setSurface(c, collider.shape);
  pushOut(local, 0, c);
}
