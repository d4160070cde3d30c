import { ANIMATED_RAGDOLL_DEFAULTS } from '../defaults.js';
import type { Ragdoll } from '../bodies/ragdoll.js';
import { partMass, ragdollParts, type RagdollPart } from '../bodies/ragdollSkeleton.js';
import { particleSlot, type CallbackId } from '../ids.js';
import type { Vec3Like } from '../math.js';
import { ParticleFlag } from '../particles.js';
import type { World } from '../world.js';
import { inheritAnimation } from './inheritAnimation.js';
import { PoseBlend } from './poseBlend.js';

/** What {@link CharacterDriver} takes besides its world and ragdoll. */
export interface CharacterDriverOptions {
  /** The animated pose it starts in: xyz per ragdoll part, in `ragdollParts` order. */
  pose: ArrayLike<number>;
  /** How hard each part holds to the animation once active, in [0, 1], per part in `ragdollParts` order. Default 0 for all. */
  strength?: ArrayLike<number>;
  /** Turn physical when another body moving this fast (m/s) would reach a limb within a step; 0: never. Default 2. */
  strikeSpeed?: number;
}

/**
 * Natural frequency (rad/s) of a particle on its pin at strength 1/2: the pin's
 * stiffness is m·ω², ω = {@link HALF_STRENGTH_OMEGA}·s/(1 − s), so a particle
 * sags g/ω² (6 cm) under its own weight at 1/2, under a millimetre at 0.9, and
 * not at all at 1.
 */
const HALF_STRENGTH_OMEGA = 4 * Math.PI;

/** Slots of {@link CharacterDriver.state}. */
const ACTIVE = 0;
const ACTIVATIONS = 1;
const SAMPLE_DT = 2;
const SAMPLES = 3;
const REMOVED = 4;

const PARTS = ragdollParts.length;

/** @internal Length of what {@link CharacterDriver.saveMirror} writes: active, activations, the blend's 3 numbers, the activation pose, the pins last dropped. */
export const CHARACTER_MIRROR_LENGTH = 5 + PARTS * 3 + PARTS;

/**
 * The world side of an animated character (`AnimatedRagdoll` in the three layer, which reads
 * the animation from the bones and poses them): the ragdoll's pins, held on the animated pose
 * while inactive and softened to each part's strength once active; the per-step driver that
 * moves the pins from the last sampled pose to this one over a frame's steps, blends a get-up
 * and turns the ragdoll physical when another body strikes it. Everything it needs arrives as
 * data (the pose sampled once a frame with {@link CharacterDriver.follow}), so a remote world
 * replays it in its worker and steps the same.
 *
 * Its pins are made anew, all of them, by every {@link CharacterDriver.getUp} and
 * {@link CharacterDriver.setStrength}, and only those calls add pins: the steps (a strike, the
 * end of a get-up) drop pins or soften them but never add one, so the ids a world hands out
 * do not depend on what its steps did.
 *
 * @example
 * ```ts
 * const driver = new CharacterDriver(world, ragdoll, { pose: sampledPose });
 * // every frame, before stepping:
 * driver.follow(sampledPose, dt);
 * world.advance(dt);
 * // on a shot:
 * driver.hit('chest', [0, 0, -1], 0.01);
 * ```
 */
export class CharacterDriver {
  /** The world it drives the ragdoll in. */
  readonly world: World;
  /** The ragdoll it drives. */
  readonly ragdoll: Ragdoll;
  /** Pin id per part (in `ragdollParts` order), -1 where strength 0 left none. */
  readonly pins = new Int32Array(PARTS).fill(-1);
  /** The pin each part dropped last (-1: none), so a remote world's shadow drops the same pin. */
  readonly dropped = new Int32Array(PARTS).fill(-1);
  /** Active (1/0), activations so far, the latest frame's dt, frames followed, removed (1/0): typed, not fields, as doubles in fields can box in V8. */
  readonly state = new Float64Array(5);
  /** Animated pose sampled at the latest and the one before (xyz per part). */
  readonly current = new Float64Array(PARTS * 3);
  readonly previous = new Float64Array(PARTS * 3);
  /** The pose it last turned physical in (the particles' places then): the pose the bones bind to. */
  readonly activationPose = new Float64Array(PARTS * 3);
  /** Strength per part when active, as set. */
  private readonly strength = new Float64Array(PARTS);
  /** Strength 1 for every part: rigid pins, as while getting up and animated. */
  private readonly rigid = new Float64Array(PARTS).fill(1);
  private readonly masses: Float64Array;
  private readonly blend: PoseBlend;
  private readonly stepping: CallbackId;
  private readonly strikeSpeed: number;
  /** Bounds of the ragdoll's particles (min xyz, max xyz), refilled per step while it watches for strikes. */
  private readonly bounds = new Float64Array(6);
  /** Bounds of a body one step ahead (min xyz, max xyz), scratch of `strikes`. */
  private readonly ahead = new Float64Array(6);
  private readonly reach: number;
  /** The slots of each limb's ends (from, to), which `strikes` reads the particle columns at. */
  private readonly limbSlots: Int32Array;

  /** Pins `ragdoll` rigidly on `options.pose` and drives it before every step; throws a `RangeError` naming a bad pose, strength or strike speed. */
  constructor(world: World, ragdoll: Ragdoll, options: CharacterDriverOptions) {
    this.world = world;
    this.ragdoll = ragdoll;
    const strikeSpeed = options.strikeSpeed ?? ANIMATED_RAGDOLL_DEFAULTS.strikeSpeed;
    if (typeof strikeSpeed !== 'number' || !Number.isFinite(strikeSpeed) || strikeSpeed < 0) {
      throw new RangeError(`CharacterDriver: strikeSpeed must be a finite number >= 0, got ${String(options.strikeSpeed)}`);
    }
    this.strikeSpeed = strikeSpeed;
    const pose = options.pose;
    if (pose === null || typeof pose !== 'object' || pose.length !== PARTS * 3)
      throw new RangeError(`CharacterDriver: pose must hold xyz for each of the ${PARTS} ragdoll parts (${PARTS * 3} numbers), got ${String(pose?.length)}`);
    this.readStrength(options.strength ?? new Float64Array(PARTS).fill(ANIMATED_RAGDOLL_DEFAULTS.strength), 'CharacterDriver: strength');
    this.masses = Float64Array.from(ragdollParts, (p) => partMass(p) * ragdoll.mass);
    this.reach = Math.max(...ragdoll.limbs.map((l) => l.radius));
    this.limbSlots = Int32Array.from(ragdoll.limbs.flatMap((l) => [particleSlot(l.from), particleSlot(l.to)]));
    this.current.set(pose);
    this.previous.set(pose);
    this.blend = new PoseBlend(PARTS);
    for (let i = 0; i < PARTS; i++) this.pins[i] = world.addPin(ragdoll.first + i);
    this.stepping = world.onBeforeStep(this.beforeStep);
  }

  /** True once hit or activated, until a get-up ends. */
  get active(): boolean {
    return this.state[ACTIVE] === 1;
  }

  /** True while {@link CharacterDriver.getUp} blends back to the animation. */
  get gettingUp(): boolean {
    return this.blend.running;
  }

  /** The get-up blend's elapsed seconds, duration (0: not running) and the animation's weight, live (for the bones' twist). */
  get blendState(): Float64Array {
    return this.blend.state;
  }

  /** The animated pose of this frame (xyz per part), sampled after the animation ran, before stepping, with the frame's `dt` (s): the pins glide from the last pose to this one over the frame's steps. */
  follow(pose: ArrayLike<number>, dt: number): void {
    if (typeof dt !== 'number' || !(dt >= 0) || !Number.isFinite(dt)) throw new RangeError(`CharacterDriver.follow: dt must be a finite number >= 0, got ${String(dt)}`);
    if (pose === null || typeof pose !== 'object' || pose.length !== PARTS * 3) throw new RangeError(`CharacterDriver.follow: pose must hold ${PARTS * 3} numbers, got ${String(pose?.length)}`);
    if (this.state[REMOVED] === 1) return;
    this.previous.set(this.current);
    this.current.set(pose);
    this.state[SAMPLE_DT] = dt;
    this.state[SAMPLES] = this.state[SAMPLES]! + 1;
  }

  /**
   * Turns physical from the current animated pose: every particle keeps the velocity the
   * animation gave it between the last two {@link CharacterDriver.follow} calls, and its pin
   * softens to its strength. While getting up, it ends the get-up where the body is. Does
   * nothing when already active otherwise.
   */
  activate(): void {
    if (this.blend.running) this.stopGettingUp();
    if (this.state[ACTIVE] === 1 || this.state[REMOVED] === 1) return;
    this.state[ACTIVE] = 1;
    this.state[ACTIVATIONS] = this.state[ACTIVATIONS]! + 1;
    const first = this.ragdoll.first;
    const dt = this.state[SAMPLE_DT]!;
    if (this.state[SAMPLES]! > 0 && dt > 0) inheritAnimation(this.world, first, this.previous, this.current, dt);
    else inheritAnimation(this.world, first, this.current, this.current, this.world.timeStep);
    // inheritAnimation put the particles on the current pose.
    this.activationPose.set(this.current);
    this.soften(this.strength);
  }

  /** A blow at `part`: activates (keeping the animation's velocities) and moves the part `strength` metres along `direction` (see `Ragdoll.hit`). */
  hit(part: RagdollPart, direction: Vec3Like, strength: number): void {
    this.ragdoll.part(part);
    this.activate();
    this.ragdoll.hit(part, direction, strength);
  }

  /**
   * How hard each part holds to the animation while active, in [0, 1] per part (in
   * `ragdollParts` order). Makes every pin anew (rigid while inactive), so it adds the same
   * pins whatever the steps did; applies at once when active and ends a get-up.
   */
  setStrength(strength: ArrayLike<number>): void {
    this.readStrength(strength, 'CharacterDriver.setStrength: strength');
    if (this.state[REMOVED] === 1) return;
    this.blend.stop();
    this.repin(this.state[ACTIVE] === 1 ? this.strength : this.rigid);
  }

  /**
   * Blends back to the animation over `seconds` of simulated time (see `AnimatedRagdoll.getUp`):
   * every pin is made anew, rigid, on a target that eases from where the particle lies to its
   * animated place. Does nothing but that while inactive.
   */
  getUp(seconds: number): void {
    if (typeof seconds !== 'number' || !Number.isFinite(seconds) || seconds <= 0) throw new RangeError(`CharacterDriver.getUp: seconds must be a finite number > 0, got ${String(seconds)}`);
    if (this.state[REMOVED] === 1) return;
    if (this.state[ACTIVE] === 1) this.blend.start(this.world.particles.position, particleSlot(this.ragdoll.first), seconds);
    this.repin(this.rigid);
  }

  /** Removes the ragdoll, its pins and the step hook. Safe to call twice. */
  remove(): void {
    if (this.state[REMOVED] === 1) return;
    this.state[REMOVED] = 1;
    this.world.remove(this.stepping);
    for (let i = 0; i < PARTS; i++) this.drop(i);
    this.ragdoll.remove();
  }

  /** @internal What the steps changed, for a remote world's shadow: see {@link CHARACTER_MIRROR_LENGTH}. */
  saveMirror(out: Float64Array): void {
    out[0] = this.state[ACTIVE]!;
    out[1] = this.state[ACTIVATIONS]!;
    out.set(this.blend.state, 2);
    out.set(this.activationPose, 5);
    for (let i = 0; i < PARTS; i++) out[5 + PARTS * 3 + i] = this.dropped[i]!;
  }

  /** @internal Takes on what {@link CharacterDriver.saveMirror} wrote in another world: the state, and the pins dropped there that this world still holds. */
  loadMirror(data: Float64Array): void {
    if (this.state[REMOVED] === 1) return;
    this.state[ACTIVE] = data[0]!;
    this.state[ACTIVATIONS] = data[1]!;
    this.blend.state.set(data.subarray(2, 5));
    this.activationPose.set(data.subarray(5, 5 + PARTS * 3));
    for (let i = 0; i < PARTS; i++) {
      const pin = data[5 + PARTS * 3 + i]!;
      if (pin >= 0 && this.pins[i] === pin) this.drop(i);
    }
  }

  private readStrength(strength: ArrayLike<number>, what: string): void {
    if (strength === null || typeof strength !== 'object' || strength.length !== PARTS) throw new RangeError(`${what} must hold one number per ragdoll part (${PARTS}), got ${String(strength)}`);
    for (let i = 0; i < PARTS; i++) {
      const s = strength[i];
      if (typeof s !== 'number' || !Number.isFinite(s) || s < 0 || s > 1) throw new RangeError(`${what}.${ragdollParts[i]} must be a number in [0, 1], got ${String(s)}`);
    }
    for (let i = 0; i < PARTS; i++) this.strength[i] = strength[i]!;
  }

  private complianceFor(i: number, strength: number): number {
    const omega = (HALF_STRENGTH_OMEGA * strength) / (1 - strength);
    return 1 / (this.masses[i]! * omega * omega);
  }

  private drop(i: number): void {
    const pin = this.pins[i]!;
    if (pin < 0) return;
    if (this.world.pinRow(pin) >= 0) this.world.remove(pin);
    this.dropped[i] = pin;
    this.pins[i] = -1;
  }

  /**
   * Sets every pin to its strength without adding one (what the steps may do): rigid at 1,
   * compliant between, dropped at 0. Undamped: a pin's dashpot damps against a still target,
   * so it would drag a limb behind a walking animation (a half-strength hand hung 15 cm
   * behind, against 9 cm undamped); the ragdoll's joint damping calms the swinging.
   */
  private soften(strength: Float64Array): void {
    const world = this.world;
    for (let i = 0; i < PARTS; i++) {
      const s = strength[i]!;
      const pin = this.pins[i]!;
      if (s <= 0) {
        this.drop(i);
        continue;
      }
      const compliance = s >= 1 ? 0 : this.complianceFor(i, s);
      if (pin >= 0 && world.pins.compliance[world.pinRow(pin)] !== compliance) world.setPin(pin, { compliance, damping: 0 });
    }
  }

  /** Makes every pin anew at its strength (see {@link CharacterDriver.soften}): the same pins added whatever the pins were. */
  private repin(strength: Float64Array): void {
    const world = this.world;
    for (let i = 0; i < PARTS; i++) this.drop(i);
    for (let i = 0; i < PARTS; i++) {
      const compliance = strength[i]! >= 1 ? 0 : strength[i]! > 0 ? this.complianceFor(i, strength[i]!) : 0;
      this.pins[i] = world.addPin(this.ragdoll.first + i, [this.current[i * 3]!, this.current[i * 3 + 1]!, this.current[i * 3 + 2]!], { compliance, damping: 0 });
    }
    for (let i = 0; i < PARTS; i++) if (strength[i]! <= 0) this.drop(i);
  }

  private deactivate(): void {
    this.state[ACTIVE] = 0;
    this.blend.stop();
    this.soften(this.rigid);
  }

  /** Ends a get-up where the body is: the pins soften to the strength, each particle keeping its velocity. */
  private stopGettingUp(): void {
    this.blend.stop();
    this.soften(this.strength);
  }

  /** Before every step: the pins' share of the way from the last pose to this one, blended with where the body lay while getting up. */
  private readonly beforeStep = (world: World): void => {
    const active = this.state[ACTIVE] === 1;
    if ((!active || this.blend.running) && this.strikeSpeed > 0 && this.struck(world)) this.activate();
    if (this.blend.running && this.blend.advance(world.timeStep)) this.deactivate();
    const blending = this.blend.running;
    const isActive = this.state[ACTIVE] === 1;
    const share = (world.frameStep + 1) / world.frameSteps;
    const target = world.pins.target;
    for (let i = 0; i < PARTS; i++) {
      const pin = this.pins[i]!;
      if (pin < 0) continue;
      const row = world.pinRow(pin) * 3;
      for (let k = 0; k < 3; k++) {
        const from = this.previous[i * 3 + k]!;
        target[row + k] = from + (this.current[i * 3 + k]! - from) * share;
      }
      if (blending) this.blend.blendTarget(target, row, i);
      if (isActive) world.wake(this.ragdoll.first + i);
    }
  };

  /**
   * True when another body (or a lone particle) with a particle moving at least
   * `strikeSpeed` will, one step from now, overlap a limb: its bounds moved a
   * step ahead against each limb capsule's bounds. Boxes, not exact shapes, so
   * a near miss by a few centimetres counts too; a blow is meant to be caught a
   * step early. Allocates nothing.
   */
  private struck(world: World): boolean {
    const particles = world.particles;
    const pos = particles.position;
    const box = this.bounds;
    box.fill(Infinity, 0, 3);
    box.fill(-Infinity, 3, 6);
    const first = particleSlot(this.ragdoll.first);
    for (let i = first; i < first + this.ragdoll.count; i++) {
      for (let k = 0; k < 3; k++) {
        const x = pos[i * 3 + k]!;
        if (x < box[k]!) box[k] = x;
        if (x > box[3 + k]!) box[3 + k] = x;
      }
    }
    const own = this.ragdoll.body;
    const bodies = world.bodies;
    for (let b = 0; b < bodies.length; b++) {
      const body = bodies[b]!;
      if (body.alive && body !== own && this.strikes(world, particleSlot(body.first), particleSlot(body.first) + body.count)) return true;
    }
    // Particles of no body.
    for (let i = 0; i < particles.end; i++) if (particles.body[i]! < 0 && particles.isAlive(i) && this.strikes(world, i, i + 1)) return true;
    return false;
  }

  /** Whether particles `start`…`end` − 1 (one body) strike a limb within the next step (see `struck`). */
  private strikes(world: World, start: number, end: number): boolean {
    const particles = world.particles;
    const pos = particles.position;
    const prev = particles.previous;
    const ahead = this.ahead;
    ahead.fill(Infinity, 0, 3);
    ahead.fill(-Infinity, 3, 6);
    // Distance per substep at the strike speed, and substeps per step: a step's move is (x − x_prev) × substeps.
    const speed = this.strikeSpeed * world.substep;
    const substeps = world.activeSubsteps;
    let fastest = 0;
    for (let i = start; i < end; i++) {
      if (particles.inverseMass[i] === 0 && (particles.flags[i]! & ParticleFlag.Pinned) === 0) continue;
      const r = particles.radius[i]!;
      for (let k = 0; k < 3; k++) {
        const d = pos[i * 3 + k]! - prev[i * 3 + k]!;
        const x = pos[i * 3 + k]! + d * substeps;
        if (x - r < ahead[k]!) ahead[k] = x - r;
        if (x + r > ahead[3 + k]!) ahead[3 + k] = x + r;
      }
      const dx = pos[i * 3]! - prev[i * 3]!;
      const dy = pos[i * 3 + 1]! - prev[i * 3 + 1]!;
      const dz = pos[i * 3 + 2]! - prev[i * 3 + 2]!;
      fastest = Math.max(fastest, dx * dx + dy * dy + dz * dz);
    }
    if (fastest < speed * speed) return false;
    const box = this.bounds;
    const reach = this.reach;
    for (let k = 0; k < 3; k++) if (ahead[k]! > box[3 + k]! + reach || ahead[3 + k]! < box[k]! - reach) return false;
    const limbs = this.ragdoll.limbs;
    const ends = this.limbSlots;
    for (let l = 0; l < limbs.length; l++) {
      const limb = limbs[l]!;
      let overlaps = true;
      for (let k = 0; k < 3 && overlaps; k++) {
        const a = pos[ends[l * 2]! * 3 + k]!;
        const b = pos[ends[l * 2 + 1]! * 3 + k]!;
        overlaps = ahead[k]! <= Math.max(a, b) + limb.radius && ahead[3 + k]! >= Math.min(a, b) - limb.radius;
      }
      if (overlaps) return true;
    }
    return false;
  }
}
