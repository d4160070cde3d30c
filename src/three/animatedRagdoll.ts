import { particleSlot } from '../core/ids.js';
import { Vector3, type Object3D } from 'three';
import { createRagdoll, type Ragdoll, type RagdollOptions } from '../core/bodies/ragdoll.js';
import { partMass, ragdollParts, type RagdollPart } from '../core/bodies/ragdollSkeleton.js';
import type { CallbackId } from '../core/ids.js';
import type { Vec3Like } from '../core/math.js';
import { inheritAnimation } from '../core/motion/inheritAnimation.js';
import { ParticleFlag } from '../core/particles.js';
import type { World } from '../core/world.js';
import { SwingDriver, type SwungBone } from './swingDriver.js';
import { fitRagdoll, type FitRagdollOptions, type RagdollFit } from './fitRagdoll.js';

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
 * from then on the ragdoll poses the bones. Per-part {@link AnimatedRagdoll.setStrength}
 * keeps soft pins toward the animation (a powered ragdoll), and
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
  /** The bones it poses. */
  private readonly posed: readonly Object3D[];
  /** Pin id per particle (in `ragdollParts` order), -1 where strength 0 left none. */
  private readonly pins: number[];
  private readonly masses: Float64Array;
  /** Strength per particle when active, as set. */
  private readonly strength = new Float64Array(ragdollParts.length);
  /** Strength per particle when a get-up began. */
  private readonly rampFrom = new Float64Array(ragdollParts.length);
  /** Animated pose sampled at the latest and the one before (xyz per particle). */
  private readonly current: Float64Array;
  private readonly previous: Float64Array;
  private sampleDt = 0;
  private samples = 0;
  private isActive = false;
  private rampTime = 0;
  private rampDuration = 0;
  private readonly stepping: CallbackId;
  private removed = false;
  private readonly point = new Vector3();
  private readonly strikeSpeed: number;
  /** Bounds of the ragdoll's particles (min xyz, max xyz), refilled per step while it watches for strikes. */
  private readonly bounds = new Float64Array(6);
  /** Bounds of a body one step ahead (min xyz, max xyz), scratch of `strikes`. */
  private readonly ahead = new Float64Array(6);
  private readonly reach: number;

  /**
   * Fits a ragdoll to the skeleton under `root` in its current pose and pins it
   * there. Throws what {@link fitRagdoll} throws, and a `RangeError` for a strength outside [0, 1].
   */
  constructor(world: World, root: Object3D, options: AnimatedRagdollOptions = {}) {
    if (root === null || typeof root !== 'object' || !(root as Object3D).isObject3D) throw new TypeError(`AnimatedRagdoll: root must be an Object3D holding the skeleton, got ${String(root)}`);
    this.world = world;
    this.root = root;
    const { names, mesh, height: _height, strength, strikeSpeed, ...physical } = options as AnimatedRagdollOptions & { height?: number };
    this.strikeSpeed = strikeSpeed ?? 2;
    if (typeof this.strikeSpeed !== 'number' || !Number.isFinite(this.strikeSpeed) || this.strikeSpeed < 0) {
      throw new RangeError(`AnimatedRagdoll: strikeSpeed must be a finite number >= 0, got ${String(strikeSpeed)}`);
    }
    root.updateWorldMatrix(true, true);
    this.fit = fitRagdoll(root, { names, mesh, height: _height });
    this.setStrength(strength ?? 0);
    this.ragdoll = createRagdoll(world, { ...physical, joints: this.fit.joints, height: this.fit.height, limbRadii: this.fit.limbRadii });
    this.masses = Float64Array.from(ragdollParts, (p) => partMass(p) * this.ragdoll.mass);
    this.reach = Math.max(...this.ragdoll.limbs.map((l) => l.radius));
    const first = this.ragdoll.first;
    // The driver reads the particle columns: slots, not ids.
    const swung = swungBones(this.fit, particleSlot(first));
    this.swings = new SwingDriver(swung);
    this.posed = swung.map((s) => s.bone);
    this.current = new Float64Array(ragdollParts.length * 3);
    this.previous = new Float64Array(ragdollParts.length * 3);
    this.sample(this.current);
    this.previous.set(this.current);
    this.pins = ragdollParts.map((_, i) => world.addPin(this.ragdoll.first + i));
    this.stepping = world.onBeforeStep(this.beforeStep);
  }

  /** True once hit or activated, until a get-up ends. */
  get active(): boolean {
    return this.isActive;
  }

  /** True while {@link AnimatedRagdoll.getUp} blends back to the animation. */
  get gettingUp(): boolean {
    return this.rampDuration > 0;
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
    // The bones it does not drive (toes, fingers, the middle of the spine) follow their driven parents.
    this.root.updateMatrixWorld(true);
  }

  /**
   * Turns physical from the current animated pose: every particle keeps the
   * velocity the animation gave it between the last two {@link AnimatedRagdoll.follow}
   * calls, and its pin softens to its strength. Does nothing when already active.
   */
  activate(): void {
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
   * strength 1 does not move.
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
      ragdollParts.forEach((p, i) => (this.strength[i] = strength[p] ?? 0));
    } else throw new TypeError(`${what} must be a number in [0, 1] or an object of them by part, got ${String(strength)}`);
    if (this.ragdoll && this.isActive) {
      this.rampDuration = 0;
      this.applyStrength(this.strength);
    }
  }

  /**
   * Blends back to the animation ('get up') over `seconds` of simulated time:
   * every part's strength rises to 1, then the ragdoll is inactive again and
   * the animation drives the bones. Does nothing while inactive.
   */
  getUp(seconds: number): void {
    if (typeof seconds !== 'number' || !Number.isFinite(seconds) || seconds <= 0) throw new RangeError(`AnimatedRagdoll.getUp: seconds must be a finite number > 0, got ${String(seconds)}`);
    if (!this.isActive || this.removed) return;
    for (let i = 0; i < ragdollParts.length; i++) this.rampFrom[i] = this.effectiveStrength(i);
    this.rampTime = 0;
    this.rampDuration = seconds;
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

  /** Strength part `i` holds with now (1 for a rigid pin, 0 with none). */
  private effectiveStrength(i: number): number {
    const pin = this.pins[i]!;
    if (pin < 0) return 0;
    const row = this.world.pinRow(pin);
    const alpha = this.world.pins.compliance[row]!;
    if (alpha === 0) return 1;
    // Inverse of the compliance law in `complianceFor`.
    const ratio = 1 / (HALF_STRENGTH_OMEGA * Math.sqrt(alpha * this.masses[i]!));
    return ratio / (1 + ratio);
  }

  private complianceFor(i: number, strength: number): number {
    const omega = (HALF_STRENGTH_OMEGA * strength) / (1 - strength);
    return 1 / (this.masses[i]! * omega * omega);
  }

  /**
   * Critical damping (N·s/m) of part `i`'s pin at strength `s`, 2·m·ω: while
   * getting up, the springs stiffen a hundredfold and, undamped, would keep and
   * sharpen every swing (a particle whipped to 17 m/s in the get-up test).
   */
  private dampingFor(i: number, strength: number): number {
    return (2 * this.masses[i]! * HALF_STRENGTH_OMEGA * strength) / (1 - strength);
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
    this.rampDuration = 0;
    const full = this.rampFrom.fill(1);
    this.applyStrength(full);
    for (const bone of this.posed) bone.matrixAutoUpdate = true;
  }

  /** Before every step: the pins' share of the way from the last pose to this one, and the get-up's ramp. */
  private readonly beforeStep = (world: World): void => {
    if (!this.isActive && this.strikeSpeed > 0 && this.struck(world)) this.activate();
    if (this.rampDuration > 0) {
      this.rampTime += world.timeStep;
      if (this.rampTime >= this.rampDuration) this.deactivate();
      else {
        const share = this.rampTime / this.rampDuration;
        for (let i = 0; i < ragdollParts.length; i++) {
          const s = this.rampFrom[i]! + (1 - this.rampFrom[i]!) * share;
          const pin = this.pins[i]!;
          if (pin < 0) {
            if (s > 0) this.pins[i] = world.addPin(this.ragdoll.first + i, this.targetOf(i), { compliance: this.complianceFor(i, s), damping: this.dampingFor(i, s) });
          } else {
            const row = world.pinRow(pin);
            if (world.pins.compliance[row] !== 0) world.pins.setCompliance(row, this.complianceFor(i, s), this.dampingFor(i, s));
          }
        }
      }
    }
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
    for (let l = 0; l < limbs.length; l++) {
      const limb = limbs[l]!;
      let overlaps = true;
      for (let k = 0; k < 3 && overlaps; k++) {
        const a = pos[limb.from * 3 + k]!;
        const b = pos[limb.to * 3 + k]!;
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

/**
 * The bones the ragdoll poses and what each points at: the pelvis bone carried
 * by the pelvis particle, aimed at the chest and turned with the hips (the
 * ragdoll's pelvis triangle can tilt some 80° against its spine, which a
 * pelvis bone following it would fold the belly's skin over), the chest bone aimed
 * from the chest particle at the neck and turned with the shoulders, the spine bones between them turned by even shares
 * of the way from the pelvis's turn to the chest's, the neck bone at the head, a clavicle bone
 * (between chest and shoulder, if the rig has one) at its shoulder, and each limb's
 * start bone at the limb's far joint. Hands, feet and the head ride on their
 * parents with their animated pose.
 */
function swungBones(fit: RagdollFit, first: number): SwungBone[] {
  const id = (part: RagdollPart) => first + ragdollParts.indexOf(part);
  const bone = (part: RagdollPart) => fit.anchors[part].bone;
  const list: { bone: Object3D; to: RagdollPart; root?: boolean; from?: RagdollPart; side?: readonly [RagdollPart, RagdollPart]; share?: number; blend?: number }[] = [
    { bone: bone('pelvis'), to: 'chest', root: true, side: ['leftHip', 'rightHip'] },
    { bone: bone('chest'), to: 'neck', from: 'chest', side: ['leftShoulder', 'rightShoulder'] },
    // The neck bone takes half the head's nod against the chest and the head bone the rest: the whole nod
    // (up to 80°) at the neck's joint pulled the skin at the top of the chest 12% off its bind distances.
    { bone: bone('neck'), to: 'head', from: 'neck', share: 0.5 },
  ];
  if (bone('head') !== bone('neck')) list.push({ bone: bone('head'), to: 'head', from: 'neck' });
  // The spine bones between the pelvis bone and the chest bone share the turn from the pelvis's frame to the
  // chest's evenly, each joint taking an equal part of the trunk's bend and twist (Mixamo's Spine, Spine1).
  const between: Object3D[] = [];
  for (let b = bone('chest').parent; b && b !== bone('pelvis'); b = b.parent) between.unshift(b);
  if (between.length > 0 && between[0]!.parent === bone('pelvis')) between.forEach((b, k) => list.push({ bone: b, to: 'chest', blend: (k + 1) / (between.length + 1) }));
  for (const side of ['left', 'right'] as const) {
    const clavicle = bone(`${side}Shoulder`).parent;
    if (clavicle && (clavicle as Object3D & { isBone?: boolean }).isBone && clavicle !== bone('chest') && clavicle !== bone('neck')) list.push({ bone: clavicle, to: `${side}Shoulder` });
    list.push({ bone: bone(`${side}Shoulder`), to: `${side}Elbow` }, { bone: bone(`${side}Elbow`), to: `${side}Hand` });
    list.push({ bone: bone(`${side}Hip`), to: `${side}Knee` }, { bone: bone(`${side}Knee`), to: `${side}Foot` });
  }
  const bones = new Set(list.map((b) => b.bone));
  const depth = (o: Object3D) => {
    let d = 0;
    for (let p = o.parent; p; p = p.parent) d++;
    return d;
  };
  return list
    .sort((a, b) => depth(a.bone) - depth(b.bone))
    .map((b) => {
      let parent = b.bone.parent;
      while (parent && !bones.has(parent)) parent = parent.parent;
      return {
        bone: b.bone,
        parent: b.root ? null : parent,
        to: id(b.to),
        root: b.root ? { at: id('pelvis'), from: id('pelvis') } : undefined,
        side: b.side && ([id(b.side[0]), id(b.side[1])] as const),
        from: b.from && id(b.from),
        blend: b.blend === undefined ? undefined : { from: bone('pelvis'), to: bone('chest'), share: b.blend },
        share: b.share,
      };
    });
}

function checkStrength(value: unknown, what: string): void {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > 1) throw new RangeError(`${what} must be a number in [0, 1], got ${String(value)}`);
}
