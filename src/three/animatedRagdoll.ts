import { ANIMATED_RAGDOLL_DEFAULTS } from '../core/defaults.js';
import { particleSlot } from '../core/ids.js';
import { Vector3, type Object3D } from 'three';
import { createRagdoll, type Ragdoll, type RagdollOptions } from '../core/bodies/ragdoll.js';
import { ragdollParts, type RagdollPart } from '../core/bodies/ragdollSkeleton.js';
import type { Vec3Like } from '../core/math.js';
import { CharacterDriver } from '../core/motion/characterDriver.js';
import type { World } from '../core/world.js';
import { buildOn, makeOn, readable } from '../worker/builders.js';
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
 * What the steps do (the pins, a strike, a get-up's blend) is a `CharacterDriver`,
 * which `follow` sends the sampled pose each frame, so it also runs in a
 * RemoteWorld's worker (`<World worker>`): the bones then follow what the worker's
 * steps did once their frame is read (see docs/worker.md).
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
  /** The world side: pins, the per-step driver, strikes and the get-up's blend. */
  readonly driver: CharacterDriver;
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
  /** Strength per particle when active, as set. */
  private readonly strength = new Float64Array(ragdollParts.length);
  /** Turns the bones by the get-up's weight, read from the driver's blend. */
  private readonly blend: GetUpBlend;
  /** The driver's state (active, activations…), live: read without a call. */
  private readonly driverState: Float64Array;
  /** The animated pose sampled this frame (xyz per particle), sent to the driver. */
  private readonly sampled: Float64Array;
  /** The ragdoll's first slot, which the bones' specs count from. */
  private readonly firstSlot: number;
  /** Whether the bones are posed by the ragdoll, and the driver's activations they were bound at. */
  private bonesActive = false;
  private boundAt = 0;
  private removed = false;
  private readonly point = new Vector3();

  /**
   * Fits a ragdoll to the skeleton under `root` in its current pose and pins it
   * there. Throws what {@link fitRagdoll} throws, and a `RangeError` for a strength outside [0, 1].
   */
  constructor(world: World, root: Object3D, options: AnimatedRagdollOptions = {}) {
    if (root === null || typeof root !== 'object' || !(root as Object3D).isObject3D) throw new TypeError(`AnimatedRagdoll: root must be an Object3D holding the skeleton, got ${String(root)}`);
    this.world = world;
    this.root = root;
    const { names, mesh, height: _height, strength, strikeSpeed, ...physical } = options as AnimatedRagdollOptions & { height?: number };
    const speed = strikeSpeed ?? ANIMATED_RAGDOLL_DEFAULTS.strikeSpeed;
    if (typeof speed !== 'number' || !Number.isFinite(speed) || speed < 0) {
      throw new RangeError(`AnimatedRagdoll: strikeSpeed must be a finite number >= 0, got ${String(strikeSpeed)}`);
    }
    root.updateWorldMatrix(true, true);
    this.fit = fitRagdoll(root, { names, mesh, height: _height });
    this.readStrength(strength ?? ANIMATED_RAGDOLL_DEFAULTS.strength);
    this.ragdoll = buildOn(world, createRagdoll, world, { ...physical, joints: this.fit.joints, height: this.fit.height, limbRadii: this.fit.limbRadii });
    // The driver and the get-up's blend read the particle columns: slots, not ids.
    const first = particleSlot(this.ragdoll.first);
    this.firstSlot = first;
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
    this.sampled = new Float64Array(ragdollParts.length * 3);
    this.sample(this.sampled);
    this.driver = makeOn(world, CharacterDriver, world, this.ragdoll, { pose: this.sampled, strength: this.strength, strikeSpeed: speed });
    this.driverState = this.driver.state;
    this.blend = new GetUpBlend(
      ragdollParts.length,
      swung.map((s) => ({ bone: s.bone, aim: s.to - first })),
      this.sampled,
      this.driver.blendState,
    );
  }

  /** True once hit or activated, until a get-up ends (in a worker's world: as of the latest frame read). */
  get active(): boolean {
    return this.driverState[0] === 1;
  }

  /** True while {@link AnimatedRagdoll.getUp} blends back to the animation. */
  get gettingUp(): boolean {
    return this.blend.running;
  }

  /**
   * Reads the animated pose from the bones: call every frame after the mixer
   * ran, before stepping, with the frame's `dt` (s). The pins glide from the last
   * pose to this one over the frame's steps. Allocates nothing on a main-thread world.
   */
  follow(dt: number): void {
    if (typeof dt !== 'number' || !(dt >= 0) || !Number.isFinite(dt)) throw new RangeError(`AnimatedRagdoll.follow: dt must be a finite number >= 0, got ${String(dt)}`);
    if (this.removed) return;
    this.syncBones();
    // Driven bones keep the animation's locals (the driver writes only their matrices): rebuild those to read the animation.
    const posed = this.posed;
    if (this.bonesActive) for (let i = 0; i < posed.length; i++) posed[i]!.updateMatrix();
    this.root.updateWorldMatrix(true, true);
    this.sample(this.sampled);
    this.driver.follow(this.sampled, dt);
  }

  /**
   * Poses the driven bones from the ragdoll's limbs while it is active (call
   * after stepping, before rendering); does nothing while the animation plays.
   * Allocates nothing.
   */
  pose(): void {
    if (this.removed) return;
    this.syncBones();
    if (!this.bonesActive) return;
    const world = readable(this.world);
    this.swings.update(world);
    if (this.blend.running) this.blend.twistBones();
    // Hands and feet from the animation's turn, then rested on the colliders (by the blend's share while getting up).
    this.rest.restore();
    // The bones it does not drive (toes, fingers, the middle of the spine) follow their driven parents.
    this.root.updateMatrixWorld(true);
    const shares = this.restShares;
    const weight = shares.length - 1;
    this.blend.ragdollWeight(shares, weight);
    for (let i = 0; i < weight; i++) shares[i] = (1 - this.strength[this.restParts[i]!]!) * shares[weight]!;
    this.rest.update(world.colliders, shares);
  }

  /**
   * Turns physical from the current animated pose: every particle keeps the
   * velocity the animation gave it between the last two {@link AnimatedRagdoll.follow}
   * calls, and its pin softens to its strength. While getting up, it ends the
   * get-up where the body is, each particle keeping the blend's velocity. Does
   * nothing when already active otherwise.
   */
  activate(): void {
    if (this.removed) return;
    this.driver.activate();
    this.syncBones();
  }

  /**
   * A blow (paper section 7) at `part`: activates the ragdoll (keeping the
   * animation's velocities) and moves the part `strength` metres along
   * `direction`, which Verlet turns into strength / substep m/s. A part held at
   * strength 1 does not move. A hit while getting up ends the get-up (see
   * {@link AnimatedRagdoll.activate}).
   */
  hit(part: RagdollPart, direction: Vec3Like, strength: number): void {
    this.driver.hit(part, direction, strength);
    this.syncBones();
  }

  /**
   * How hard each part holds to the animation while active, in [0, 1]: one
   * number, or per part (parts left out: 0). Applies at once when active (and
   * ends a get-up); the pins are made anew. Throws a `RangeError` naming a value outside [0, 1] or an unknown part.
   */
  setStrength(strength: RagdollStrength): void {
    this.readStrength(strength);
    this.driver.setStrength(this.strength);
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
   * ends the get-up. Does nothing while inactive (but make the pins anew); called again while getting
   * up, it starts over from the current pose.
   */
  getUp(seconds: number): void {
    if (typeof seconds !== 'number' || !Number.isFinite(seconds) || seconds <= 0) throw new RangeError(`AnimatedRagdoll.getUp: seconds must be a finite number > 0, got ${String(seconds)}`);
    if (this.removed) return;
    this.driver.getUp(seconds);
  }

  /** Removes the ragdoll, its pins and its step hook, and hands the bones back to the animation. Safe to call twice. */
  remove(): void {
    if (this.removed) return;
    this.removed = true;
    this.driver.remove();
    for (const bone of this.posed) bone.matrixAutoUpdate = true;
  }

  /**
   * Brings the bones to what the driver did: turned physical (in a step, by a strike, or by a
   * call) binds them in the pose it turned physical in, with the bones still in the frame's
   * animated pose; back to the animation hands them to it.
   */
  private syncBones(): void {
    const state = this.driverState;
    const active = state[0] === 1;
    if (active && state[1] !== this.boundAt) {
      this.boundAt = state[1]!;
      for (const bone of this.posed) {
        bone.updateMatrix();
        bone.matrixAutoUpdate = false;
      }
      this.root.updateWorldMatrix(true, true);
      // Bind in the pose both are in, so the bones do not jump whatever the limb frames' twist.
      this.swings.bind(this.driver.activationPose, this.firstSlot);
    } else if (!active && this.bonesActive) for (const bone of this.posed) bone.matrixAutoUpdate = true;
    this.bonesActive = active;
  }

  private readStrength(strength: RagdollStrength): void {
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
