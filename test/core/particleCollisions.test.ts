import { describe, expect, it } from 'vitest';
import { enableParticleCollisions, enableSelfCollision, SeededRandom, SpatialHash, World, type Vec3 } from '../../src/core/index.js';

const zeroG = { gravity: [0, 0, 0] } as const;

/** Total momentum Σ m·v of particles `ids`. */
function momentum(world: World, ids: number[]): Vec3 {
  const p: Vec3 = [0, 0, 0];
  for (const id of ids) {
    const v = world.getVelocity(id);
    const m = world.getMass(id);
    for (let k = 0; k < 3; k++) p[k] = p[k]! + m * v[k]!;
  }
  return p;
}

describe('particle–particle collisions', () => {
  it('a head-on pair collides with zero restitution: equal masses stop, unequal ones move on together at (m1·v1 + m2·v2)/(m1 + m2)', () => {
    for (const [m1, m2] of [
      [1, 1],
      [3, 1],
      [1, 4],
    ] as const) {
      const world = new World(zeroG);
      enableParticleCollisions(world);
      const a = world.addParticle({ position: [-1, 0, 0], velocity: [5, 0, 0], mass: m1, radius: 0.1 });
      const b = world.addParticle({ position: [1, 0, 0], velocity: [-5, 0, 0], mass: m2, radius: 0.1 });
      for (let i = 0; i < 60; i++) world.step();
      const common = (m1 * 5 - m2 * 5) / (m1 + m2);
      expect(world.getVelocity(a)[0]).toBeCloseTo(common, 9);
      expect(world.getVelocity(b)[0]).toBeCloseTo(common, 9);
      expect(world.getPosition(b)[0] - world.getPosition(a)[0]).toBeCloseTo(0.2, 9); // touching: the sum of the radii
      expect(momentum(world, [a, b])[0]).toBeCloseTo(m1 * 5 - m2 * 5, 9);
    }
  });

  it('two crossing streams scatter, with friction, and the total momentum never changes', () => {
    for (const massB of [1, 2.5]) {
      const world = new World(zeroG);
      enableParticleCollisions(world);
      const random = new SeededRandom(11);
      const ids: number[] = [];
      for (let k = 0; k < 25; k++) {
        const jitter = (): number => (random.next() - 0.5) * 0.12;
        ids.push(world.addParticle({ position: [-0.4 - 0.25 * k, jitter(), jitter()], velocity: [6, 0, 0], radius: 0.05, friction: 0.8 }));
        ids.push(world.addParticle({ position: [0.4 + 0.25 * k, jitter(), jitter()], velocity: [-6, 0.5, 0], radius: 0.05, mass: massB, friction: 0.8 }));
      }
      const p0 = momentum(world, ids);
      let worst = 0;
      let sideways = 0;
      for (let i = 0; i < 120; i++) {
        world.step();
        const p = momentum(world, ids);
        worst = Math.max(worst, ...p.map((x, k) => Math.abs(x - p0[k]!)));
        for (const id of ids) sideways = Math.max(sideways, Math.abs(world.getVelocity(id)[2]));
      }
      expect(worst).toBeLessThan(1e-9);
      expect(sideways).toBeGreaterThan(0.5); // they really collided, off-centre
      // No two particles overlap by more than a hair once the crowd has spread.
      let closest = Infinity;
      for (let i = 0; i < ids.length; i++) {
        for (let j = i + 1; j < ids.length; j++) {
          const p = world.getPosition(ids[i]!);
          const q = world.getPosition(ids[j]!);
          closest = Math.min(closest, Math.hypot(p[0] - q[0], p[1] - q[1], p[2] - q[2]));
        }
      }
      expect(closest).toBeGreaterThan(0.1 * 0.99);
    }
  });

  it('particles of one body do not collide with each other, particles of different bodies do', () => {
    // One substep, no push-out limit: an overlap at rest is removed in one projection (more
    // substeps would turn it into velocity).
    const world = new World({ ...zeroG, substeps: 1, maxPushOutSpeed: Infinity });
    enableParticleCollisions(world);
    const first = world.addParticles([
      { position: [0, 0, 0], radius: 0.1 },
      { position: [0.05, 0, 0], radius: 0.1 },
    ]);
    world.addBody(first, 2);
    const other = world.addParticles([{ position: [3, 0, 0], radius: 0.1 }]);
    world.addBody(other, 1);
    const stray = world.addParticle({ position: [3.1, 0, 0], radius: 0.1 });
    world.step();
    expect(world.getPosition(first + 1)[0] - world.getPosition(first)[0]).toBeCloseTo(0.05, 12);
    expect(world.getPosition(stray)[0] - world.getPosition(other)[0]).toBeCloseTo(0.2, 12);
  });

  it('particles made inside each other part at most at maxPushOutSpeed, as out of a collider', () => {
    // 0.1 m of the 0.2 m reach overlaps; at 3 m/s (the default) one 1/60 s substep takes back
    // 5 cm of it, and the pair leaves at 3 m/s, not at the 6 m/s of the whole overlap at once.
    const world = new World({ ...zeroG, substeps: 1 });
    enableParticleCollisions(world);
    const a = world.addParticle({ position: [0, 0, 0], radius: 0.1 });
    const b = world.addParticle({ position: [0.1, 0, 0], radius: 0.1 });
    world.step();
    expect(world.getPosition(b)[0] - world.getPosition(a)[0]).toBeCloseTo(0.15, 12);
    world.step();
    expect(world.getPosition(b)[0] - world.getPosition(a)[0]).toBeCloseTo(0.2, 12);
    // Apart now, they keep the speed the push-out gave them: 1.5 m/s each, 3 m/s between them.
    expect(world.getVelocity(b)[0] - world.getVelocity(a)[0]).toBeCloseTo(3, 9);
  });

  it('the spatial hash lists every particle within a cell size among the 27 neighbouring buckets, each bucket once', () => {
    const random = new SeededRandom(5);
    const n = 600;
    const pos = new Float64Array(n * 3).map(() => random.next() * 3 - 1.5);
    const ids = Int32Array.from({ length: n }, (_, i) => i);
    const hash = new SpatialHash();
    hash.cellSize = 0.1;
    hash.build(pos, ids, n);
    let pairs = 0;
    for (let i = 0; i < n; i++) {
      const buckets = hash.neighbourBuckets(pos, i);
      const listed = new Set<number>();
      const seen = new Set<number>();
      for (let c = 0; c < buckets; c++) {
        const b = hash.buckets[c]!;
        expect(seen.has(b)).toBe(false);
        seen.add(b);
        for (let e = hash.cellStart[b]!; e < hash.cellStart[b + 1]!; e++) listed.add(hash.entries[e]!);
      }
      for (let j = 0; j < n; j++) {
        const d = Math.hypot(pos[i * 3]! - pos[j * 3]!, pos[i * 3 + 1]! - pos[j * 3 + 1]!, pos[i * 3 + 2]! - pos[j * 3 + 2]!);
        if (d < 0.1) {
          expect(listed.has(j)).toBe(true);
          pairs++;
        }
      }
    }
    expect(pairs).toBeGreaterThan(n); // more than the particles themselves: real neighbours were found
  });

  it('rejects a bad cell size and a second enabling', () => {
    const world = new World();
    expect(() => enableParticleCollisions(world, { cellSize: -1 })).toThrow('enableParticleCollisions: cellSize must be a finite number in [5e-324, Infinity], got -1');
    const on = enableParticleCollisions(world);
    expect(() => enableParticleCollisions(world)).toThrow('enableParticleCollisions: already enabled for this world');
    world.remove(on);
    enableParticleCollisions(world).remove();
  });
});

describe('self-collision', () => {
  /**
   * A strip of cloth folded onto itself: columns along x, rows along z; rows
   * 0..5 lie flat, rows 6..11 come back above them `gap` higher, joined at the fold.
   */
  function foldedSheet(selfCollide: boolean, thickness: number, iterations = 1) {
    const world = new World({ iterations });
    world.addCollider({ type: 'plane', normal: [0, 1, 0], offset: 0 });
    const cols = 8;
    const rows = 12;
    const s = 0.05;
    const gap = 0.06;
    const list = [];
    for (let r = 0; r < rows; r++) {
      for (let c = 0; c < cols; c++) {
        const top = r >= rows / 2;
        list.push({ position: [c * s, top ? 0.1 + gap : 0.1, (top ? rows - 1 - r : r) * s] as Vec3, velocity: [0, top ? -1.5 : 0, 0] as Vec3 });
      }
    }
    const first = world.addParticles(list);
    const at = (r: number, c: number) => first + r * cols + c;
    for (let r = 0; r < rows; r++) {
      for (let c = 0; c < cols; c++) {
        if (c + 1 < cols) world.addStick(at(r, c), at(r, c + 1));
        if (r + 1 < rows) world.addStick(at(r, c), at(r + 1, c));
        if (c + 1 < cols && r + 1 < rows) {
          world.addStick(at(r, c), at(r + 1, c + 1));
          world.addStick(at(r, c + 1), at(r + 1, c));
        }
      }
    }
    const body = world.addBody(first, rows * cols, { kind: 'cloth' });
    if (selfCollide) enableSelfCollision(world, body, { thickness });
    const joined = new Set<string>();
    for (let row = 0; row < world.sticks.count; row++) joined.add(`${world.sticks.a[row]}-${world.sticks.b[row]}`).add(`${world.sticks.b[row]}-${world.sticks.a[row]}`);
    let closest = Infinity;
    let closestAtRest = Infinity;
    for (let i = 0; i < 90; i++) {
      world.step();
      if (i === 60) closestAtRest = Infinity;
      for (let p = first; p < first + rows * cols; p++) {
        for (let q = p + 1; q < first + rows * cols; q++) {
          if (joined.has(`${p}-${q}`)) continue;
          const a = world.getPosition(p);
          const b = world.getPosition(q);
          const d = Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
          closest = Math.min(closest, d);
          closestAtRest = Math.min(closestAtRest, d);
        }
      }
    }
    // The top layer came down onto the bottom one.
    const topHeight = world.getPosition(at(rows - 1, 3))[1];
    return { closest, closestAtRest, topHeight };
  }

  it('a sheet folded onto itself keeps its particles at least the thickness apart; without self-collision it passes through itself', () => {
    const thickness = 0.03;
    // With one pass per substep the floor, projected after the self-collision,
    // squeezes the layers while the top one lands (1.5 m/s); at rest they hold.
    for (const iterations of [1, 2]) {
      const on = foldedSheet(true, thickness, iterations);
      expect(on.closest).toBeGreaterThanOrEqual(thickness * 0.95);
      expect(on.closestAtRest).toBeGreaterThanOrEqual(thickness * 0.995);
      expect(on.topHeight).toBeLessThan(0.05); // it has landed on the lower layer
    }
    const off = foldedSheet(false, thickness);
    expect(off.closest).toBeLessThan(thickness / 3);
  });

  it('rejects a bad thickness', () => {
    const world = new World();
    const first = world.addParticles([{ position: [0, 0, 0] }, { position: [1, 0, 0] }]);
    const body = world.addBody(first, 2);
    expect(() => enableSelfCollision(world, body, { thickness: 0 })).toThrow('enableSelfCollision: thickness must be a finite number in [5e-324, Infinity], got 0');
  });
});
