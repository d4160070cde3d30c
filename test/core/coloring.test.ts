import { describe, expect, it } from 'vitest';
import { World, type Vec3 } from '../../src/core/index.js';
import { COLOR_BLOCK, COLOR_MIN_STICKS } from '../../src/core/constraints/coloring.js';

/** An n×n cloth of loose particles (structural and shear sticks, row-major), top corners immovable. */
function cloth(n: number, options: ConstructorParameters<typeof World>[0] = {}) {
  const world = new World({ iterations: 10, substeps: 1, ...options });
  const first = world.addParticles(Array.from({ length: n * n }, (_, p) => ({ position: [(p % n) * 0.1, 2 - Math.floor(p / n) * 0.1, 0] as Vec3, mass: p === 0 || p === n - 1 ? 0 : 1 })));
  const ids: number[] = [];
  const at = (i: number, j: number) => first + j * n + i;
  for (let j = 0; j < n; j++) {
    for (let i = 0; i < n; i++) {
      if (i + 1 < n) ids.push(world.addStick(at(i, j), at(i + 1, j)));
      if (j + 1 < n) ids.push(world.addStick(at(i, j), at(i, j + 1)));
      if (i + 1 < n && j + 1 < n) ids.push(world.addStick(at(i, j), at(i + 1, j + 1)), world.addStick(at(i + 1, j), at(i, j + 1)));
    }
  }
  return { world, ids, first };
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
    // In insertion order three of every four neighbours share a particle; coloured, only run boundaries do.
    expect(dependentBefore).toBeGreaterThan(0.7 * world.sticks.count);
    const blocks = Math.ceil(world.sticks.count / COLOR_BLOCK);
    expect(dependentNeighbours(world)).toBeLessThanOrEqual(blocks * 12);
  });

  it('is still Gauss–Seidel: each pass projects every stick once, in table order, against the latest positions', () => {
    const { world } = cloth(24, { gravity: [0, 0, 0], iterations: 1 });
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

  it('hangs a cloth as straight as the insertion order does (same physics, another sweep order)', () => {
    const n = 24;
    const { world } = cloth(n);
    const rows = world.sticks.count;
    // Insertion order, captured before the first step re-orders the table.
    const a = world.sticks.a.slice(0, rows);
    const b = world.sticks.b.slice(0, rows);
    const rest = world.sticks.rest.slice(0, rows);
    const w = world.particles.inverseMass.slice(0, n * n);
    const pos = world.positions.slice(0, n * n * 3);
    const prev = world.particles.previous.slice(0, n * n * 3);
    const h2 = world.timeStep * world.timeStep;
    const stretch = (p: Float64Array) => {
      let worst = 0;
      for (let row = 0; row < rows; row++) {
        const d = Math.hypot(p[b[row]! * 3]! - p[a[row]! * 3]!, p[b[row]! * 3 + 1]! - p[a[row]! * 3 + 1]!, p[b[row]! * 3 + 2]! - p[a[row]! * 3 + 2]!);
        worst = Math.max(worst, d / rest[row]! - 1);
      }
      return worst;
    };
    for (let step = 0; step < 120; step++) {
      world.step();
      for (let i = 0; i < n * n; i++) {
        for (let k = 0; k < 3; k++) {
          const x = pos[i * 3 + k]!;
          if (w[i] !== 0) pos[i * 3 + k] = 2 * x - prev[i * 3 + k]! + (k === 1 ? -9.81 * h2 : 0);
          prev[i * 3 + k] = x;
        }
      }
      for (let pass = 0; pass < 10; pass++) {
        for (let row = 0; row < rows; row++) {
          const i = a[row]! * 3;
          const j = b[row]! * 3;
          const wSum = w[a[row]!]! + w[b[row]!]!;
          if (wSum === 0) continue;
          const d = [0, 1, 2].map((k) => pos[j + k]! - pos[i + k]!);
          const length = Math.hypot(d[0]!, d[1]!, d[2]!);
          const f = (length - rest[row]!) / (length * wSum);
          for (let k = 0; k < 3; k++) {
            pos[i + k] = pos[i + k]! + d[k]! * f * w[a[row]!]!;
            pos[j + k] = pos[j + k]! - d[k]! * f * w[b[row]!]!;
          }
        }
      }
    }
    const coloured = stretch(world.positions);
    const plain = stretch(pos);
    // Measured after 2 s: the worst stick (at a pinned corner) 33.7% coloured, 33.8% in insertion order.
    expect(plain).toBeGreaterThan(0.1);
    expect(Math.abs(coloured / plain - 1)).toBeLessThan(0.02);
    const lowest = (p: Float64Array) => Math.min(...Array.from({ length: n * n }, (_, i) => p[i * 3 + 1]!));
    // The swinging hem: 0.8 cm apart.
    expect(Math.abs(lowest(world.positions) - lowest(pos))).toBeLessThan(0.02);
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
