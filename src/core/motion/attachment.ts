import type { WorldFeature } from '../features.js';
import type { CallbackId, ParticleId } from '../ids.js';
import { checkCompliance, checkDamping } from '../materials.js';
import { ATTACHMENT_DEFAULTS } from '../defaults.js';
import { checkOptions, toVec3, type Vec3, type Vec3Like } from '../math.js';
import { toQuat, type QuatLike } from '../quaternion.js';
import type { StepContext, SubstepStage } from '../stepContext.js';
import type { World } from '../world.js';
import { PoseTrack } from './poseTrack.js';
import { addSubstepStage, dropSubstepStage } from '../stages.js';

/**
 * The compliance (m/N) an attachment with a `breakForce` but no compliance of
 * its own holds with. A rigid pin makes its particle infinitely heavy and so
 * carries no force to measure; this spring does (its XPBD multiplier is the
 * force times h²) and gives 1 µm under 100 N, which no eye sees.
 */
export const BREAKABLE_COMPLIANCE = 1e-8;

/** The force (N) pin row `row` carried in the latest substep: its multiplier λ (kg·m) over h². */
function pinForce(world: World, row: number): number {
  const l = world.pins.lambda;
  return Math.sqrt(l[row * 3]! ** 2 + l[row * 3 + 1]! ** 2 + l[row * 3 + 2]! ** 2) / world.stepContext.h2;
}

/** A break force in N: a number > 0, Infinity (or undefined) for none. */
export function checkBreakForce(force: unknown, who: string): number {
  if (force === undefined || force === Infinity) return Infinity;
  if (typeof force !== 'number' || !(force > 0) || !Number.isFinite(force)) throw new RangeError(`${who}: breakForce must be a force in N above 0 (or Infinity), got ${String(force)}`);
  return force;
}

/** Options of {@link Attachment}. */
export interface AttachmentOptions {
  /** The object's position (m) when attaching. Default `[0, 0, 0]`. */
  position?: Vec3Like;
  /** The object's orientation `[x, y, z, w]` when attaching. Default identity. */
  quaternion?: QuatLike;
  /** The object's scale when attaching (offsets are scaled with it). Default `[1, 1, 1]`. */
  scale?: Vec3Like;
  /**
   * Where each particle holds, in the object's local frame (m): one point per
   * particle, or one point for all. Default: where each particle is now, so
   * attaching does not move anything.
   */
  offsets?: readonly Vec3Like[] | Vec3Like;
  /** Compliance in m/N: each particle hangs on a zero-length spring of k = 1/compliance. Default 0 (rigid). */
  compliance?: number;
  /** Constraint damping in N·s/m beside the spring (acts with a compliance > 0). Default 0. */
  damping?: number;
  /**
   * A particle lets go once its hold carries more than this force (N), measured
   * at the end of every step. Default Infinity (never). A rigid attachment
   * with a break force holds with {@link BREAKABLE_COMPLIANCE} instead. The
   * force is the instantaneous one: a load hung on at once pulls up to twice its
   * weight at first (a spring's step response) before it settles to its weight.
   */
  breakForce?: number;
  /** Called when a particle lets go under {@link AttachmentOptions.breakForce}, with the force it carried (N). */
  onBreak?: (particle: ParticleId, force: number) => void;
}

/**
 * Particles held to points of a moving object (a cape's top row on a
 * character's shoulders, a rope's end on a car, a cloth corner on a bone):
 * each particle is pinned (see `world.addPin`) to a point given in the object's
 * local frame, and the pins follow the object's pose. Give the pose once per
 * frame with {@link Attachment.setPose}; the frame's substeps see the object
 * move there in equal parts (position lerped, rotation slerped; see
 * {@link PoseTrack}), as `PinGlide` spreads a pointer's move, so a fast object
 * does not yank the cloth in one substep. A bare `world.step()` is a frame of
 * one step.
 *
 * One-way: the object is driven from outside and does not feel the particles.
 * For two-way links to a sinew body see {@link BodyAttachment}.
 *
 * @example
 * ```ts
 * const world = new World();
 * const cape = createCloth(world, { width: 8, height: 8, spacing: 0.05, position: [-0.2, 1.5, 0] });
 * const top = [...Array(8).keys()].map((i) => cape.particle(i, 0));
 * const shoulders = new Attachment(world, top, { position: [0, 1.5, 0] });
 * shoulders.setPose([0.05, 1.5, 0], [0, 0, 0, 1]); // every frame, before advancing
 * world.advance(1 / 60);
 * shoulders.remove(); // lets go
 * ```
 */
export class Attachment implements SubstepStage, WorldFeature {
  /** The attached particles, in the order given. */
  readonly particles: readonly ParticleId[];
  /** The pin holding each particle, -1 once it let go (broke, or its particle was removed). */
  readonly pins: Int32Array;
  /** Where each particle holds in the object's local frame, xyz interleaved. */
  readonly offsets: Float64Array;
  /** The object's pose over the current frame. */
  readonly pose: PoseTrack;
  /** Break force in N (Infinity: never). */
  readonly breakForce: number;
  private readonly onBreak: ((particle: ParticleId, force: number) => void) | undefined;
  private readonly local: Vec3 = [0, 0, 0];
  private readonly point: Vec3 = [0, 0, 0];
  private readonly callbacks: CallbackId[];
  /** Substeps run so far in the current step. */
  private substep = 0;
  private removed = false;
  /** Its name among the world's features. */
  private readonly feature: string;

  constructor(
    readonly world: World,
    particles: readonly ParticleId[],
    options: AttachmentOptions = {},
  ) {
    const who = 'Attachment';
    checkOptions(options, `${who}: options`);
    if (!Array.isArray(particles) || particles.length === 0) throw new TypeError(`${who}: particles must be a non-empty array of particle ids, got ${String(particles)}`);
    particles.forEach((id, i) => world.checkParticle(id, `${who}: particles[${i}]`));
    const duplicate = particles.find((id, i) => particles.indexOf(id) !== i);
    if (duplicate !== undefined) throw new RangeError(`${who}: particle ${duplicate} is listed twice`);
    const compliance = checkCompliance(options.compliance ?? ATTACHMENT_DEFAULTS.compliance, `${who}: compliance`);
    const damping = checkDamping(options.damping ?? ATTACHMENT_DEFAULTS.damping, `${who}: damping`);
    this.breakForce = checkBreakForce(options.breakForce, who);
    if (options.onBreak !== undefined && typeof options.onBreak !== 'function') throw new TypeError(`${who}: onBreak must be a function, got ${String(options.onBreak)}`);
    this.onBreak = options.onBreak;
    const scale = toVec3(options.scale ?? [1, 1, 1], `${who}: scale`);
    this.pose = new PoseTrack(toVec3(options.position ?? [0, 0, 0], `${who}: position`), toQuat(options.quaternion ?? [0, 0, 0, 1], `${who}: quaternion`), scale, who);
    this.particles = [...particles];
    this.offsets = this.readOffsets(options.offsets, scale, who);
    this.pins = new Int32Array(particles.length);
    const hold = compliance === 0 && this.breakForce !== Infinity ? BREAKABLE_COMPLIANCE : compliance;
    for (let i = 0; i < particles.length; i++) {
      this.targetOf(i);
      this.pins[i] = world.addPin(particles[i]!, this.point, { compliance: hold, damping });
    }
    this.callbacks = [world.onBeforeStep(this.beforeStep), world.onAfterStep(this.afterStep)];
    addSubstepStage(world, 'attachments', this);
    this.feature = world.features.addInstance('attachment', this);
  }

  /** The object's pose track (where the frame started, where it ends), for snapshots: the pins' targets follow it. */
  saveState(): Float64Array {
    return this.pose.save();
  }

  /** Returns the pose track to the snapshot's; without one (attached after it), it stays. */
  loadState(_world: World, data: unknown): void {
    if (data instanceof Float64Array) this.pose.load(data);
  }

  /**
   * The object's pose at the end of this frame (m, unit quaternion `[x, y, z, w]`
   * or a three.js `Quaternion`, optional scale): call it once per frame, before
   * the world advances. Copies nothing, so it can take a three.js object's own
   * `position` and `quaternion`.
   */
  setPose(position: Vec3Like, quaternion: QuatLike, scale?: Vec3Like): void {
    this.pose.set(position, quaternion, scale, 'Attachment.setPose');
  }

  /** True while particle number `i` (in {@link Attachment.particles}) is held. */
  holds(i: number): boolean {
    return this.pins[i]! >= 0 && this.world.pinRow(this.pins[i]!) >= 0;
  }

  /**
   * The force (N) the hold of particle number `i` carried in the latest
   * substep: 0 for a rigid hold (which carries none the solver can measure,
   * see {@link BREAKABLE_COMPLIANCE}) and for a particle let go.
   */
  force(i: number): number {
    const row = this.pins[i]! >= 0 ? this.world.pinRow(this.pins[i]!) : -1;
    return row < 0 ? 0 : pinForce(this.world, row);
  }

  /** Lets particle number `i` go (its pin is removed). */
  release(i: number): void {
    const pin = this.pins[i]!;
    if (pin >= 0 && this.world.hasConstraint(pin)) this.world.removeConstraint(pin);
    this.pins[i] = -1;
  }

  /** Lets every particle go and stops following the object. Safe to call twice. */
  remove(): void {
    if (this.removed) return;
    this.removed = true;
    for (let i = 0; i < this.pins.length; i++) this.release(i);
    for (const id of this.callbacks) this.world.remove(id);
    dropSubstepStage(this.world, this);
    this.world.features.delete(this.feature);
  }

  /** True once {@link Attachment.remove} ran. */
  get isRemoved(): boolean {
    return this.removed;
  }

  /** After each substep's integration: the pins' share of the object's move (the substep stage). */
  afterIntegrate(world: World, context: StepContext): void {
    this.substep++;
    if (!this.pose.moving) return;
    this.pose.share = (world.frameStep + this.substep / context.substeps) / world.frameSteps;
    this.pose.sample();
    const pins = world.pins;
    for (let i = 0; i < this.pins.length; i++) {
      const row = this.pins[i]! >= 0 ? world.pinRow(this.pins[i]!) : -1;
      if (row < 0) continue;
      this.targetOf(i);
      pins.target[row * 3] = this.point[0];
      pins.target[row * 3 + 1] = this.point[1];
      pins.target[row * 3 + 2] = this.point[2];
    }
  }

  /** Before each step: a moving object wakes what it holds (a sleeping particle's pin would not move it). */
  private readonly beforeStep = (world: World): void => {
    this.substep = 0;
    if (!this.pose.moving) return;
    for (let i = 0; i < this.pins.length; i++) if (this.pins[i]! >= 0 && world.pinRow(this.pins[i]!) >= 0) world.wake(this.particles[i]!);
  };

  /** After each step: the frame's last step ends the move; holds over the break force let go. */
  private readonly afterStep = (world: World): void => {
    if (world.frameStep === world.frameSteps - 1 && this.pose.moving) {
      // A step that ran no substeps (everything asleep) still ends the frame where the object is.
      if (this.substep === 0) this.writeGoalTargets();
      this.pose.arrive();
    }
    for (let i = 0; i < this.pins.length; i++) {
      if (this.pins[i]! < 0) continue;
      // The particle was removed, and its pin with it.
      if (world.pinRow(this.pins[i]!) < 0) {
        this.pins[i] = -1;
        continue;
      }
      if (this.breakForce === Infinity) continue;
      // Compared squared, inline: a force returned from a call would be a boxed double per pin per step.
      const row = world.pinRow(this.pins[i]!);
      const l = world.pins.lambda;
      const h2 = world.stepContext.h2;
      const lx = l[row * 3]!;
      const ly = l[row * 3 + 1]!;
      const lz = l[row * 3 + 2]!;
      if (lx * lx + ly * ly + lz * lz <= this.breakForce * this.breakForce * h2 * h2) continue;
      const force = pinForce(world, row);
      this.release(i);
      this.onBreak?.(this.particles[i]!, force);
      if (this.removed) return;
    }
  };

  private writeGoalTargets(): void {
    this.pose.share = 1;
    this.pose.sample();
    for (let i = 0; i < this.pins.length; i++) {
      const row = this.pins[i]! >= 0 ? this.world.pinRow(this.pins[i]!) : -1;
      if (row < 0) continue;
      this.targetOf(i);
      this.world.pins.setTarget(row, this.point[0], this.point[1], this.point[2]);
    }
  }

  /** `this.point` = where particle number `i` is held under the sampled pose. */
  private targetOf(i: number): void {
    this.local[0] = this.offsets[i * 3]!;
    this.local[1] = this.offsets[i * 3 + 1]!;
    this.local[2] = this.offsets[i * 3 + 2]!;
    this.pose.toWorld(this.local, this.point);
  }

  private readOffsets(given: AttachmentOptions['offsets'], scale: Vec3, who: string): Float64Array {
    const n = this.particles.length;
    const out = new Float64Array(n * 3);
    const one = given !== undefined && !(Array.isArray(given) && (given.length === 0 || typeof given[0] === 'object'));
    if (given !== undefined && !one && (given as readonly Vec3Like[]).length !== n)
      throw new RangeError(`${who}: offsets must hold one point per particle (${n}), got ${(given as readonly Vec3Like[]).length}`);
    if (given === undefined && scale.some((s) => s === 0)) throw new RangeError(`${who}: scale [${scale.join(', ')}] has a 0: give offsets, no local point maps to where the particles are`);
    for (let i = 0; i < n; i++) {
      const v = given === undefined ? null : toVec3(one ? (given as Vec3Like) : (given as readonly Vec3Like[])[i], one ? `${who}: offsets` : `${who}: offsets[${i}]`);
      if (v === null) this.pose.toLocal(this.world.getPosition(this.particles[i]!), this.local);
      out.set(v ?? this.local, i * 3);
    }
    return out;
  }
}
