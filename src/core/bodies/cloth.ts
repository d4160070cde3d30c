import { particleSlot } from '../ids.js';
import type { CallbackId } from '../ids.js';
import { CLOTH_DEFAULTS, PIN_DEFAULTS, STICK_DEFAULTS } from '../defaults.js';
import { checkBoolean, checkInteger, checkNumber, toVec3, type Vec3, type Vec3Like } from '../math.js';
import type { ParticleOptions, World } from '../world.js';
import type { BodyRecord, Surface } from './body.js';
import { checkTearStrain, ClothStickKind, ClothTearing, type ClothSticks } from './clothTearing.js';
import { checkCompliance, checkDamping, fabric, fabricSticks, type FabricMaterial, type FabricName } from '../materials.js';
import type { StickOptions } from '../worldOptions.js';
import { checkStiffness, massOfEachParticle, type MassOptions } from './shapes.js';
import { checkCollisionGroups, type CollisionGroupOptions } from '../collision/collisionGroups.js';

/**
 * Areal density (kg/m²) of a cloth given no mass or material: a light woven
 * cotton (shirting is sold at 100–200 g/m²). Each particle weighs the square
 * of cloth around it (density × spacing², as a `material` sets it): the
 * README's 24 × 16 flag at 0.08 m weighs 0.37 kg.
 */
export const DEFAULT_CLOTH_AREAL_DENSITY = CLOTH_DEFAULTS.arealDensity;

/**
 * A named set of cloth particles, in grid terms: row 0 is the `'top'` edge and
 * column 0 the `'left'` one (a horizontal cloth's top edge is its -z edge, its
 * left edge its -x edge). The four edges, the four corners, `'top-corners'`
 * (both ends of row 0) and `'corners'` (all four).
 */
export type ClothPinName = 'top' | 'bottom' | 'left' | 'right' | 'top-left' | 'top-right' | 'bottom-left' | 'bottom-right' | 'top-corners' | 'corners';

/** Every {@link ClothPinName}, for checks and menus. */
export const clothPinNames: readonly ClothPinName[] = ['top', 'bottom', 'left', 'right', 'top-left', 'top-right', 'bottom-left', 'bottom-right', 'top-corners', 'corners'];

/**
 * Which particles of a cloth are pinned: `'none'`, a {@link ClothPinName}, or a
 * list mixing names and grid indices `j * width + i` (`['top-left', 'bottom-right']`).
 */
export type ClothPin = 'none' | ClothPinName | readonly (number | ClothPinName)[];

/** Options of one family of cloth sticks. */
export interface ClothStickOptions {
  /**
   * Share of the error repaired per pass, in (0, 1]. Below 1 the family's
   * softness depends on the substeps and iterations; `compliance` (or the
   * cloth's `material`) gives one that does not.
   */
  stiffness?: number;
  /** Compliance of each stick in m/N (0: rigid): the family is a set of springs of k = 1/compliance, whatever the solver settings. Default 0, or the `material`'s. */
  compliance?: number;
  /** Constraint damping of each stick in N·s/m (acts with a compliance > 0). Default 0. */
  damping?: number;
}

/** The three families of cloth sticks, as named in options and {@link ClothHandle.setStiffness}. */
export type ClothStickFamily = 'structural' | 'shear' | 'bend';

/** What {@link createCloth} takes. */
export interface ClothOptions extends MassOptions, CollisionGroupOptions {
  /** Particles per row, an integer >= 2. */
  width: number;
  /** Particles per column (rows), an integer >= 2. */
  height: number;
  /** Distance between neighbouring particles in m, default 0.1. */
  spacing?: number;
  /**
   * Where the cloth is: the position of particle (0, 0), the corner where row 0
   * (`'top'`) and column 0 (`'left'`) meet: the top-left corner of a vertical
   * cloth, the -x -z corner of a horizontal one. The cloth extends from there
   * along +x and down -y (vertical) or along +z (horizontal). (A cloth is placed
   * by its corner, not its centre: see `Placement`.) Default `[0, 0, 0]`.
   */
  corner?: Vec3Like;
  /**
   * `'vertical'` (default): rows run along +x and go down along -y, hanging like a
   * curtain. `'horizontal'`: rows along +x, successive rows along +z, lying flat.
   */
  orientation?: 'vertical' | 'horizontal';
  /** Collision radius of each particle, default 0. */
  radius?: number;
  /** Coulomb friction coefficient of each particle (the world's default when omitted). */
  friction?: number;
  /** Bounciness of each particle against colliders, in [0, 1] (the world's default, 0, when omitted; see `ParticleOptions.restitution`). */
  restitution?: number;
  /** Sticks between row and column neighbours; stiffness default 1. */
  structural?: ClothStickOptions;
  /** Sticks along both diagonals of every square (resist shearing); default stiffness 1; `false` for none. */
  shear?: ClothStickOptions | false;
  /** Sticks between particles two apart along rows and columns (resist folding); default none. */
  bend?: ClothStickOptions | false;
  /** Pinned particles, held where they start; default `'none'`. `'top'` is row 0, `'left'` column 0 (see {@link ClothPinName}). */
  pin?: ClothPin;
  /** Compliance in m/N of the `pin`s: each is a zero-length spring of k = 1/pinCompliance to where its particle starts (see `world.addPin`). Default 0: held rigidly. */
  pinCompliance?: number;
  /** A structural or shear stick breaks when its length exceeds rest · (1 + tearStrain). Default: never. */
  tearStrain?: number;
  /** Relaxation passes per substep for this body (default: the world's). */
  iterations?: number;
  /**
   * Other bodies collide with the cloth's triangles, not only its particles: a
   * ragdoll's limb, a box's edge or corner and a rope cannot pass between the
   * particles at any spacing (`BodyRecord.collideAs` `'surface'`). Default true;
   * false leaves only the particles (cheaper when nothing is meant to lie on the
   * cloth). Static colliders meet the triangles with `addSurfaceCollision`.
   */
  surfaceContacts?: boolean;
  /**
   * A fabric (a preset name of `FABRICS` or a `FabricMaterial`): sets each
   * particle's mass from its areal density and the sticks' compliances from its
   * stiffnesses (`fabricSticks`), and adds bend sticks unless `bend` is false.
   * Give no `mass` or `particleMass` with it; a family's own `compliance` wins.
   */
  material?: FabricName | FabricMaterial;
}

/** What {@link createCloth} returns; its fields are updated in place (tearing rewrites `surface`). */
export interface ClothHandle {
  /** The cloth's body record in the world. */
  readonly body: BodyRecord;
  /** Particle id of grid point (0, 0); point (i, j) is `first + j * width + i`. */
  readonly first: number;
  /** Particles in the cloth: `width * height`. */
  readonly count: number;
  /** Particles per row. */
  readonly width: number;
  /** Particles per column (rows). */
  readonly height: number;
  /**
   * Triangles for rendering and wind, two per grid square, counter-clockwise seen
   * from +z (vertical) or +y (horizontal). Tearing drops triangles: read `triangleCount`.
   */
  readonly surface: Surface;
  /** Texture coordinates, two per particle in id order: u = i / (width - 1), v = 1 - j / (height - 1). */
  readonly uvs: Float32Array;
  /** Pin constraint ids, for `world.setPinTarget` (dragging a corner). */
  readonly pins: readonly number[];
  /** Every stick made for the cloth; a torn one has id -1. */
  readonly sticks: ClothSticks;
  /** Sticks torn so far. */
  readonly torn: number;
  /** Strain at which sticks tear (change it live), or undefined when the cloth does not tear. */
  tearStrain: number | undefined;
  /** Particle id of grid point (i, j): column i, row j. */
  particle(i: number, j: number): number;
  /** Sets the stiffness of every remaining stick of one family. */
  setStiffness(family: ClothStickFamily, stiffness: number): void;
  /** Removes the cloth with its sticks and pins. */
  remove(): void;
  /** @internal The cloth's tearing (a worker's shadow world mirrors tears through it). */
  readonly tearing: ClothTearing;
}

/**
 * A cloth (paper section 4): a grid of particles joined by sticks along rows and
 * columns (structural), along the diagonals (shear) and two apart (bend), each
 * family with its own stiffness. Optional pins and tearing.
 *
 * @example
 * ```ts
 * const world = new World();
 * const flag = createCloth(world, { width: 20, height: 12, spacing: 0.05, corner: [0, 2, 0], pin: 'left', tearStrain: 0.5 }); // top-left corner at [0, 2, 0]
 * for (let i = 0; i < 60; i++) world.step(); // one second
 * flag.surface.triangleCount; // 2 · 19 · 11 until it tears
 * ```
 */
export function createCloth(world: World, options: ClothOptions): ClothHandle {
  if (!options || typeof options !== 'object') throw new TypeError(`createCloth: options must be an object, got ${String(options)}`);
  const width = checkInteger(options.width, 'createCloth: width', 2);
  const height = checkInteger(options.height, 'createCloth: height', 2);
  const spacing = checkNumber(options.spacing ?? CLOTH_DEFAULTS.spacing, 'createCloth: spacing', Number.MIN_VALUE);
  const origin = toVec3(options.corner ?? [0, 0, 0], 'createCloth: corner');
  const orientation = options.orientation ?? CLOTH_DEFAULTS.orientation;
  if (orientation !== 'vertical' && orientation !== 'horizontal') throw new RangeError(`createCloth: orientation must be 'vertical' or 'horizontal', got ${String(orientation)}`);
  const fromMaterial = options.material === undefined ? undefined : fabricSticks(fabric(options.material, 'createCloth: material'), spacing);
  if (fromMaterial !== undefined && (options.mass !== undefined || options.particleMass !== undefined))
    throw new RangeError('createCloth: a material sets the mass; give no mass or particleMass with it');
  const structural = stickOptionsOf(options.structural, 'structural', fromMaterial?.structural);
  const shear = options.shear === false ? undefined : stickOptionsOf(options.shear, 'shear', fromMaterial?.shear);
  const bend = options.bend === false || (options.bend === undefined && fromMaterial === undefined) ? undefined : stickOptionsOf(options.bend, 'bend', fromMaterial?.bend);
  const tearStrain = options.tearStrain === undefined ? undefined : checkTearStrain(options.tearStrain, 'createCloth: tearStrain');
  const pinned = pinnedIndices(options.pin ?? CLOTH_DEFAULTS.pin, width, height);
  const pinOptions = { compliance: checkCompliance(options.pinCompliance ?? PIN_DEFAULTS.compliance, 'createCloth: pinCompliance') };
  const count = width * height;
  const mass = fromMaterial?.mass ?? massOfEachParticle(options, count, 'createCloth', CLOTH_DEFAULTS.arealDensity * spacing * spacing);

  const list: ParticleOptions[] = [];
  for (let j = 0; j < height; j++) {
    for (let i = 0; i < width; i++) {
      const position: Vec3 = orientation === 'vertical' ? [origin[0] + i * spacing, origin[1] - j * spacing, origin[2]] : [origin[0] + i * spacing, origin[1], origin[2] + j * spacing];
      list.push({ position, mass, radius: options.radius, friction: options.friction, restitution: options.restitution });
    }
  }
  const collisionGroups = checkCollisionGroups(options.collisionGroups, 'createCloth: collisionGroups');
  const first = world.addParticles(list);
  const body = world.addBody(first, count, { kind: 'cloth', iterations: options.iterations });
  body.collisionGroups = collisionGroups;
  body.restLayout = world.positions.slice(particleSlot(first) * 3, (particleSlot(first) + count) * 3);
  if (checkBoolean(options.surfaceContacts ?? CLOTH_DEFAULTS.surfaceContacts, 'createCloth: surfaceContacts')) body.collideAs = 'surface';
  const at = (i: number, j: number) => first + j * width + i;

  const sticks = makeSticks(world, body, width, height, at, structural, shear, bend);
  // The tables below are read inside the step: slots, not ids.
  for (const list of [sticks.a, sticks.b, sticks.allTriangles]) list.forEach((id, k) => (list[k] = particleSlot(id)));
  const surface: Surface = { triangles: sticks.allTriangles.slice(), triangleCount: sticks.allTriangles.length / 3 };
  body.surface = surface;
  const pins: number[] = [];
  for (const index of pinned) pins.push(world.addPin(first + index, undefined, pinOptions));
  body.constraints.push(...pins);

  const tearing = new ClothTearing(world, body, sticks, surface, Infinity);
  let checking: CallbackId | undefined;
  const setTearing = (strain: number | undefined) => {
    tearing.strain = strain ?? Infinity;
    body.tearStrain = strain;
    if (strain !== undefined && checking === undefined && body.alive) checking = world.onAfterStep(() => tearing.check());
    if (strain === undefined && checking !== undefined) {
      world.remove(checking);
      checking = undefined;
    }
  };
  setTearing(tearStrain);
  body.onRemove.push(() => setTearing(undefined));

  const uvs = new Float32Array(count * 2);
  for (let j = 0; j < height; j++) {
    for (let i = 0; i < width; i++) {
      uvs[(j * width + i) * 2] = i / (width - 1);
      uvs[(j * width + i) * 2 + 1] = 1 - j / (height - 1);
    }
  }

  return {
    body,
    first,
    count,
    width,
    height,
    surface,
    uvs,
    pins,
    sticks,
    get torn() {
      return tearing.torn;
    },
    get tearStrain() {
      return checking !== undefined ? tearing.strain : undefined;
    },
    set tearStrain(strain: number | undefined) {
      setTearing(strain === undefined ? undefined : checkTearStrain(strain, 'ClothHandle.tearStrain'));
    },
    particle(i: number, j: number) {
      checkInteger(i, 'ClothHandle.particle: i', 0);
      checkInteger(j, 'ClothHandle.particle: j', 0);
      if (i >= width || j >= height) throw new RangeError(`ClothHandle.particle: (i, j) must lie in the ${width} × ${height} grid, got (${i}, ${j})`);
      return at(i, j);
    },
    setStiffness(family: ClothStickFamily, stiffness: number) {
      const code = familyCodes[family];
      if (code === undefined) throw new RangeError(`ClothHandle.setStiffness: family must be 'structural', 'shear' or 'bend', got ${String(family)}`);
      const value = checkStiffness(stiffness, 'ClothHandle.setStiffness: stiffness');
      for (let e = 0; e < sticks.count; e++) {
        const id = sticks.id[e]!;
        if (sticks.kind[e] === code && id >= 0 && world.hasConstraint(id)) world.setStick(id, { stiffness: value });
      }
    },
    remove: () => world.remove(body),
    tearing,
  };
}

const familyCodes: Record<ClothStickFamily, ClothStickKind> = { structural: ClothStickKind.Structural, shear: ClothStickKind.Shear, bend: ClothStickKind.Bend };

/**
 * Adds the cloth's sticks and lists its triangles. Square (i, j) has corners
 * a = (i, j), b = (i + 1, j), c = (i, j + 1), d = (i + 1, j + 1) and triangles
 * (a, c, b) and (b, c, d), which share the b–c diagonal.
 */
function makeSticks(
  world: World,
  body: BodyRecord,
  width: number,
  height: number,
  at: (i: number, j: number) => number,
  structural: StickOptions,
  shear: StickOptions | undefined,
  bend: StickOptions | undefined,
): ClothSticks {
  const squares = (width - 1) * (height - 1);
  const capacity = 2 * width * height + 2 * squares + 2 * width * height;
  const s: ClothSticks = {
    count: 0,
    a: new Int32Array(capacity),
    b: new Int32Array(capacity),
    rest: new Float64Array(capacity),
    kind: new Uint8Array(capacity),
    id: new Int32Array(capacity),
    spanA: new Int32Array(capacity).fill(-1),
    spanB: new Int32Array(capacity).fill(-1),
    allTriangles: new Uint32Array(squares * 6),
    triangleSticks: new Int32Array(squares * 6),
  };
  const add = (a: number, b: number, kind: ClothStickKind, family: StickOptions): number => {
    const e = s.count++;
    const id = world.addStick(a, b, family);
    body.constraints.push(id);
    const row = world.stickRow(id);
    s.a[e] = a;
    s.b[e] = b;
    s.rest[e] = world.sticks.rest[row]!;
    s.kind[e] = kind;
    s.id[e] = id;
    return e;
  };
  // Stick index of the structural stick from (i, j) to the right and downwards.
  const right = new Int32Array(width * height).fill(-1);
  const down = new Int32Array(width * height).fill(-1);
  for (let j = 0; j < height; j++) {
    for (let i = 0; i < width; i++) {
      if (i + 1 < width) right[j * width + i] = add(at(i, j), at(i + 1, j), ClothStickKind.Structural, structural);
      if (j + 1 < height) down[j * width + i] = add(at(i, j), at(i, j + 1), ClothStickKind.Structural, structural);
    }
  }
  let t = 0;
  for (let j = 0; j + 1 < height; j++) {
    for (let i = 0; i + 1 < width; i++) {
      const diagonal = shear === undefined ? -1 : add(at(i + 1, j), at(i, j + 1), ClothStickKind.Shear, shear);
      if (shear !== undefined) add(at(i, j), at(i + 1, j + 1), ClothStickKind.Shear, shear);
      const top = right[j * width + i]!;
      const bottom = right[(j + 1) * width + i]!;
      const left = down[j * width + i]!;
      const rightSide = down[j * width + i + 1]!;
      s.allTriangles.set([at(i, j), at(i, j + 1), at(i + 1, j), at(i + 1, j), at(i, j + 1), at(i + 1, j + 1)], t * 3);
      s.triangleSticks.set([left, diagonal, top, diagonal, bottom, rightSide], t * 3);
      t += 2;
    }
  }
  if (bend !== undefined) {
    for (let j = 0; j < height; j++) {
      for (let i = 0; i < width; i++) {
        if (i + 2 < width) {
          const e = add(at(i, j), at(i + 2, j), ClothStickKind.Bend, bend);
          s.spanA[e] = right[j * width + i]!;
          s.spanB[e] = right[j * width + i + 1]!;
        }
        if (j + 2 < height) {
          const e = add(at(i, j), at(i, j + 2), ClothStickKind.Bend, bend);
          s.spanA[e] = down[j * width + i]!;
          s.spanB[e] = down[(j + 1) * width + i]!;
        }
      }
    }
  }
  return s;
}

/** One family's stick options, checked; `materialCompliance` is the fabric's compliance for it, if any. */
function stickOptionsOf(options: ClothStickOptions | undefined, family: ClothStickFamily, materialCompliance: number | undefined): StickOptions {
  if (options !== undefined && (options === null || typeof options !== 'object'))
    throw new TypeError(`createCloth: ${family} must be { stiffness, compliance, damping } or false, got ${String(options)}`);
  const stiffness = checkStiffness(options?.stiffness ?? STICK_DEFAULTS.stiffness, `createCloth: ${family}.stiffness`);
  const compliance = checkCompliance(options?.compliance ?? materialCompliance ?? STICK_DEFAULTS.compliance, `createCloth: ${family}.compliance`);
  const damping = checkDamping(options?.damping ?? STICK_DEFAULTS.damping, `createCloth: ${family}.damping`);
  return { stiffness, compliance, damping };
}

/** Grid indices (`j * width + i`) named by a {@link ClothPin}, checked; errors name `who`. */
export function pinnedIndices(pin: ClothPin, width: number, height: number, who = 'createCloth'): number[] {
  if (pin === 'none') return [];
  if (typeof pin === 'string') {
    const named = namedIndices(pin, width, height);
    if (named) return named;
  } else if (Array.isArray(pin)) {
    const out = new Set<number>();
    for (const entry of pin as readonly unknown[]) {
      const named = typeof entry === 'string' ? namedIndices(entry, width, height) : undefined;
      if (named) {
        for (const index of named) out.add(index);
        continue;
      }
      if (typeof entry === 'string') throw new RangeError(`${who}: pin names must be ${clothPinNames.map((n) => `'${n}'`).join(', ')}, got ${JSON.stringify(entry)}`);
      if (!Number.isInteger(entry) || (entry as number) < 0 || (entry as number) >= width * height) {
        throw new RangeError(`${who}: pin indices must be integers in [0, ${width * height - 1}] (j * width + i), got ${String(entry)}`);
      }
      out.add(entry as number);
    }
    return [...out];
  }
  throw new RangeError(`${who}: pin must be 'none', ${clothPinNames.map((n) => `'${n}'`).join(', ')} or an array of those names and grid indices, got ${JSON.stringify(pin)}`);
}

/** The grid indices of a {@link ClothPinName}, or undefined for any other string. */
function namedIndices(name: string, width: number, height: number): number[] | undefined {
  const last = (height - 1) * width;
  const row = (j: number) => Array.from({ length: width }, (_, i) => j * width + i);
  const column = (i: number) => Array.from({ length: height }, (_, j) => j * width + i);
  switch (name as ClothPinName) {
    case 'top':
      return row(0);
    case 'bottom':
      return row(height - 1);
    case 'left':
      return column(0);
    case 'right':
      return column(width - 1);
    case 'top-left':
      return [0];
    case 'top-right':
      return [width - 1];
    case 'bottom-left':
      return [last];
    case 'bottom-right':
      return [last + width - 1];
    case 'top-corners':
      return [0, width - 1];
    case 'corners':
      return [0, width - 1, last, last + width - 1];
  }
  return undefined;
}
