import { ANIMATED_RAGDOLL_DEFAULTS } from '../core/defaults.js';
import { particleSlot } from '../core/ids.js';
import { Vector3, type Object3D } from 'three';
import { createRagdoll, type Ragdoll, type RagdollOptions } from '../core/bodies/ragdoll.js';
import { partMass, ragdollParts, type RagdollPart } from '../core/bodies/ragdollSkeleton.js';
import type { CallbackId } from '../core/ids.js';
import type { Vec3Like } from '../core/math.js';
import { inheritAnimation } from '../core/motion/inheritAnimation.js';
import { ParticleFlag } from '../core/particles.js';
import type { World } from '../core/world.js';
import { SwingDriver } from './swingDriver.js';
import { swungBones } from './ragdollBones.js';
import { findSkinnedMesh, fitRagdoll, type FitRagdollOptions, type RagdollFit } from './fitRagdoll.js';
import { GetUpBlend } from './getUpBlend.js';
import { ExtremityRest, extremityPoints } from './restingExtremities.js';

/** How hard each part holds to the animation once active: one number for all, or per part (parts left out: 0). */
export type RagdollStrength = number | Readonly<Partial<Record<RagdollPart, number>>>;

/** Options of {@link AnimatedRagdoll}: the fit's, the ragdoll's physical ones, and the strength. */
export interface AnimatedRagdollOptions extends FitRagdollOptions, Omit<RagdollOptions, 'joints' | 'limbRadii' | 'position' | 'rotation' | 'pose' | 'velocity' | 'height'> {
  /**
   * How hard the particles hold to the animated pose once the ragdoll is
   * active, in [0, 1]: soft pins whose stiffness grows with it. 1: the animation
   * wins (a rigid pin); 0: limp. Default 0, a plain ragdoll once hit.
   */
  strength?: RagdollStrength;
  /**
   * Turn physical when another body strikes it: a particle of another body (not
   * immovable) moving at least this fast (m/s) that would reach one of the
   * limbs' capsules within the next step. The check runs before each step, so
   * the blow meets a ragdoll with mass, not one pinned to its animation. 0 turns
   * it off. Default 2.
   */
  strikeSpeed?: number;
}

/**
 * Natural frequency (rad/s) of a particle on its pin at strength 1/2: the pin's
 * stiffness is m·ω², ω = {@link HALF_STRENGTH_OMEGA}·s/(1 − s), so a particle
 * sags g/ω² (6 cm) under its own weight at 1/2, under a millimetre at 0.9, and
 * not at all at 1.
 */
const HALF_STRENGTH_OMEGA = 4 * Math.PI;

/**
 * A skinned character whose ragdoll follows its animation until it is hit
 * (paper section 7: inherited animation, hits). While inactive, every ragdoll
 * particle is pinned to where its bone puts it in the playing animation (read
 * from the bones after the mixer ran, so any `AnimationMixer` or drei's
 * `useAnimations` works). On {@link AnimatedRagdoll.hit} or
 * {@link AnimatedRagdoll.activate} it turns physical from that pose, each
 * particle keeping the velocity the animation gave it over the last frame, and
 * from then on the ragdoll poses the bones; hands and feet keep the
 * animation's turn but rest on the colliders it lies on (see
 * `docs/characters.md`). Per-part {@link AnimatedRagdoll.setStrength} keeps soft pins toward the animation (a powered ragdoll), and
 * {@link AnimatedRagdoll.getUp} blends back to the animation.
 *
 * Per frame: `mixer.update(dt)`, then {@link AnimatedRagdoll.follow}(dt), then
 * `world.advance(dt)`, then {@link AnimatedRagdoll.pose} before rendering.
 *
 * @example
 * ```ts
 * const character = new AnimatedRagdoll(world, humanoid.root);
 * // every frame:
 * mixer.update(dt);
 * character.follow(dt);
 * world.advance(dt);
 * character.pose();
 * // on a shot:
 * character.hit('chest', [0, 0, -1], 0.01);
 * ```
 */
export class AnimatedRagdoll {
  /** The simulated ragdoll. */
  readonly ragdoll: Ragdoll;
  /** How it was fitted to the skeleton. */
  readonly fit: RagdollFit;
  /** The world it lives in. */
  readonly world: World;
  private readonly root: Object3D;
  /** Poses the bones from the particles (see {@link SwingDriver}). */
  private readonly swings: SwingDriver;
  /** Rests the hands and feet on the colliders (see {@link ExtremityRest}). */
  private readonly rest: ExtremityRest;
  /** Per hand and foot the rest turns, its part's index in `ragdollParts`. */
  private readonly restParts: Int32Array;
  /**
   * The share of its rest each hand and foot takes: 1 − its part's strength (at 1 the
   * animation wins), times the ragdoll's weight while getting up; the last slot holds
   * that weight. In a typed array: see {@link GetUpBlend.ragdollWeight}.
   */
  private readonly restShares: Float64Array;
  /** The bones it poses: the driven ones and the hands and feet. */
  private readonly posed: readonly Object3D[];
  /** Pin id per particle (in `ragdollParts` order), -1 where strength 0 left none. */
  private readonly pins: number[];
  private readonly masses: Float64Array;
  /** Strength per particle when active, as set. */
  private readonly strength = new Float64Array(ragdollParts.length);
  /** Strength 1 for every particle: rigid pins, as while getting up and animated. */
  private readonly rigid = new Float64Array(ragdollParts.length).fill(1);
  /** The pose blend of a get-up (see {@link GetUpBlend}). */
  private readonly blend: GetUpBlend;
  /** Animated pose sampled at the latest and the one before (xyz per particle). */
  private readonly current: Float64Array;
  private readonly previous: Float64Array;
  private sampleDt = 0;
  private samples = 0;
  private isActive = false;
  private readonly stepping: CallbackId;
  private removed = false;
  private readonly point = new Vector3();
  private readonly strikeSpeed: number;
  /** Bounds of the ragdoll's particles (min xyz, max xyz), refilled per step while it watches for strikes. */
  private readonly bounds = new Float64Array(6);
  /** Bounds of a body one step ahead (min xyz, max xyz), scratch of `strikes`. */
  private readonly ahead = new Float64Array(6);
  private readonly reach: number;
  /** The slots of each limb's ends (from, to), which `strikes` reads the particle columns at. */
  private readonly limbSlots: Int32Array;

  /**
   * Fits a ragdoll to the skeleton under `root` in its current pose and pins it
   * there. Throws what {@link fitRagdoll} throws, and a `RangeError` for a strength outside [0, 1].
   */
  constructor(world: World, root: Object3D, options: AnimatedRagdollOptions = {}) {
    if (root === null || typeof root !== 'object' || !(root as Object3D).isObject3D) throw new TypeError(`AnimatedRagdoll: root must be an Object3D holding the skeleton, got ${String(root)}`);
    this.world = world;
    this.root = root;
    const { names, mesh, height: _height, strength, strikeSpeed, ...physical } = options as AnimatedRagdollOptions & { height?: number };
    this.strikeSpeed = strikeSpeed ?? ANIMATED_RAGDOLL_DEFAULTS.strikeSpeed;
    if (typeof this.strikeSpeed !== 'number' || !Number.isFinite(this.strikeSpeed) || this.strikeSpeed < 0) {
      throw new RangeError(`AnimatedRagdoll: strikeSpeed must be a finite number >= 0, got ${String(strikeSpeed)}`);
    }
    root.updateWorldMatrix(true, true);
    this.fit = fitRagdoll(root, { names, mesh, height: _height });
    this.setStrength(strength ?? ANIMATED_RAGDOLL_DEFAULTS.strength);
    this.ragdoll = createRagdoll(world, { ...physical, joints: this.fit.joints, height: this.fit.height, limbRadii: this.fit.limbRadii });
    this.masses = Float64Array.from(ragdollParts, (p) => partMass(p) * this.ragdoll.mass);
    this.reach = Math.max(...this.ragdoll.limbs.map((l) => l.radius));
    this.limbSlots = Int32Array.from(this.ragdoll.limbs.flatMap((l) => [particleSlot(l.from), particleSlot(l.to)]));
    // The driver and the get-up's blend read the particle columns: slots, not ids.
    const first = particleSlot(this.ragdoll.first);
    const swung = swungBones(this.fit, first);
    this.swings = new SwingDriver(swung);
    const driven = new Set<Object3D>(swung.map((s) => s.bone));
    // Each hand and foot bone once (a rig may map two parts to one), unless the driver poses it.
    const ends = (['leftHand', 'rightHand', 'leftFoot', 'rightFoot'] as const)
      .map((part) => ({ part, bone: this.fit.anchors[part].bone }))
      .filter((e, i, all) => !driven.has(e.bone) && all.findIndex((f) => f.bone === e.bone) === i);
    const endBones = ends.map((e) => e.bone);
    const skin = mesh ?? findSkinnedMesh(root, endBones);
    this.rest = new ExtremityRest(endBones.map((bone) => ({ bone, points: extremityPoints(bone, skin) })));
    this.restParts = Int32Array.from(ends, (e) => ragdollParts.indexOf(e.part));
    this.restShares = new Float64Array(ends.length + 1);
    this.posed = [...swung.map((s) => s.bone), ...endBones];
    this.current = new Float64Array(ragdollParts.length * 3);
    this.previous = new Float64Array(ragdollParts.length * 3);
    this.sample(this.current);
    this.previous.set(this.current);
    this.blend = new GetUpBlend(
      ragdollParts.length,
      swung.map((s) => ({ bone: s.bone, aim: s.to - first })),
      this.current,
    );
    this.pins = ragdollParts.map((_, i) => world.addPin(this.ragdoll.first + i));
    this.stepping = world.onBeforeStep(this.beforeStep);
  }

  /** True once hit or activated, until a get-up ends. */
  get active(): boolean {
    return this.isActive;
  }

  /** True while {@link AnimatedRagdoll.getUp} blends back to the animation. */
  get gettingUp(): boolean {
    return this.blend.running;
  }

  /**
   * Reads the animated pose from the bones: call every frame after the mixer
   * ran, before stepping, with the frame's `dt` (s). The pins glide from the last
   * pose to this one over the frame's steps. Allocates nothing.
   */
  follow(dt: number): void {
    if (typeof dt !== 'number' || !(dt >= 0) || !Number.isFinite(dt)) throw new RangeError(`AnimatedRagdoll.follow: dt must be a finite number >= 0, got ${String(dt)}`);
    if (this.removed) return;
    // Driven bones keep the animation's locals (the driver writes only their matrices): rebuild those to read the animation.
    const posed = this.posed;
    if (this.isActive) for (let i = 0; i < posed.length; i++) posed[i]!.updateMatrix();
    this.root.updateWorldMatrix(true, true);
    this.previous.set(this.current);
    this.sample(this.current);
    this.sampleDt = dt;
    this.samples++;
  }

  /**
   * Poses the driven bones from the ragdoll's limbs while it is active (call
   * after stepping, before rendering); does nothing while the animation plays.
   * Allocates nothing.
   */
  pose(): void {
    if (!this.isActive || this.removed) return;
    this.swings.update(this.world);
    if (this.blend.running) this.blend.twistBones();
    // Hands and feet from the animation's turn, then rested on the colliders (by the blend's share while getting up).
    this.rest.restore();
    // The bones it does not drive (toes, fingers, the middle of the spine) follow their driven parents.
    this.root.updateMatrixWorld(true);
    const shares = this.restShares;
    const weight = shares.length - 1;
    this.blend.ragdollWeight(shares, weight);
    for (let i = 0; i < weight; i++) shares[i] = (1 - this.strength[this.restParts[i]!]!) * shares[weight]!;
    this.rest.update(this.world.colliders, shares);
  }

  /**
   * Turns physical from the current animated pose: every particle keeps the
   * velocity the animation gave it between the last two {@link AnimatedRagdoll.follow}
   * calls, and its pin softens to its strength. While getting up, it ends the
   * get-up where the body is, each particle keeping the blend's velocity. Does
   * nothing when already active otherwise.
   */
  activate(): void {
    if (this.blend.running) this.stopGettingUp();
    if (this.isActive || this.removed) return;
    this.isActive = true;
    for (const bone of this.posed) {
      bone.updateMatrix();
      bone.matrixAutoUpdate = false;
    }
    this.root.updateWorldMatrix(true, true);
    const first = this.ragdoll.first;
    if (this.samples > 0 && this.sampleDt > 0) inheritAnimation(this.world, first, this.previous, this.current, this.sampleDt);
    else inheritAnimation(this.world, first, this.current, this.current, this.world.timeStep);
    // Bind in the pose both are in now, so the bones do not jump whatever the limb frames' twist.
    this.swings.bind(this.world);
    this.applyStrength(this.strength);
  }

  /**
   * A blow (paper section 7) at `part`: activates the ragdoll (keeping the
   * animation's velocities) and moves the part `strength` metres along
   * `direction`, which Verlet turns into strength / substep m/s. A part held at
   * strength 1 does not move. A hit while getting up ends the get-up (see
   * {@link AnimatedRagdoll.activate}).
   */
  hit(part: RagdollPart, direction: Vec3Like, strength: number): void {
    this.ragdoll.part(part);
    this.activate();
    this.ragdoll.hit(part, direction, strength);
  }

  /**
   * How hard each part holds to the animation while active, in [0, 1]: one
   * number, or per part (parts left out: 0). Applies at once when active (and
   * ends a get-up). Throws a `RangeError` naming a value outside [0, 1] or an unknown part.
   */
  setStrength(strength: RagdollStrength): void {
    const what = 'AnimatedRagdoll: strength';
    if (typeof strength === 'number') {
      checkStrength(strength, what);
      this.strength.fill(strength);
    } else if (strength !== null && typeof strength === 'object') {
      for (const [part, value] of Object.entries(strength)) {
        if (!(ragdollParts as readonly string[]).includes(part)) throw new RangeError(`${what}.${part} is not a ragdoll part (parts: ${ragdollParts.join(', ')})`);
        checkStrength(value, `${what}.${part}`);
      }
      ragdollParts.forEach((p, i) => (this.strength[i] = strength[p] ?? ANIMATED_RAGDOLL_DEFAULTS.strength));
    } else throw new TypeError(`${what} must be a number in [0, 1] or an object of them by part, got ${String(strength)}`);
    if (this.ragdoll && this.isActive) {
      this.blend.stop();
      this.applyStrength(this.strength);
    }
  }

  /**
   * Blends back to the animation ('get up') over `seconds` of simulated time,
   * then the ragdoll is inactive again and the animation drives the bones.
   * The pose blends: every particle is held (rigidly) on a target that eases
   * from where it lies to where the animation puts it, along a smoothstep of
   * the elapsed share (see {@link GetUpBlend}), so no part moves faster than
   * its animated place does plus 1.5 × its distance from it / `seconds`, and the
   * hand-over has no jump. That is within the animation's fastest part plus
   * g × `seconds` (what gravity gives a part in the blend: 4.9 m/s for 0.5 s,
   * 9.8 m/s for 1 s) while the body lies within g × seconds² / 1.5 of its
   * animated pose (1.6 m for 0.5 s, 6.5 m for 1 s). Begun while the body still
   * moves, the blend starts where it is, from rest. A hit, a strike,
   * {@link AnimatedRagdoll.activate} or {@link AnimatedRagdoll.setStrength}
   * ends the get-up. Does nothing while inactive; called again while getting
   * up, it starts over from the current pose.
   */
  getUp(seconds: number): void {
    if (typeof seconds !== 'number' || !Number.isFinite(seconds) || seconds <= 0) throw new RangeError(`AnimatedRagdoll.getUp: seconds must be a finite number > 0, got ${String(seconds)}`);
    if (!this.isActive || this.removed) return;
    this.blend.start(this.world.particles.position, particleSlot(this.ragdoll.first), seconds);
    this.applyStrength(this.rigid);
  }

  /** Removes the ragdoll, its pins and its step hook, and hands the bones back to the animation. Safe to call twice. */
  remove(): void {
    if (this.removed) return;
    this.removed = true;
    this.world.remove(this.stepping);
    for (const pin of this.pins) if (pin >= 0 && this.world.pinRow(pin) >= 0) this.world.remove(pin);
    this.ragdoll.remove();
    for (const bone of this.posed) bone.matrixAutoUpdate = true;
  }

  private complianceFor(i: number, strength: number): number {
    const omega = (HALF_STRENGTH_OMEGA * strength) / (1 - strength);
    return 1 / (this.masses[i]! * omega * omega);
  }

  /**
   * Sets every pin to its strength: rigid at 1, compliant between, none at 0.
   * Undamped: a pin's dashpot damps against a still target, so it would drag a
   * limb behind a walking animation (a half-strength hand hung 15 cm behind,
   * against 9 cm undamped); the ragdoll's joint damping calms the swinging.
   */
  private applyStrength(strength: Float64Array): void {
    const world = this.world;
    for (let i = 0; i < ragdollParts.length; i++) {
      const s = strength[i]!;
      const pin = this.pins[i]!;
      if (s <= 0) {
        if (pin >= 0) world.remove(pin);
        this.pins[i] = -1;
        continue;
      }
      const compliance = s >= 1 ? 0 : this.complianceFor(i, s);
      if (pin < 0) this.pins[i] = world.addPin(this.ragdoll.first + i, this.targetOf(i), { compliance, damping: 0 });
      else if (world.pins.compliance[world.pinRow(pin)] !== compliance) world.setPin(pin, { compliance, damping: 0 });
    }
  }

  private targetOf(i: number): [number, number, number] {
    return [this.current[i * 3]!, this.current[i * 3 + 1]!, this.current[i * 3 + 2]!];
  }

  private deactivate(): void {
    this.isActive = false;
    this.blend.stop();
    this.applyStrength(this.rigid);
    for (const bone of this.posed) bone.matrixAutoUpdate = true;
  }

  /** Ends a get-up where the body is: the pins soften to the strength, each particle keeping its velocity. */
  private stopGettingUp(): void {
    this.blend.stop();
    this.applyStrength(this.strength);
  }

  /** Before every step: the pins' share of the way from the last pose to this one, blended with where the body lay while getting up. */
  private readonly beforeStep = (world: World): void => {
    if ((!this.isActive || this.blend.running) && this.strikeSpeed > 0 && this.struck(world)) this.activate();
    if (this.blend.running && this.blend.advance(world.timeStep)) this.deactivate();
    const blending = this.blend.running;
    const share = (world.frameStep + 1) / world.frameSteps;
    const target = world.pins.target;
    for (let i = 0; i < ragdollParts.length; i++) {
      const pin = this.pins[i]!;
      if (pin < 0) continue;
      const row = world.pinRow(pin) * 3;
      for (let k = 0; k < 3; k++) {
        const from = this.previous[i * 3 + k]!;
        target[row + k] = from + (this.current[i * 3 + k]! - from) * share;
      }
      if (blending) this.blend.blendTarget(target, row, i);
      if (this.isActive) world.wake(this.ragdoll.first + i);
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

  private sample(into: Float64Array): void {
    const anchors = this.fit.anchors;
    for (let i = 0; i < ragdollParts.length; i++) {
      const anchor = anchors[ragdollParts[i]!];
      const p = this.point.copy(anchor.offset).applyMatrix4(anchor.bone.matrixWorld);
      into[i * 3] = p.x;
      into[i * 3 + 1] = p.y;
      into[i * 3 + 2] = p.z;
    }
  }
}

function checkStrength(value: unknown, what: string): void {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > 1) throw new RangeError(`${what} must be a number in [0, 1], got ${String(value)}`);
}
