import { particleSlot } from '../ids.js';
import { checkCollisionGroups, type CollisionGroupOptions } from '../collision/collisionGroups.js';
import { addCapsuleEdge } from '../collision/edges.js';
import { protectFromTunnelling } from '../collision/sweep.js';
import { addAngleConstraint } from '../constraints/angle.js';
import { RAGDOLL_DEFAULTS } from '../defaults.js';
import { checkInteger, checkNumber, toVec3, type Vec3, type Vec3Like } from '../math.js';
import { hit } from '../motion/hit.js';
import { rotateVector, toRotation, type RotationLike } from '../quaternion.js';
import type { World } from '../world.js';
import type { BodyRecord } from './body.js';
import type { Jointable } from './joints.js';
import { InternalDamping } from './rigidTransform.js';
import { LimbFrames, type LimbFrame } from './limbFrames.js';
import { ElbowHinges } from './elbowHinge.js';
import { TwistLimits, type TwistLimitRow } from './twistLimits.js';
import { HipTwistLimits, type HipTwistRow } from './hipTwist.js';
import { OwnPasses } from './ownPasses.js';
import { LimitFriction } from './limitFriction.js';
import {
  angleLimits,
  braces,
  limbSpecs,
  partMass,
  partPosition,
  partRadius,
  ragdollParts,
  frontReferences,
  limitFrictionLimbs,
  selfCollisions,
  ELBOW_HYPEREXTENSION,
  KNEE_LEAN,
  torsoLimits,
  twistLimits,
  type RagdollJoint,
  type RagdollLimbName,
  type RagdollPart,
  type RagdollPose,
} from './ragdollSkeleton.js';
import { addBuiltinConstraint, addSubstepStage, dropSubstepStage } from '../stages.js';

/** What {@link createRagdoll} takes. */
export interface RagdollOptions extends CollisionGroupOptions {
  /** Where the figure stands: the ground point midway between its feet, which the feet's collision spheres touch (a ragdoll is placed by its feet, not its centre: see `Placement`). Default `[0, 0, 0]`. */
  feet?: Vec3Like;
  /**
   * Turns the figure about `feet`; unturned it faces +z with its left hand
   * at +x. A quaternion `[x, y, z, w]` or Euler angles `[x, y, z]` in radians
   * (see `RotationLike`).
   */
  rotation?: RotationLike;
  /** Initial velocity of every particle (m/s). */
  velocity?: Vec3Like;
  /** Height in m. Default 1.8. */
  height?: number;
  /**
   * Total mass in kg, spread over the particles like a human's. Default 70 kg
   * for a figure 1.75 m tall, scaled with the cube of `height` (the same build
   * and density at any size): 76 kg at the default 1.8 m, 0.6 kg for a 0.4 m doll.
   */
  mass?: number;
  /** Default `'standing'`. */
  pose?: RagdollPose;
  /** Relaxation passes per substep for the ragdoll (the paper used 1 to 10 per object). Default: the world's. */
  iterations?: number;
  /** Coulomb friction coefficient of every particle. Default 0.5. */
  friction?: number;
  /** Bounciness of every particle against colliders, in [0, 1]. Default 0 (see `ParticleOptions.restitution`). */
  restitution?: number;
  /**
   * Most extra relaxation passes per substep over the ragdoll's own angle
   * limits, sticks, capsules and collider contacts, after the world's passes,
   * run only while a bone is more than 1% off its length (see `OwnPasses`). They
   * keep the bones within 2% when it lands at 5 m/s (one pass left the head's
   * bone 21% short, landing on the head) and cost nothing in flight or at rest.
   * Default 16; 0 turns them off.
   */
  ownPasses?: number;
  /**
   * Makes the elbows one-way hinges (see `bodies/elbowHinge.ts`): a forearm
   * pushed past straight the wrong way comes back to within 10°, whichever way the
   * upper arm points, and (with `twistLimits`) the upper arms' twist is limited.
   * They gain no energy (test/core/ragdollElbowEnergy.test.ts). Default true:
   * the shoulders' twist stop lies past the 90° of a forearm lying flat on the
   * ground beside a body lying on its back or front, so a resting arm does not
   * lie on it (see `twistLimits` in `ragdollSkeleton.ts` and docs/ragdolls.md,
   * "Elbows and twist").
   */
  elbowHinges?: boolean;
  /**
   * Limits the thighs' twist about themselves, read from the plane the knee bends
   * in (see `bodies/hipTwist.ts`), and with `elbowHinges` the upper arms', read
   * from the plane the elbow bends in (see `bodies/twistLimits.ts`); `twistLimits`
   * in `ragdollSkeleton.ts`: a knee bent 90° twists at most 40° either way, an
   * elbow bent 90° 123°. Default true. False keeps the knee hinge's 25° lean limit
   * in place of the hips' (it bounds the twist too, but spreads a twisted thigh
   * outward as much as it untwists it).
   */
  twistLimits?: boolean;
  /**
   * Coulomb friction coefficient of the joints pressed against their limits
   * (neck and shoulders; see `bodies/limitFriction.ts`): a limb held at its
   * stop slides along it only while the push along the stop exceeds this share of
   * the stop's push. Without it a head bent against the neck's limit swings
   * around it like a pendulum long after landing. Default 0.5; 0 turns it off.
   */
  limitFriction?: number;
  /** Stiffness of the angle limits, in (0, 1]: the share of a violation repaired per pass. Default 1. */
  angleStiffness?: number;
  /** Add the 'min' sticks that stop limbs passing through each other. Default true. */
  selfCollision?: boolean;
  /**
   * Per-second damping of the limbs' motion relative to the whole body (the
   * friction in the joints, see `InternalDamping`); the body's flight and spin
   * are kept. Without it a limb hanging against its angle limit swings on for
   * long. Default 2.
   */
  jointDamping?: number;
  /**
   * Collide every limb as a capsule of its radius against the colliders (the
   * paper: "each stick is modeled as a capped cylinder"). Default true.
   */
  capsules?: boolean;
  /**
   * The paper's fast-object guards: sweep the chest's path each substep so the
   * body cannot pass through a thin wall, and fold a limb that ends up on both
   * sides of a wall back to the torso's side. Default true.
   */
  protectFromTunnelling?: boolean;
  /**
   * Where each particle starts, in world coordinates, e.g. fitted to a
   * character's skeleton (`fitRagdoll` in the three.js layer). Replaces
   * `feet`, `rotation` and `pose`; the rest lengths of the limbs, braces and
   * torso limits are measured in it, so the figure keeps these proportions.
   * `height` still scales the masses, particle radii and self-collision distances.
   */
  joints?: Readonly<Record<RagdollPart, Vec3Like>>;
  /** Capsule radius per limb (m), in place of the proportional ones (`limbSpecs` × height). */
  limbRadii?: Readonly<Partial<Record<RagdollLimbName, number>>>;
}

/** A bone of the ragdoll: a stick drawn and collided as a capsule. */
export interface RagdollLimb {
  /** The bone's name, e.g. `'leftThigh'`. */
  readonly name: RagdollLimbName;
  /** Particle ids of the bone's ends. */
  readonly from: number;
  /** Particle id of the bone's far end (`from` is the end nearer the torso). */
  readonly to: number;
  /** Capsule radius (m). */
  readonly radius: number;
  /** Constraint id of the bone's stick. */
  readonly stick: number;
}

/**
 * An anatomical angle limit of the ragdoll, in radians. The knees' and the hips'
 * flexion rows are also one-way hinges about the hip line: a knee bends back
 * (hyperextends) at most 4°, a thigh swings back past the chest's line at most
 * 25° (`angleLimits`; docs/ragdolls.md).
 */
export interface RagdollAngle {
  /** The joint's name, e.g. `'leftKnee'`. */
  readonly name: RagdollJoint;
  /** Particle id at the end of the first arm of the angle. */
  readonly a: number;
  /** Particle id at the vertex, where the angle is measured. */
  readonly middle: number;
  /** Particle id at the end of the second arm. */
  readonly b: number;
  /** Smallest angle allowed (radians). */
  readonly min: number;
  /** Largest angle allowed (radians). */
  readonly max: number;
  /** Id for `setAngleConstraint` and `world.remove`. */
  readonly id: number;
}

/**
 * A ragdoll (paper section 6, "Hitman corpses"): a stick figure of 16 particles,
 * its limbs sticks, its joints held in anatomical ranges by angle constraints,
 * its limbs kept apart by 'min' sticks. Handles are stable: the React layer can
 * keep one and read {@link Ragdoll.updateFrames} every frame.
 */
export class Ragdoll implements Jointable {
  /** The ragdoll's record in the world. */
  readonly body: BodyRecord;
  /** First particle id: the particles are `ragdollParts` in order. */
  readonly first: number;
  /** Particles: 16. */
  readonly count: number;
  /** Particle ids in the order of `ragdollParts`. */
  readonly vertices: readonly number[];
  /** Particle id by part name. */
  readonly parts: Readonly<Record<RagdollPart, number>>;
  /** The bones, e.g. for capsule collisions. */
  readonly limbs: readonly RagdollLimb[];
  /** The angle limits. */
  readonly angles: readonly RagdollAngle[];
  /** Height in m. */
  readonly height: number;
  /** Total mass in kg. */
  readonly mass: number;
  private readonly world: World;
  private readonly limbFrames: LimbFrames;

  constructor(world: World, body: BodyRecord, height: number, mass: number, limbs: readonly RagdollLimb[], angles: readonly RagdollAngle[]) {
    this.world = world;
    this.body = body;
    this.first = body.first;
    this.count = body.count;
    this.height = height;
    this.mass = mass;
    this.vertices = ragdollParts.map((_, i) => body.first + i);
    this.parts = Object.fromEntries(ragdollParts.map((name, i) => [name, body.first + i])) as Record<RagdollPart, number>;
    this.limbs = limbs;
    this.angles = angles;
    const fronts = Object.keys(frontReferences) as (keyof typeof frontReferences)[];
    const references = fronts.map((f) => ({
      left: this.part(frontReferences[f].left),
      right: this.part(frontReferences[f].right),
      low: this.part(frontReferences[f].low),
      high: this.part(frontReferences[f].high),
    }));
    const specs = limbSpecs.map((s, i) => ({
      name: s.name,
      from: limbs[i]!.from,
      to: limbs[i]!.to,
      radius: limbs[i]!.radius,
      front: fronts.indexOf(s.front),
      bend: s.bend && { joint: this.part(s.bend.joint), far: this.part(s.bend.far), sign: s.bend.sign },
    }));
    this.limbFrames = new LimbFrames(world, specs, references);
  }

  /** Particle id of a named part, e.g. `ragdoll.part('leftHand')` to pin it and drag the body. */
  part(name: RagdollPart): number {
    const id = Object.hasOwn(this.parts, name) ? this.parts[name] : undefined;
    if (id === undefined) throw new RangeError(`Ragdoll.part: name must be one of ${ragdollParts.join(', ')}, got ${String(name)}`);
    return id;
  }

  /** One frame per limb, in the order of {@link Ragdoll.limbs}, as of the latest {@link Ragdoll.updateFrames}. */
  get frames(): readonly LimbFrame[] {
    return this.limbFrames.frames;
  }

  /** Recomputes the limb frames from the particles (call after stepping, before rendering). Allocates nothing. */
  updateFrames(): readonly LimbFrame[] {
    return this.limbFrames.update(this.world);
  }

  /**
   * A blow (paper section 7): moves `part` by `strength` metres along `direction`
   * without moving its previous position, so Verlet sets it off at strength / h m/s
   * and the sticks pass the motion on to the rest of the body.
   */
  hit(part: RagdollPart, direction: Vec3Like, strength: number): void {
    hit(this.world, this.part(part), direction, strength);
  }

  /** Removes the ragdoll with its sticks and angle limits. Safe to call twice. */
  remove(): void {
    if (this.body.alive) this.world.remove(this.body);
  }
}

/**
 * Builds a ragdoll standing with its `feet` at a point.
 *
 * @example
 * ```ts
 * const world = new World();
 * world.addCollider({ type: 'plane', normal: [0, 1, 0], offset: 0 });
 * const ragdoll = createRagdoll(world, { feet: [0, 0.5, 0], pose: 'T' });
 * ragdoll.hit('chest', [0, 0, -1], 0.01); // shot in the chest: it topples backwards
 * for (let i = 0; i < 60; i++) world.step(); // one second: it lies on its back
 * for (const frame of ragdoll.updateFrames()) console.log(frame.name, frame.center, frame.quaternion);
 * ```
 */
export function createRagdoll(world: World, options: RagdollOptions = {}): Ragdoll {
  const what = 'createRagdoll';
  if (options === null || typeof options !== 'object') throw new TypeError(`${what}: options must be an object, got ${String(options)}`);
  const position = toVec3(options.feet ?? [0, 0, 0], `${what}: feet`);
  const rotation = toRotation(options.rotation ?? [0, 0, 0, 1], `${what}: rotation`);
  const velocity = toVec3(options.velocity ?? [0, 0, 0], `${what}: velocity`);
  const height = positive(options.height ?? RAGDOLL_DEFAULTS.height, `${what}: height`);
  const mass = positive(options.mass ?? RAGDOLL_DEFAULTS.mass * (height / RAGDOLL_DEFAULTS.massHeight) ** 3, `${what}: mass`);
  const pose = options.pose ?? RAGDOLL_DEFAULTS.pose;
  if (pose !== 'standing' && pose !== 'T') throw new RangeError(`${what}: pose must be 'standing' or 'T', got ${String(pose)}`);
  const iterations = options.iterations === undefined ? undefined : checkInteger(options.iterations, `${what}: iterations`, 1);
  const friction = checkNumber(options.friction ?? RAGDOLL_DEFAULTS.friction, `${what}: friction`, 0);
  const restitution = checkNumber(options.restitution ?? RAGDOLL_DEFAULTS.restitution, `${what}: restitution`, 0, 1);
  const angleStiffness = checkNumber(options.angleStiffness ?? RAGDOLL_DEFAULTS.angleStiffness, `${what}: angleStiffness`, 0, 1);
  if (angleStiffness === 0) throw new RangeError(`${what}: angleStiffness must be in (0, 1], got 0`);
  const jointDamping = checkNumber(options.jointDamping ?? RAGDOLL_DEFAULTS.jointDamping, `${what}: jointDamping`, 0);
  const ownPasses = checkInteger(options.ownPasses ?? RAGDOLL_DEFAULTS.ownPasses, `${what}: ownPasses`, 0);
  const limitFriction = checkNumber(options.limitFriction ?? RAGDOLL_DEFAULTS.limitFriction, `${what}: limitFriction`, 0);
  const elbowHinges = options.elbowHinges ?? RAGDOLL_DEFAULTS.elbowHinges;
  if (typeof elbowHinges !== 'boolean') throw new TypeError(`${what}: elbowHinges must be true or false, got ${String(elbowHinges)}`);
  const twists = options.twistLimits ?? RAGDOLL_DEFAULTS.twistLimits;
  if (typeof twists !== 'boolean') throw new TypeError(`${what}: twistLimits must be true or false, got ${String(twists)}`);

  const joints = options.joints === undefined ? undefined : checkJoints(options.joints, `${what}: joints`);
  const limbRadii = options.limbRadii ?? {};
  const place = (part: RagdollPart): Vec3 => {
    if (joints) return joints[part];
    const local = partPosition(part, pose);
    const turned = rotateVector(rotation, [local[0] * height, local[1] * height, local[2] * height]);
    return [position[0] + turned[0], position[1] + turned[1], position[2] + turned[2]];
  };
  const collisionGroups = checkCollisionGroups(options.collisionGroups, 'createRagdoll: collisionGroups');
  const first = world.addParticles(ragdollParts.map((part) => ({ position: place(part), velocity, mass: partMass(part) * mass, radius: partRadius(part) * height, friction, restitution })));
  const record = world.addBody(first, ragdollParts.length, { kind: 'ragdoll', iterations });
  record.collisionGroups = collisionGroups;
  const id = (part: RagdollPart) => first + ragdollParts.indexOf(part);
  // Rest lengths come from the standing pose, so the T pose has the same skeleton.
  const standing = (a: RagdollPart, b: RagdollPart) => {
    if (joints) return Math.hypot(joints[a][0] - joints[b][0], joints[a][1] - joints[b][1], joints[a][2] - joints[b][2]);
    const p = partPosition(a, 'standing');
    const q = partPosition(b, 'standing');
    return Math.hypot(p[0] - q[0], p[1] - q[1], p[2] - q[2]) * height;
  };
  const stick = (a: RagdollPart, b: RagdollPart, length: number, kind: 'equal' | 'min' | 'max' = 'equal') => {
    const stickId = world.addStick(id(a), id(b), { length, kind });
    record.constraints.push(stickId);
    return stickId;
  };
  const limbs = limbSpecs.map((s) => ({
    name: s.name,
    from: id(s.from),
    to: id(s.to),
    radius: limbRadius(limbRadii[s.name], s.radius * height, `${what}: limbRadii.${s.name}`),
    stick: stick(s.from, s.to, standing(s.from, s.to)),
  }));
  for (const [a, b] of braces) stick(a, b, standing(a, b));
  for (const t of torsoLimits) stick(t.a, t.b, standing(t.a, t.b) * t.stretch, t.kind);
  if (options.selfCollision ?? RAGDOLL_DEFAULTS.selfCollision) for (const c of selfCollisions) stick(c.a, c.b, c.distance * height, 'min');

  const degrees = Math.PI / 180;
  const angles = angleLimits.map((l) => {
    const angle = {
      name: l.name,
      a: id(l.a),
      middle: id(l.middle),
      b: id(l.b),
      min: l.min * degrees,
      max: l.max * degrees,
      id: addAngleConstraint(world, id(l.a), id(l.middle), id(l.b), {
        min: l.min * degrees,
        max: l.max * degrees,
        stiffness: angleStiffness,
        hinge: l.hinge && {
          axis: [id(l.hinge.axis[0]), id(l.hinge.axis[1])],
          tolerance: l.hinge.tolerance * degrees,
          sideways: (l.hinge.sideways ?? (!twists && isKnee(l.name) ? KNEE_LEAN : RAGDOLL_DEFAULTS.hingeSideways)) * degrees,
        },
      }),
    };
    record.onRemove.push(() => world.removeConstraint(angle.id));
    return angle;
  });
  // Edges and the guard remove themselves with the body.
  if (options.capsules ?? RAGDOLL_DEFAULTS.capsules) for (const limb of limbs) addCapsuleEdge(world, limb.from, limb.to, limb.radius);
  if (options.protectFromTunnelling ?? RAGDOLL_DEFAULTS.protectFromTunnelling) protectFromTunnelling(world, record, { torsoParticle: id('chest') });
  // The limits below read the particle columns inside the step: slots, not ids.
  const slot = (part: RagdollPart) => particleSlot(first) + ragdollParts.indexOf(part);
  const arm = (side: 'left' | 'right') => ({
    shoulder: slot(`${side}Shoulder`),
    elbow: slot(`${side}Elbow`),
    hand: slot(`${side}Hand`),
    leftShoulder: slot('leftShoulder'),
    rightShoulder: slot('rightShoulder'),
    neck: slot('neck'),
    chest: slot('chest'),
    side: side === 'left' ? (1 as const) : (-1 as const),
  });
  const sideOf = (name: string) => (name.startsWith('left') ? 'left' : 'right');
  if (twists && elbowHinges) {
    const rows: TwistLimitRow[] = twistLimits.filter((t) => !isKnee(t.plane)).map((t) => ({ particles: arm(sideOf(t.name)), range: t.range * degrees, free: t.free * degrees }));
    const twistId = addBuiltinConstraint(world, 'ragdollLimits', new TwistLimits(record, rows, angleStiffness, ELBOW_HYPEREXTENSION * degrees));
    record.onRemove.push(() => world.remove(twistId));
  }
  if (twists) {
    const rows: HipTwistRow[] = twistLimits
      .filter((t) => isKnee(t.plane))
      .map((t) => {
        const side = sideOf(t.name);
        return {
          particles: { hip: slot(`${side}Hip`), knee: slot(`${side}Knee`), foot: slot(`${side}Foot`), leftHip: slot('leftHip'), rightHip: slot('rightHip') },
          range: t.range * degrees,
          free: t.free * degrees,
        };
      });
    const hipsId = addBuiltinConstraint(world, 'ragdollLimits', new HipTwistLimits(record, rows, angleStiffness));
    record.onRemove.push(() => world.remove(hipsId));
  }
  if (elbowHinges) {
    const elbows = new ElbowHinges(record, [arm('left'), arm('right')], ELBOW_HYPEREXTENSION * degrees, angleStiffness);
    const elbowsId = addBuiltinConstraint(world, 'ragdollLimits', elbows);
    record.onRemove.push(() => world.remove(elbowsId));
  }
  if (ownPasses > 0) {
    const stage = new OwnPasses(
      record,
      ownPasses,
      limbs.map((l) => l.stick),
      BONE_TOLERANCE,
    );
    addSubstepStage(world, 'ragdolls', stage);
    record.onRemove.push(() => dropSubstepStage(world, stage));
  }
  if (limitFriction > 0) {
    const byJoint = new Map(angles.map((a) => [a.name, a.id]));
    const limbs = limitFrictionLimbs.map((l) => ({
      angle: byJoint.get(l.joint)!,
      swinging: slot(l.swinging),
      pivot: particleSlot(angles.find((a) => a.name === l.joint)!.middle),
      frame: l.frame.map(slot),
    }));
    const stage = new LimitFriction(record, limbs, limitFriction);
    addSubstepStage(world, 'ragdolls', stage);
    record.onRemove.push(() => dropSubstepStage(world, stage));
  }
  const damping = new InternalDamping(first, ragdollParts.length, jointDamping);
  const dampingStep = world.onBeforeStep(() => damping.apply(world));
  record.onRemove.push(() => world.remove(dampingStep));
  return new Ragdoll(world, record, height, mass, limbs, angles);
}

function isKnee(joint: RagdollJoint): boolean {
  return joint === 'leftKnee' || joint === 'rightKnee';
}

/** The ragdoll's own passes (`ownPasses`) stop once every bone is within 1% of its length: half the 2% it must keep at a 5 m/s impact. */
const BONE_TOLERANCE = 0.01;

function checkJoints(joints: Readonly<Record<RagdollPart, Vec3Like>>, what: string): Record<RagdollPart, Vec3> {
  if (joints === null || typeof joints !== 'object') throw new TypeError(`${what} must be an object of positions by part, got ${String(joints)}`);
  return Object.fromEntries(
    ragdollParts.map((part) => {
      if (!Object.hasOwn(joints, part)) throw new RangeError(`${what} has no position for ${part} (it needs all of ${ragdollParts.join(', ')})`);
      return [part, toVec3(joints[part], `${what}.${part}`)];
    }),
  ) as Record<RagdollPart, Vec3>;
}

function limbRadius(radius: number | undefined, fallback: number, what: string): number {
  return radius === undefined ? fallback : positive(radius, what);
}

function positive(n: number, what: string): number {
  if (typeof n !== 'number' || !Number.isFinite(n) || n <= 0) throw new RangeError(`${what} must be a finite number > 0, got ${String(n)}`);
  return n;
}
