import { describe, expect, it } from 'vitest';
import { World, type Vec3 } from '../../src/core/index.js';
import { COLOR_MIN_STICKS } from '../../src/core/constraints/coloring.js';

/** The sticks of an n×n net in the order a user's loops add them: row by row, right, down and both diagonals per particle. */
function rowMajorPairs(n: number): [number, number][] {
  const pairs: [number, number][] = [];
  for (let j = 0; j < n; j++) {
    for (let i = 0; i < n; i++) {
      const p = j * n + i;
      if (i + 1 < n) pairs.push([p, p + 1]);
      if (j + 1 < n) pairs.push([p, p + n]);
      if (i + 1 < n && j + 1 < n) pairs.push([p, p + n + 1], [p + 1, p + n]);
    }
  }
  return pairs;
}

/** An n×n cloth of loose particles 0.1 m apart, top corners immovable, its sticks added in `pairs` order (row-major by default). */
function cloth(n: number, options: ConstructorParameters<typeof World>[0] = {}, pairs = rowMajorPairs(n)) {
  const world = new World({ iterations: 10, substeps: 1, ...options });
  const first = world.addParticles(Array.from({ length: n * n }, (_, p) => ({ position: [(p % n) * 0.1, 2 - Math.floor(p / n) * 0.1, 0] as Vec3, mass: p === 0 || p === n - 1 ? 0 : 1 })));
  const ids = pairs.map(([a, b]) => world.addStick(first + a, first + b));
  return { world, ids, first };
}

/** A seeded Fisher–Yates shuffle (a copy). */
function shuffled<T>(items: T[], seed: number): T[] {
  const out = items.slice();
  let s = seed;
  for (let k = out.length - 1; k > 0; k--) {
    s = (s * 16807) % 2147483647;
    const r = s % (k + 1);
    [out[k], out[r]] = [out[r]!, out[k]!];
  }
  return out;
}

/** Consecutive rows of `[from, to)` that share a particle: each one makes the CPU wait for the previous stick's writes. */
function dependentNeighbours(world: World, from = 0, to = world.sticks.count): number {
  const { a, b } = world.sticks;
  let count = 0;
  for (let row = from + 1; row < to; row++) {
    if (a[row] === a[row - 1] || a[row] === b[row - 1] || b[row] === a[row - 1] || b[row] === b[row - 1]) count++;
  }
  return count;
}

function rowsOf(world: World): string[] {
  const s = world.sticks;
  return Array.from({ length: s.count }, (_, row) => `${s.ids[row]}:${s.a[row]}-${s.b[row]}:${s.rest[row]}`);
}

/** One Gauss–Seidel sweep in the table's row order, written out plainly (the paper's loop with mass weighting). */
function referencePass(world: World, positions: Float64Array): void {
  const { a, b, rest, stiffness, count } = world.sticks;
  const w = world.particles.inverseMass;
  for (let row = 0; row < count; row++) {
    const i = a[row]! * 3;
    const j = b[row]! * 3;
    const wSum = w[a[row]!]! + w[b[row]!]!;
    if (wSum === 0) continue;
    const d = [0, 1, 2].map((k) => positions[j + k]! - positions[i + k]!);
    const length = Math.hypot(d[0]!, d[1]!, d[2]!);
    const f = ((length - rest[row]!) * stiffness[row]!) / (length * wSum);
    for (let k = 0; k < 3; k++) {
      positions[i + k] = positions[i + k]! + d[k]! * f * w[a[row]!]!;
      positions[j + k] = positions[j + k]! - d[k]! * f * w[b[row]!]!;
    }
  }
}

describe('graph colouring of the stick table', () => {
  it('orders a big cloth into runs of sticks that share no particle, keeping every stick and its id', () => {
    const { world, ids } = cloth(32);
    const before = rowsOf(world).sort();
    const dependentBefore = dependentNeighbours(world);
    world.step();
    expect(rowsOf(world).sort()).toEqual(before);
    ids.forEach((id) => expect(world.sticks.ids[world.stickRow(id)]).toBe(id));
    // In insertion order three of every four neighbours share a particle; coloured, only the boundaries between colours do.
    expect(dependentBefore).toBeGreaterThan(0.7 * world.sticks.count);
    expect(dependentNeighbours(world)).toBeLessThanOrEqual(16);
  });

  it('is still Gauss–Seidel: each pass projects every stick once, in table order, against the latest positions', () => {
    // The reference sweeps the sticks alone; tethers would project before them in the same pass.
    const { world } = cloth(24, { gravity: [0, 0, 0], iterations: 1, tethers: false });
    world.step(); // orders the table
    // Disturb the cloth, then compare one solver pass with a plain sweep over the same rows.
    const p = world.particles.position;
    for (let i = 0; i < world.particleCount * 3; i++) p[i] = p[i]! + Math.sin(i * 12.9898) * 0.02;
    world.particles.previous.set(p);
    const expected = Float64Array.from(p.subarray(0, world.particleCount * 3));
    referencePass(world, expected);
    world.step();
    const got = world.positions.subarray(0, world.particleCount * 3);
    for (let i = 0; i < expected.length; i++) expect(got[i]).toBeCloseTo(expected[i]!, 12);
  });

  it('leaves small bodies and chains in the order their builder chose', () => {
    const world = new World();
    const first = world.addParticles(Array.from({ length: 21 }, (_, i) => ({ position: [i * 0.1, 0, 0] as Vec3 })));
    const ids = Array.from({ length: 20 }, (_, i) => world.addStick(first + i, first + i + 1));
    world.step();
    expect(Array.from(world.sticks.ids.subarray(0, 20))).toEqual(ids);
    expect(20).toBeLessThan(COLOR_MIN_STICKS);
  });

  it('solves in the same order whatever order the sticks were added in: same bits, both kernels', () => {
    const n = 24;
    const pairs = rowMajorPairs(n);
    const orders = [pairs, pairs.slice().reverse(), shuffled(pairs, 7), shuffled(pairs, 99).map(([a, b]) => [b, a] as [number, number])];
    for (const kernel of ['wasm', 'js'] as const) {
      const results = orders.map((order) => {
        const { world } = cloth(n, { substeps: 10, iterations: 1, kernel }, order);
        for (let i = 0; i < 60; i++) world.step();
        return world.positions.slice(0, n * n * 3);
      });
      // A stick's ends swapped flips the sign of its error vector, not the result, within rounding.
      for (const r of results.slice(1, 3)) expect(r).toEqual(results[0]);
      for (let i = 0; i < results[0]!.length; i++) expect(results[3]![i]).toBeCloseTo(results[0]![i]!, 9);
    }
  });

  it('hangs a net added row by row below its pins at 10 substeps × 1 pass, where solving in that order pumps energy in', () => {
    // The reproduction: a 64×64 net of loose particles, sticks added row by row from the pinned edge.
    const n = 64;
    const pairs = rowMajorPairs(n);
    const { world, first } = cloth(n, { substeps: 10, iterations: 1, damping: 0.6 });
    const top = 2;
    const rest = pairs.map(([a, b]) => Math.hypot(...([0, 1, 2].map((k) => world.positions[(first + a) * 3 + k]! - world.positions[(first + b) * 3 + k]!) as [number, number, number])));
    const meanStretch = (p: Float64Array) =>
      pairs.reduce((sum, [a, b], k) => sum + Math.abs(Math.hypot(p[a * 3]! - p[b * 3]!, p[a * 3 + 1]! - p[b * 3 + 1]!, p[a * 3 + 2]! - p[b * 3 + 2]!) / rest[k]! - 1), 0) / pairs.length;
    const highest = (p: Float64Array) => Math.max(...Array.from({ length: n * n }, (_, i) => p[i * 3 + 1]!));
    // The same sweep written out plainly, in insertion order (Verlet with the same damping, one pass per substep).
    const pos = world.positions.slice(first * 3, (first + n * n) * 3);
    const prev = pos.slice();
    const w = world.particles.inverseMass.slice(first, first + n * n);
    const h = world.timeStep / 10;
    const sa = Int32Array.from(pairs, ([a]) => a * 3);
    const sb = Int32Array.from(pairs, ([, b]) => b * 3);
    const wa = Float64Array.from(pairs, ([a]) => w[a]!);
    const wb = Float64Array.from(pairs, ([, b]) => w[b]!);
    let plainRose = false;
    for (let step = 0; step < 180; step++) {
      world.step();
      expect(highest(world.positions.subarray(first * 3))).toBeLessThanOrEqual(top + 1e-9);
      if (plainRose) continue;
      for (let s = 0; s < 10; s++) {
        for (let i = 0; i < n * n * 3; i++) {
          const x = pos[i]!;
          if (w[Math.floor(i / 3)] !== 0) pos[i] = x + (x - prev[i]!) * (1 - 0.6 * h) + (i % 3 === 1 ? -9.81 * h * h : 0);
          prev[i] = x;
        }
        for (let k = 0; k < pairs.length; k++) {
          const a = sa[k]!;
          const b = sb[k]!;
          const dx = pos[b]! - pos[a]!;
          const dy = pos[b + 1]! - pos[a + 1]!;
          const dz = pos[b + 2]! - pos[a + 2]!;
          const length = Math.sqrt(dx * dx + dy * dy + dz * dz);
          const f = (length - rest[k]!) / (length * (wa[k]! + wb[k]!));
          pos[a] = pos[a]! + dx * f * wa[k]!;
          pos[a + 1] = pos[a + 1]! + dy * f * wa[k]!;
          pos[a + 2] = pos[a + 2]! + dz * f * wa[k]!;
          pos[b] = pos[b]! - dx * f * wb[k]!;
          pos[b + 1] = pos[b + 1]! - dy * f * wb[k]!;
          pos[b + 2] = pos[b + 2]! - dz * f * wb[k]!;
        }
      }
      if (!(highest(pos) <= top + 1e-9)) plainRose = true;
    }
    // Measured after 3 s: the plain sweep had risen above its pins (NaN at 10 s); sinew 0.4% mean stretch.
    expect(plainRose).toBe(true);
    expect(meanStretch(world.positions.subarray(first * 3))).toBeLessThan(0.015);
  });

  it('removes a stick in place: ids keep their rows, the segments stay consistent, no re-ordering', () => {
    const { world, ids } = cloth(24);
    world.step();
    const version = world.sticks.layoutVersion;
    for (let k = 0; k < ids.length; k += 7) world.removeConstraint(ids[k]!);
    expect(world.sticks.ordered).toBe(true);
    ids.forEach((id, k) => {
      if (k % 7 === 0) expect(world.stickRow(id)).toBe(-1);
      else expect(world.sticks.ids[world.stickRow(id)]).toBe(id);
    });
    const s = world.sticks;
    expect(s.segmentStart[s.segmentCount]).toBe(s.count);
    world.step();
    expect(world.sticks.layoutVersion).toBe(version);
  });

  it('re-orders once after sticks are added, and a snapshot taken after removals restores bit for bit', () => {
    const { world, ids, first } = cloth(24);
    world.step();
    for (let k = 3; k < ids.length; k += 11) world.removeConstraint(ids[k]!);
    for (let i = 0; i < 20; i++) world.step();
    const snap = world.snapshot();
    for (let i = 0; i < 40; i++) world.step();
    const after = world.positions.slice();
    world.restore(structuredClone(snap));
    for (let i = 0; i < 40; i++) world.step();
    expect(world.positions).toEqual(after);
    const version = world.sticks.layoutVersion;
    const extra = world.addStick(first, first + 30);
    expect(world.sticks.ordered).toBe(false);
    world.step();
    expect(world.sticks.layoutVersion).toBe(version + 1);
    expect(world.sticks.ids[world.stickRow(extra)]).toBe(extra);
  });

  it('puts a body’s sticks in a segment of their own, and a joint between bodies in the later body’s', () => {
    const world = new World();
    const a = world.addParticles([{ position: [0, 0, 0] }, { position: [1, 0, 0] }]);
    const bodyA = world.addBody(a, 2);
    const inA = world.addStick(a, a + 1);
    const b = world.addParticles([{ position: [2, 0, 0] }, { position: [3, 0, 0] }]);
    const bodyB = world.addBody(b, 2);
    const joint = world.addStick(a + 1, b);
    const inB = world.addStick(b, b + 1);
    const loose = world.addParticle({ position: [5, 0, 0] });
    const toLoose = world.addStick(b + 1, loose);
    world.step();
    const s = world.sticks;
    const segmentOf = (id: number) => {
      const row = world.stickRow(id);
      let k = 0;
      while (s.segmentStart[k + 1]! <= row) k++;
      return s.segmentBody[k];
    };
    expect(segmentOf(inA)).toBe(bodyA.id);
    expect(segmentOf(joint)).toBe(bodyB.id);
    expect(segmentOf(inB)).toBe(bodyB.id);
    expect(segmentOf(toLoose)).toBe(-1);
  });
});
