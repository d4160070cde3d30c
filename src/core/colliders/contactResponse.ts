import { WORLD_DEFAULTS } from '../defaults.js';
import { checkNumber } from '../math.js';
import type { ParticleStore } from '../particles.js';
import type { StepContext } from '../stepContext.js';

/**
 * How contacts with colliders turn into velocity (`world.contacts`, change them
 * live): the step context turns these speeds into displacements per substep for
 * {@link respondToContacts}.
 */
export class ContactSettings {
  private pushOutSpeed: number = WORLD_DEFAULTS.maxPushOutSpeed;
  private bounceSpeed: number = WORLD_DEFAULTS.restitutionThreshold;

  /**
   * Most speed (m/s) that pushing a particle out of a collider may give it along
   * the contact normal beyond its own motion (Box2D v3 caps its contact push-out
   * velocity, Jolt its penetration recovery, for the same reason). A particle
   * found deep inside (released from a pin under the floor, or left there by a
   * teleport) comes out at this speed instead of turning the whole depth into
   * velocity in one substep. Penetration a particle brings into a substep is
   * taken out at this speed in the projection itself, so a body made inside a
   * collider climbs out rather than being thrown by its sticks. Default 3;
   * >= 0; `Infinity` turns the limit off (the paper's projection: all at once).
   */
  get maxPushOutSpeed(): number {
    return this.pushOutSpeed;
  }
  set maxPushOutSpeed(speed: number) {
    this.pushOutSpeed = speed === Infinity ? speed : checkNumber(speed, 'World: maxPushOutSpeed', 0);
  }

  /** Approach speeds (m/s) below this do not bounce, so that resting contacts settle. Default 0.5; >= 0. */
  get restitutionThreshold(): number {
    return this.bounceSpeed;
  }
  set restitutionThreshold(speed: number) {
    this.bounceSpeed = checkNumber(speed, 'World: restitutionThreshold', 0);
  }
}

/**
 * The velocity part of collision response, run once per substep after the
 * relaxation passes, for each particle in `[from, to)` that a collider pushed.
 * Velocity in Verlet is `position − previous`, so every rule below moves
 * `previous`, never the position the passes settled on:
 *
 * 1. **No launch.** Without a limit, a push of depth d becomes a velocity d/h
 *    along the normal: a particle released 3 m under the floor left at about
 *    900 m/s. The outgoing normal speed is capped at `maxPushOutSpeed`, or at the
 *    particle's own outward speed (what the substep did without the pushes) when
 *    that is higher, so constraints that lift a particle off a surface are not held back.
 * 2. **Restitution** `e` (the larger of the particle's and the collider's, as
 *    Box2D combines it): a particle that approached at normal speed v > the
 *    threshold leaves at e·v (default e = 0: it stops along the normal). For a
 *    particle of a body, v includes the body pressing on through its sticks:
 *    the contact particle leaves a little faster for a substep, and the sticks
 *    share that out, so the body rebounds at about e·v (energy is measured
 *    after the collision, not inside it).
 * 3. **Never faster than it arrived.** The contact may not raise the particle's
 *    speed above what it had without the pushes (or above `maxPushOutSpeed` from
 *    rest): a fast particle squeezed sideways out of a thin box once left faster
 *    than it came.
 *
 * Against a kinematic collider (`particles.contactMotion` non-zero) all three
 * act on the velocity relative to the surface at the contact: a particle
 * pushed out of a moving collider leaves at most `maxPushOutSpeed` faster than
 * the surface, one struck by a bat leaves at most as fast relative to it as it
 * came.
 *
 * Friction is not here: it acts on the position inside the projection
 * (`pushOut`), where it can take back gravity's share along a slope and is
 * resolved together with every other contact.
 *
 * Allocates nothing.
 */
export function respondToContacts(particles: ParticleStore, context: StepContext, from: number, to: number): void {
  const pos = particles.position;
  const prev = particles.previous;
  const depth = particles.contactDepth;
  const push = particles.contactPush;
  const spent = particles.frictionPush;
  const motion = particles.contactMotion;
  const restitution = particles.contactRestitution;
  const cap = context.pushOutCap;
  const threshold = context.bounceThreshold;
  for (let i = from; i < to; i++) {
    const d = depth[i]!;
    if (d === 0) continue;
    depth[i] = 0;
    const p = i * 3;
    spent[p] = 0;
    spent[p + 1] = 0;
    spent[p + 2] = 0;
    const px = push[p]!;
    const py = push[p + 1]!;
    const pz = push[p + 2]!;
    push[p] = 0;
    push[p + 1] = 0;
    push[p + 2] = 0;
    // Every rule works on the motion relative to the surface: zero for a static collider,
    // a kinematic collider's own move at the contact otherwise (a bat hands its speed on).
    const mx = motion[p]!;
    const my = motion[p + 1]!;
    const mz = motion[p + 2]!;
    motion[p] = 0;
    motion[p + 1] = 0;
    motion[p + 2] = 0;
    // Velocities are changed by moving `previous` by the change alone: recomputing it
    // from the new velocity would round it, and a resting particle would drift.
    const vx = pos[p]! - prev[p]! - mx;
    const vy = pos[p + 1]! - prev[p + 1]! - my;
    const vz = pos[p + 2]! - prev[p + 2]! - mz;
    // The displacement the substep would have made without any push.
    const ox = vx - px;
    const oy = vy - py;
    const oz = vz - pz;
    const pushed = Math.sqrt(px * px + py * py + pz * pz);
    if (pushed > 0) {
      const nx = px / pushed;
      const ny = py / pushed;
      const nz = pz / pushed;
      const vn = vx * nx + vy * ny + vz * nz;
      const own = ox * nx + oy * ny + oz * nz;
      let target = Math.min(vn, Math.max(own, cap));
      // Only a bouncy contact sets the normal speed from below; at e = 0 a particle still closing in keeps closing.
      // `own` includes what the particle's sticks did in later passes, the rest of a body pressing
      // on through it: bouncing that too is what makes a thrown box (not only its front face) rebound at e·v.
      const bounce = -own > threshold ? -own * restitution[i]! : 0;
      if (bounce > 0 && target < bounce) target = bounce;
      if (target !== vn) {
        const change = target - vn;
        prev[p] = prev[p]! - nx * change;
        prev[p + 1] = prev[p + 1]! - ny * change;
        prev[p + 2] = prev[p + 2]! - nz * change;
      }
      const before = ox * ox + oy * oy + oz * oz;
      const limit = before > cap * cap ? before : cap * cap;
      const ux = pos[p]! - prev[p]! - mx;
      const uy = pos[p + 1]! - prev[p + 1]! - my;
      const uz = pos[p + 2]! - prev[p + 2]! - mz;
      const after = ux * ux + uy * uy + uz * uz;
      if (after > limit) {
        const cut = 1 - Math.sqrt(limit / after);
        prev[p] = prev[p]! + ux * cut;
        prev[p + 1] = prev[p + 1]! + uy * cut;
        prev[p + 2] = prev[p + 2]! + uz * cut;
      }
    }
  }
}

/** Forgets what colliders did to particle `i` this substep (it fell asleep or was removed). */
export function clearContact(particles: ParticleStore, i: number): void {
  particles.contactDepth[i] = 0;
  particles.contactPush[i * 3] = 0;
  particles.contactPush[i * 3 + 1] = 0;
  particles.contactPush[i * 3 + 2] = 0;
  particles.frictionPush[i * 3] = 0;
  particles.frictionPush[i * 3 + 1] = 0;
  particles.frictionPush[i * 3 + 2] = 0;
  particles.contactMotion[i * 3] = 0;
  particles.contactMotion[i * 3 + 1] = 0;
  particles.contactMotion[i * 3 + 2] = 0;
}
