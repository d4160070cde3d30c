import type { CoupledBody } from '../colliders/coupledBody.js';
import type { ConstraintId, ParticleId } from '../ids.js';
import type { Vec3Like } from '../math.js';
import { readVec3 } from '../motion/poseTrack.js';
import type { World } from '../world.js';
import type { Constraint } from './constraint.js';
import { addBuiltinConstraint } from '../stages.js';

/** What {@link CoupledAttachment} takes besides the particle and the body. */
export interface CoupledAttachmentOptions {
  /**
   * The point of the body the particle is tied to, in the body's frame about
   * its centre of mass (m). Default: where the particle is now, in the body's
   * pose after its latest step.
   */
  anchor?: Vec3Like;
}

/**
 * A particle tied to a point of a {@link CoupledBody} by a zero-length rigid
 * link, two-way: each relaxation pass closes the gap by moving the particle
 * w_p/(w_p + w_body) of it and the body the rest (translation and turn about
 * its centre of mass, XPBD's split), so a rope's pull lifts a crate that
 * another engine runs and the crate's weight pulls the rope down, with
 * momentum kept. A pinned particle (inverse mass 0) carries the body along alone.
 *
 * @example
 * ```ts
 * const crate = new CoupledBody(world, { mass: 2, inverseInertia: 1 / (2 * 0.3 ** 2 / 6) });
 * const tie = new CoupledAttachment(world, rope.last, crate, { anchor: [0, 0.15, 0] }); // the crate's top
 * // … later
 * tie.remove();
 * ```
 */
export class CoupledAttachment implements Constraint {
  /** The registry id of the link (what `world.remove` takes). */
  readonly id: ConstraintId;
  /** The tied particle. */
  readonly particle: ParticleId;
  /** Its slot: where the step reads and writes it. */
  private readonly slot: number;
  /** The body it is tied to. */
  readonly body: CoupledBody;
  /** The anchor in the body's frame about its centre of mass (m). */
  readonly anchor = new Float64Array(3);

  private readonly world: World;
  /** Scratch: the anchor in the world, then the link's direction; then the body's impulse. */
  private readonly exchange = new Float64Array(6);

  constructor(world: World, particle: ParticleId, body: CoupledBody, options: CoupledAttachmentOptions = {}) {
    this.world = world;
    this.slot = world.checkParticle(particle, 'CoupledAttachment: particle');
    this.particle = particle;
    this.body = body;
    if (options.anchor !== undefined) {
      const a: [number, number, number] = [0, 0, 0];
      readVec3(options.anchor, a, 'CoupledAttachment', 'anchor');
      this.anchor.set(a);
    } else {
      // Where the particle is, seen from the body's pose now: R⁻¹(x − c).
      const x = world.getPosition(particle);
      const c = body.endPosition();
      const [qx, qy, qz, qw] = body.endRotation();
      const vx = x[0] - c[0];
      const vy = x[1] - c[1];
      const vz = x[2] - c[2];
      // Turned back by the conjugate (u = −q.xyz): t = 2 u × v, v' = v + w t + u × t.
      const tx = 2 * (-qy * vz + qz * vy);
      const ty = 2 * (-qz * vx + qx * vz);
      const tz = 2 * (-qx * vy + qy * vx);
      this.anchor[0] = vx + qw * tx + (-qy * tz + qz * ty);
      this.anchor[1] = vy + qw * ty + (-qz * tx + qx * tz);
      this.anchor[2] = vz + qw * tz + (-qx * ty + qy * tx);
    }
    this.id = addBuiltinConstraint(world, 'attachments', this);
  }

  /** One relaxation pass: close the gap between the particle and its anchor, shared by inverse masses. */
  project(world: World): void {
    const i = this.slot;
    const pos = world.particles.position;
    const p = i * 3;
    const x = this.exchange;
    this.body.pointToWorld(this.anchor, x, 0);
    const dx = x[0]! - pos[p]!;
    const dy = x[1]! - pos[p + 1]!;
    const dz = x[2]! - pos[p + 2]!;
    const distance = Math.sqrt(dx * dx + dy * dy + dz * dz);
    if (distance === 0) return;
    x[3] = dx / distance;
    x[4] = dy / distance;
    x[5] = dz / distance;
    const wp = world.particles.inverseMass[i]!;
    const total = wp + this.body.inverseMassAlong(x);
    if (total === 0) return;
    const keep = wp / total;
    pos[p] = pos[p]! + dx * keep;
    pos[p + 1] = pos[p + 1]! + dy * keep;
    pos[p + 2] = pos[p + 2]! + dz * keep;
    x[3] = -dx / total;
    x[4] = -dy / total;
    x[5] = -dz / total;
    this.body.push(x);
  }

  /** Unties the particle (the same as `world.remove(attachment.id)`); safe to call twice. */
  remove(): void {
    if (this.world.hasConstraint(this.id)) this.world.remove(this.id);
  }
}
