import { createCloth, SeededRandom, World, type StickKernel, type Vec3 } from '../../src/core/index.js';

/**
 * Cloth scenes for the stress tests: the workload of ../shared/bench/cloth.c (N×N
 * particles 0.1 m apart, structural and shear sticks, damping 0.6/s, a ground
 * plane at y = -5), built the ways a user builds it and started, held and solved
 * in every way the divergence could hide behind.
 */

/** Distance between neighbouring particles (m). */
export const SPACING = 0.1;
/** Height of the ground plane (m). */
export const GROUND = -5;
/** Per-second Verlet drag: cloth.c's 0.99 per 1/60 s step. */
export const DAMPING = 0.6;

/**
 * How the net is made. `createCloth`: the library's builder (a body of its own).
 * The others are loose particles from `addParticles` joined by `addStick`, the
 * sticks added in cloth.c's row-major order (per particle: right, down, diagonal,
 * anti-diagonal), that order reversed, or shuffled with some sticks' ends swapped.
 */
export type ClothBuild = 'createCloth' | 'row-major' | 'reversed' | 'shuffled';

/**
 * What holds the net. `anchors`: its two top corners have mass 0 (cloth.c);
 * `pins`: the same corners pinned with `addPin` (createCloth's `'top-corners'`);
 * both hang in the x–y plane, bottom row 1 m above the ground, as in cloth.c.
 * `falling`: nothing, lying flat in the x–z plane 1 m above the ground.
 */
export type Support = 'anchors' | 'pins' | 'falling';

/**
 * How the net starts, always at rest. `planar`: flat. `pleated`: folded like an
 * accordion across its rows, every fold a seeded random depth: each row stays a
 * straight line and every stick keeps its rest length, so the net starts without
 * strain, below its supports or its flat height. `jittered`: every movable particle moved by a seeded
 * random {@link JITTER} along each axis after the sticks got their flat rest
 * lengths: crumpled, its sticks strained by up to 80%.
 */
export type Start = 'planar' | 'pleated' | 'jittered';

/** Amplitude (m) of the `jittered` start's displacement along each axis. */
export const JITTER = 0.03;

export interface StressOptions {
  /** Particles per side. */
  n: number;
  build: ClothBuild;
  support: Support;
  start: Start;
  kernel: StickKernel;
  substeps: number;
  iterations: number;
}

export interface StressCloth {
  world: World;
  n: number;
  /** Particle id of grid point (0, 0); (i, j) is `first + j * n + i`. */
  first: number;
  /** Grid indices of each stick's ends, two per stick, in row-major order (whatever order the world got them in). */
  pairs: Int32Array;
  /** Rest length of each stick: the flat grid's, 0.1 m or 0.1·√2 m. */
  rest: Float64Array;
  /** Height of the supports of a hanging net; the highest start of a falling one. */
  ceiling: number;
}

/** The net's sticks in cloth.c's order: row-major over particles; right, down, diagonal, anti-diagonal. */
export function gridPairs(n: number): Int32Array {
  const pairs: number[] = [];
  for (let j = 0; j < n; j++) {
    for (let i = 0; i < n; i++) {
      const p = j * n + i;
      if (i + 1 < n) pairs.push(p, p + 1);
      if (j + 1 < n) pairs.push(p, p + n);
      if (i + 1 < n && j + 1 < n) pairs.push(p, p + n + 1, p + 1, p + n);
    }
  }
  return Int32Array.from(pairs);
}

/** The order in which a loose build adds its sticks: indices into `gridPairs`, and whether to swap the stick's ends. */
function insertionOrder(build: Exclude<ClothBuild, 'createCloth'>, sticks: number): { order: number[]; swapped: (k: number) => boolean } {
  const order = Array.from({ length: sticks }, (_, k) => k);
  if (build === 'reversed') order.reverse();
  if (build === 'shuffled') {
    const random = new SeededRandom(9);
    for (let k = order.length - 1; k > 0; k--) {
      const r = Math.floor(random.next() * (k + 1));
      [order[k], order[r]] = [order[r]!, order[k]!];
    }
  }
  return { order, swapped: (k) => build === 'shuffled' && k % 3 === 0 };
}

/** Grid point (i, j) of the flat net: hanging in the x–y plane (cloth.c's layout), or lying in the x–z plane. */
function gridPoint(n: number, i: number, j: number, support: Support): Vec3 {
  const x = (i - (n - 1) / 2) * SPACING;
  if (support === 'falling') return [x, GROUND + 1, (j - (n - 1) / 2) * SPACING];
  return [x, GROUND + 1 + (n - 1 - j) * SPACING, 0];
}

/** Builds the scene described by `options`, not yet stepped. */
export function stressCloth(options: StressOptions): StressCloth {
  const { n, build, support, start, kernel, substeps, iterations } = options;
  const world = new World({ kernel, substeps, iterations, damping: DAMPING });
  world.addCollider({ type: 'plane', normal: [0, 1, 0], offset: GROUND });
  const pairs = gridPairs(n);
  const sticks = pairs.length / 2;
  const rest = Float64Array.from({ length: sticks }, (_, k) => (pairs[2 * k + 1]! - pairs[2 * k]! === 1 || pairs[2 * k + 1]! - pairs[2 * k]! === n ? SPACING : SPACING * Math.SQRT2));
  const corners = support === 'falling' ? [] : [0, n - 1];
  let first: number;
  if (build === 'createCloth') {
    const origin = gridPoint(n, 0, 0, support);
    const cloth = createCloth(world, {
      width: n,
      height: n,
      spacing: SPACING,
      corner: origin,
      orientation: support === 'falling' ? 'horizontal' : 'vertical',
      pin: support === 'pins' ? 'top-corners' : 'none',
    });
    first = cloth.first;
    for (const c of support === 'anchors' ? corners : []) world.setMass(first + c, 0);
  } else {
    first = world.addParticles(Array.from({ length: n * n }, (_, p) => ({ position: gridPoint(n, p % n, Math.floor(p / n), support), mass: support === 'anchors' && corners.includes(p) ? 0 : 1 })));
    const { order, swapped } = insertionOrder(build, sticks);
    for (const k of order) {
      const [a, b] = swapped(k) ? [pairs[2 * k + 1]!, pairs[2 * k]!] : [pairs[2 * k]!, pairs[2 * k + 1]!];
      world.addStick(first + a, first + b, { length: rest[k]! });
    }
    if (support === 'pins') for (const c of corners) world.addPin(first + c);
  }
  if (start === 'pleated') pleat(world, first, n, support);
  if (start === 'jittered') jitter(world, first, n, corners);
  let ceiling = world.getPosition(first)[1];
  if (support === 'falling') for (let p = 0; p < n * n; p++) ceiling = Math.max(ceiling, world.getPosition(first + p)[1]);
  return { world, n, first, pairs, rest, ceiling };
}

/**
 * Folds the flat net into pleats across its rows: the step from one row to the
 * next turns by a seeded angle of 20° to 70° out of the net's plane, alternately
 * one way and the other (a zigzag, so a lying net stays near its height). Rows are
 * moved rigidly and every row-to-row step keeps its 0.1 m, so structural and shear
 * sticks alike keep their rest lengths. Row 0, where the supports are, stays put.
 */
function pleat(world: World, first: number, n: number, support: Support): void {
  const random = new SeededRandom(5);
  // Offset of the current row from where it lies in the flat net.
  let dy = 0;
  let dz = 0;
  for (let j = 1; j < n; j++) {
    const angle = (((20 + 50 * random.next()) * Math.PI) / 180) * (j % 2 === 0 ? 1 : -1);
    const along = SPACING * Math.cos(angle) - SPACING;
    const across = SPACING * Math.sin(angle);
    // A hanging net's rows go down along -y and fold along z; a lying net's go along +z and fold along y.
    if (support === 'falling') {
      dz += along;
      dy += across;
    } else {
      dy -= along;
      dz += across;
    }
    for (let i = 0; i < n; i++) {
      const [x, y, z] = world.getPosition(first + j * n + i);
      world.setPosition(first + j * n + i, [x, y + dy, z + dz]);
    }
  }
}

/** Moves every particle but the supports by a seeded uniform offset of up to {@link JITTER} along each axis. */
function jitter(world: World, first: number, n: number, supports: readonly number[]): void {
  const random = new SeededRandom(17);
  const offset = () => (2 * random.next() - 1) * JITTER;
  for (let p = 0; p < n * n; p++) {
    if (supports.includes(p)) continue;
    const [x, y, z] = world.getPosition(first + p);
    world.setPosition(first + p, [x + offset(), y + offset(), z + offset()]);
  }
}

/** Mean over the net's sticks of |length / rest − 1|, from the positions alone. */
export function meanStretch(cloth: StressCloth): number {
  const p = cloth.world.positions;
  const { pairs, rest, first } = cloth;
  let sum = 0;
  for (let k = 0; k < rest.length; k++) {
    const a = (first + pairs[2 * k]!) * 3;
    const b = (first + pairs[2 * k + 1]!) * 3;
    sum += Math.abs(Math.hypot(p[b]! - p[a]!, p[b + 1]! - p[a + 1]!, p[b + 2]! - p[a + 2]!) / rest[k]! - 1);
  }
  return sum / rest.length;
}

/**
 * Steps (2 s) after which a net's start no longer shows: a crumpled net has unfolded
 * and jerked taut, and what its start flung up has come down again.
 */
export const SETTLE_STEPS = 120;

/** What a run did, over every step. */
export interface StressRecord {
  /** Steps taken; fewer than asked when a coordinate stopped being finite. */
  steps: number;
  /** False once any coordinate was NaN or infinite. */
  finite: boolean;
  /** Highest any particle rose above the ceiling in the first {@link SETTLE_STEPS} steps (m; negative: stayed below). */
  kick: number;
  /** Highest any particle rose above the ceiling after those. */
  above: number;
  /** Deepest any particle sank below the ground (m; negative: stayed above). */
  below: number;
  /**
   * Most the net's kinetic plus gravitational energy ({@link energy}) ever exceeded
   * its value at the start, per kilogram of movable cloth (J/kg; the net starts at
   * rest). A net that starts unstrained, flat or pleated, has nothing to gain energy
   * from: the nets gained tens to thousands of J/kg. A jittered start's
   * strain is turned into motion: not bounded here.
   */
  energyGain: number;
  /** Mean stick stretch after the last step. */
  stretch: number;
}

/**
 * Kinetic plus gravitational energy of the net's movable particles (J). The
 * velocity over the last substep, (x − x*) / h, belongs to the middle of that
 * substep, so the height is taken there too, at (x + x*) / 2: paired so, Verlet
 * keeps the energy of a free fall exactly, and what changes it is the solver.
 */
export function energy(cloth: StressCloth): number {
  const { world, first, n } = cloth;
  const p = world.positions;
  const q = world.particles.previous;
  const w = world.particles.inverseMass;
  const h = world.substep;
  const g = -world.gravity[1];
  let e = 0;
  for (let i = first; i < first + n * n; i++) {
    if (w[i] === 0) continue;
    const vx = (p[i * 3]! - q[i * 3]!) / h;
    const vy = (p[i * 3 + 1]! - q[i * 3 + 1]!) / h;
    const vz = (p[i * 3 + 2]! - q[i * 3 + 2]!) / h;
    e += (0.5 * (vx * vx + vy * vy + vz * vz) + (g * (p[i * 3 + 1]! + q[i * 3 + 1]!)) / 2) / w[i]!;
  }
  return e;
}

/** Steps `cloth` `steps` times, checking every coordinate after every step. */
export function run(cloth: StressCloth, steps: number): StressRecord {
  const { world, first, n, ceiling } = cloth;
  const record: StressRecord = { steps: 0, finite: true, kick: -Infinity, above: -Infinity, below: -Infinity, energyGain: -Infinity, stretch: NaN };
  const start = energy(cloth);
  let mass = 0;
  const w = world.particles.inverseMass;
  for (let i = first; i < first + n * n; i++) if (w[i] !== 0) mass += 1 / w[i]!;
  const from = first * 3;
  const to = (first + n * n) * 3;
  for (let s = 0; s < steps; s++) {
    world.step();
    record.steps++;
    // world.positions is re-read each step: the kernel may replace its memory.
    const p = world.positions;
    let high = -Infinity;
    let low = Infinity;
    let finite = true;
    for (let c = from; c < to; c += 3) {
      const x = p[c]!;
      const y = p[c + 1]!;
      const z = p[c + 2]!;
      // x - x is NaN for ±Infinity and NaN alike.
      if (x - x !== 0 || y - y !== 0 || z - z !== 0) finite = false;
      if (y > high) high = y;
      if (y < low) low = y;
    }
    if (!finite) {
      record.finite = false;
      break;
    }
    if (s < SETTLE_STEPS) record.kick = Math.max(record.kick, high - ceiling);
    else record.above = Math.max(record.above, high - ceiling);
    record.below = Math.max(record.below, GROUND - low);
    record.energyGain = Math.max(record.energyGain, (energy(cloth) - start) / mass);
  }
  record.stretch = meanStretch(cloth);
  return record;
}
