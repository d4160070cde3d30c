import { enableSelfCollision, SeededRandom, World, type StickKernel } from '../../src/core/index.js';
import { CrossingDetector } from './selfCrossing.js';

// Two layers of the same 8 × 8 cloth (spacing 5 cm, structural and shear sticks) in one
// body: the lower one flat, lying on the ground or hanging from its four corners, the free
// one laid over it at a shift, a turn about the vertical and a tilt, and thrown down onto it;
// and the crossings the detector of the fold tests (./selfCrossing.ts) counts as it lands.
// selfCollisionLayers.test.ts throws them; test/bench/selfCollisionThrows.bench.ts throws
// hundreds more to measure how often layers pass through each other.

export const N = 8;
export const SPACING = 0.05;
/** Radius of the lower layer's particles where it lies on the ground (m). */
export const LOWER_RADIUS = 0.01;
/** Steps per throw: the slowest throw (dropped from 8 cm at 0 m/s) lands by step 10, and is followed for half a second after. */
export const STEPS = 45;
export type Below = 'ground' | 'hanging';

/**
 * Where and how the free layer is thrown: its centre's shift from the lower one's in x and z (m),
 * its turn about y (rad), its tilt (rad) about an axis through its centre at angle `axis` from its
 * rows (0: its first row lands first, -π/4: its corner (0, 0)), the gap from its lowest particle
 * down to the lower layer (m), its speed (m/s) and what holds the lower layer.
 */
export interface Throw {
  shift: [number, number];
  turn: number;
  tilt: number;
  axis: number;
  gap: number;
  speed: number;
  below: Below;
}

const half = ((N - 1) * SPACING) / 2;

/**
 * The placed throws: flat over the vertices, the edges and the middles of the squares (the
 * diagonal their two triangles share), and corner first, turned 30°, with its corner 1.5
 * spacings inside the lower layer's corner (only the corners overlap).
 */
export function placedThrows(): Throw[] {
  const turn = Math.PI / 6;
  const inside = half - 1.5 * SPACING;
  return [
    { shift: [0, 0], turn: 0, tilt: 0, axis: 0, gap: 0.03, speed: 4, below: 'ground' },
    { shift: [SPACING / 2, 0], turn: 0, tilt: 0, axis: 0, gap: 0.03, speed: 2, below: 'hanging' },
    { shift: [SPACING / 2, SPACING / 2], turn: 0, tilt: 0, axis: 0, gap: 0.03, speed: 4, below: 'ground' },
    {
      shift: [inside + half * (Math.cos(turn) - Math.sin(turn)), inside + half * (Math.sin(turn) + Math.cos(turn))],
      turn,
      tilt: 0.3,
      axis: -Math.PI / 4,
      gap: 0.02,
      speed: 3,
      below: 'hanging',
    },
  ];
}

/** Throws drawn from `seed`: the free layer's centre anywhere over the middle half of the lower layer, any turn, tilted up to 17° about any axis, 1–8 cm up, at 0–4 m/s. */
export function randomThrows(seed: number, count: number): Throw[] {
  const random = new SeededRandom(seed);
  return Array.from({ length: count }, (_, k) => ({
    shift: [(random.next() - 0.5) * half, (random.next() - 0.5) * half] as [number, number],
    turn: random.next() * 2 * Math.PI,
    tilt: random.next() * 0.3,
    axis: random.next() * Math.PI,
    gap: 0.01 + random.next() * 0.07,
    speed: random.next() * 4,
    below: k % 2 === 0 ? 'ground' : 'hanging',
  }));
}

/** Adds one N × N layer (particles of `radius`, structural and shear sticks, triangles) at the points `place(i, j)` gives; returns its first particle. */
function addLayer(world: World, place: (i: number, j: number) => [number, number, number], triangles: number[], radius = 0): number {
  const first = world.addParticles(Array.from({ length: N * N }, (_, k) => ({ position: place(k % N, Math.floor(k / N)), radius })));
  const id = (i: number, j: number) => first + j * N + i;
  for (let j = 0; j < N; j++)
    for (let i = 0; i < N; i++) {
      if (i + 1 < N) world.addStick(id(i, j), id(i + 1, j));
      if (j + 1 < N) world.addStick(id(i, j), id(i, j + 1));
      if (i + 1 < N && j + 1 < N) {
        world.addStick(id(i, j), id(i + 1, j + 1));
        world.addStick(id(i + 1, j), id(i, j + 1));
        triangles.push(id(i, j), id(i, j + 1), id(i + 1, j + 1), id(i, j), id(i + 1, j + 1), id(i + 1, j));
      }
    }
  return first;
}

/** The two layers of `t` in one body, the lower one centred on the origin at y = 0; with self-collision at `thickness` (and edge–edge contact, `edges`), or none. */
export function layers(t: Throw, thickness: number | undefined, kernel: StickKernel, edges: boolean) {
  const world = new World({ kernel });
  if (t.below === 'ground') world.addCollider({ type: 'plane', normal: [0, 1, 0], offset: 0 });
  const triangles: number[] = [];
  // On the ground the lower layer's particles have a radius, so that it lies above the ground by
  // as much: the free layer's (radius 0) falling through it is seen below it, not level with it.
  const lower =
    t.below === 'ground'
      ? addLayer(world, (i, j) => [i * SPACING - half, LOWER_RADIUS, j * SPACING - half], triangles, LOWER_RADIUS)
      : addLayer(world, (i, j) => [i * SPACING - half, 0, j * SPACING - half], triangles);
  if (t.below === 'hanging')
    for (const [i, j] of [
      [0, 0],
      [N - 1, 0],
      [0, N - 1],
      [N - 1, N - 1],
    ] as const)
      world.addPin(lower + j * N + i);
  // The free layer's grid point (u, v), w from the tilt's axis, tilted down by w·sin(tilt) and
  // drawn in by w·(1 - cos(tilt)) across the axis, then turned about y.
  const cos = Math.cos(t.turn);
  const sin = Math.sin(t.turn);
  const ax = Math.cos(t.axis);
  const az = Math.sin(t.axis);
  const rise = (t.below === 'ground' ? LOWER_RADIUS : 0) + t.gap + half * (Math.abs(ax) + Math.abs(az)) * Math.sin(t.tilt);
  const upper = addLayer(
    world,
    (i, j) => {
      const w = (j * SPACING - half) * ax - (i * SPACING - half) * az;
      const u = i * SPACING - half + w * (1 - Math.cos(t.tilt)) * az;
      const v = j * SPACING - half - w * (1 - Math.cos(t.tilt)) * ax;
      return [t.shift[0] + u * cos - v * sin, rise + w * Math.sin(t.tilt), t.shift[1] + u * sin + v * cos];
    },
    triangles,
  );
  for (let k = 0; k < N * N; k++) world.setVelocity(upper + k, [0, -t.speed, 0]);
  const body = world.addBody(lower, 2 * N * N, { kind: 'sheet' });
  body.surface = { triangles: Uint32Array.from(triangles), triangleCount: triangles.length / 3 };
  if (thickness !== undefined) enableSelfCollision(world, body, { thickness, edges });
  return { world, cloth: { first: lower, count: 2 * N * N, surface: body.surface } };
}

/** Crossings the detector counts over {@link STEPS} steps of the throw. */
export function crossings(t: Throw, thickness: number | undefined, kernel: StickKernel, edges = false): number {
  const { world, cloth } = layers(t, thickness, kernel, edges);
  if (world.kernel !== kernel) throw new Error(`crossings: asked for the ${kernel} stick kernel, the world runs ${world.kernel}`);
  const detector = new CrossingDetector(cloth);
  detector.check(world);
  for (let s = 0; s < STEPS; s++) {
    world.step();
    detector.check(world);
  }
  return detector.crossings;
}
