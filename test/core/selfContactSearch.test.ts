import { describe, expect, it } from 'vitest';
import { closestPointTriangle, PointTri } from '../../src/core/collision/closestPoints.js';
import { SelfContactSearch } from '../../src/core/collision/selfContactSearch.js';
import { createCloth, SeededRandom, World } from '../../src/core/index.js';

// Self-collision searches only the particles that outgrew their allowance when there are a
// few (a corner dragged over a cloth lying still). The facts to hold it to: after any number
// of such local searches, the list is exactly the one a whole search of the same positions
// and allowances makes, and now and then, by brute force over every particle and triangle,
// exactly the pairs nearer than the thickness plus both allowances; and the per-particle index
// of it is complete. The scene is a cloth
// crumpled by hand into a small box, so that every particle has hundreds of pairs.

const THICKNESS = 0.02;

function crumpled(width: number, seed: number) {
  const world = new World();
  const cloth = createCloth(world, { width, height: width, spacing: 0.05 });
  const random = new SeededRandom(seed);
  for (let k = 0; k < cloth.count; k++) world.setPosition(cloth.first + k, [0.4 * random.next(), 0.2 * random.next(), 0.4 * random.next()]);
  // Stick neighbours as the search wants them: rows per particle, body-relative.
  const lists: number[][] = Array.from({ length: cloth.count }, () => []);
  for (let row = 0; row < world.sticks.count; row++) {
    const a = world.sticks.a[row]! - cloth.first;
    const b = world.sticks.b[row]! - cloth.first;
    lists[a]!.push(b);
    lists[b]!.push(a);
  }
  const joinedStart = new Int32Array(cloth.count + 1);
  lists.forEach((list, k) => (joinedStart[k + 1] = joinedStart[k]! + list.length));
  const joined = Int32Array.from(lists.flat());
  const search = () => new SelfContactSearch(cloth.first, cloth.count, THICKNESS, joinedStart, joined);
  const joins = new Set(lists.flatMap((list, k) => list.map((j) => `${k} ${j}`)));
  return { world, cloth, random, search, joins };
}

/**
 * By definition, every pair (particle and triangle it is no corner of, or two particles no stick
 * joins) nearer than the thickness plus both allowances (a triangle's: its corners' largest), in
 * the keys of {@link listed} without the kind: `sure` those nearer by a margin for rounding,
 * `near` those within it.
 */
function byDefinition(world: World, first: number, count: number, triangles: Uint32Array, triangleCount: number, motion: Float64Array, joins: Set<string>) {
  const sure = new Set<string>();
  const near = new Set<string>();
  const q = new Float64Array(PointTri.Size);
  const at = (i: number) => world.getPosition(i);
  for (let i = first; i < first + count; i++) {
    const p = at(i);
    for (let t = 0; t < triangleCount; t++) {
      const corners = [triangles[t * 3]!, triangles[t * 3 + 1]!, triangles[t * 3 + 2]!];
      if (corners.includes(i)) continue;
      q.set(p, PointTri.P);
      corners.forEach((c, v) => q.set(at(c), PointTri.A + 3 * v));
      closestPointTriangle(q);
      const foot = [0, 1, 2].map((a) => q[PointTri.U]! * q[PointTri.A + a]! + q[PointTri.V]! * q[PointTri.B + a]! + q[PointTri.W]! * q[PointTri.C + a]!);
      const d = Math.hypot(p[0] - foot[0]!, p[1] - foot[1]!, p[2] - foot[2]!);
      const reach = THICKNESS + motion[i - first]! + Math.max(...corners.map((c) => motion[c - first]!));
      if (d < reach * (1 + 1e-9)) near.add(`${i} ${t}`);
      if (d < reach * (1 - 1e-9)) sure.add(`${i} ${t}`);
    }
    for (let j = i + 1; j < first + count; j++) {
      if (joins.has(`${i - first} ${j - first}`)) continue;
      const o = at(j);
      const d = Math.hypot(p[0] - o[0], p[1] - o[1], p[2] - o[2]);
      const reach = THICKNESS + motion[i - first]! + motion[j - first]!;
      if (d < reach * (1 + 1e-9)) near.add(`p ${i} ${j}`);
      if (d < reach * (1 - 1e-9)) sure.add(`p ${i} ${j}`);
    }
  }
  return { sure, near };
}

/** The pairs `search` lists, as sorted keys (`p i j` two particles, `pair i t` or `neighbour i t` a particle and a triangle), each of them checked to be in the per-particle index under each of its particles. */
function listed(search: SelfContactSearch, first: number, count: number): string[] {
  const keys: string[] = [];
  const indexed = Array.from({ length: count }, (_, k) => {
    const ids = new Set<number>();
    for (let e = search.listed.touchStart[k]!; e < search.listed.touchStart[k + 1]!; e++) ids.add(search.listed.touching[e]!);
    for (let e = search.listed.alsoStart[k]!; e >= 0; e = search.listed.alsoNext[e]!) ids.add(search.listed.alsoPair[e]!);
    return ids;
  });
  let unindexed = 0;
  const read = (list: Int32Array, n: number, id: (k: number) => number, kind: string) => {
    for (let k = 0; k < n; k++) {
      const o = k * 5;
      if (list[o]! < 0) continue;
      const width = list[o + 4]! < 0 ? 2 : 4;
      for (let v = 0; v < width; v++) if (!indexed[list[o + v]! - first]!.has(id(k))) unindexed++;
      keys.push(width === 2 ? `p ${Math.min(list[o]!, list[o + 1]!)} ${Math.max(list[o]!, list[o + 1]!)}` : `${kind} ${list[o]} ${list[o + 4]}`);
    }
  };
  read(search.listed.pairs, search.listed.pairCount, (k) => k, 'pair');
  read(search.listed.neighbourPairs, search.listed.neighbourCount, (k) => ~k, 'neighbour');
  expect(unindexed, 'pairs missing from the per-particle index').toBe(0);
  // The neighbour pairs of the packed rows lie under their particle.
  let misplaced = 0;
  for (let k = 0; k < count; k++) {
    for (let e = search.listed.neighbourStart[k]!; e < search.listed.neighbourStart[k + 1]!; e++)
      if (search.listed.neighbourPairs[e * 5] !== first + k && search.listed.neighbourPairs[e * 5] !== -1) misplaced++;
  }
  expect(misplaced, 'neighbour pairs out of their row').toBe(0);
  expect(search.candidates).toBe(keys.length);
  return keys.sort();
}

describe('self-contact search of a few particles (issue 10)', () => {
  it('lists, after many local searches, exactly the pairs a whole search of the same positions and allowances lists, and the pairs near enough by brute force', () => {
    const { world, cloth, random, search, joins } = crumpled(20, 3);
    const local = search();
    for (let k = 0; k < cloth.count; k++) local.motion[k] = 0.03 * random.next();
    const centre = new Float64Array([0.2, 0.1, 0.2]);
    const triangles = cloth.surface.triangles;
    const triangleCount = cloth.surface.triangleCount;
    local.findAll(world.particles, triangles, triangleCount, centre);
    let packed = 0;
    for (let round = 0; round < 12; round++) {
      // The body moves as a whole (every particle and the centre alike), and a few particles
      // move further, some of them more than once, with new allowances.
      const shift = [0.3 * random.next() - 0.15, 0.3 * random.next() - 0.15, 0.3 * random.next() - 0.15];
      for (let k = 0; k < cloth.count; k++) {
        const [x, y, z] = world.getPosition(cloth.first + k);
        world.setPosition(cloth.first + k, [x + shift[0]!, y + shift[1]!, z + shift[2]!]);
      }
      for (let v = 0; v < 3; v++) centre[v] = centre[v]! + shift[v]!;
      const few = new Set<number>();
      const size = 1 + Math.floor(random.next() * 30);
      while (few.size < size) few.add(cloth.first + Math.floor(random.next() * (round < 6 ? 40 : cloth.count)));
      const list = Int32Array.from(few);
      for (const i of list) {
        const [x, y, z] = world.getPosition(i);
        world.setPosition(i, [x + 0.1 * random.next() - 0.05, y + 0.1 * random.next() - 0.05, z + 0.1 * random.next() - 0.05]);
        local.motion[i - cloth.first] = 0.03 * random.next();
      }
      local.findAround(world.particles, triangles, triangleCount, centre, list, list.length);
      // Each round drops hundreds of pairs in place: none left dropped means they were packed away.
      if (local.listed.dropped === 0) packed++;
      const whole = search();
      whole.motion.set(local.motion);
      whole.findAll(world.particles, triangles, triangleCount, centre);
      const expected = listed(whole, cloth.first, cloth.count);
      expect(expected.length).toBeGreaterThan(5 * cloth.count);
      const found = listed(local, cloth.first, cloth.count);
      expect(found, `round ${round}`).toEqual(expected);
      if (round % 5 === 0 || round === 11) {
        const truth = byDefinition(world, cloth.first, cloth.count, triangles, triangleCount, local.motion, joins);
        const keys = new Set(found.map((key) => key.replace(/^(neighbour|pair) /, '')));
        expect(
          [...truth.sure].filter((key) => !keys.has(key)),
          `round ${round}: pairs near enough but not listed`,
        ).toEqual([]);
        expect(
          [...keys].filter((key) => !truth.near.has(key)),
          `round ${round}: pairs listed but too far apart`,
        ).toEqual([]);
      }
    }
    expect(local.searchedAlone).toBeGreaterThan(100);
    // The dropped pairs were packed away at least once on the way.
    expect(packed).toBeGreaterThan(0);
  });
});
