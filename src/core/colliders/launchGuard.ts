import { linkSignature } from '../constraints/linkSignature.js';
import { ParticleFlag, type ParticleStore } from '../particles.js';
import type { StepContext } from '../stepContext.js';
import type { World } from '../world.js';

/**
 * The push-out limit over a whole step, for everything joined to a particle
 * that was held inside something. Each push out of a collider or another
 * body is held to `maxPushOutSpeed` (see `pushOut`, `respondToContacts`,
 * `BodyContacts`), but a constraint that drags a particle back in on every
 * pass (a stick to a particle pinned under the floor) lets the surface push
 * it out again and again, and the stick hands every push on: released, two
 * particles left 3 m under a floor at 374 m/s.
 *
 * So a particle whose push-out was held back in a step (it was deeper than
 * the limit lets out) marks every particle joined to it by sticks or links,
 * and at the end of the step each marked particle leaves no faster than it
 * arrived, plus what gravity added, plus `maxPushOutSpeed`: contacts and the
 * constraints between them together add at most that speed per step. It only
 * takes speed away, and only from what was inside something.
 */
export class LaunchGuard {
  /** Per particle: a representative of the particles joined to it (union–find over sticks and links). */
  private parent: Int32Array = new Int32Array(0);
  /** Per representative: 1 when a particle joined to it was held back this step. */
  private marked: Uint8Array = new Uint8Array(0);
  /** What the particles were joined for (see `linkSignature`), and the same worked out now. */
  private readonly signature = new Float64Array([-1]);
  private readonly scratch = new Float64Array(1);
  /** Joins the two ends of a link a constraint reports (made once: a closure per rebuild would be garbage whenever a cloth tears). */
  private readonly joinLink = (a: number, b: number): void => join(this.parent, a, b);

  /** Before the substeps: records each particle's motion per substep (`startVelocity`) in `[from, to)`. */
  record(particles: ParticleStore, startVelocity: Float64Array, from: number, to: number): void {
    const pos = particles.position;
    const prev = particles.previous;
    for (let k = from * 3; k < to * 3; k++) startVelocity[k] = pos[k]! - prev[k]!;
  }

  /**
   * After each substep: limits the motion per substep of the particles in
   * `[from, to)` joined to one held back so far in this step to their motion
   * at the step's start plus `context.launchAllowance` (what gravity and
   * `maxPushOutSpeed` add in a step, per substep). Limiting every substep, not only the last,
   * keeps the pushes from carrying the body far within the step. A substep
   * with nothing held back costs one flag test per particle.
   */
  limit(world: World, startVelocity: Float64Array, context: StepContext, from: number, to: number): void {
    const allowance = context.launchAllowance;
    const particles = world.particles;
    const flags = particles.flags;
    let any = false;
    for (let i = from; i < to; i++) if ((flags[i]! & ParticleFlag.Pushed) !== 0) any = true;
    if (!any) return;
    const parent = this.parent;
    const marked = this.marked;
    for (let i = from; i < to; i++) if ((flags[i]! & ParticleFlag.Pushed) !== 0) marked[find(parent, i)] = 1;
    const pos = particles.position;
    const prev = particles.previous;
    for (let i = from; i < to; i++) {
      if (marked[find(parent, i)] === 0 || particles.inverseMass[i] === 0) continue;
      const p = i * 3;
      const sx = startVelocity[p]!;
      const sy = startVelocity[p + 1]!;
      const sz = startVelocity[p + 2]!;
      const most = Math.sqrt(sx * sx + sy * sy + sz * sz) + allowance;
      const vx = pos[p]! - prev[p]!;
      const vy = pos[p + 1]! - prev[p + 1]!;
      const vz = pos[p + 2]! - prev[p + 2]!;
      const speed = Math.sqrt(vx * vx + vy * vy + vz * vz);
      if (speed <= most) continue;
      const keep = most / speed;
      prev[p] = pos[p]! - vx * keep;
      prev[p + 1] = pos[p + 1]! - vy * keep;
      prev[p + 2] = pos[p + 2]! - vz * keep;
    }
  }

  /** At the end of a step: forgets who was held back in it, in `[from, to)`. */
  clear(world: World, from: number, to: number): void {
    const flags = world.particles.flags;
    for (let i = from; i < to; i++) {
      if ((flags[i]! & ParticleFlag.Pushed) === 0) continue;
      flags[i] = flags[i]! & ~ParticleFlag.Pushed;
      if (i < this.marked.length) this.marked[find(this.parent, i)] = 0;
    }
  }

  /** Before a step: joins the particles again when sticks, links or particles changed. */
  refresh(world: World): void {
    const end = world.particles.end;
    linkSignature(world, this.scratch);
    if (this.scratch[0] === this.signature[0]) return;
    this.signature[0] = this.scratch[0]!;
    this.rejoin(world, end);
  }

  /** Joins particles `[0, end)` by sticks and every constraint's links (the cold half of {@link refresh}, kept apart so that the check every step stays small). */
  private rejoin(world: World, end: number): void {
    if (this.parent.length < end) {
      this.parent = new Int32Array(world.particles.capacity);
      this.marked = new Uint8Array(world.particles.capacity);
    }
    const parent = this.parent;
    for (let i = 0; i < end; i++) parent[i] = i;
    const sticks = world.sticks;
    for (let r = 0; r < sticks.count; r++) join(parent, sticks.a[r]!, sticks.b[r]!);
    const builtin = world.stages.constraints.items;
    for (let c = 0; c < builtin.length; c++) builtin[c]!.tetherLinks?.(this.joinLink);
    const constraints = world.constraints;
    for (let c = 0; c < constraints.length; c++) constraints[c]!.tetherLinks?.(this.joinLink);
  }
}

/** The representative of `i`, halving the path on the way. */
function find(parent: Int32Array, i: number): number {
  while (parent[i] !== i) {
    parent[i] = parent[parent[i]!]!;
    i = parent[i]!;
  }
  return i;
}

function join(parent: Int32Array, a: number, b: number): void {
  const ra = find(parent, a);
  const rb = find(parent, b);
  if (ra !== rb) parent[ra > rb ? ra : rb] = ra > rb ? rb : ra;
}
