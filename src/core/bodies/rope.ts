import { axialCompliance, checkCompliance, checkDamping, ropeMaterial, type RopeMaterial, type RopeName } from '../materials.js';
import { PIN_DEFAULTS, ROPE_DEFAULTS, STICK_DEFAULTS } from '../defaults.js';
import { checkBoolean, checkInteger, checkNumber, toVec3, type Vec3Like } from '../math.js';
import type { ParticleOptions, World } from '../world.js';
import type { BodyRecord } from './body.js';
import { checkStiffness, massOfEachParticle, type MassOptions } from './shapes.js';
import { bodyContacts } from '../collision/bodyContacts.js';
import { checkCollisionGroups, type CollisionGroupOptions } from '../collision/collisionGroups.js';

/**
 * Linear density (kg/m) of a rope given no mass or material: a 10 mm
 * climbing rope's 65 g/m, rounded up for its sheath (a 2 m rope weighs 0.2 kg).
 */
export const DEFAULT_ROPE_LINEAR_DENSITY = ROPE_DEFAULTS.linearDensity;

/** What {@link createRope} takes. */
export interface RopeOptions extends MassOptions, CollisionGroupOptions {
  /**
   * Where the first end (particle 0, `"name.start"`) starts. A rope has no single
   * `position`: its two ends are its shape and its placement at once, the way a
   * capsule collider's `a` and `b` are.
   */
  from: Vec3Like;
  /** Where the last end (`"name.end"`) starts; see `from`. */
  to: Vec3Like;
  /** Number of segments (sticks), an integer >= 1; the rope has `segments + 1` particles. */
  segments: number;
  /**
   * Rest length of the whole rope in m, default |to - from|. Longer than the span
   * makes a slack rope (pinned at both ends it sags); particles start on the
   * straight line between the ends either way.
   */
  length?: number;
  /** `'equal'` (default): a chain of rods that also resists compression. `'max'`: an inextensible rope that can go slack. */
  kind?: 'equal' | 'max';
  /** Pin the first particle where it starts. Default false. */
  pinStart?: boolean;
  /** Pin the last particle where it starts. Default false. */
  pinEnd?: boolean;
  /** Compliance in m/N of the end pins (`pinStart`, `pinEnd`): a zero-length spring of k = 1/pinCompliance to where the end starts (see `world.addPin`). Default 0: held rigidly. */
  pinCompliance?: number;
  /**
   * Stiffness in (0, 1] of bending sticks between particles two apart, which push
   * them back to the straight distance whenever the rope bends. Default: none (a
   * perfectly limp rope). Per pass: how stiff the rope looks depends on the
   * substeps and iterations; `bendCompliance` gives a stiffness that does not
   * (`complianceForStiffness` converts at the settings it was tuned for).
   */
  bendStiffness?: number;
  /** Compliance in m/N of those bending sticks (XPBD: the same stiffness at any substeps); makes them without `bendStiffness` too. Default 0. */
  bendCompliance?: number;
  /** Collision radius of each particle, default 0. */
  radius?: number;
  /** Coulomb friction coefficient of each particle (the world's default when omitted). */
  friction?: number;
  /** Bounciness of each particle against colliders, in [0, 1] (the world's default, 0, when omitted; see `ParticleOptions.restitution`). */
  restitution?: number;
  /** Relaxation passes per substep for this body (default: the world's). */
  iterations?: number;
  /**
   * The segments between the particles, each a capsule of its ends' radius,
   * collide with other bodies' surfaces (a cloth's triangles), so that the rope
   * cannot pass through a cloth between its particles (`BodyRecord.collideAs`
   * `'chain'`). Default true; false leaves only the particles.
   */
  segmentContacts?: boolean;
  /** Compliance of each segment in m/N (XPBD): a segment stretches compliance·F under a pull F, whatever the solver settings. Default 0 (inextensible), or the `material`'s. */
  compliance?: number;
  /** Constraint damping of each segment in N·s/m (acts with a compliance > 0). Default 0. */
  damping?: number;
  /**
   * A rope (a preset name of `ROPES` or a `RopeMaterial`): sets the particle
   * masses from its linear density (the rope's mass spread evenly) and each
   * segment's compliance from its axial stiffness E·A (segment length / E·A).
   * Give no `mass` or `particleMass` with it; an explicit `compliance` wins.
   */
  material?: RopeName | RopeMaterial;
}

/** What {@link createRope} returns. */
export interface RopeHandle {
  /** The rope's body record in the world. */
  readonly body: BodyRecord;
  /** Particle id of the first end; the rope is particles `first` to `first + segments`. */
  readonly first: number;
  /** Particles in the rope: `segments + 1`. */
  readonly count: number;
  /** Particle id of the last end (`first + segments`). */
  readonly last: number;
  /** Number of segments (sticks between neighbouring particles). */
  readonly segments: number;
  /** Rest length of one segment (m). */
  readonly segmentLength: number;
  /** Stick ids of the segments, from the first end. */
  readonly sticks: readonly number[];
  /** Stick ids of the bending sticks (empty without `bendStiffness` or `bendCompliance`). */
  readonly bendSticks: readonly number[];
  /** Pin id of the first end, if pinned (move it with `world.setPinTarget`). */
  readonly startPin: number | undefined;
  /** Pin id of the last end, if pinned. */
  readonly endPin: number | undefined;
  /** Sum of the current segment lengths (m). */
  currentLength(): number;
  /** Sets the stiffness of the bending sticks (only when the rope was made with `bendStiffness`). */
  setBendStiffness(stiffness: number): void;
  /** Removes the rope with its sticks and pins. */
  remove(): void;
}

/**
 * A rope or chain: `segments` sticks in a row between two points, optionally
 * pinned at either end. `'max'` sticks make it inextensible but free to go slack
 * (the course notes' rope); `'equal'` sticks make a chain of rigid links.
 *
 * @example
 * ```ts
 * const world = new World();
 * const rope = createRope(world, { from: [-1, 2, 0], to: [1, 2, 0], segments: 20, length: 2.4, kind: 'max', pinStart: true, pinEnd: true });
 * for (let i = 0; i < 60; i++) world.step(); // one second: it has sagged and swings about a catenary
 * ```
 */
export function createRope(world: World, options: RopeOptions): RopeHandle {
  if (!options || typeof options !== 'object') throw new TypeError(`createRope: options must be an object, got ${String(options)}`);
  const from = toVec3(options.from, 'createRope: from');
  const to = toVec3(options.to, 'createRope: to');
  const segments = checkInteger(options.segments, 'createRope: segments', 1);
  const kind = options.kind ?? ROPE_DEFAULTS.kind;
  if (kind !== 'equal' && kind !== 'max') throw new RangeError(`createRope: kind must be 'equal' or 'max', got ${String(kind)}`);
  const span = Math.hypot(to[0] - from[0], to[1] - from[1], to[2] - from[2]);
  const length = checkNumber(options.length ?? span, 'createRope: length', Number.MIN_VALUE);
  if (length < span * (1 - 1e-12)) throw new RangeError(`createRope: length must be at least the distance from 'from' to 'to' (${span}), got ${length}`);
  const bendCompliance = options.bendCompliance === undefined ? undefined : checkCompliance(options.bendCompliance, 'createRope: bendCompliance');
  const bendStiffness = options.bendStiffness === undefined ? (bendCompliance === undefined ? undefined : 1) : checkStiffness(options.bendStiffness, 'createRope: bendStiffness');
  const material = options.material === undefined ? undefined : ropeMaterial(options.material, 'createRope: material');
  if (material !== undefined && (options.mass !== undefined || options.particleMass !== undefined)) throw new RangeError('createRope: a material sets the mass; give no mass or particleMass with it');
  const mass =
    material !== undefined ? (material.linearDensity * length) / (segments + 1) : massOfEachParticle(options, segments + 1, 'createRope', (ROPE_DEFAULTS.linearDensity * length) / (segments + 1));
  const compliance = checkCompliance(options.compliance ?? (material ? axialCompliance(material.axialStiffness, length / segments) : STICK_DEFAULTS.compliance), 'createRope: compliance');
  const damping = checkDamping(options.damping ?? STICK_DEFAULTS.damping, 'createRope: damping');
  const pinOptions = { compliance: checkCompliance(options.pinCompliance ?? PIN_DEFAULTS.compliance, 'createRope: pinCompliance') };

  const list: ParticleOptions[] = [];
  for (let i = 0; i <= segments; i++) {
    const t = i / segments;
    list.push({
      position: [from[0] + (to[0] - from[0]) * t, from[1] + (to[1] - from[1]) * t, from[2] + (to[2] - from[2]) * t],
      mass,
      radius: options.radius,
      friction: options.friction,
      restitution: options.restitution,
    });
  }
  const collisionGroups = checkCollisionGroups(options.collisionGroups, 'createRope: collisionGroups');
  const first = world.addParticles(list);
  const body = world.addBody(first, segments + 1, { kind: 'rope', iterations: options.iterations });
  body.collisionGroups = collisionGroups;
  if (checkBoolean(options.segmentContacts ?? ROPE_DEFAULTS.segmentContacts, 'createRope: segmentContacts')) {
    body.collideAs = 'chain';
    // Its segments meet cloths' triangles in the body-contact stage, which a world of cloths and ropes has no other reason to run.
    bodyContacts(world);
  }
  const segmentLength = length / segments;
  const sticks: number[] = [];
  for (let i = 0; i < segments; i++) sticks.push(world.addStick(first + i, first + i + 1, { length: segmentLength, kind, compliance, damping }));
  // 'min' bending sticks only push: they straighten a bend without fighting the segments' own limit.
  const bendSticks: number[] = [];
  if (bendStiffness !== undefined) {
    for (let i = 0; i + 2 <= segments; i++) bendSticks.push(world.addStick(first + i, first + i + 2, { length: 2 * segmentLength, stiffness: bendStiffness, compliance: bendCompliance, kind: 'min' }));
  }
  const startPin = options.pinStart ? world.addPin(first, undefined, pinOptions) : undefined;
  const endPin = options.pinEnd ? world.addPin(first + segments, undefined, pinOptions) : undefined;
  body.constraints.push(...sticks, ...bendSticks);
  if (startPin !== undefined) body.constraints.push(startPin);
  if (endPin !== undefined) body.constraints.push(endPin);

  return {
    body,
    first,
    count: segments + 1,
    last: first + segments,
    segments,
    segmentLength,
    sticks,
    bendSticks,
    startPin,
    endPin,
    currentLength() {
      const p = world.positions;
      let sum = 0;
      for (let i = first; i < first + segments; i++) sum += Math.hypot(p[i * 3 + 3]! - p[i * 3]!, p[i * 3 + 4]! - p[i * 3 + 1]!, p[i * 3 + 5]! - p[i * 3 + 2]!);
      return sum;
    },
    setBendStiffness(stiffness: number) {
      if (bendSticks.length === 0) throw new RangeError('RopeHandle.setBendStiffness: the rope has no bending sticks (create it with bendStiffness)');
      const value = checkStiffness(stiffness, 'RopeHandle.setBendStiffness: stiffness');
      for (const id of bendSticks) if (world.hasConstraint(id)) world.setStick(id, { stiffness: value });
    },
    remove: () => world.remove(body),
  };
}
