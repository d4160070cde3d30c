import { describe, expect, it } from 'vitest';
import { enableSelfCollision, SeededRandom, wasmKernelAvailable, World, type StickKernel } from '../../src/core/index.js';
import { CrossingDetector } from './selfCrossing.js';

// Issue 28, item 2: self-collision holds wherever one layer of a cloth falls on another.
// One body of two layers of the same 8 × 8 cloth (spacing 5 cm, structural and shear
// sticks): the lower one flat, lying on the ground or hanging from its four corners,
// the free one laid over it at a shift, a turn about the vertical and a tilt, and thrown
// down onto it. The first throws put its particles exactly over the lower layer's
// vertices, over its edges, over the middle of its squares (the diagonal two triangles
// share) and its corner over the lower layer's corner; the rest are drawn from a seed.
// The judge is the detector of the fold tests (./selfCrossing.ts); each throw is also
// run without self-collision, where the detector must see the layers pass through
// each other, so that a throw that misses the lower layer proves nothing.
//
// The docs allow any thickness below the spacing (enableSelfCollision: "keep it below
// the stick lengths"; docs/self-collision.md: "holds at any thickness"): tested at
// 1 mm (a fiftieth of the spacing) and at half the spacing.
//
// At 1 mm, d6cd66b let 10 of the 12 throws through (1–13 crossings each; a particle ended
// on the floor under the lower layer), e4df7e6 7. Now these throws onto the layer on the
// ground hold: self-collision runs after the colliders and leaves the ground's layer
// where the ground holds it, particle pairs that pass through each other in a substep are
// parted the way they came, and a particle slipping over the edge two triangles share
// keeps its side. Without edge–edge contact, three of the six onto the hanging layer still
// pass through, with 1–3 crossings each: the thrown layer slides off the hanging one and
// comes to hang over its rim by a stick, which the rest of the layer drags through the
// sheet, edge through edge, with no particle near a triangle. That case stays `it.fails`
// until it holds (then `it.fails` itself fails). With `edges: true` every throw holds, on
// the ground too (with edges projected after the colliders, holding what the ground holds;
// d30fdbe's edges, projected before them, let 2 of the 6 onto the ground through).
//
// These twelve throws guard what holds; they do not prove it holds everywhere. Four hundred
// throws from other seeds still find crossings below a fifth of the spacing (at 1 mm, 7 of
// 200 onto the ground and 61 of 200 onto the hanging layer; at 5–8 mm, about 1 in 200; none
// from 10 mm): docs/self-collision.md has the table and the ways through.

const N = 8;
const SPACING = 0.05;
/** The thicknesses tested, with edge–edge contact or without, and whether main holds them on the ground and hanging. */
const THICKNESSES: [number, boolean, { ground: boolean; hanging: boolean }][] = [
  [0.001, false, { ground: true, hanging: false }],
  [0.001, true, { ground: true, hanging: true }],
  [SPACING / 2, false, { ground: true, hanging: true }],
];
/** Radius of the lower layer's particles where it lies on the ground (m). */
const LOWER_RADIUS = 0.01;
/** Steps per throw: the slowest throw (dropped from 8 cm at 0 m/s) lands by step 10, and is followed for half a second after. */
const STEPS = 45;
/** Random throws per thickness and kernel, beyond the four placed ones. */
const RANDOM_THROWS = 8;

const kernels: StickKernel[] = wasmKernelAvailable() ? ['wasm', 'js'] : ['js'];

type Below = 'ground' | 'hanging';

/**
 * Where and how the free layer is thrown: its centre's shift from the lower one's in x and z (m),
 * its turn about y (rad), its tilt (rad) about an axis through its centre at angle `axis` from its
 * rows (0: its first row lands first, -π/4: its corner (0, 0)), the gap from its lowest particle
 * down to the lower layer (m), its speed (m/s) and what holds the lower layer.
 */
interface Throw {
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
function placedThrows(): Throw[] {
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
function randomThrows(seed: number, count: number): Throw[] {
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
function layers(t: Throw, thickness: number | undefined, kernel: StickKernel, edges: boolean) {
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
function crossings(t: Throw, thickness: number | undefined, kernel: StickKernel, edges = false): number {
  const { world, cloth } = layers(t, thickness, kernel, edges);
  expect(world.kernel).toBe(kernel);
  const detector = new CrossingDetector(cloth);
  detector.check(world);
  for (let s = 0; s < STEPS; s++) {
    world.step();
    detector.check(world);
  }
  return detector.crossings;
}

const throws = [...placedThrows(), ...randomThrows(28, RANDOM_THROWS)];
const describeThrow = (t: Throw) =>
  JSON.stringify({ ...t, shift: t.shift.map((x) => +x.toFixed(4)), turn: +t.turn.toFixed(3), tilt: +t.tilt.toFixed(3), axis: +t.axis.toFixed(3), gap: +t.gap.toFixed(3), speed: +t.speed.toFixed(2) });

describe('a layer of cloth thrown onto another never passes through it (issue 28)', () => {
  for (const kernel of kernels)
    for (const [thickness, edges, held] of THICKNESSES)
      for (const below of ['ground', 'hanging'] as const) {
        const these = throws.filter((t) => t.below === below);
        (held[below] ? it : it.fails)(
          `${these.length} throws at 0–4 m/s onto a layer ${below === 'ground' ? 'lying on the ground' : 'hanging from its corners'}, thickness ${thickness} on spacing ${SPACING}${edges ? ', with edge–edge contact' : ''} (${kernel} kernel)`,
          () => {
            const failed = these.map((t) => ({ t, n: crossings(t, thickness, kernel, edges) })).filter(({ n }) => n > 0);
            expect(failed.map(({ t, n }) => `${n} crossings: ${describeThrow(t)}`)).toEqual([]);
          },
          60_000,
        );
      }

  it('without self-collision every throw passes through the lower layer, and the detector sees it', () => {
    // Measured: 5 crossings where only the corners overlap, 58–511 elsewhere.
    const missed = throws.filter((t) => crossings(t, undefined, kernels[0]!) === 0);
    expect(missed.map(describeThrow)).toEqual([]);
  }, 60_000);
});
