import { describe, expect, it } from 'vitest';
import { createCloth, enableSelfCollision, SeededRandom, wasmKernelAvailable, World, type ClothHandle, type StickKernel } from '../../src/core/index.js';
import { crumple, fold, run, SPACING, THICKNESS } from './selfCollisionFolds.js';
import { CrossingDetector } from './selfCrossing.js';

// Issue 10, part 3: cloth self-collision that holds at any thickness the docs allow.
// With particle pairs only, thickness 0.02 on spacing 0.05 (enableSelfCollision's own
// example) let a fold fall through itself; particle–triangle contact holds it.
//
// The judge is a pass-through detector that knows nothing of the solver
// (./selfCrossing.ts): a particle over the same triangle, within 3 spacings of it,
// on one side after a step and on the other after the next has passed through the sheet.
// Each scene is also run without self-collision, where the detector must see
// crossings: a detector that could not fail would prove nothing.

/** The stick kernels the fold and the crumple run on: both, where WebAssembly SIMD is there. */
const kernels: StickKernel[] = wasmKernelAvailable() ? ['wasm', 'js'] : ['js'];

/**
 * The fold of {@link fold}, 32 × 48, built by hand: its particles added in a shuffled order
 * (grid point (i, j) is not particle first + 32 j + i), its sticks in another shuffled order,
 * some with their ends swapped, and its surface's triangles listed from them; the upper half
 * thrown down at `speed`. Nothing in self-collision may lean on a particle's number.
 */
function shuffledFold(selfCollide: boolean, speed: number, kernel?: StickKernel) {
  const width = 32;
  const height = 48;
  const world = new World({ kernel });
  world.addCollider({ type: 'plane', normal: [0, 1, 0], offset: 0 });
  const random = new SeededRandom(11);
  const shuffled = (n: number) => {
    const order = Array.from({ length: n }, (_, k) => k);
    for (let k = n - 1; k > 0; k--) {
      const r = Math.floor(random.next() * (k + 1));
      [order[k], order[r]] = [order[r]!, order[k]!];
    }
    return order;
  };
  // Grid point g is particle first + slot[g].
  const slot = shuffled(width * height);
  const pointOf = new Array<number>(width * height);
  slot.forEach((p, g) => (pointOf[p] = g));
  const top = (j: number) => j >= height / 2;
  const first = world.addParticles(
    pointOf.map((g) => {
      const i = g % width;
      const j = Math.floor(g / width);
      return { position: [i * SPACING, top(j) ? SPACING : 0, (top(j) ? height - 1 - j : j) * SPACING] as [number, number, number] };
    }),
  );
  const id = (i: number, j: number) => first + slot[j * width + i]!;
  const sticks: [number, number, number][] = [];
  const triangles: number[] = [];
  for (let j = 0; j < height; j++)
    for (let i = 0; i < width; i++) {
      if (i + 1 < width) sticks.push([id(i, j), id(i + 1, j), SPACING]);
      if (j + 1 < height) sticks.push([id(i, j), id(i, j + 1), SPACING]);
      if (i + 1 < width && j + 1 < height) {
        sticks.push([id(i, j), id(i + 1, j + 1), SPACING * Math.SQRT2], [id(i + 1, j), id(i, j + 1), SPACING * Math.SQRT2]);
        triangles.push(id(i, j), id(i + 1, j), id(i + 1, j + 1), id(i, j), id(i + 1, j + 1), id(i, j + 1));
      }
    }
  shuffled(sticks.length).forEach((k, n) => {
    const [a, b, length] = sticks[k]!;
    if (n % 3 === 0) world.addStick(b, a, { length });
    else world.addStick(a, b, { length });
  });
  const body = world.addBody(first, width * height, { kind: 'sheet' });
  const surface = { triangles: Uint32Array.from(triangles), triangleCount: triangles.length / 3 };
  body.surface = surface;
  for (let j = height / 2; j < height; j++) for (let i = 0; i < width; i++) world.setVelocity(id(i, j), [0, -speed, 0]);
  if (selfCollide) enableSelfCollision(world, body, { thickness: THICKNESS });
  // What the detector reads of a cloth.
  const cloth = { first, count: width * height, surface } as unknown as ClothHandle;
  return { world, cloth };
}

/** The ring of {@link pullThroughRing}: 16 capsules round a circle of radius 0.25 m about the y axis, 2 m up. */
const RING = { radius: 0.25, tube: 0.03, y: 2 };

/**
 * A 20 × 30 curtain pulled up through a horizontal ring while its top edge turns:
 * in 0.5 s the top row (pinned) gathers from 0.95 m to 0.4 m wide and the two
 * bottom corners (pinned) to 0.6 m, then in 2 s both rise 1 m, the top row
 * turning `turns` times about the ring's axis and the bottom corners not at all,
 * so the cloth is drawn up through the ring, gathered into it and twisted.
 */
function pullThroughRing(selfCollide: boolean, turns: number) {
  const world = new World();
  for (let k = 0; k < 16; k++) {
    const a0 = (2 * Math.PI * k) / 16;
    const a1 = (2 * Math.PI * (k + 1)) / 16;
    world.addCollider({
      type: 'capsule',
      a: [RING.radius * Math.cos(a0), RING.y, RING.radius * Math.sin(a0)],
      b: [RING.radius * Math.cos(a1), RING.y, RING.radius * Math.sin(a1)],
      radius: RING.tube,
    });
  }
  const width = 20;
  const height = 30;
  const wide = (width - 1) * SPACING;
  const top = RING.y - 0.2;
  const bottom = top - (height - 1) * SPACING;
  const cloth = createCloth(world, { width, height, spacing: SPACING, corner: [-wide / 2, top, 0], pin: ['top', 'bottom-left', 'bottom-right'] });
  if (selfCollide) enableSelfCollision(world, cloth.body, { thickness: THICKNESS });
  const place = (step: number) => {
    const t = step / 60;
    const gather = Math.min(t / 0.5, 1);
    const rise = Math.min(Math.max((t - 0.5) / 2, 0), 1);
    const half = (wide + (0.4 - wide) * gather) / 2;
    const angle = turns * 2 * Math.PI * rise;
    for (let i = 0; i < width; i++) {
      const x = -half + (2 * half * i) / (width - 1);
      world.setPinTarget(cloth.pins[i]!, [x * Math.cos(angle), top + rise, x * Math.sin(angle)]);
    }
    const corner = (wide + (0.6 - wide) * gather) / 2;
    world.setPinTarget(cloth.pins[width]!, [-corner, bottom + rise, 0]);
    world.setPinTarget(cloth.pins[width + 1]!, [corner, bottom + rise, 0]);
  };
  return { world, cloth, width, height, place };
}

/** How far (degrees) the cloth's rows turn about the vertical from its bottom row to its top row, row by row (each row's direction: its first particle to its last, seen from above). */
function twist(world: World, cloth: ClothHandle, width: number, height: number): number {
  let total = 0;
  let last = NaN;
  for (let j = height - 1; j >= 0; j--) {
    const l = world.getPosition(cloth.first + j * width);
    const r = world.getPosition(cloth.first + j * width + width - 1);
    const angle = Math.atan2(r[2] - l[2], r[0] - l[0]);
    if (!Number.isNaN(last)) {
      let turn = angle - last;
      while (turn > Math.PI) turn -= 2 * Math.PI;
      while (turn < -Math.PI) turn += 2 * Math.PI;
      total += turn;
    }
    last = angle;
  }
  return (total * 180) / Math.PI;
}

/**
 * Two strips 3 particles wide and 17 long (0.8 m), standing on edge and crossing at right
 * angles, in one body: A in the plane z = 0 along x, its top edge at y = 0.1, and B in the
 * plane x = 0 along z, its lower edge at 0.15, closing at 1 m/s without gravity. Each
 * particle is half a spacing (0.025, more than the thickness) off the other strip's plane,
 * and stays there: only their edges can meet.
 */
function crossingStrips(selfCollide: boolean) {
  const world = new World({ gravity: [0, 0, 0] });
  const length = 17;
  const rows = 3;
  const list: { position: [number, number, number]; velocity: [number, number, number] }[] = [];
  for (let j = 0; j < rows; j++) for (let i = 0; i < length; i++) list.push({ position: [-0.375 + i * SPACING, 0.1 - j * SPACING, 0], velocity: [0, 0.5, 0] });
  for (let j = 0; j < rows; j++) for (let i = 0; i < length; i++) list.push({ position: [0, 0.15 + j * SPACING, -0.375 + i * SPACING], velocity: [0, -0.5, 0] });
  const first = world.addParticles(list);
  const triangles: number[] = [];
  for (let strip = 0; strip < 2; strip++) {
    const o = first + strip * length * rows;
    for (let j = 0; j < rows; j++)
      for (let i = 0; i < length; i++) {
        const a = o + j * length + i;
        if (i + 1 < length) world.addStick(a, a + 1);
        if (j + 1 < rows) world.addStick(a, a + length);
        if (i + 1 < length && j + 1 < rows) {
          world.addStick(a + 1, a + length);
          triangles.push(a, a + length, a + 1, a + 1, a + length, a + length + 1);
        }
      }
  }
  const body = world.addBody(first, 2 * length * rows, { kind: 'strips' });
  body.surface = { triangles: Uint32Array.from(triangles), triangleCount: triangles.length / 3 };
  if (selfCollide) enableSelfCollision(world, body, { thickness: THICKNESS, edges: true });
  return { world, first, count: 2 * length * rows, half: length * rows, surface: body.surface };
}

/**
 * How many (edge, triangle) pairs of a surface intersect now, edges and triangles sharing
 * no particle: a surface that never passed through itself has none. Unlike the crossing
 * detector it sees two edges passing through each other with no particle crossing a face.
 */
function piercings(world: World, surface: { triangles: Uint32Array; triangleCount: number }): number {
  const pos = world.positions;
  const tris = surface.triangles;
  const at = (i: number) => [pos[i * 3]!, pos[i * 3 + 1]!, pos[i * 3 + 2]!] as const;
  const sub = (a: readonly number[], b: readonly number[]) => [a[0]! - b[0]!, a[1]! - b[1]!, a[2]! - b[2]!];
  const cross = (a: number[], b: number[]) => [a[1]! * b[2]! - a[2]! * b[1]!, a[2]! * b[0]! - a[0]! * b[2]!, a[0]! * b[1]! - a[1]! * b[0]!];
  const dot = (a: number[], b: number[]) => a[0]! * b[0]! + a[1]! * b[1]! + a[2]! * b[2]!;
  const edges = new Set<string>();
  for (let t = 0; t < surface.triangleCount; t++)
    for (let k = 0; k < 3; k++) {
      const a = tris[t * 3 + k]!;
      const b = tris[t * 3 + ((k + 1) % 3)]!;
      edges.add(`${Math.min(a, b)} ${Math.max(a, b)}`);
    }
  let hits = 0;
  for (const edge of edges) {
    const [p, q] = edge.split(' ').map(Number) as [number, number];
    for (let t = 0; t < surface.triangleCount; t++) {
      const [a, b, c] = [tris[t * 3]!, tris[t * 3 + 1]!, tris[t * 3 + 2]!];
      if ([a, b, c].includes(p) || [a, b, c].includes(q)) continue;
      const A = at(a);
      const n = cross(sub(at(b), A), sub(at(c), A));
      const dp = dot(n, sub(at(p), A));
      const dq = dot(n, sub(at(q), A));
      if (dp * dq > 0 || dp === dq) continue;
      const s = dp / (dp - dq);
      const P = at(p);
      const Q = at(q);
      const x = [P[0] + (Q[0] - P[0]) * s, P[1] + (Q[1] - P[1]) * s, P[2] + (Q[2] - P[2]) * s];
      const sides = [
        [a, b],
        [b, c],
        [c, a],
      ].map(([u, v]) => dot(n, cross(sub(at(v!), at(u!)), sub(x, at(u!)))));
      if (sides.every((d) => d >= 0) || sides.every((d) => d <= 0)) hits++;
    }
  }
  return hits;
}

// The timeouts guard against a hang, not slowness: the over-wound ring takes about
// 13 s, and once took 55 s on a machine running a benchmark alongside.
describe('cloth self-collision (issue 10)', () => {
  for (const kernel of kernels) {
    it(`a fold with thickness 0.02 on spacing 0.05 never passes through itself, thrown down at 0 to 4 m/s (${kernel} kernel)`, () => {
      for (const speed of [0, 1, 4]) {
        const scene = fold(true, speed, kernel);
        expect(scene.world.kernel).toBe(kernel);
        const detector = run(scene, 60);
        expect(detector.crossings, `${speed} m/s`).toBe(0);
        // Every particle of the upper half lies at least the thickness (less 10%) above the ground-level half.
        const { world, cloth } = scene;
        for (let j = 13; j < 23; j++) for (let i = 1; i < 15; i++) expect(world.getPosition(cloth.first + j * 16 + i)[1]).toBeGreaterThan(0.9 * THICKNESS);
      }
      // The detector sees the fold fall through without self-collision.
      expect(run(fold(false, 1, kernel), 60).crossings).toBeGreaterThan(50);
    }, 120_000);

    it(`a 32 × 48 fold built by hand in shuffled order never passes through itself, thrown down at 1 and 4 m/s (${kernel} kernel)`, () => {
      for (const speed of [1, 4]) {
        const scene = shuffledFold(true, speed, kernel);
        expect(scene.world.kernel).toBe(kernel);
        expect(run(scene, 60).crossings, `${speed} m/s`).toBe(0);
      }
      expect(run(shuffledFold(false, 1, kernel), 60).crossings).toBeGreaterThan(50);
    }, 120_000);

    it(`a curtain dropped so that it crumples onto itself never passes through itself (${kernel} kernel)`, () => {
      const scene = crumple(true, kernel);
      expect(scene.world.kernel).toBe(kernel);
      expect(run(scene, 90).crossings).toBe(0);
      expect(run(crumple(false, kernel), 90).crossings).toBeGreaterThan(10);
    }, 120_000);
  }

  it('a cloth pulled through a ring twists but never passes through itself', () => {
    const results = [true, false].map((selfCollide) => {
      const scene = pullThroughRing(selfCollide, 1);
      const { world, cloth, width, height } = scene;
      const detector = new CrossingDetector(cloth);
      detector.check(world);
      // Where each particle crosses the ring's plane, how far from the ring's axis (the ring holds every one inside it).
      let widest = 0;
      const below = new Int8Array(cloth.count);
      for (let k = 0; k < cloth.count; k++) below[k] = world.getPosition(cloth.first + k)[1] < RING.y ? 1 : 0;
      for (let s = 0; s < 180; s++) {
        scene.place(s);
        world.step();
        detector.check(world);
        for (let k = 0; k < cloth.count; k++) {
          const p = world.getPosition(cloth.first + k);
          const now = p[1] < RING.y ? 1 : 0;
          if (now !== below[k]) widest = Math.max(widest, Math.hypot(p[0], p[2]));
          below[k] = now;
        }
      }
      let through = 0;
      for (let k = 0; k < cloth.count; k++) if (world.getPosition(cloth.first + k)[1] > RING.y) through++;
      return { crossings: detector.crossings, widest, through, twist: twist(world, cloth, width, height), count: cloth.count };
    });
    const [held, loose] = results as [(typeof results)[0], (typeof results)[0]];
    // Pulled through the ring: a third of the cloth is above it, and every particle went through inside it.
    expect(held.through).toBeGreaterThan(held.count / 3);
    expect(held.widest).toBeLessThan(RING.radius - RING.tube + 0.01);
    expect(held.crossings).toBe(0);
    // The turn of the top edge stays in the cloth as a twist (a full turn between the pinned edges) ...
    expect(Math.abs(held.twist)).toBeGreaterThan(300);
    // ... where a cloth passing through itself undoes it: the detector sees it cross, and the twist is gone.
    expect(loose.crossings).toBeGreaterThan(500);
    expect(Math.abs(loose.twist)).toBeLessThan(90);
  }, 120_000);

  it('a cloth wound tighter than its thickness allows is held apart at the push-out speed, not flung', () => {
    // Two turns through the ring wind the cloth under it tighter than the thickness: contacts,
    // sticks and pins cannot all hold. Each contact's whole gap became speed every substep and
    // the cloth blew up (measured before the cap: 142 m/s, 162,416 crossings); now a contact
    // leaves the particle parting from the triangle at most maxPushOutSpeed per substep, as
    // between bodies. It still passes through itself in places (14–25 crossings measured as
    // last bits changed, fastest 6.3 m/s; 49 and 8.4 m/s before the pairs were kept picked over several steps; 183 and
    // 10.8 m/s before a particle beside a triangle was held from its edges, 74 before the grid's
    // wider cells changed the order pairs are listed in; the cloth without self-collision:
    // about 3,000), though both turns now stay (a twist of 720°; 360° before).
    const scene = pullThroughRing(true, 2);
    const { world, cloth } = scene;
    const detector = new CrossingDetector(cloth);
    detector.check(world);
    let fastest = 0;
    for (let s = 0; s < 180; s++) {
      scene.place(s);
      world.step();
      detector.check(world);
      for (let k = 0; k < cloth.count; k++) {
        const [vx, vy, vz] = world.getVelocity(cloth.first + k);
        fastest = Math.max(fastest, Math.hypot(vx, vy, vz));
      }
    }
    expect(fastest).toBeLessThan(20);
    expect(detector.crossings).toBeLessThan(300);
  }, 120_000);

  it('two strips crossing edge on stop at their edges, the thickness apart (edge–edge contact)', () => {
    // Particle–triangle contact alone let these pass straight through each other (measured
    // before edge–edge contact was built: B's lower edge ended 0.45 m below A's upper one):
    // no particle comes within the thickness of the other strip's plane before the edges meet.
    const scene = crossingStrips(true);
    const { world, first, count, half, surface } = scene;
    const energy = () => {
      let e = 0;
      for (let k = 0; k < count; k++) e += 0.5 * Math.hypot(...world.getVelocity(first + k)) ** 2;
      return e;
    };
    const start = energy();
    let pierced = 0;
    for (let s = 0; s < 30; s++) {
      world.step();
      pierced += piercings(world, surface);
      let momentum = 0;
      for (let k = 0; k < count; k++) momentum += world.getVelocity(first + k)[1];
      expect(Math.abs(momentum)).toBeLessThan(1e-9);
    }
    expect(pierced).toBe(0);
    // B's lower edge ends above A's upper edge, the thickness apart or more, and nothing gained energy.
    expect(world.getPosition(first + half + 8)[1] - world.getPosition(first + 8)[1]).toBeGreaterThan(0.99 * THICKNESS);
    expect(energy()).toBeLessThanOrEqual(start);
    // Without self-collision the strips pass through each other, which the piercing count sees.
    const loose = crossingStrips(false);
    let looseHits = 0;
    for (let s = 0; s < 30; s++) {
      loose.world.step();
      looseHits += piercings(loose.world, loose.surface);
    }
    expect(looseHits).toBeGreaterThan(10);
    expect(loose.world.getPosition(loose.first + loose.half + 8)[1]).toBeLessThan(loose.world.getPosition(loose.first + 8)[1]);
  });
});
