import { particleSlot } from '../ids.js';
import { VolumeConstraint, enclosedVolume } from '../constraints/volume.js';
import type { Placement } from '../placement.js';
import { SOFT_BODY_DEFAULTS, VOLUME_DEFAULTS } from '../defaults.js';
import { checkInteger, checkNumber, component, toVec3, type Vec3, type Vec3Like } from '../math.js';
import type { ParticleOptions, World } from '../world.js';
import type { BodyRecord, Surface } from './body.js';
import { checkCompliance } from '../materials.js';
import { boxMesh, checkStiffness, meshEdges, massOfEachParticle, sphereMesh, type MassOptions, type TriangleMesh } from './shapes.js';
import { checkCollisionGroups, type CollisionGroupOptions } from '../collision/collisionGroups.js';
import { addBuiltinConstraint } from '../stages.js';

/** A closed triangle mesh given by the caller: vertices as `[x, y, z]` points or flat xyz, faces as index triples or flat. */
export interface SoftBodyMesh {
  /** Vertex positions (m) relative to the body's `position`: `[x, y, z]` points or flat xyz. */
  vertices: readonly Vec3Like[] | ArrayLike<number>;
  /** Counter-clockwise seen from outside; every edge shared by exactly two faces. */
  faces: readonly (readonly [number, number, number])[] | ArrayLike<number>;
}

/** What {@link createSoftBody} takes. */
export interface SoftBodyOptions extends Placement, MassOptions, CollisionGroupOptions {
  /** `'box'`, `'sphere'` or a closed mesh (its vertices relative to `position`). Default `'sphere'`. */
  shape?: 'box' | 'sphere' | SoftBodyMesh;
  /** Edge lengths of the box (a number for a cube), or the sphere's diameter. Default 1. */
  size?: number | Vec3Like;
  /** Squares per box edge (default 3), or icosphere subdivisions of the sphere (default 2: 162 particles). */
  resolution?: number;
  /**
   * Stiffness in (0, 1] of the sticks along the surface's edges and across them
   * (between the far corners of each pair of neighbouring triangles): how firmly the
   * shape comes back. Default 0.1 (a jelly: with the default 10 substeps it repairs 65% of an error per step).
   */
  stiffness?: number;
  /**
   * Compliance of those sticks in m/N (XPBD): the shape comes back as springs of
   * k = 1/compliance, the same at any substeps. Given, `stiffness` defaults to 1.
   */
  compliance?: number;
  /** Compliance of the enclosed volume in m³/Pa (see `VolumeOptions.compliance`). Default 0. */
  volumeCompliance?: number;
  /** Share in [0, 1] of the volume error repaired per pass (see `VolumeConstraint`). Default 1. */
  pressure?: number;
  /** Target volume as a multiple of the rest volume, default 1. */
  inflation?: number;
  /** Collision radius of each particle, default 0. */
  radius?: number;
  /** Coulomb friction coefficient of each particle (the world's default when omitted). */
  friction?: number;
  /** Bounciness of each particle against colliders, in [0, 1] (the world's default, 0, when omitted; see `ParticleOptions.restitution`). */
  restitution?: number;
  /** Initial velocity of every particle, default zero. */
  velocity?: Vec3Like;
  /** Relaxation passes per substep for this body (default: the world's). */
  iterations?: number;
}

/** What {@link createSoftBody} returns; its fields are updated in place. */
export interface SoftBodyHandle {
  /** The soft body's record in the world. */
  readonly body: BodyRecord;
  /** Particle id of mesh vertex 0; vertex i is particle `first + i`. */
  readonly first: number;
  /** Particles in the body: one per mesh vertex. */
  readonly count: number;
  /** The surface for rendering: particle ids, vertex i of the mesh is particle `first + i`. */
  readonly surface: Surface;
  /** The pressure constraint (change `pressure` and `inflation` on it live). */
  readonly volumeConstraint: VolumeConstraint;
  /** Ids of the soft sticks (edges first, then the sticks across edges). */
  readonly sticks: readonly number[];
  /** Volume enclosed at creation (m³). */
  readonly restVolume: number;
  /** Volume enclosed now (m³). */
  volume(): number;
  /** Sets the stiffness of every soft stick. */
  setStiffness(stiffness: number): void;
  /** Removes the body, its sticks and its pressure constraint. */
  remove(): void;
}

/**
 * A soft body (paper section 7, soft constraints; course notes: volume
 * preservation): the particles of a closed surface joined by soft sticks along and
 * across its edges, plus a pressure constraint that keeps the enclosed volume. A
 * jelly cube or a ball squashes where it hits and springs back.
 *
 * @example
 * ```ts
 * const world = new World();
 * world.addCollider({ type: 'plane', normal: [0, 1, 0], offset: 0 });
 * const jelly = createSoftBody(world, { shape: 'box', position: [0, 1, 0], size: 0.5, stiffness: 0.2 }); // centred at [0, 1, 0]
 * for (let i = 0; i < 60; i++) world.step(); // one second: it has landed on the plane
 * jelly.volume() / jelly.restVolume; // close to 1
 * ```
 */
export function createSoftBody(world: World, options: SoftBodyOptions = {}): SoftBodyHandle {
  if (!options || typeof options !== 'object') throw new TypeError(`createSoftBody: options must be an object, got ${String(options)}`);
  const mesh = softBodyMesh(options);
  const vertexCount = mesh.vertices.length / 3;
  const { edges, opposite } = meshEdges(mesh.faces, vertexCount, 'createSoftBody: shape');
  const center = toVec3(options.position ?? [0, 0, 0], 'createSoftBody: position');
  const compliance = checkCompliance(options.compliance ?? SOFT_BODY_DEFAULTS.compliance, 'createSoftBody: compliance');
  const stiffness = checkStiffness(options.stiffness ?? (options.compliance === undefined ? SOFT_BODY_DEFAULTS.stiffness : SOFT_BODY_DEFAULTS.stiffnessWithCompliance), 'createSoftBody: stiffness');
  const mass = massOfEachParticle(options, vertexCount, 'createSoftBody');
  const pressure = checkNumber(options.pressure ?? VOLUME_DEFAULTS.pressure, 'createSoftBody: pressure', 0, 1);
  const inflation = checkNumber(options.inflation ?? VOLUME_DEFAULTS.inflation, 'createSoftBody: inflation', Number.MIN_VALUE);
  const volume = enclosedVolume(mesh.vertices, mesh.faces);
  if (!(volume > 0)) throw new RangeError(`createSoftBody: shape must enclose a positive volume (faces wound counter-clockwise seen from outside), got ${volume}`);
  const velocity = options.velocity === undefined ? undefined : toVec3(options.velocity, 'createSoftBody: velocity');
  const list: ParticleOptions[] = [];
  for (let v = 0; v < vertexCount; v++) {
    const position: Vec3 = [center[0] + mesh.vertices[v * 3]!, center[1] + mesh.vertices[v * 3 + 1]!, center[2] + mesh.vertices[v * 3 + 2]!];
    list.push({ position, velocity, mass, radius: options.radius, friction: options.friction, restitution: options.restitution });
  }
  const collisionGroups = checkCollisionGroups(options.collisionGroups, 'createSoftBody: collisionGroups');
  const first = world.addParticles(list);
  const body = world.addBody(first, vertexCount, { kind: 'softBody', iterations: options.iterations });
  body.collisionGroups = collisionGroups;
  const triangles = new Uint32Array(mesh.faces.length);
  for (let i = 0; i < triangles.length; i++) triangles[i] = particleSlot(first) + mesh.faces[i]!;
  const surface: Surface = { triangles, triangleCount: triangles.length / 3 };
  body.surface = surface;
  const sticks: number[] = [];
  // In small meshes (a tetrahedron) the corners across an edge may already share a stick.
  const joined = new Set<number>();
  for (const pairs of [edges, opposite]) {
    for (let e = 0; e < pairs.length; e += 2) {
      const a = Math.min(pairs[e]!, pairs[e + 1]!);
      const b = Math.max(pairs[e]!, pairs[e + 1]!);
      if (joined.has(a * vertexCount + b)) continue;
      joined.add(a * vertexCount + b);
      sticks.push(world.addStick(first + a, first + b, { stiffness, compliance }));
    }
  }
  body.constraints.push(...sticks);
  const volumeConstraint = new VolumeConstraint(
    world,
    triangles.map((slot) => world.particles.idOf(slot)),
    first,
    vertexCount,
    { pressure, inflation, compliance: options.volumeCompliance },
  );
  body.constraints.push(addBuiltinConstraint(world, 'volumes', volumeConstraint));
  return {
    body,
    first,
    count: vertexCount,
    surface,
    volumeConstraint,
    sticks,
    restVolume: volumeConstraint.restVolume,
    volume: () => volumeConstraint.volume(world),
    setStiffness(value: number) {
      checkStiffness(value, 'SoftBodyHandle.setStiffness: stiffness');
      for (const id of sticks) if (world.hasConstraint(id)) world.setStick(id, { stiffness: value });
    },
    remove: () => world.remove(body),
  };
}

/** The mesh the options describe, relative to the centre. */
function softBodyMesh(options: SoftBodyOptions): TriangleMesh {
  const shape = options.shape ?? SOFT_BODY_DEFAULTS.shape;
  if (shape === 'box') {
    const size = options.size ?? SOFT_BODY_DEFAULTS.size;
    const edges: Vec3Like = typeof size === 'number' ? [size, size, size] : size;
    return boxMesh(toVec3(edges, 'createSoftBody: size'), checkInteger(options.resolution ?? SOFT_BODY_DEFAULTS.boxResolution, 'createSoftBody: resolution', 1));
  }
  if (shape === 'sphere') {
    const size = options.size ?? SOFT_BODY_DEFAULTS.size;
    if (typeof size !== 'number') throw new TypeError(`createSoftBody: size of a sphere must be its diameter (a number), got ${JSON.stringify(size)}`);
    return sphereMesh(checkNumber(size, 'createSoftBody: size', Number.MIN_VALUE) / 2, checkInteger(options.resolution ?? SOFT_BODY_DEFAULTS.sphereResolution, 'createSoftBody: resolution', 0));
  }
  if (!shape || typeof shape !== 'object' || !shape.vertices || !shape.faces) {
    throw new TypeError(`createSoftBody: shape must be 'box', 'sphere' or { vertices, faces }, got ${JSON.stringify(shape)}`);
  }
  return customMesh(shape);
}

function customMesh(shape: SoftBodyMesh): TriangleMesh {
  const vertices = flatten(shape.vertices, 'createSoftBody: shape.vertices');
  const faces = flatten(shape.faces, 'createSoftBody: shape.faces');
  const vertexCount = vertices.length / 3;
  if (vertexCount < 4 || !Number.isInteger(vertexCount)) throw new RangeError(`createSoftBody: shape.vertices must hold at least 4 points (xyz), got ${vertices.length} numbers`);
  if (faces.length < 12 || faces.length % 3 !== 0) throw new RangeError(`createSoftBody: shape.faces must hold at least 4 triangles (3 indices each), got ${faces.length} indices`);
  for (let i = 0; i < vertices.length; i++) checkNumber(vertices[i], `createSoftBody: shape.vertices[${Math.floor(i / 3)}]`);
  const indices = new Uint32Array(faces.length);
  for (let i = 0; i < faces.length; i++) indices[i] = checkInteger(faces[i], `createSoftBody: shape.faces[${Math.floor(i / 3)}]`, 0);
  for (let i = 0; i < faces.length; i++) {
    if (indices[i]! >= vertexCount) throw new RangeError(`createSoftBody: shape.faces[${Math.floor(i / 3)}] uses vertex ${indices[i]}, but there are only ${vertexCount}`);
  }
  return { vertices: Float64Array.from(vertices), faces: indices };
}

/** Flat numbers from either an array of triples/points or a flat array. */
function flatten(input: readonly Vec3Like[] | readonly (readonly number[])[] | ArrayLike<number>, what: string): ArrayLike<number> {
  if (typeof input !== 'object' || input === null || typeof input.length !== 'number') throw new TypeError(`${what} must be an array, got ${String(input)}`);
  if (input.length === 0 || typeof input[0] === 'number') return input as ArrayLike<number>;
  const out: number[] = [];
  for (let i = 0; i < input.length; i++) {
    const item = input[i] as Vec3Like;
    if (Array.isArray(item) && item.length !== 3) throw new TypeError(`${what}[${i}] must have 3 entries, got ${item.length}`);
    out.push(component(item, 0), component(item, 1), component(item, 2));
  }
  return out;
}
