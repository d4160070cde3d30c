import { particleSlot } from '../ids.js';
import type { BodyRecord } from '../bodies/body.js';
import { makeContact, pushOut, setSurface } from '../colliders/collider.js';
import type { Constraint } from '../constraints/constraint.js';
import { StickKindCode } from '../constraints/sticks.js';
import { checkInteger } from '../math.js';
import { ParticleFlag, type ParticleStore } from '../particles.js';
import type { World } from '../world.js';
import { edgeSystem } from './edges.js';
import { Cast, castLineAll, makeLineCast } from './lineCast.js';
import { addBuiltinConstraint } from '../stages.js';

/** What {@link protectFromTunnelling} takes. */
export interface TunnellingOptions {
  /**
   * For a ragdoll: the torso particle. Its path is swept instead of the body's
   * midpoint (a limp body's midpoint may lie inside an obstacle it drapes over),
   * and every capsule edge inside the body is anchored at the end fewer sticks
   * away from the torso, so the paper's wall cheat brings a limb that ends up
   * on both sides of a wall back to the torso's side.
   */
  torsoParticle?: number;
}

/** Returned by {@link protectFromTunnelling}; undo it with `world.remove(protection)`. */
export interface TunnellingProtection {
  /** Stops protecting the body (the same as `world.remove(protection)`); safe to call twice. */
  remove(): void;
}

/** Scratch layout: [0..2] the midpoint at the start of the substep, [3..5] now. */
const START = 0;
const NOW = 3;

/**
 * The paper's swept test (section 7) for one body, run as a constraint in the
 * relaxation loop, before the colliders. Once per substep a line is cast from
 * the body's midpoint at the start of the substep (from the previous positions
 * x*) to its midpoint now; if it enters an obstacle, "the object position is set
 * to the point of collision": the body is translated so that its midpoint is at
 * the hit, then along the surface normal until every particle is in front of the
 * entered plane by its radius, and the velocity into the surface is removed
 * (zero restitution, as with projection). A rigid body also gets the paper's
 * limb cheat with its midpoint as the torso: in every pass, a particle that the
 * line from the midpoint reaches only through an obstacle is projected back onto
 * the midpoint's side. Together they keep the body whole, on the near side.
 */
class TunnellingGuard implements Constraint {
  private scratch = new Float64Array(6);
  /** The start midpoint the last sweep saw, after its fix: an equal one means the same substep. */
  private seen = new Float64Array([NaN, NaN, NaN]);
  private cast = makeLineCast();
  private contact = makeContact(false);

  constructor(
    private readonly first: number,
    private readonly count: number,
    private readonly torso: number,
  ) {}

  project(world: World): void {
    const particles = world.particles;
    const key = this.torso >= 0 ? this.torso : this.firstAlive(particles);
    if (key < 0 || (particles.flags[key]! & ParticleFlag.Asleep) !== 0) return;
    this.midpoints(particles);
    const s = this.scratch;
    const seen = this.seen;
    if (s[START] !== seen[0] || s[START + 1] !== seen[1] || s[START + 2] !== seen[2]) {
      this.sweep(world);
      this.midpoints(particles);
      for (let k = 0; k < 3; k++) seen[k] = s[START + k]!;
    }
    if (this.torso < 0) this.keepOnMidpointSide(world);
  }

  /** Midpoints (or the torso) at the start of the substep and now, into the scratch. */
  private midpoints(particles: ParticleStore): void {
    const s = this.scratch;
    const pos = particles.position;
    const prev = particles.previous;
    if (this.torso >= 0) {
      for (let k = 0; k < 3; k++) {
        s[START + k] = prev[this.torso * 3 + k]!;
        s[NOW + k] = pos[this.torso * 3 + k]!;
      }
      return;
    }
    for (let k = 0; k < 6; k++) s[k] = 0;
    let n = 0;
    for (let i = this.first; i < this.first + this.count; i++) {
      if ((particles.flags[i]! & ParticleFlag.Alive) === 0) continue;
      n++;
      for (let k = 0; k < 3; k++) {
        s[START + k] = s[START + k]! + prev[i * 3 + k]!;
        s[NOW + k] = s[NOW + k]! + pos[i * 3 + k]!;
      }
    }
    for (let k = 0; k < 6; k++) s[k] = s[k]! / n;
  }

  /** Casts start → now; on a hit sets the body at the point of collision. */
  private sweep(world: World): void {
    const s = this.scratch;
    const q = this.cast;
    for (let k = 0; k < 6; k++) q[k] = s[k]!;
    if (!castLineAll(world.colliders, q)) return;
    const particles = world.particles;
    const pos = particles.position;
    const prev = particles.previous;
    const t = q[Cast.T]!;
    const nx = q[Cast.Normal]!;
    const ny = q[Cast.Normal + 1]!;
    const nz = q[Cast.Normal + 2]!;
    // Translation that puts the midpoint at the hit ...
    const hx = s[START]! + (s[NOW]! - s[START]!) * t;
    const hy = s[START + 1]! + (s[NOW + 1]! - s[START + 1]!) * t;
    const hz = s[START + 2]! + (s[NOW + 2]! - s[START + 2]!) * t;
    // ... then out along the normal until every particle (a ragdoll: the torso; the
    // wall cheat brings its limbs) clears the entered plane.
    let lift = 0;
    const liftFrom = this.torso >= 0 ? this.torso : this.first;
    const liftTo = this.torso >= 0 ? this.torso + 1 : this.first + this.count;
    for (let i = liftFrom; i < liftTo; i++) {
      if (!movable(particles, i)) continue;
      const need = particles.radius[i]! - (nx * (pos[i * 3]! - s[NOW]!) + ny * (pos[i * 3 + 1]! - s[NOW + 1]!) + nz * (pos[i * 3 + 2]! - s[NOW + 2]!));
      if (need > lift) lift = need;
    }
    const dx = hx - s[NOW]! + nx * lift;
    const dy = hy - s[NOW + 1]! + ny * lift;
    const dz = hz - s[NOW + 2]! + nz * lift;
    // Velocity into the surface goes (restitution zero); along it and the spin stay.
    const vn = Math.min(0, nx * (s[NOW]! - s[START]!) + ny * (s[NOW + 1]! - s[START + 1]!) + nz * (s[NOW + 2]! - s[START + 2]!));
    for (let i = this.first; i < this.first + this.count; i++) {
      if (!movable(particles, i)) continue;
      const p = i * 3;
      pos[p] = pos[p]! + dx;
      pos[p + 1] = pos[p + 1]! + dy;
      pos[p + 2] = pos[p + 2]! + dz;
      prev[p] = prev[p]! + dx + nx * vn;
      prev[p + 1] = prev[p + 1]! + dy + ny * vn;
      prev[p + 2] = prev[p + 2]! + dz + nz * vn;
    }
  }

  /** The limb cheat with the midpoint as the torso: particles found across an obstacle come back. */
  private keepOnMidpointSide(world: World): void {
    const particles = world.particles;
    const pos = particles.position;
    const s = this.scratch;
    const q = this.cast;
    const contact = this.contact;
    for (let i = this.first; i < this.first + this.count; i++) {
      if (!movable(particles, i)) continue;
      for (let k = 0; k < 3; k++) {
        q[k] = s[NOW + k]!;
        q[3 + k] = pos[i * 3 + k]!;
      }
      if (!castLineAll(world.colliders, q)) continue;
      const t = q[Cast.T]!;
      contact[0] = q[Cast.Normal]!;
      contact[1] = q[Cast.Normal + 1]!;
      contact[2] = q[Cast.Normal + 2]!;
      // How far behind the entered plane the particle is, plus its radius.
      contact[3] = particles.radius[i]! - (1 - t) * (contact[0]! * (q[3]! - q[0]!) + contact[1]! * (q[4]! - q[1]!) + contact[2]! * (q[5]! - q[2]!));
      setSurface(contact, world.colliders[q[Cast.Hit]!]!);
      pushOut(particles, i, contact);
    }
  }

  private firstAlive(particles: ParticleStore): number {
    for (let i = this.first; i < this.first + this.count; i++) if ((particles.flags[i]! & ParticleFlag.Alive) !== 0) return i;
    return -1;
  }
}

function movable(particles: ParticleStore, i: number): boolean {
  return (particles.flags[i]! & ParticleFlag.Alive) !== 0 && particles.inverseMass[i]! > 0;
}

/**
 * Protects a fast body from passing through thin obstacles (an oriented box, a
 * mesh quad) with the paper's swept test: the line from the body's midpoint last
 * substep to its midpoint now is tested against every collider, and a body whose
 * midpoint line hits something is set to the point of collision. See
 * {@link TunnellingOptions.torsoParticle} for ragdolls. Costs a few line casts
 * per body per pass.
 *
 * @example
 * ```ts
 * world.addCollider({ type: 'obb', position: [2, 1, 0], halfExtents: [0.01, 1, 1] }); // a wall 2 cm thick
 * const crate = createBox(world, { size: 0.2, position: [0, 1, 0], velocity: [100, 0, 0] });
 * const guard = protectFromTunnelling(world, crate.body); // any body record or body id
 * // unguarded, the crate would pass through the wall; later: world.remove(guard);
 * ```
 */
export function protectFromTunnelling(world: World, body: BodyRecord | number, options: TunnellingOptions = {}): TunnellingProtection {
  const record = typeof body === 'number' ? world.bodies[body] : body;
  if (!record || !record.alive) throw new RangeError(`protectFromTunnelling: body must be a live body or body id, got ${typeof body === 'number' ? body : String(body?.id)}`);
  const torso = options.torsoParticle;
  if (torso !== undefined) {
    checkInteger(torso, 'protectFromTunnelling: torsoParticle');
    if (torso < record.first || torso >= record.first + record.count) {
      throw new RangeError(`protectFromTunnelling: torsoParticle must be a particle of body ${record.id} (ids ${record.first} to ${record.first + record.count - 1}), got ${torso}`);
    }
    edgeSystem(world).setTorso(particleSlot(record.first), record.count, stickHops(world, record, particleSlot(torso)));
  }
  const id = addBuiltinConstraint(world, 'tunnellingGuard', new TunnellingGuard(particleSlot(record.first), record.count, torso === undefined ? -1 : particleSlot(torso)));
  let enabled = true;
  const remove = () => {
    if (!enabled) return;
    enabled = false;
    if (world.hasConstraint(id)) world.removeConstraint(id);
    if (torso !== undefined) edgeSystem(world).clearTorso(particleSlot(record.first));
  };
  const protection: TunnellingProtection = { remove };
  record.onRemove.push(remove);
  return protection;
}

/**
 * Breadth-first hops along the body's bones from `torso` to every particle (-1
 * where unreached). A bone is a stick that holds its ends together: one that only
 * pushes them apart (kind 'min', a ragdoll's self-collision spacer between, say, a
 * hand and the hip) ties nothing. Counted as bones, those spacers made a hand one
 * hop from the torso, so a forearm was anchored at the hand and the wall cheat
 * threw a ragdoll straddling a thin wall 2.8 m, at 26 m/s.
 */
function stickHops(world: World, body: BodyRecord, torso: number): Int32Array {
  const first = particleSlot(body.first);
  const hops = new Int32Array(body.count).fill(-1);
  const sticks = world.sticks;
  const end = first + body.count;
  const neighbours: number[][] = Array.from({ length: body.count }, () => []);
  for (let row = 0; row < sticks.count; row++) {
    const a = sticks.a[row]!;
    const b = sticks.b[row]!;
    if (a < first || a >= end || b < first || b >= end || sticks.kind[row] === StickKindCode.Min) continue;
    neighbours[a - first]!.push(b - first);
    neighbours[b - first]!.push(a - first);
  }
  const queue = [torso - first];
  hops[torso - first] = 0;
  for (let head = 0; head < queue.length; head++) {
    const at = queue[head]!;
    for (const next of neighbours[at]!) {
      if (hops[next]! >= 0) continue;
      hops[next] = hops[at]! + 1;
      queue.push(next);
    }
  }
  return hops;
}
