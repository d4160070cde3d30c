// The engine through its public entry, not module by module: reached from sinew-physics/rapier's entry
// file by file, the modules it shares with the engine (pose maths, say) are split off into a
// chunk of their own in the library build, and calls across chunks in the step make a cloth
// on a moving kinematic box 1.6× slower (test/bench/rapierBridge.bench.ts).
import { CoupledAttachment, CoupledBody, type ColliderId, type ColliderShape, type KinematicCollider, type ParticleId, type Vec3Like, type World } from '../core/index.js';
import { RAPIER_SHAPE_NAMES, RapierShape, type RapierBodyLike, type RapierColliderLike, type RapierWorldLike } from './rapierTypes.js';
import { readCentre, readColliderPose, readPoseBefore } from './rapierPoses.js';

/** What {@link bridgeRapier} takes. */
export interface RapierBridgeOptions {
  /**
   * Runs one Rapier step of sinew's `timeStep`; called at the start of every
   * sinew step, so that one clock drives both worlds. Default: sets
   * `rapier.timestep` to sinew's and calls `rapier.step()`. `<RapierBridge>`
   * passes @react-three/rapier's own step, which also moves its meshes.
   */
  stepRapier?: () => void;
  /**
   * Told once about each Rapier collider whose shape sinew cannot follow
   * (Cylinder, Cone, HeightField, the rounded shapes, Segment, Polyline,
   * Triangle, HalfSpace, Voxels, a flat ConvexPolyhedron): particles pass
   * through it. Default: `console.warn` of the message. Throw from it to refuse such scenes.
   */
  onUnsupported?: (message: string, collider: RapierColliderLike) => void;
}

/** What {@link RapierBridge.attach} takes. */
export interface RapierAttachOptions {
  /**
   * The point of the body the particle is tied to, in the body's own frame
   * (about its `translation()`, not its centre of mass), m. Default: where the particle is now.
   */
  anchor?: Vec3Like;
}

/** Returned by {@link bridgeRapier}. */
export interface RapierBridge {
  /** Rapier colliders sinew follows right now. */
  readonly mirrored: number;
  /** Rapier collider handle → the sinew kinematic collider that follows it. */
  readonly colliders: ReadonlyMap<number, ColliderId>;
  /** Rapier rigid-body handle → the {@link CoupledBody} through which a dynamic body (or an attached one) yields to sinew. */
  readonly bodies: ReadonlyMap<number, CoupledBody>;
  /**
   * Ties `particle` to a point of a Rapier body, two-way for a dynamic body (a
   * rope's pull lifts it, its weight pulls the rope); a fixed or kinematic body
   * holds the particle without yielding. Returns the link (`remove()` unties).
   */
  attach(particle: ParticleId, body: RapierBodyLike, options?: RapierAttachOptions): CoupledAttachment;
  /** Stops the bridge: removes every collider, body, attachment and step callback it added. Safe to call twice. */
  remove(): void;
}

interface Mirror {
  readonly id: ColliderId;
  readonly kinematic: KinematicCollider;
  readonly rapier: RapierColliderLike;
  /** The dynamic body's handle, or -1. */
  readonly bodyHandle: number;
  /** Pose before Rapier's step: position xyz, quaternion xyzw. */
  readonly before: Float64Array;
  /** Pose Rapier's last step left it at (NaN before the first). */
  readonly after: Float64Array;
  seen: number;
}

interface Coupling {
  readonly coupled: CoupledBody;
  rapier: RapierBodyLike;
  /** Centre of mass and rotation before Rapier's step. */
  readonly before: Float64Array;
  /** How far Rapier's gravity moved the body in its step (g·dt², m), which sinew gives back over its substeps. */
  readonly fall: Float64Array;
  /** Rapier's gravity's velocity change in its step (g·dt, m/s). */
  readonly kick: Float64Array;
  readonly attachments: Set<CoupledAttachment>;
  seen: number;
  dynamic: boolean;
}

/**
 * Lets a sinew world and a Rapier world share a scene, with no React. At the
 * start of every sinew step the bridge steps Rapier once (one clock drives
 * both), then has every Rapier collider (balls, cuboids, capsules, convex
 * hulls and trimeshes; on fixed, kinematic and dynamic bodies; sensors and
 * disabled ones left out) followed by a sinew kinematic collider along the
 * path Rapier's step moved it, so that particles meet it swept and at its speed.
 * The path starts at the pose its body gives it (a collider's own pose is stale
 * until Rapier steps), so a body placed or moved with `setTranslation` between
 * steps jumps there without sweeping across.
 *
 * A dynamic body is coupled two-way through a {@link CoupledBody}: inside
 * sinew's step it yields to what its colliders touch and what is attached to
 * it (each correction shared by inverse masses; momentum kept; restitution 0),
 * and after the step the bridge writes its pose and velocity back to Rapier
 * (setTranslation, setRotation, setLinvel, setAngvel), only for bodies sinew
 * moved. Its gravity is given back over sinew's substeps rather than as Rapier's
 * one kick per step, so that what holds it up carries it steadily. Rapier's
 * locked translations are not respected by the yield (locked rotations are,
 * through its effective inverse inertia).
 *
 * Colliders Rapier removed stop being followed; a collider's shape is read
 * when it is first seen (a resized Rapier collider keeps its old sinew shape).
 * The bridge allocates: Rapier hands out a new object for every vector it reads.
 *
 * @example
 * ```ts
 * await RAPIER.init();
 * const rapier = new RAPIER.World({ x: 0, y: -9.81, z: 0 });
 * const world = new World();
 * const bridge = bridgeRapier(rapier, world);
 * world.advance(1); // 60 steps of both worlds
 * bridge.remove();
 * ```
 */
export function bridgeRapier(rapier: RapierWorldLike, world: World, options: RapierBridgeOptions = {}): RapierBridge {
  if (!rapier || typeof rapier !== 'object' || typeof rapier.forEachCollider !== 'function' || typeof rapier.step !== 'function') {
    throw new TypeError(`bridgeRapier: rapier must be a Rapier World (@dimforge/rapier3d-compat), got ${describe(rapier)}`);
  }
  if (!world || typeof world !== 'object' || typeof world.onBeforeStep !== 'function') throw new TypeError(`bridgeRapier: world must be a sinew World, got ${describe(world)}`);
  if (options.stepRapier !== undefined && typeof options.stepRapier !== 'function') throw new TypeError(`bridgeRapier: stepRapier must be a function, got ${describe(options.stepRapier)}`);
  if (options.onUnsupported !== undefined && typeof options.onUnsupported !== 'function') throw new TypeError(`bridgeRapier: onUnsupported must be a function, got ${describe(options.onUnsupported)}`);
  const stepRapier =
    options.stepRapier ??
    (() => {
      rapier.timestep = world.timeStepValue;
      rapier.step();
    });
  const warn = options.onUnsupported ?? ((message: string) => console.warn(message));
  const mirrors = new Map<number, Mirror>();
  const ids = new Map<number, ColliderId>();
  const couplings = new Map<number, Coupling>();
  const coupled = new Map<number, CoupledBody>();
  const refused = new Set<number>();
  /** The particles' box this step (min xyz, max xyz). */
  const box = new Float64Array(6);
  let generation = 0;
  let live = true;

  const couple = (body: RapierBodyLike): Coupling => {
    let entry = couplings.get(body.handle);
    if (entry) return entry;
    const dynamic = body.isDynamic();
    const coupledBody = new CoupledBody(world, { mass: dynamic ? 1 / body.invMass() : Infinity, inverseInertia: 0 });
    entry = { coupled: coupledBody, rapier: body, before: new Float64Array(7), fall: new Float64Array(3), kick: new Float64Array(3), attachments: new Set(), seen: generation, dynamic };
    readMass(entry);
    readCentre(body, entry.before);
    // Standing where it is until the first step gives it a path.
    const b = entry.before;
    coupledBody.setStep([b[0]!, b[1]!, b[2]!], [b[3]!, b[4]!, b[5]!, b[6]!], [b[0]!, b[1]!, b[2]!], [b[3]!, b[4]!, b[5]!, b[6]!]);
    couplings.set(body.handle, entry);
    coupled.set(body.handle, coupledBody);
    return entry;
  };

  const uncouple = (handle: number, entry: Coupling): void => {
    for (const attachment of entry.attachments) attachment.remove();
    entry.coupled.remove();
    couplings.delete(handle);
    coupled.delete(handle);
  };

  const mirror = (collider: RapierColliderLike): Mirror | undefined => {
    const shape = sinewShape(collider);
    if (typeof shape === 'string') {
      if (!refused.has(collider.handle)) {
        refused.add(collider.handle);
        warn(
          `sinew-physics/rapier: collider ${collider.handle} is a ${shape}, which sinew cannot follow; particles pass through it (sinew follows Ball, Cuboid, Capsule, ConvexPolyhedron and TriMesh)`,
          collider,
        );
      }
      return undefined;
    }
    const body = collider.parent();
    const dynamic = body !== null && body.isDynamic();
    if (dynamic) (shape as { body?: CoupledBody }).body = couple(body).coupled;
    const id = world.addCollider(shape);
    const kinematic = world.getCollider(id) as KinematicCollider;
    const entry: Mirror = { id, kinematic, rapier: collider, bodyHandle: dynamic ? body.handle : -1, before: new Float64Array(7), after: new Float64Array(7).fill(NaN), seen: generation };
    readPoseBefore(collider, entry.before, entry.after);
    const b = entry.before;
    kinematic.setPose([b[0]!, b[1]!, b[2]!], [b[3]!, b[4]!, b[5]!, b[6]!], { teleport: true });
    mirrors.set(collider.handle, entry);
    ids.set(collider.handle, id);
    return entry;
  };

  // Before Rapier's step: which colliders there are, and where they and the bodies start.
  const readBefore = (collider: RapierColliderLike): void => {
    if (collider.isSensor() || !collider.isEnabled()) return;
    const entry = mirrors.get(collider.handle) ?? mirror(collider);
    if (!entry) return;
    entry.seen = generation;
    readPoseBefore(collider, entry.before, entry.after);
  };

  const before = world.onBeforeStep(() => {
    generation++;
    rapier.forEachCollider(readBefore);
    for (const [handle, entry] of mirrors) {
      if (entry.seen === generation) {
        if (entry.bodyHandle >= 0) couplings.get(entry.bodyHandle)!.seen = generation;
        continue;
      }
      world.removeCollider(entry.id);
      mirrors.delete(handle);
      ids.delete(handle);
    }
    for (const [handle, entry] of couplings) {
      // No collider of the body was seen: kept only by attachments, if Rapier still has it.
      if (entry.seen !== generation) {
        const body = rapier.getRigidBody(handle);
        if (!body || entry.attachments.size === 0) {
          uncouple(handle, entry);
          continue;
        }
        entry.rapier = body;
        entry.seen = generation;
      }
      readCentre(entry.rapier, entry.before);
    }
    stepRapier();
    const dt = world.timeStepValue;
    // Rapier 0.19 substeps too (numSolverIterations, default 4): over N substeps its gravity
    // moves a body g·dt²·(N + 1)/(2N), which is the share of Rapier's move the path leaves out.
    const substeps = typeof rapier.numSolverIterations === 'number' && rapier.numSolverIterations >= 1 ? rapier.numSolverIterations : 1;
    const share = (substeps + 1) / (2 * substeps);
    const g = rapier.gravity;
    for (const entry of couplings.values()) {
      const body = entry.rapier;
      entry.dynamic = body.isDynamic();
      readMass(entry);
      const scale = entry.dynamic ? body.gravityScale() : 0;
      const c = entry.coupled;
      c.gravity[0] = g.x * scale;
      c.gravity[1] = g.y * scale;
      c.gravity[2] = g.z * scale;
      for (let k = 0; k < 3; k++) {
        entry.kick[k] = c.gravity[k]! * dt;
        entry.fall[k] = entry.kick[k]! * dt * share;
      }
      const com = body.worldCom();
      const r = body.rotation();
      const b = entry.before;
      // Rapier's path without its gravity's share: sinew gives that back over its substeps.
      c.setStep([b[0]!, b[1]!, b[2]!], [b[3]!, b[4]!, b[5]!, b[6]!], [com.x - entry.fall[0]!, com.y - entry.fall[1]!, com.z - entry.fall[2]!], [r.x, r.y, r.z, r.w]);
    }
    const reach = particleReach(world, box);
    for (const entry of mirrors.values()) {
      // Rapier's step has brought the collider's own pose up to date with its body.
      const a = entry.after;
      readColliderPose(entry.rapier, a);
      const b = entry.before;
      const fall = entry.bodyHandle >= 0 ? couplings.get(entry.bodyHandle)!.fall : NO_FALL;
      const x = a[0]! - fall[0]!;
      const y = a[1]! - fall[1]!;
      const z = a[2]! - fall[2]!;
      entry.kinematic.followPath([b[0]!, b[1]!, b[2]!], [b[3]!, b[4]!, b[5]!, b[6]!], [x, y, z], [a[3]!, a[4]!, a[5]!, a[6]!]);
      // Skipped this step when its sweep is out of every particle's reach.
      const k = entry.kinematic.boundRadius + reach;
      entry.kinematic.near =
        Math.min(b[0]!, x) - k <= box[3]! &&
        Math.max(b[0]!, x) + k >= box[0]! &&
        Math.min(b[1]!, y) - k <= box[4]! &&
        Math.max(b[1]!, y) + k >= box[1]! &&
        Math.min(b[2]!, z) - k <= box[5]! &&
        Math.max(b[2]!, z) + k >= box[2]!;
    }
  });

  // After sinew's step: what sinew did to each dynamic body goes back to Rapier.
  const after = world.onAfterStep(() => {
    for (const entry of couplings.values()) {
      const c = entry.coupled;
      if (!c.yielded) continue;
      c.yielded = false;
      if (!entry.dynamic) continue;
      const body = entry.rapier;
      const [x, y, z] = c.endPosition();
      const [qx, qy, qz, qw] = c.endRotation();
      // Rapier places a body by its frame's origin: the centre of mass less its turned local offset.
      const l = body.localCom();
      const tx = 2 * (qy * l.z - qz * l.y);
      const ty = 2 * (qz * l.x - qx * l.z);
      const tz = 2 * (qx * l.y - qy * l.x);
      const ox = l.x + qw * tx + (qy * tz - qz * ty);
      const oy = l.y + qw * ty + (qz * tx - qx * tz);
      const oz = l.z + qw * tz + (qx * ty - qy * tx);
      const v = body.linvel();
      const w = body.angvel();
      const u = c.velocityChange;
      const spin = c.angularVelocityChange;
      body.setRotation({ x: qx, y: qy, z: qz, w: qw }, true);
      body.setTranslation({ x: x - ox, y: y - oy, z: z - oz }, true);
      // Rapier's velocity already holds its gravity's kick; sinew's velocityChange holds it again.
      body.setLinvel({ x: v.x - entry.kick[0]! + u[0]!, y: v.y - entry.kick[1]! + u[1]!, z: v.z - entry.kick[2]! + u[2]! }, true);
      body.setAngvel({ x: w.x + spin[0]!, y: w.y + spin[1]!, z: w.z + spin[2]! }, true);
    }
  });

  const stop = (): void => {
    if (!live) return;
    live = false;
    world.remove(before);
    world.remove(after);
    for (const entry of mirrors.values()) world.removeCollider(entry.id);
    mirrors.clear();
    ids.clear();
    for (const [handle, entry] of couplings) uncouple(handle, entry);
  };

  return {
    get mirrored() {
      return mirrors.size;
    },
    colliders: ids,
    bodies: coupled,
    attach(particle, body, attachOptions = {}) {
      if (!live) throw new Error('RapierBridge.attach: the bridge was removed');
      if (!body || typeof body !== 'object' || typeof body.worldCom !== 'function') throw new TypeError(`RapierBridge.attach: body must be a Rapier RigidBody, got ${describe(body)}`);
      world.checkParticle(particle, 'RapierBridge.attach');
      const entry = couple(body);
      let anchor: Vec3Like | undefined;
      if (attachOptions.anchor !== undefined) {
        const a = vector(attachOptions.anchor, 'RapierBridge.attach: anchor');
        const l = body.localCom();
        anchor = [a[0] - l.x, a[1] - l.y, a[2] - l.z];
      }
      const attachment = new CoupledAttachment(world, particle, entry.coupled, anchor === undefined ? {} : { anchor });
      entry.attachments.add(attachment);
      const untie = attachment.remove.bind(attachment);
      attachment.remove = () => {
        entry.attachments.delete(attachment);
        untie();
      };
      return attachment;
    },
    remove: stop,
  };
}

const NO_FALL = new Float64Array(3);

/**
 * The box of every live particle now, into `box`, and how far beyond it one
 * may get this step: its largest radius plus twice its largest move of the
 * last step (a particle that falls or is flung goes on at about that speed;
 * sticks and pins pull it no farther), plus 0.1 m. Infinity without particles is
 * not needed: an empty box (min > max) reaches nothing.
 */
function particleReach(world: World, box: Float64Array): number {
  const particles = world.particles;
  const pos = particles.position;
  const prev = particles.previous;
  const radius = particles.radius;
  box.fill(Infinity, 0, 3);
  box.fill(-Infinity, 3, 6);
  let most = 0;
  let move = 0;
  for (let i = 0; i < particles.end; i++) {
    if (!particles.isAlive(i)) continue;
    for (let k = 0; k < 3; k++) {
      const v = pos[i * 3 + k]!;
      if (v < box[k]!) box[k] = v;
      if (v > box[3 + k]!) box[3 + k] = v;
      const d = Math.abs(v - prev[i * 3 + k]!);
      if (d > move) move = d;
    }
    if (radius[i]! > most) most = radius[i]!;
  }
  // `previous` is one substep back: a step is `substeps` of those.
  return most + 2 * move * world.activeSubsteps + 0.1;
}

/** A coupled body's mass and world inverse inertia from Rapier (a fixed or kinematic body: immovable). */
function readMass(entry: Coupling): void {
  const body = entry.rapier;
  const c = entry.coupled;
  if (!entry.dynamic) {
    c.inverseMass = 0;
    c.inverseInertia.fill(0);
    return;
  }
  c.inverseMass = body.invMass();
  const m = body.effectiveWorldInvInertia();
  const i = c.inverseInertia;
  i[0] = m.m11;
  i[1] = i[3] = m.m12;
  i[2] = i[6] = m.m13;
  i[4] = m.m22;
  i[5] = i[7] = m.m23;
  i[8] = m.m33;
}

/** The sinew shape (in the collider's frame) of a Rapier collider, or the name of a shape sinew cannot follow. */
function sinewShape(collider: RapierColliderLike): ColliderShape | string {
  const friction = collider.friction();
  const type = collider.shapeType();
  switch (type) {
    case RapierShape.Ball:
      return { type: 'sphere', radius: collider.radius(), friction, kinematic: true };
    case RapierShape.Cuboid: {
      const h = collider.halfExtents();
      return { type: 'obb', halfExtents: [h.x, h.y, h.z], friction, kinematic: true };
    }
    case RapierShape.Capsule: {
      // Rapier's capsules run along their local y.
      const hh = collider.halfHeight();
      return { type: 'capsule', a: [0, -hh, 0], b: [0, hh, 0], radius: collider.radius(), friction, kinematic: true };
    }
    case RapierShape.TriMesh: {
      const indices = collider.indices();
      if (!indices) return 'TriMesh without indices';
      return { type: 'mesh', vertices: Array.from(collider.vertices()), indices: Array.from(indices), friction, kinematic: true };
    }
    case RapierShape.ConvexPolyhedron: {
      // Rapier 0.19 hands out the hull's faces.
      const points = Array.from(collider.vertices());
      const faces = collider.indices();
      if (!faces || faces.length === 0) return 'ConvexPolyhedron without faces';
      return { type: 'mesh', vertices: points, indices: facingOut(points, Array.from(faces)), friction, kinematic: true };
    }
    default:
      return RAPIER_SHAPE_NAMES[type] ?? `shape of type ${type}`;
  }
}

/**
 * `triangles` wound counter-clockwise seen from outside (sinew's triangles are
 * one-sided, their front the counter-clockwise side): a hull is convex, so a
 * face whose normal points toward the centroid is flipped.
 */
function facingOut(points: readonly number[], triangles: readonly number[]): number[] {
  const n = points.length / 3;
  const centre = [0, 0, 0];
  for (let i = 0; i < n; i++) for (let k = 0; k < 3; k++) centre[k]! += points[i * 3 + k]! / n;
  const out = triangles.slice();
  for (let t = 0; t < out.length; t += 3) {
    const a = out[t]! * 3;
    const b = out[t + 1]! * 3;
    const c = out[t + 2]! * 3;
    const u = [0, 1, 2].map((k) => points[b + k]! - points[a + k]!);
    const v = [0, 1, 2].map((k) => points[c + k]! - points[a + k]!);
    const normal = [u[1]! * v[2]! - u[2]! * v[1]!, u[2]! * v[0]! - u[0]! * v[2]!, u[0]! * v[1]! - u[1]! * v[0]!];
    let facing = 0;
    for (let k = 0; k < 3; k++) facing += normal[k]! * (points[a + k]! - centre[k]!);
    if (facing < 0) {
      out[t + 1] = triangles[t + 2]!;
      out[t + 2] = triangles[t + 1]!;
    }
  }
  return out;
}

/** `[x, y, z]` or `{x, y, z}` of finite numbers, or an error naming `what` and the value. */
function vector(v: Vec3Like, what: string): [number, number, number] {
  const xyz = Array.isArray(v) ? v : v && typeof v === 'object' ? [(v as { x: unknown }).x, (v as { y: unknown }).y, (v as { z: unknown }).z] : [];
  if (xyz.length !== 3 || !xyz.every((c) => typeof c === 'number' && Number.isFinite(c))) throw new TypeError(`${what} must be [x, y, z] or {x, y, z} of finite numbers, got ${JSON.stringify(v)}`);
  return xyz as [number, number, number];
}

function describe(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (typeof value === 'object') return `an object with keys ${JSON.stringify(Object.keys(value).slice(0, 5))}`;
  return `${typeof value} ${String(value)}`;
}
