import { describe, expect, it } from 'vitest';
import { World, createCloth, createWind, type Vec3, type WorldOptions } from '../../src/core/index.js';

/** A world holding one free triangle registered as a body with a surface. */
function oneTriangle(corners: Vec3[]) {
  const world = new World({ gravity: [0, 0, 0] });
  const first = world.addParticles(corners.map((position) => ({ position })));
  const body = world.addBody(first, 3, { kind: 'triangle' });
  body.surface = { triangles: new Uint32Array([first, first + 1, first + 2]), triangleCount: 1 };
  return { world, first };
}

const forceOn = (world: World, id: number): Vec3 => [world.particles.force[id * 3]!, world.particles.force[id * 3 + 1]!, world.particles.force[id * 3 + 2]!];

describe('wind', () => {
  it('pushes a triangle with the course notes force |(½ (p1 - p0) × (p2 - p0)) · w| · w/|w|, a third on each vertex', () => {
    const p: Vec3[] = [
      [0.1, 0.2, -0.3],
      [1.3, 0.1, 0.4],
      [0.2, 1.1, 0.9],
    ];
    const { world, first } = oneTriangle(p);
    const w: Vec3 = [2, -1, 3];
    const wind = createWind(world, { velocity: w, coefficient: 1.2 });
    wind.apply(world);
    const u = [0, 1, 2].map((k) => p[1]![k]! - p[0]![k]!);
    const v = [0, 1, 2].map((k) => p[2]![k]! - p[0]![k]!);
    const area = [u[1]! * v[2]! - u[2]! * v[1]!, u[2]! * v[0]! - u[0]! * v[2]!, u[0]! * v[1]! - u[1]! * v[0]!].map((c) => c / 2);
    const dot = area[0]! * w[0] + area[1]! * w[1] + area[2]! * w[2];
    const speed = Math.hypot(...w);
    const expected = w.map((c) => (1.2 * Math.abs(dot) * c) / speed / 3);
    for (let i = 0; i < 3; i++) forceOn(world, first + i).forEach((f, k) => expect(f).toBeCloseTo(expected[k]!, 14));
  });

  it('is the same on either side of the surface and zero when it blows along it', () => {
    const flat: Vec3[] = [
      [0, 0, 0],
      [1, 0, 0],
      [0, 1, 0],
    ];
    const front = oneTriangle(flat);
    createWind(front.world, { velocity: [0, 0, 5] }).apply(front.world);
    // Area ½ facing +z, w = 5 along z: |A·w| = 2.5, all along +z.
    expect(forceOn(front.world, front.first)).toEqual([0, 0, expect.closeTo(2.5 / 3, 15)]);
    const back = oneTriangle([flat[0]!, flat[2]!, flat[1]!]);
    createWind(back.world, { velocity: [0, 0, 5] }).apply(back.world);
    expect(forceOn(back.world, back.first)).toEqual([0, 0, expect.closeTo(2.5 / 3, 15)]);
    const along = oneTriangle(flat);
    createWind(along.world, { velocity: [3, -4, 0] }).apply(along.world);
    for (let i = 0; i < 3; i++) expect(forceOn(along.world, along.first + i)).toEqual([0, 0, 0]);
  });

  it('tilts a hanging cloth downwind to the angle where wind and weight balance', () => {
    // A flexible sheet hung from its top edge in a uniform wind hangs straight at the
    // angle θ from the vertical where the load below the top row points: per unit of
    // cloth the wind gives c·|w|·cos θ (the area meets the wind at θ) and gravity σ·g,
    // so tan θ = c|w| cos θ / (σ g), i.e. sin θ = k cos² θ with k = c|w| / (σ g).
    // In the grid, the N free rows carry mass N·W·m and wind area (N - ½)(W - 1)s²
    // (the bottom row has only the half squares above it).
    const [W, H, s, m, speed] = [16, 16, 0.05, 0.01, 40];
    const angleIn = (velocity: Vec3, options: WorldOptions = {}, steps = 600) => {
      const world = new World({ damping: 2, iterations: 2, ...options });
      const cloth = createCloth(world, { width: W, height: H, spacing: s, corner: [0, 2, 0], pin: 'top', particleMass: m });
      createWind(world, { velocity });
      for (let step = 0; step < steps; step++) world.step();
      const rowMean = (j: number) => {
        let y = 0;
        let z = 0;
        for (let i = 0; i < W; i++) {
          const q = world.getPosition(cloth.particle(i, j));
          y += q[1] / W;
          z += q[2] / W;
        }
        return { y, z };
      };
      const top = rowMean(0);
      const next = rowMean(1);
      return (Math.atan2(next.z - top.z, top.y - next.y) * 180) / Math.PI;
    };
    const N = H - 1;
    const k = (speed * (N - 0.5) * (W - 1) * s * s) / (N * W * m * 9.81);
    let lo = 0;
    let hi = Math.PI / 2;
    for (let i = 0; i < 60; i++) {
      const mid = (lo + hi) / 2;
      if (Math.sin(mid) > k * Math.cos(mid) ** 2) hi = mid;
      else lo = mid;
    }
    const predicted = (lo * 180) / Math.PI;
    // The grid is not quite the straight sheet of the closed form: its bottom row and edge columns catch half the wind
    // per particle, so it curves (its rows from 38° at the top to 31° at the bottom), the lower rows meet the wind more
    // squarely, and the top row hangs steeper. Solved to convergence (40 passes a substep, its columns 0.01% long) it
    // hangs at 37.91° with tethers and 37.66° without: an inextensible sheet, whichever constraints hold it, 1.1–1.3°
    // beyond the predicted 36.57°. (Plain relaxation at 2 passes read 36.6° only by stretching 0.2%.)
    const converged = angleIn([0, 0, speed], { iterations: 40 }, 400);
    expect(angleIn([0, 0, speed], { iterations: 40, tethers: false }, 400)).toBeCloseTo(converged, 0);
    expect(converged - predicted).toBeGreaterThan(0.5);
    expect(converged - predicted).toBeLessThan(2);
    // At the test's 2 passes: measured 38.20°, downwind either way.
    expect(angleIn([0, 0, speed])).toBeCloseTo(converged, 0);
    expect(angleIn([0, 0, -speed])).toBeCloseTo(-converged, 0);
  });

  it('gusts scale the whole force by 1 ± gust, smoothly and differently over time', () => {
    const { world, first } = oneTriangle([
      [0, 0, 0],
      [1, 0, 0],
      [0, 1, 0],
    ]);
    // Particles fixed in place: only the wind changes.
    for (let i = 0; i < 3; i++) world.setMass(first + i, 0);
    const wind = createWind(world, { velocity: [0, 0, 2], gust: 0.5, gustFrequency: 2 });
    const steady = 1 / 3; // |A·w| / 3 = ½·2 / 3
    const ratios: number[] = [];
    for (let step = 0; step < 300; step++) {
      world.particles.force.fill(0);
      wind.apply(world);
      const f = forceOn(world, first);
      expect(f[0]).toBe(0);
      expect(f[1]).toBe(0);
      ratios.push(f[2] / steady);
      world.step();
    }
    expect(Math.min(...ratios)).toBeGreaterThanOrEqual(0.5);
    expect(Math.max(...ratios)).toBeLessThanOrEqual(1.5);
    expect(Math.max(...ratios) - Math.min(...ratios)).toBeGreaterThan(0.3);
    // Smooth: 2 gusts per second sampled 60 times a second change little from step to step.
    for (let i = 1; i < ratios.length; i++) expect(Math.abs(ratios[i]! - ratios[i - 1]!)).toBeLessThan(0.1);
  });

  it('with turbulence varies over the surface, and identical scenes give identical bits', () => {
    const run = (seed: number | undefined, worldSeed = 7) => {
      const world = new World({ seed: worldSeed });
      const cloth = createCloth(world, { width: 12, height: 12, spacing: 0.05, corner: [0, 2, 0], pin: 'top' });
      createWind(world, { velocity: [1, 0, 4], gust: 0.4, turbulence: 0.5, turbulenceScale: 0.2, seed });
      for (let step = 0; step < 120; step++) world.step();
      return { positions: Array.from(world.positions.subarray(cloth.first * 3, (cloth.first + cloth.count) * 3)), world, cloth };
    };
    const a = run(undefined);
    expect(run(undefined).positions).toEqual(a.positions);
    expect(run(3).positions).toEqual(run(3).positions);
    expect(run(3).positions).not.toEqual(run(4).positions);
    // The default seed comes from the world's seed, without drawing from its generator.
    expect(run(undefined, 8).positions).not.toEqual(a.positions);
    const quiet = new World({ seed: 9 });
    const before = quiet.random.state;
    const first = createWind(quiet, { velocity: [1, 0, 0] });
    const second = createWind(quiet, { velocity: [1, 0, 0] });
    expect(quiet.random.state).toBe(before);
    expect(first.seed).not.toBe(second.seed);
    // Removed and added again (React's StrictMode), it gets the same seed.
    second.remove();
    expect(createWind(quiet, { velocity: [1, 0, 0] }).seed).toBe(second.seed);
    // On a flat cloth a steady uniform wind pushes every interior triangle the same; turbulence does not.
    const world = new World({ gravity: [0, 0, 0] });
    const flat = createCloth(world, { width: 12, height: 12, spacing: 0.05 });
    const wind = createWind(world, { velocity: [0, 0, 4], turbulence: 0.5, turbulenceScale: 0.2 });
    wind.apply(world);
    const interior = [flat.particle(3, 3), flat.particle(8, 3), flat.particle(3, 8), flat.particle(8, 8)].map((id) => forceOn(world, id)[2]);
    expect(Math.max(...interior) - Math.min(...interior)).toBeGreaterThan(0.05 * Math.max(...interior));
  });

  it('blows only on the bodies given, and stops when removed', () => {
    const world = new World({ gravity: [0, 0, 0] });
    const a = createCloth(world, { width: 3, height: 3 });
    const b = createCloth(world, { width: 3, height: 3, corner: [1, 0, 0] });
    const wind = createWind(world, { velocity: [0, 0, 1], bodies: [b.body] });
    world.step();
    expect(world.getPosition(a.first)[2]).toBe(0);
    expect(world.getPosition(b.first)[2]).toBeGreaterThan(0);
    wind.remove();
    expect(world.forces).not.toContain(wind);
  });

  it('rejects bad input, naming the argument and the value', () => {
    const world = new World();
    expect(() => createWind(world, { velocity: [0, NaN, 1] })).toThrow('Wind: velocity must be finite numbers, got [0, NaN, 1]');
    expect(() => createWind(world, { velocity: [1, 0, 0], gust: -1 })).toThrow(/Wind: gust must be a finite number in \[0, .*\], got -1/);
    expect(() => createWind(world, { velocity: [1, 0, 0], turbulenceScale: 0 })).toThrow(/Wind: turbulenceScale must be a finite number in \[.*\], got 0/);
    expect(world.forces).toHaveLength(0);
  });
});
