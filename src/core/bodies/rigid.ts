import { particleSlot } from '../ids.js';
import type { Placement } from '../placement.js';
import { addCapsuleEdge, setCapsuleEdgeRadius } from '../collision/edges.js';
import { addBodyHull } from '../collision/hull.js';
import { RIGID_DEFAULTS } from '../defaults.js';
import { checkInteger, checkNumber, toVec3, type Vec3, type Vec3Like } from '../math.js';
import { quatFromAxisAngle, rotateVector, toRotation, type RotationLike } from '../quaternion.js';
import type { ParticleOptions, World } from '../world.js';
import type { BodyRecord } from './body.js';
import type { SharedVertices } from './joints.js';
import { rigidMotion } from './rigidMotion.js';
import { allPairs, rigidPairs } from './rigidSticks.js';
import { convexHullVolume, massFromDensity } from './rigidVolume.js';
import { makeRigidTransform, RigidShape, type RigidTransform } from './rigidTransform.js';
import { checkCollisionGroups, type CollisionGroupOptions } from '../collision/collisionGroups.js';

/**
 * Fewest relaxation passes per substep a rigid body gets by default. With one
 * pass a box stopped by a wall keeps part of the impact as compression of its
 * sticks and springs back: thrown face-on at 10 m/s with restitution 0 it
 * rebounded at 2.97 m/s (2 passes: 1.43, 3: 0.67, 4: 0.34 m/s, 10: 0.14 m/s).
 */
export const RIGID_MIN_ITERATIONS = RIGID_DEFAULTS.minIterations;

/** Options every rigid-body builder takes. */
export interface RigidBodyOptions extends Placement, CollisionGroupOptions {
  /**
   * Initial orientation about `position`: a quaternion `[x, y, z, w]` (normalised
   * here) or Euler angles `[x, y, z]` in radians, three.js's default 'XYZ' order
   * (see `RotationLike`). Default none.
   */
  rotation?: RotationLike;
  /** Initial velocity of the centre of mass (m/s). */
  velocity?: Vec3Like;
  /** Initial angular velocity about the centre of mass (rad/s). */
  angularVelocity?: Vec3Like;
  /**
   * Total mass in kg, split evenly over the vertices; 0 or Infinity makes the
   * body immovable. Default: `density` times the body's volume (the convex hull
   * of a convex body's points); 1 kg for a flat body.
   */
  mass?: number;
  /** kg/m³: with no `mass`, the body weighs this times its volume (`DEFAULT_RIGID_DENSITY`, 500, is a light wood). */
  density?: number;
  /** Collision radius of each vertex particle (m). Default 0. */
  radius?: number;
  /**
   * Collide the surface edges as capsules of the vertices' radius (paper section
   * 5: a body resting across a sphere or a step's edge touches between its
   * corners). Default true.
   */
  collideEdges?: boolean;
  /** Coulomb friction coefficient of each vertex particle. Default 0.5. */
  friction?: number;
  /** Bounciness of each vertex particle against colliders, in [0, 1]. Default 0 (see `ParticleOptions.restitution`). */
  restitution?: number;
  /**
   * Relaxation passes per substep for this body (the paper: 3 or 4 suit a
   * tetrahedron). Default: the world's at build time but at least
   * {@link RIGID_MIN_ITERATIONS}, and at least n / 10 for a convex set of n points.
   */
  iterations?: number;
  /**
   * Vertices taken over from existing particles (joints, see `ballJoint` and
   * `hinge`). Their mass grows by this body's share; they stay where they are, and
   * the sticks take their lengths from this body's own shape, so place the body
   * with those vertices on the shared particles.
   */
  shared?: SharedVertices;
}

/** Options of {@link createTetrahedron}. */
export interface TetrahedronOptions extends RigidBodyOptions {
  /** Edge length (m). Default 1. */
  size?: number;
}

/** Options of {@link createBox}. */
export interface BoxOptions extends RigidBodyOptions {
  /** Edge lengths along local x, y, z (m); a number makes a cube. Default 1. */
  size?: Vec3Like | number;
}

/** Options of {@link createConvex}. */
export interface ConvexOptions extends RigidBodyOptions {
  /** Vertex positions in the body's local frame (at least 3, not all on one line). */
  points: readonly Vec3Like[];
  /** Mass of each vertex (kg, > 0); overrides `mass`. */
  masses?: readonly number[];
  /** Surface edges as pairs of local vertex indices, for capsule collisions; default none. */
  edges?: readonly (readonly [number, number])[];
}

/**
 * A rigid body made of particles held by a stick between every pair of vertices
 * (paper section 5: the tetrahedron's six sticks; a box's 12 edges, 12 face
 * diagonals and 4 body diagonals are its 28 pairs). Rotation and angular
 * momentum emerge from the sticks; {@link RigidBody.update} reads the transform back.
 */
export class RigidBody {
  /** The body's record in the world. */
  readonly body: BodyRecord;
  /** First particle id of the body's own range (shared vertices lie outside it). */
  readonly first: number;
  /** Particles in the body's own range. */
  readonly count: number;
  /** Particle id of every local vertex, shared ones included. */
  readonly vertices: readonly number[];
  /** Constraint ids of the sticks. */
  readonly sticks: readonly number[];
  /** Surface edges as particle id pairs (for capsule-edge collisions). */
  readonly edges: readonly (readonly [number, number])[];
  /** Ids of the capsule edges this body collides with (see `addCapsuleEdge`); empty with `collideEdges: false`. */
  readonly capsules: readonly number[];
  /** Rest shape and masses behind the read-back. */
  readonly shape: RigidShape;
  /** The latest transform; {@link RigidBody.update} refills this same object. */
  readonly transform: RigidTransform = makeRigidTransform();
  private readonly world: World;

  constructor(
    world: World,
    body: BodyRecord,
    vertices: readonly number[],
    sticks: readonly number[],
    edges: readonly (readonly [number, number])[],
    shape: RigidShape,
    capsules: readonly number[] = [],
  ) {
    this.world = world;
    this.body = body;
    this.first = body.first;
    this.count = body.count;
    this.vertices = vertices;
    this.sticks = sticks;
    this.edges = edges;
    this.capsules = capsules;
    this.shape = shape;
    this.update();
  }

  /** Sets the collision radius (m) of the body's own particles and of its capsule edges. */
  setRadius(radius: number): void {
    checkNumber(radius, 'RigidBody.setRadius: radius', 0);
    if (!this.body.alive) throw new Error('RigidBody.setRadius: the body was removed');
    this.world.particles.radius.fill(radius, particleSlot(this.first), particleSlot(this.first) + this.count);
    for (const id of this.capsules) setCapsuleEdgeRadius(this.world, id, radius);
  }

  /** Reads centre of mass, orientation and velocities from the particles into {@link RigidBody.transform}. Allocates nothing. */
  update(): RigidTransform {
    return this.shape.read(this.world, this.transform);
  }

  /** Removes the body: its sticks, its own particles, and its mass share from shared particles. Safe to call twice. */
  remove(): void {
    if (this.body.alive) this.world.remove(this.body);
  }
}

/**
 * A regular tetrahedron of edge `size`, base down: four particles and six sticks,
 * the paper's rigid body (section 5).
 *
 * @example
 * ```ts
 * const world = new World();
 * world.addCollider({ type: 'plane', normal: [0, 1, 0], offset: 0 });
 * const tetra = createTetrahedron(world, { size: 0.5, position: [0, 2, 0], angularVelocity: [0, 3, 1] });
 * for (let i = 0; i < 60; i++) world.step(); // one second: it has landed on the plane
 * const { position, quaternion } = tetra.update();
 * ```
 */
export function createTetrahedron(world: World, options: TetrahedronOptions = {}): RigidBody {
  const what = 'createTetrahedron';
  const a = checkPositive(options.size ?? RIGID_DEFAULTS.size, `${what}: size`);
  const height = a * Math.sqrt(2 / 3);
  const r = a / Math.sqrt(3);
  // The centroid of a tetrahedron lies a quarter of its height above the base.
  const base = -height / 4;
  const local = [r, base, 0, -r / 2, base, -a / 2, -r / 2, base, a / 2, 0, (3 * height) / 4, 0];
  const edges = allPairs(4);
  return buildRigid(world, 'tetrahedron', local, evenMasses(options.mass ?? densityMass(a ** 3 / (6 * Math.SQRT2), options.density, what), 4, what), edges, options, what);
}

/**
 * A box of `size` centred on `position`: eight corner particles, every pair joined
 * by a stick. Vertex `i` is the corner at local (±x, ±y, ±z) with bit 0, 1, 2 of `i`
 * set for +x, +y, +z.
 *
 * @example
 * ```ts
 * const crate = createBox(world, { size: [1, 0.5, 0.5], position: [0, 3, 0], rotation: [0.3, 0, 0, 0.95], mass: 8 });
 * crate.update().quaternion; // feed mesh.quaternion.fromArray(...)
 * ```
 */
export function createBox(world: World, options: BoxOptions = {}): RigidBody {
  const what = 'createBox';
  const size = options.size ?? RIGID_DEFAULTS.size;
  const s = typeof size === 'number' ? [size, size, size] : toVec3(size, `${what}: size`);
  if (!s.every((x) => Number.isFinite(x) && x > 0)) throw new RangeError(`${what}: size must be finite numbers > 0, got [${s.join(', ')}]`);
  const local: number[] = [];
  for (let i = 0; i < 8; i++) for (let k = 0; k < 3; k++) local.push(((i >> k) & 1 ? 0.5 : -0.5) * s[k]!);
  const edges: [number, number][] = [];
  for (let i = 0; i < 8; i++) for (let k = 0; k < 3; k++) if (!((i >> k) & 1)) edges.push([i, i | (1 << k)]);
  return buildRigid(world, 'box', local, evenMasses(options.mass ?? densityMass(s[0]! * s[1]! * s[2]!, options.density, what), 8, what), edges, options, what);
}

/**
 * A rigid body from any point set (typically the corners of a convex shape): a
 * particle per point and, up to eight points, a stick between every pair. A larger
 * set gets sticks from every point to four well-spread anchor points and to its
 * three nearest neighbours, and two or more relaxation passes (n / 10) unless
 * `iterations` is given: every pair would over-constrain it until one pass
 * overshoots and a spinning body flies apart. Its transform reports the centre
 * of mass; `origin` is where the points' local origin went.
 *
 * @example
 * ```ts
 * // a wedge, heavier at its back edge
 * const wedge = createConvex(world, {
 *   points: [[0, 0, 0], [1, 0, 0], [0, 0, 1], [1, 0, 1], [0, 0.5, 0], [1, 0.5, 0]],
 *   masses: [1, 1, 2, 2, 1, 1],
 *   position: [0, 1, 0],
 * });
 * mesh.position.fromArray(wedge.update().origin);
 * ```
 */
export function createConvex(world: World, options: ConvexOptions): RigidBody {
  const what = 'createConvex';
  if (!options || !Array.isArray(options.points) || options.points.length < 3) throw new RangeError(`${what}: points must be an array of 3 or more points, got ${String(options?.points)}`);
  const n = options.points.length;
  const local = options.points.flatMap((p, i) => toVec3(p, `${what}: points[${i}]`));
  let masses: Masses;
  if (options.masses === undefined) masses = evenMasses(options.mass ?? densityMass(convexHullVolume(local), options.density, what), n, what);
  else {
    if (!Array.isArray(options.masses) || options.masses.length !== n) throw new RangeError(`${what}: masses must hold one mass per point (${n}), got ${String(options.masses)}`);
    masses = { perVertex: options.masses.map((m, i) => checkPositive(m, `${what}: masses[${i}]`)), immovable: false };
  }
  const edges = (options.edges ?? []).map((e, i) => {
    if (!Array.isArray(e) || e.length !== 2 || !e.every((v) => Number.isInteger(v) && v >= 0 && v < n) || e[0] === e[1]) {
      throw new RangeError(`${what}: edges[${i}] must be two different vertex indices in [0, ${n}), got ${JSON.stringify(e)}`);
    }
    return [e[0], e[1]] as [number, number];
  });
  return buildRigid(world, 'convex', local, masses, edges, options, what);
}

/** Per-vertex masses; an immovable body has `immovable` set and unit weights. */
interface Masses {
  perVertex: number[];
  immovable: boolean;
}

/**
 * The mass `density` (default `DEFAULT_RIGID_DENSITY`, 500 kg/m³) gives a body of
 * `volume`. A flat body without a density spans no volume: it weighs 1 kg.
 */
function densityMass(volume: number, density: number | undefined, what: string): number {
  return density === undefined && !(volume > 0) ? RIGID_DEFAULTS.flatMass : massFromDensity(volume, density, what);
}

function evenMasses(m: number, n: number, what: string): Masses {
  if (typeof m !== 'number' || Number.isNaN(m) || m < 0) throw new RangeError(`${what}: mass must be >= 0 (0 or Infinity = immovable), got ${String(m)}`);
  const immovable = m === 0 || m === Infinity;
  return { perVertex: new Array<number>(n).fill(immovable ? 1 : m / n), immovable };
}

/**
 * Places the local points, allocates the non-shared ones as one particle range,
 * registers the body, then adds the sticks (the builder contract's order).
 */
function buildRigid(world: World, kind: string, local: number[], masses: Masses, localEdges: readonly (readonly [number, number])[], options: RigidBodyOptions, what: string): RigidBody {
  const weights = masses.perVertex;
  const immovable = masses.immovable;
  const n = weights.length;
  const position = toVec3(options.position ?? [0, 0, 0], `${what}: position`);
  const rotation = toRotation(options.rotation ?? [0, 0, 0, 1], `${what}: rotation`);
  const velocity = toVec3(options.velocity ?? [0, 0, 0], `${what}: velocity`);
  const spin = toVec3(options.angularVelocity ?? [0, 0, 0], `${what}: angularVelocity`);
  const radius = checkNumber(options.radius ?? RIGID_DEFAULTS.radius, `${what}: radius`, 0);
  const friction = checkNumber(options.friction ?? RIGID_DEFAULTS.friction, `${what}: friction`, 0);
  const restitution = checkNumber(options.restitution ?? RIGID_DEFAULTS.restitution, `${what}: restitution`, 0, 1);
  // A large point set needs more passes to stay rigid (see rigidPairs).
  const iterations = options.iterations === undefined ? Math.max(world.iterations, RIGID_MIN_ITERATIONS, Math.ceil(n / 10)) : checkInteger(options.iterations, `${what}: iterations`, 1);
  const shared = checkShared(world, options.shared ?? {}, n, what);
  if (shared.size === n) throw new RangeError(`${what}: shared takes over all ${n} vertices; a body needs at least one particle of its own`);
  // Built before any particle exists so that a bad shape throws without leaving particles behind; the ids are filled in below.
  const shape = new RigidShape(new Array<number>(n).fill(0), local, weights, immovable, what);

  // The body spins about its centre of mass.
  const center = shape.localCenter;
  const own: ParticleOptions[] = [];
  const ownIndex: number[] = [];
  for (let i = 0; i < n; i++) {
    if (shared.has(i)) continue;
    const offset = rotateVector(rotation, [local[i * 3]! - center[0], local[i * 3 + 1]! - center[1], local[i * 3 + 2]! - center[2]]);
    const rotated = rotateVector(rotation, [local[i * 3]!, local[i * 3 + 1]!, local[i * 3 + 2]!]);
    own.push({
      position: [position[0] + rotated[0], position[1] + rotated[1], position[2] + rotated[2]],
      velocity: vertexVelocity(velocity, spin, offset, world.substep),
      mass: immovable ? 0 : weights[i]!,
      radius,
      friction,
      restitution,
    });
    ownIndex.push(i);
  }
  const collisionGroups = checkCollisionGroups(options.collisionGroups, `${what}: collisionGroups`);
  const first = world.addParticles(own);
  const record = world.addBody(first, own.length, { kind, iterations });
  record.collisionGroups = collisionGroups;
  const vertices: number[] = new Array<number>(n);
  ownIndex.forEach((local, k) => (vertices[local] = first + k));
  for (const [i, id] of shared) {
    vertices[i] = id;
    if (!immovable) lendMass(world, record, id, weights[i]!);
  }
  const sticks: number[] = [];
  for (const [i, j] of rigidPairs(local, n)) {
    const length = Math.hypot(local[j * 3]! - local[i * 3]!, local[j * 3 + 1]! - local[i * 3 + 1]!, local[j * 3 + 2]! - local[i * 3 + 2]!);
    const id = world.addStick(vertices[i]!, vertices[j]!, { length });
    record.constraints.push(id);
    sticks.push(id);
  }
  shape.vertices.set(vertices.map(particleSlot));
  const edges = localEdges.map(([i, j]) => [vertices[i]!, vertices[j]!] as const);
  const capsules = (options.collideEdges ?? RIGID_DEFAULTS.collideEdges) && !immovable ? addEdgeCapsules(world, edges, record, radius) : [];
  // Other bodies meet it as the convex hull of its vertices.
  addBodyHull(world, record, vertices.map(particleSlot), local);
  // A free body turns as its angular momentum asks, not along Verlet's chords (joined bodies share particles: they keep the chords).
  if (shared.size === 0 && !immovable) rigidMotion(world).add(record, vertices.map(particleSlot));
  return new RigidBody(world, record, vertices, sticks, edges, shape, capsules);
}

/**
 * Registers the body's edges as capsules. An edge is listed under its first
 * particle's body (that is whose removal takes it along), so each edge starts at
 * a particle of this body; an edge between two particles lent by another body
 * (a hinge's axis) is that body's to collide.
 */
function addEdgeCapsules(world: World, edges: readonly (readonly [number, number])[], record: BodyRecord, radius: number): number[] {
  const own = (id: number) => id >= record.first && id < record.first + record.count;
  const ids: number[] = [];
  for (const [a, b] of edges) {
    if (own(a)) ids.push(addCapsuleEdge(world, a, b, radius));
    else if (own(b)) ids.push(addCapsuleEdge(world, b, a, radius));
  }
  return ids;
}

/**
 * A shared particle carries this body's share of mass as well as its owner's, so
 * the joined system has the right total mass; the share goes back on removal.
 */
function lendMass(world: World, record: BodyRecord, id: number, share: number): void {
  const before = world.getMass(id);
  if (!Number.isFinite(before)) return;
  world.setMass(id, before + share);
  // When the particle goes first (with its owner, or a loose one removed), its id may
  // be handed to another particle: that one owes nothing back.
  record.onRemove.push(() => {
    if (world.particles.slotOf(id) < 0) return;
    const now = world.getMass(id);
    if (Number.isFinite(now) && now - share > 0) world.setMass(id, now - share);
  });
}

function checkShared(world: World, shared: SharedVertices, n: number, what: string): Map<number, number> {
  if (shared === null || typeof shared !== 'object') throw new TypeError(`${what}: shared must be an object { [localVertex]: particleId }, got ${String(shared)}`);
  const map = new Map<number, number>();
  for (const [key, id] of Object.entries(shared)) {
    const i = Number(key);
    if (!Number.isInteger(i) || i < 0 || i >= n) throw new RangeError(`${what}: shared vertex index must be an integer in [0, ${n}), got ${key}`);
    world.checkParticle(id, `${what}: shared[${key}]`);
    if ([...map.values()].includes(id)) throw new RangeError(`${what}: shared maps two vertices to particle ${id}`);
    map.set(i, id);
  }
  return map;
}

function checkPositive(n: number, what: string): number {
  if (typeof n !== 'number' || !Number.isFinite(n) || n <= 0) throw new RangeError(`${what} must be a finite number > 0, got ${String(n)}`);
  return n;
}

/**
 * The velocity that starts a vertex at offset `r` from the centre of mass on the
 * rigid motion (v, ω): v + (r − R(−ωh)·r)/h, the chord of the arc it turned along
 * in the last substep h, which the rigid-motion stage reads back as a turn of
 * exactly ωh. (v + ω × r, the tangent, is that to first order, but its chord leaves
 * the arc by (ωh)²·r, which the stage would read as a kick off the arc.)
 */
function vertexVelocity(v: Readonly<Vec3>, omega: Readonly<Vec3>, r: Readonly<Vec3>, h: number): Vec3 {
  const back = rotateVector(quatFromAxisAngle(omega, -Math.hypot(omega[0], omega[1], omega[2]) * h), r);
  return [v[0] + (r[0] - back[0]) / h, v[1] + (r[1] - back[1]) / h, v[2] + (r[2] - back[2]) / h];
}
