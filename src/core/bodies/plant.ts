import { particleSlot } from '../ids.js';
import { PLANT_DEFAULTS } from '../defaults.js';
import { checkInteger, checkNumber, toVec3, type Vec3, type Vec3Like } from '../math.js';
import type { ParticleOptions, World } from '../world.js';
import type { BodyRecord, Surface } from './body.js';
import { checkStiffness, massOfEachParticle, type MassOptions } from './shapes.js';
import { checkCollisionGroups, type CollisionGroupOptions } from '../collision/collisionGroups.js';

/** What {@link createPlant} takes. */
export interface PlantOptions extends MassOptions, CollisionGroupOptions {
  /** Where the plant is rooted: the centre of the blade's foot, which is pinned there (a plant is placed by its root, not its centre: see `Placement`). Default `[0, 0, 0]`. */
  root?: Vec3Like;
  /** Length of the blade along `direction` in m, default 0.5. */
  height?: number;
  /** Number of levels above the foot, an integer >= 2 (support sticks span two). Default 6. */
  segments?: number;
  /** Width at the foot in m, default 0.1. */
  width?: number;
  /** Width at the tip in m, default `width` (less tapers the blade like a leaf of grass). */
  tipWidth?: number;
  /** The way the blade grows, default up `[0, 1, 0]`. */
  direction?: Vec3Like;
  /** The way its width runs, perpendicular to `direction`; default `[1, 0, 0]`. */
  across?: Vec3Like;
  /**
   * How far the midrib is set back behind the edges at the foot, in m (scaled with
   * the width along the blade); default `width / 2`. The fold is what lets support
   * sticks hold the blade up: in a flat strip every support lies in the strip's
   * plane, so bending out of it changes their lengths only to second order and
   * the blade flops over.
   */
  fold?: number;
  /**
   * Stiffness in (0, 1] of the support sticks between particles that share a
   * neighbour: how firmly the blade springs back when bent. Default 0.5.
   */
  stiffness?: number;
  /** Collision radius of each particle, default 0. */
  radius?: number;
  /** Coulomb friction coefficient of each particle (the world's default when omitted). */
  friction?: number;
  /** Bounciness of each particle against colliders, in [0, 1] (the world's default, 0, when omitted; see `ParticleOptions.restitution`). */
  restitution?: number;
  /** Relaxation passes per substep, default 1: the paper's plants used one pass, which gave "exactly the right amount of bending". */
  iterations?: number;
}

/** What {@link createPlant} returns. */
export interface PlantHandle {
  /** The plant's body record in the world. */
  readonly body: BodyRecord;
  /** Particle id of side 0 at level 0 (the foot's left edge); side s at level l is `first + 3 * l + s`. */
  readonly first: number;
  /** Particles in the plant: `3 * (segments + 1)`. */
  readonly count: number;
  /** Levels above the foot (the tip is level `segments`). */
  readonly segments: number;
  /** Triangles for rendering and wind, counter-clockwise seen from `across × direction`. */
  readonly surface: Surface;
  /** Texture coordinates, two per particle: u = 0, ½, 1 across (left, midrib, right), v = level / segments. */
  readonly uvs: Float32Array;
  /** Pin ids of the three foot particles (move them to move the root). */
  readonly pins: readonly number[];
  /** Stick ids of the strip itself: along the edges and midrib, across, and the diagonals (stiffness 1). */
  readonly strip: readonly number[];
  /** Stick ids of the support sticks. */
  readonly supports: readonly number[];
  /** Particle id at `level` (0 = foot) on `side`: 0 the left edge, 1 the midrib, 2 the right edge. */
  particle(side: 0 | 1 | 2, level: number): number;
  /** Sets the stiffness of every support stick. */
  setStiffness(stiffness: number): void;
  /** Removes the plant with its sticks and pins. */
  remove(): void;
}

/**
 * A plant (paper section 4): a strip of cloth three particles wide, folded along
 * its midrib like a blade of grass and rooted at its foot, with support sticks
 * between every two particles that share a neighbour (across the fold, and two
 * levels apart along and across the blade), relaxed with one pass so that it
 * bends and springs back.
 *
 * @example
 * ```ts
 * const world = new World();
 * const grass = createPlant(world, { position: [0, 0, 0], height: 0.6, segments: 6, width: 0.05, tipWidth: 0.01 });
 * for (let i = 0; i < 60; i++) world.step(); // one second: the blade stands, its tip near [0, 0.6, 0]
 * ```
 */
export function createPlant(world: World, options: PlantOptions = {}): PlantHandle {
  if (!options || typeof options !== 'object') throw new TypeError(`createPlant: options must be an object, got ${String(options)}`);
  const base = toVec3(options.root ?? [0, 0, 0], 'createPlant: root');
  const height = checkNumber(options.height ?? PLANT_DEFAULTS.height, 'createPlant: height', Number.MIN_VALUE);
  const segments = checkInteger(options.segments ?? PLANT_DEFAULTS.segments, 'createPlant: segments', 2);
  const width = checkNumber(options.width ?? PLANT_DEFAULTS.width, 'createPlant: width', Number.MIN_VALUE);
  const tipWidth = checkNumber(options.tipWidth ?? width, 'createPlant: tipWidth', Number.MIN_VALUE);
  const up = unit(toVec3(options.direction ?? PLANT_DEFAULTS.direction, 'createPlant: direction'), 'createPlant: direction');
  const side = unit(toVec3(options.across ?? PLANT_DEFAULTS.across, 'createPlant: across'), 'createPlant: across');
  const cos = up[0] * side[0] + up[1] * side[1] + up[2] * side[2];
  if (Math.abs(cos) > 1e-6) throw new RangeError(`createPlant: across must be perpendicular to direction, got a cosine of ${cos} between them`);
  const stiffness = checkStiffness(options.stiffness ?? PLANT_DEFAULTS.stiffness, 'createPlant: stiffness');
  const count = 3 * (segments + 1);
  const mass = massOfEachParticle(options, count, 'createPlant');

  const normal = cross(side, up);
  const fold = checkNumber(options.fold ?? width / 2, 'createPlant: fold', 0);
  const list: ParticleOptions[] = [];
  for (let j = 0; j <= segments; j++) {
    const along = (height * j) / segments;
    const half = (width + (tipWidth - width) * (j / segments)) / 2;
    // Left edge, midrib (set back by the fold, scaled with the width), right edge.
    for (let s = -1; s <= 1; s++) {
      const back = s === 0 ? (fold * half * 2) / width : 0;
      const position: Vec3 = [0, 0, 0];
      for (let k = 0; k < 3; k++) position[k] = base[k]! + up[k]! * along + side[k]! * half * s - normal[k]! * back;
      list.push({ position, mass, radius: options.radius, friction: options.friction, restitution: options.restitution });
    }
  }
  const collisionGroups = checkCollisionGroups(options.collisionGroups, 'createPlant: collisionGroups');
  const first = world.addParticles(list);
  const body = world.addBody(first, count, { kind: 'plant', iterations: options.iterations ?? PLANT_DEFAULTS.iterations });
  body.collisionGroups = collisionGroups;
  const at = (s: number, level: number) => first + 3 * level + s;

  // The strip: along the edges and the midrib, across, and both diagonals of each quad.
  const pairs: [number, number][] = [];
  for (let j = 0; j <= segments; j++) {
    pairs.push([3 * j, 3 * j + 1], [3 * j + 1, 3 * j + 2]);
    if (j === segments) continue;
    for (let s = 0; s < 3; s++) pairs.push([3 * j + s, 3 * j + 3 + s]);
    for (let s = 0; s < 2; s++) pairs.push([3 * j + s, 3 * j + 4 + s], [3 * j + s + 1, 3 * j + 3 + s]);
  }
  const strip = pairs.map(([a, b]) => world.addStick(first + a, first + b));
  const neighbours = Array.from({ length: count }, () => new Set<number>());
  for (const [a, b] of pairs) {
    neighbours[a]!.add(b);
    neighbours[b]!.add(a);
  }
  // Supports join every two particles that share a neighbour without being neighbours:
  // across the fold, and up to two levels apart (the strip links adjacent levels only).
  const supports: number[] = [];
  for (let a = 0; a < count; a++) {
    for (let b = a + 1; b < Math.min(count, a + 9); b++) {
      if (neighbours[a]!.has(b)) continue;
      for (const n of neighbours[a]!) {
        if (neighbours[b]!.has(n)) {
          supports.push(world.addStick(first + a, first + b, { stiffness }));
          break;
        }
      }
    }
  }
  body.constraints.push(...strip, ...supports);
  const pins = [world.addPin(at(0, 0)), world.addPin(at(1, 0)), world.addPin(at(2, 0))];
  body.constraints.push(...pins);

  const triangles = new Uint32Array(segments * 12);
  for (let j = 0; j < segments; j++) {
    for (let s = 0; s < 2; s++) triangles.set([at(s, j), at(s + 1, j), at(s, j + 1), at(s + 1, j), at(s + 1, j + 1), at(s, j + 1)], (j * 2 + s) * 6);
  }
  triangles.forEach((id, k) => (triangles[k] = particleSlot(id)));
  const surface: Surface = { triangles, triangleCount: segments * 4 };
  body.surface = surface;
  const uvs = new Float32Array(count * 2);
  for (let j = 0; j <= segments; j++) {
    for (let s = 0; s < 3; s++) {
      uvs[(3 * j + s) * 2] = s / 2;
      uvs[(3 * j + s) * 2 + 1] = j / segments;
    }
  }

  return {
    body,
    first,
    count,
    segments,
    surface,
    uvs,
    pins,
    strip,
    supports,
    particle(s: 0 | 1 | 2, level: number) {
      if (s !== 0 && s !== 1 && s !== 2) throw new RangeError(`PlantHandle.particle: side must be 0, 1 or 2, got ${String(s)}`);
      checkInteger(level, 'PlantHandle.particle: level', 0);
      if (level > segments) throw new RangeError(`PlantHandle.particle: level must be at most ${segments}, got ${level}`);
      return at(s, level);
    },
    setStiffness(value: number) {
      checkStiffness(value, 'PlantHandle.setStiffness: stiffness');
      for (const id of supports) if (world.hasConstraint(id)) world.setStick(id, { stiffness: value });
    },
    remove: () => world.remove(body),
  };
}

function cross(a: Vec3, b: Vec3): Vec3 {
  return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
}

function unit(v: Vec3, what: string): Vec3 {
  const length = Math.hypot(v[0], v[1], v[2]);
  if (length === 0) throw new RangeError(`${what} must not be [0, 0, 0]`);
  return [v[0] / length, v[1] / length, v[2] / length];
}
