import type { CallbackId, ConstraintId, ParticleId } from '../ids.js';
import { checkCompliance } from '../materials.js';
import { BODY_ATTACHMENT_DEFAULTS } from '../defaults.js';
import { checkOptions } from '../math.js';
import { checkBreakForce } from '../motion/attachment.js';
import { ParticleFlag } from '../particles.js';
import type { StepContext, SubstepStage } from '../stepContext.js';
import type { World } from '../world.js';
import type { Constraint } from './constraint.js';
import { addBuiltinConstraint, addSubstepStage, dropSubstepStage } from '../stages.js';

/** Options of {@link BodyAttachment}. */
export interface BodyAttachmentOptions {
  /** Compliance in m/N of each link: a zero-length spring of k = 1/compliance. Default 0 (rigid). */
  compliance?: number;
  /** A link lets go once it carries more than this force (N), measured at the end of every step. Default Infinity (never). */
  breakForce?: number;
  /** Called when a link lets go under `breakForce`, with its particle and the force it carried (N). */
  onBreak?: (particle: ParticleId, force: number) => void;
}

/**
 * Two-way attachments: each particle is tied to a point of a sinew body (a
 * rigid box, a soft body, another rope's particle), and both sides move by
 * their inverse masses, so a heavy rope pulls a light box and the box pulls
 * back. With one anchor particle the point is that particle (a zero-length
 * link). With four or more, the point is where the particle is now, written as
 * an affine combination p = Σ cᵢ xᵢ (Σ cᵢ = 1) of four of them spanning a
 * volume (the paper's section 5: a point of a rigid body expressed in its
 * particles), so it turns with the body.
 *
 * Each link is the vector constraint C = x − Σ cᵢ xᵢ, solved the XPBD way in
 * the relaxation loop (Macklin, Müller, Chentanez 2016) with the generalised
 * inverse mass W = w + Σ cᵢ² wᵢ:
 *
 *   Δλ = (−C − α̃·λ) / (W + α̃),   Δx = w·Δλ,   Δxᵢ = −cᵢ·wᵢ·Δλ,
 *
 * which moves the particle by +Δλ/m and the body's particles by −cᵢ·Δλ in
 * total momentum: the link conserves momentum. Its force is |λ|/h².
 *
 * @example
 * ```ts
 * const box = createBox(world, { size: [0.3, 0.3, 0.3], position: [0, 2, 0], mass: 0.5 });
 * const rope = createRope(world, { from: [0, 1.85, 0], to: [0, 0.85, 0], segments: 10 });
 * const link = new BodyAttachment(world, [rope.first], box.vertices);
 * link.remove(); // unties it
 * ```
 */
export class BodyAttachment implements Constraint, SubstepStage {
  /** The tied particles' slots (indices into the particle columns, see `particleSlot`), in the order given. */
  readonly particles: readonly number[];
  /** Four anchor particles per link (-1 where a link has fewer). */
  readonly anchors: Int32Array;
  /** The anchors' weights cᵢ per link (Σ cᵢ = 1). */
  readonly weights: Float64Array;
  /** Compliance α (m/N). */
  readonly compliance: number;
  /** Break force in N (Infinity: never). */
  readonly breakForce: number;
  /** 1 while a link holds, 0 once it let go (broke, or one of its particles was removed). */
  readonly holding: Uint8Array;
  /** Each link's multipliers over the current substep, xyz interleaved (kg·m: force × h²). */
  readonly lambda: Float64Array;
  private readonly generations: Uint32Array;
  private readonly onBreak: ((particle: ParticleId, force: number) => void) | undefined;
  private invH2 = 360_000;
  private readonly id: ConstraintId;
  private readonly callbacks: CallbackId[];
  private removed = false;

  constructor(
    readonly world: World,
    particles: readonly ParticleId[],
    anchors: readonly ParticleId[],
    options: BodyAttachmentOptions = {},
  ) {
    const who = 'BodyAttachment';
    checkOptions(options, `${who}: options`);
    if (!Array.isArray(particles) || particles.length === 0) throw new TypeError(`${who}: particles must be a non-empty array of particle ids, got ${String(particles)}`);
    if (!Array.isArray(anchors) && !ArrayBuffer.isView(anchors)) throw new TypeError(`${who}: anchors must be an array of particle ids, got ${String(anchors)}`);
    if (anchors.length !== 1 && anchors.length < 4) throw new RangeError(`${who}: anchors must be one particle or four or more spanning a volume, got ${anchors.length}`);
    const slots = particles.map((id, i) => world.checkParticle(id, `${who}: particles[${i}]`));
    const anchorSlots = Array.from(anchors).map((id, i) => world.checkParticle(id, `${who}: anchors[${i}]`));
    const own = slots.findIndex((slot) => anchorSlots.includes(slot));
    if (own >= 0) throw new RangeError(`${who}: particle ${particles[own]} is both attached and an anchor`);
    this.compliance = checkCompliance(options.compliance ?? BODY_ATTACHMENT_DEFAULTS.compliance, `${who}: compliance`);
    this.breakForce = checkBreakForce(options.breakForce, who);
    if (options.onBreak !== undefined && typeof options.onBreak !== 'function') throw new TypeError(`${who}: onBreak must be a function, got ${String(options.onBreak)}`);
    this.onBreak = options.onBreak;
    const n = particles.length;
    this.particles = slots;
    this.anchors = new Int32Array(n * 4).fill(-1);
    this.weights = new Float64Array(n * 4);
    this.holding = new Uint8Array(n).fill(1);
    this.lambda = new Float64Array(n * 3);
    for (let i = 0; i < n; i++) this.placeLink(i, anchorSlots, who);
    this.generations = new Uint32Array(n * 5);
    for (let i = 0; i < n; i++) {
      this.generations[i * 5] = world.particles.generation[slots[i]!]!;
      for (let k = 0; k < 4; k++) if (this.anchors[i * 4 + k]! >= 0) this.generations[i * 5 + 1 + k] = world.particles.generation[this.anchors[i * 4 + k]!]!;
    }
    this.id = addBuiltinConstraint(world, 'attachments', this);
    this.callbacks = [world.onBeforeStep(this.beforeStep), world.onAfterStep(this.afterStep)];
    addSubstepStage(world, 'attachments', this);
  }

  /** Links still holding, for `world.constraintCount`. */
  get constraintCount(): number {
    let count = 0;
    for (let i = 0; i < this.holding.length; i++) count += this.holding[i]!;
    return count;
  }

  /** @internal Changes when a link lets go: long-range attachments reach through the holding rigid single-particle links. */
  get tetherVersion(): number {
    return this.constraintCount;
  }

  /** @internal Reports each holding rigid link to one anchor particle as a zero-length link (see `Tethers`). */
  tetherLinks(link: (a: number, b: number, length: number) => void): void {
    if (this.compliance !== 0) return;
    for (let i = 0; i < this.holding.length; i++) {
      if (this.holding[i] === 1 && this.anchors[i * 4 + 1] === -1) link(this.particles[i]!, this.anchors[i * 4]!, 0);
    }
  }

  /** The force (N) link number `i` carried in the latest substep (0 once it let go). */
  force(i: number): number {
    if (this.holding[i] === 0) return 0;
    const l = this.lambda;
    return Math.sqrt(l[i * 3]! ** 2 + l[i * 3 + 1]! ** 2 + l[i * 3 + 2]! ** 2) * this.invH2;
  }

  /** Lets link number `i` go. */
  release(i: number): void {
    this.holding[i] = 0;
  }

  /** True once {@link BodyAttachment.remove} ran. */
  get isRemoved(): boolean {
    return this.removed;
  }

  /** Unties every link. Safe to call twice. */
  remove(): void {
    if (this.removed) return;
    this.removed = true;
    this.holding.fill(0);
    this.world.remove(this.id);
    for (const id of this.callbacks) this.world.remove(id);
    dropSubstepStage(this.world, this);
  }

  /** Each substep restarts the multipliers (XPBD accumulates them over one substep's passes). */
  afterIntegrate(_world: World, context: StepContext): void {
    this.invH2 = 1 / context.h2;
    this.lambda.fill(0);
  }

  /** One relaxation pass over the links. Allocates nothing. */
  project(world: World): void {
    const pos = world.particles.position;
    const w = world.particles.inverseMass;
    const flags = world.particles.flags;
    const anchors = this.anchors;
    const c = this.weights;
    const lambda = this.lambda;
    const at = this.compliance * this.invH2;
    for (let i = 0; i < this.particles.length; i++) {
      if (this.holding[i] === 0) continue;
      const q = this.particles[i]!;
      // Both sides sleep together (see beforeStep): a sleeper is not integrated, so it is not corrected either.
      if ((flags[q]! & ParticleFlag.Asleep) !== 0) continue;
      const wq = w[q]!;
      let W = wq + at;
      for (let k = 0; k < 4; k++) {
        const a = anchors[i * 4 + k]!;
        if (a >= 0) W += c[i * 4 + k]! * c[i * 4 + k]! * w[a]!;
      }
      if (W === 0) continue;
      for (let axis = 0; axis < 3; axis++) {
        let point = 0;
        for (let k = 0; k < 4; k++) {
          const a = anchors[i * 4 + k]!;
          if (a >= 0) point += c[i * 4 + k]! * pos[a * 3 + axis]!;
        }
        const l = i * 3 + axis;
        const dl = (point - pos[q * 3 + axis]! - at * lambda[l]!) / W;
        lambda[l] = lambda[l]! + dl;
        pos[q * 3 + axis] = pos[q * 3 + axis]! + wq * dl;
        for (let k = 0; k < 4; k++) {
          const a = anchors[i * 4 + k]!;
          if (a >= 0) pos[a * 3 + axis] = pos[a * 3 + axis]! - c[i * 4 + k]! * w[a]! * dl;
        }
      }
    }
  }

  /** Before each step: links whose particles went away let go; the two sides of a link wake together. */
  private readonly beforeStep = (world: World): void => {
    const particles = world.particles;
    for (let i = 0; i < this.particles.length; i++) {
      if (this.holding[i] === 0) continue;
      if (!this.sameParticle(this.particles[i]!, i * 5)) {
        this.holding[i] = 0;
        continue;
      }
      const q = this.particles[i]!;
      const qAsleep = (particles.flags[q]! & ParticleFlag.Asleep) !== 0;
      for (let k = 0; k < 4; k++) {
        const a = this.anchors[i * 4 + k]!;
        if (a < 0) continue;
        if (!this.sameParticle(a, i * 5 + 1 + k)) {
          this.holding[i] = 0;
          break;
        }
        if (((particles.flags[a]! & ParticleFlag.Asleep) !== 0) !== qAsleep) {
          world.wake(q);
          world.wake(a);
        }
      }
    }
  };

  /** After each step: links over the break force let go. */
  private readonly afterStep = (): void => {
    if (this.breakForce === Infinity) return;
    for (let i = 0; i < this.particles.length; i++) {
      if (this.holding[i] === 0) continue;
      // Compared squared, inline: a force returned from a call would be a boxed double per link per step.
      const l = this.lambda;
      const squared = l[i * 3]! ** 2 + l[i * 3 + 1]! ** 2 + l[i * 3 + 2]! ** 2;
      const limit = this.breakForce / this.invH2;
      if (squared <= limit * limit) continue;
      const force = this.force(i);
      this.holding[i] = 0;
      this.onBreak?.(this.world.particles.idOf(this.particles[i]!), force);
      if (this.removed) return;
    }
  };

  /** True while the particle in `slot` is alive and is still the one it was when the link was made (its generation is `generations[entry]`). */
  private sameParticle(slot: number, entry: number): boolean {
    return this.world.particles.isAlive(slot) && this.world.particles.generation[slot] === this.generations[entry];
  }

  /** Chooses link `i`'s anchors and weights: one anchor as is, else four spanning a volume, weighted to give where the particle is. */
  private placeLink(i: number, anchors: readonly number[], who: string): void {
    if (anchors.length === 1) {
      this.anchors[i * 4] = anchors[0]!;
      this.weights[i * 4] = 1;
      return;
    }
    const world = this.world;
    const p = world.getPosition(world.particles.idOf(this.particles[i]!));
    const at = anchors.map((a) => world.getPosition(world.particles.idOf(a)));
    const sub = (u: readonly number[], v: readonly number[]) => [u[0]! - v[0]!, u[1]! - v[1]!, u[2]! - v[2]!];
    const cross = (u: readonly number[], v: readonly number[]) => [u[1]! * v[2]! - u[2]! * v[1]!, u[2]! * v[0]! - u[0]! * v[2]!, u[0]! * v[1]! - u[1]! * v[0]!];
    const dot = (u: readonly number[], v: readonly number[]) => u[0]! * v[0]! + u[1]! * v[1]! + u[2]! * v[2]!;
    const best = (score: (x: readonly number[]) => number) => at.reduce((b, x, k) => (score(x) > score(at[b]!) ? k : b), 0);
    // The nearest anchor, the one farthest from it, the one farthest from that line, the one farthest from that plane.
    const i0 = best((x) => -dot(sub(x, p), sub(x, p)));
    const i1 = best((x) => dot(sub(x, at[i0]!), sub(x, at[i0]!)));
    const e1 = sub(at[i1]!, at[i0]!);
    const i2 = best((x) => dot(cross(sub(x, at[i0]!), e1), cross(sub(x, at[i0]!), e1)));
    const normal = cross(e1, sub(at[i2]!, at[i0]!));
    const i3 = best((x) => Math.abs(dot(sub(x, at[i0]!), normal)));
    const e2 = sub(at[i2]!, at[i0]!);
    const e3 = sub(at[i3]!, at[i0]!);
    const volume = dot(e1, cross(e2, e3));
    const size = Math.sqrt(dot(e1, e1));
    if (!(Math.abs(volume) > 1e-9 * size * size * size)) throw new RangeError(`${who}: anchors ${anchors.join(', ')} lie on a line or a plane: give four spanning a volume, or one particle to tie to`);
    // Cramer's rule for p − x₀ = u₁e₁ + u₂e₂ + u₃e₃.
    const d = sub(p, at[i0]!);
    const u1 = dot(d, cross(e2, e3)) / volume;
    const u2 = dot(e1, cross(d, e3)) / volume;
    const u3 = dot(e1, cross(e2, d)) / volume;
    const chosen = [i0, i1, i2, i3];
    const weights = [1 - u1 - u2 - u3, u1, u2, u3];
    for (let k = 0; k < 4; k++) {
      this.anchors[i * 4 + k] = anchors[chosen[k]!]!;
      this.weights[i * 4 + k] = weights[k]!;
    }
  }
}
