import { describe, expect, it } from 'vitest';
import { Attractor, Buoyancy, ElectricForce, ForceCallback, GravitationalForce, Springs, World, type WorldOptions } from '../../src/core/index.js';

const noGravity = { gravity: [0, 0, 0] } as const;
// The oscillator tests compare against plain Verlet (one substep per step), whose
// behaviour on an oscillator is known in closed form; forces are evaluated every
// substep, so the default substeps keep energy bounded too (tested at the end).
const plainVerlet: WorldOptions = { substeps: 1 };

function forceOn(world: World, id: number): [number, number, number] {
  const f = world.particles.force;
  return [f[id * 3]!, f[id * 3 + 1]!, f[id * 3 + 2]!];
}

function momentum(world: World, ids: number[]): [number, number, number] {
  const total: [number, number, number] = [0, 0, 0];
  for (const id of ids) {
    const m = world.getMass(id);
    const v = world.getVelocity(id);
    for (let k = 0; k < 3; k++) total[k] = total[k]! + m * v[k]!;
  }
  return total;
}

function distance(world: World, a: number, b: number): number {
  const p = world.getPosition(a);
  const q = world.getPosition(b);
  return Math.hypot(q[0] - p[0], q[1] - p[1], q[2] - p[2]);
}

/** Mean period of a sampled signal from its upward zero crossings, interpolated linearly. */
function period(samples: number[], dt: number): number {
  const crossings: number[] = [];
  for (let i = 1; i < samples.length; i++) {
    const a = samples[i - 1]!;
    const b = samples[i]!;
    if (a < 0 && b >= 0) crossings.push((i - 1 + a / (a - b)) * dt);
  }
  expect(crossings.length).toBeGreaterThan(2);
  return (crossings[crossings.length - 1]! - crossings[0]!) / (crossings.length - 1);
}

/** Runs `world` until `seconds` have passed, returning `read()` after every step. */
function record(world: World, seconds: number, read: () => number): number[] {
  const out: number[] = [];
  for (let i = 0, n = Math.round(seconds / world.timeStep); i < n; i++) {
    world.step();
    out.push(read());
  }
  return out;
}

describe('Attractor', () => {
  it('pulls with m·strength·(1 − d/radius) towards its point, heavy and light alike', () => {
    const world = new World(noGravity);
    const near = world.addParticle({ position: [0.5, 0, 0] });
    const heavy = world.addParticle({ position: [0, 1, 0], mass: 4 });
    const outside = world.addParticle({ position: [0, 0, 3] });
    const fixed = world.addParticle({ position: [1, 0, 0], mass: 0 });
    const attractor = new Attractor({ position: [0, 0, 0], strength: 10, radius: 2 });
    attractor.apply(world);
    expect(forceOn(world, near)).toEqual([expect.closeTo(-1 * 10 * 0.75, 12), 0, 0]);
    expect(forceOn(world, heavy)).toEqual([0, expect.closeTo(-4 * 10 * 0.5, 12), 0]);
    expect(forceOn(world, outside)).toEqual([0, 0, 0]);
    expect(forceOn(world, fixed)).toEqual([0, 0, 0]);
  });

  it('without a radius pulls evenly: a constant acceleration that brings a particle from d to the point in √(2d/a)', () => {
    const world = new World(noGravity);
    const id = world.addParticle({ position: [0, 0, 1] });
    world.addForce(new Attractor({ position: [0, 0, 0], strength: 8 }));
    for (let i = 0; i < 15; i++) world.step();
    const v = world.getVelocity(id)[2];
    for (let i = 0; i < 15; i++) world.step();
    expect(world.getVelocity(id)[2] - v).toBeCloseTo(-8 * 0.25, 9);
    // a = 8 m/s², d = 1 m: at the point after 0.5 s = 30 steps, give or take the
    // ½·a·h·t a Verlet start from rest adds (the world starts x* for gravity only).
    expect(world.getPosition(id)[2]).toBeCloseTo(0, 2);
  });

  it('follows changes to its point and strength; negative strength repels', () => {
    const world = new World(noGravity);
    const id = world.addParticle({ position: [0, 0, 0], mass: 2 });
    const attractor = new Attractor({ position: { x: 1, y: 0, z: 0 }, strength: 3 });
    attractor.apply(world);
    expect(forceOn(world, id)).toEqual([expect.closeTo(6, 12), 0, 0]);
    world.particles.force.fill(0);
    attractor.position = [0, -2, 0];
    attractor.strength = -3;
    attractor.apply(world);
    expect(forceOn(world, id)).toEqual([0, expect.closeTo(6, 12), 0]);
    expect(attractor.position).toEqual([0, -2, 0]);
  });

  it('rejects bad input, naming the argument and the value', () => {
    expect(() => new Attractor({ position: [0, 0, 0], strength: NaN })).toThrow('Attractor: strength must be a finite number, got NaN');
    expect(() => new Attractor({ position: [0, NaN, 0], strength: 1 })).toThrow(/Attractor: position must be finite numbers, got \[0, NaN, 0\]/);
    expect(() => new Attractor({ position: [0, 0, 0], strength: 1, radius: 0 })).toThrow('Attractor: radius must be > 0 (Infinity = no fading), got 0');
  });
});

describe('Buoyancy', () => {
  const r = 0.1;
  const volume = (4 / 3) * Math.PI * r ** 3;

  function floatAt(density: number, level: number): number {
    const world = new World(plainVerlet);
    world.addForce(new Buoyancy({ level, density: 1000 }));
    const id = world.addParticle({ position: [0, level + 0.5, 0], radius: r, mass: density * volume });
    for (let i = 0; i < 60 * 40; i++) world.step();
    expect(Math.abs(world.getVelocity(id)[1])).toBeLessThan(1e-3);
    return world.getPosition(id)[1];
  }

  it('floats a particle half as dense as water with its centre at the surface', () => {
    expect(floatAt(500, 0)).toBeCloseTo(0, 3);
  });

  it('floats a lighter one higher, where the submerged cap weighs what the particle does', () => {
    // Cap height c = x·r below the surface with π·c²(3r − c)/3 = V/4, i.e. x²(3 − x) = 1.
    let lo = 0;
    let hi = 1;
    for (let i = 0; i < 60; i++) {
      const x = (lo + hi) / 2;
      if (x * x * (3 - x) < 1) lo = x;
      else hi = x;
    }
    expect(floatAt(250, 1.5)).toBeCloseTo(1.5 - lo * r + r, 3); // bottom c below the surface
  });

  it('lifts m·g off a half-dense particle half under water, against gravity whichever way it points', () => {
    const world = new World({ gravity: [0, 0, -9.81] });
    const id = world.addParticle({ position: [3, 4, 0], radius: r, mass: 500 * volume });
    new Buoyancy({ level: 0, drag: 0 }).apply(world);
    expect(forceOn(world, id)).toEqual([0, 0, expect.closeTo(500 * volume * 9.81, 9)]);
  });

  it('sinks a particle denser than water at g·(1 − ρ_water/ρ)', () => {
    const world = new World();
    world.addForce(new Buoyancy({ level: 0, drag: 0 }));
    const id = world.addParticle({ position: [0, -1, 0], radius: r, mass: 2000 * volume });
    world.step();
    const v = world.getVelocity(id)[1];
    for (let i = 0; i < 30; i++) world.step();
    expect(world.getVelocity(id)[1] - v).toBeCloseTo(-9.81 * (1 - 1000 / 2000) * 0.5, 9);
  });

  it('drags a sinking particle to the terminal speed g·(1 − ρ_water/ρ)/drag', () => {
    const world = new World();
    world.addForce(new Buoyancy({ level: 0, drag: 2 }));
    const id = world.addParticle({ position: [0, -1, 0], radius: r, mass: 2000 * volume });
    for (let i = 0; i < 60 * 8; i++) world.step();
    expect(world.getVelocity(id)[1]).toBeCloseTo(-(9.81 * 0.5) / 2, 4);
  });

  it('does nothing above the surface or to particles without volume', () => {
    const world = new World();
    const dry = world.addParticle({ position: [0, 0.2, 0], radius: r });
    const point = world.addParticle({ position: [0, -1, 0] });
    new Buoyancy({ level: 0.1 }).apply(world);
    expect(forceOn(world, dry)).toEqual([0, 0, 0]);
    expect(forceOn(world, point)).toEqual([0, 0, 0]);
    expect(() => new Buoyancy({ level: Infinity })).toThrow('Buoyancy: level must be a finite number, got Infinity');
    expect(() => new Buoyancy({ level: 0, density: -1 })).toThrow('Buoyancy: density must be a finite number in [0, Infinity], got -1');
  });
});

describe('GravitationalForce', () => {
  it('pulls two masses together with G·m_a·m_b/r², equal and opposite', () => {
    const world = new World(noGravity);
    const a = world.addParticle({ position: [0, 0, 0], mass: 2 });
    const b = world.addParticle({ position: [0, 2, 0], mass: 3 });
    const gravitation = new GravitationalForce({ G: 2 });
    gravitation.apply(world);
    expect(forceOn(world, a)).toEqual([0, expect.closeTo((2 * 2 * 3) / 4, 12), 0]);
    expect(forceOn(world, b)).toEqual([0, expect.closeTo(-(2 * 2 * 3) / 4, 12), 0]);
    // Twice the distance, a quarter of the force.
    world.particles.force.fill(0);
    world.setPosition(b, [0, 4, 0]);
    gravitation.apply(world);
    expect(forceOn(world, a)[1]).toBeCloseTo((2 * 2 * 3) / 16, 12);
  });

  it('draws bodies at rest together', () => {
    const world = new World(noGravity);
    const ids = [world.addParticle({ position: [0, 0, 0], mass: 5 }), world.addParticle({ position: [1, 0, 0], mass: 1 }), world.addParticle({ position: [0, 1.5, 0.5], mass: 2 })];
    world.addForce(new GravitationalForce({ G: 0.5 }));
    const pairs = [
      [0, 1],
      [0, 2],
      [1, 2],
    ] as const;
    const before = pairs.map(([i, j]) => distance(world, ids[i]!, ids[j]!));
    for (let i = 0; i < 30; i++) world.step();
    pairs.forEach(([i, j], k) => expect(distance(world, ids[i]!, ids[j]!)).toBeLessThan(before[k]!));
    // Internal forces only: the mass-weighted centre stays where it was, (1/8, 3/8, 1/8).
    const masses = [5, 1, 2];
    const centre = [0, 1, 2].map((k) => ids.reduce((sum, id, n) => sum + masses[n]! * world.getPosition(id)[k]!, 0) / 8);
    expect(centre[0]).toBeCloseTo(1 / 8, 12);
    expect(centre[1]).toBeCloseTo(3 / 8, 12);
    expect(centre[2]).toBeCloseTo(1 / 8, 12);
  });

  it('conserves the total momentum of moving bodies', () => {
    const world = new World(noGravity);
    const ids = [
      world.addParticle({ position: [0, 0, 0], mass: 5, velocity: [0.1, 0, 0] }),
      world.addParticle({ position: [1, 0, 0], mass: 1, velocity: [0, 0.8, 0] }),
      world.addParticle({ position: [0, 1.5, 0.5], mass: 2, velocity: [0, 0, -0.3] }),
    ];
    world.addForce(new GravitationalForce({ G: 0.5 }));
    const p0 = momentum(world, ids);
    for (let i = 0; i < 120; i++) world.step();
    expect(momentum(world, ids)).toEqual(p0.map((p) => expect.closeTo(p, 10)));
  });

  it('acts only among its listed, movable particles', () => {
    const world = new World(noGravity);
    const a = world.addParticle({ position: [0, 0, 0] });
    const b = world.addParticle({ position: [1, 0, 0] });
    const other = world.addParticle({ position: [0, 1, 0] });
    const fixed = world.addParticle({ position: [0, -1, 0], mass: 0 });
    new GravitationalForce({ G: 1, particles: [a, b, fixed] }).apply(world);
    expect(forceOn(world, a)).toEqual([1, 0, 0]);
    expect(forceOn(world, other)).toEqual([0, 0, 0]);
    expect(forceOn(world, fixed)).toEqual([0, 0, 0]);
    expect(() => new GravitationalForce({ particles: [0, -1] })).toThrow('GravitationalForce: particles[1] must be a particle id, got -1');
  });

  it('stays finite for coincident particles and softens close ones to r² + ε²', () => {
    const world = new World(noGravity);
    const a = world.addParticle({ position: [0, 0, 0] });
    world.addParticle({ position: [0, 0, 0] });
    const c = world.addParticle({ position: [0.1, 0, 0] });
    new GravitationalForce({ G: 1, softening: 0.1 }).apply(world);
    // a feels only c (the coincident partner has no direction): 0.1 / (0.01 + 0.01)^1.5.
    expect(forceOn(world, a)[0]).toBeCloseTo(0.1 / 0.02 ** 1.5, 9);
    expect(forceOn(world, c).every(Number.isFinite)).toBe(true);
  });
});

describe('ElectricForce', () => {
  it('repels like charges and attracts unlike ones with K·q_a·q_b/r²', () => {
    const world = new World(noGravity);
    const a = world.addParticle({ position: [0, 0, 0] });
    const b = world.addParticle({ position: [2, 0, 0] });
    const c = world.addParticle({ position: [0, 0, 1] });
    const electric = new ElectricForce({ K: 3 });
    electric.setCharge(a, 2);
    electric.setCharge(b, 1);
    electric.apply(world);
    expect(forceOn(world, a)).toEqual([expect.closeTo(-(3 * 2) / 4, 12), 0, 0]);
    expect(forceOn(world, b)).toEqual([expect.closeTo((3 * 2) / 4, 12), 0, 0]);
    world.particles.force.fill(0);
    electric.setCharge(b, 0);
    electric.setCharge(c, -1);
    electric.apply(world);
    expect(forceOn(world, a)).toEqual([0, 0, expect.closeTo(3 * 2, 12)]);
    expect(forceOn(world, c)).toEqual([0, 0, expect.closeTo(-3 * 2, 12)]);
    expect(forceOn(world, b)).toEqual([0, 0, 0]);
    expect(electric.getCharge(b)).toBe(0);
  });

  it('conserves total momentum among moving charges', () => {
    const world = new World(noGravity);
    const ids = [0, 1, 2, 3].map((k) => world.addParticle({ position: [Math.cos(k * 1.7), Math.sin(k * 1.7), k * 0.1], mass: 1 + k, velocity: [0.2 * k, -0.1, 0] }));
    const electric = new ElectricForce({ K: 0.2, softening: 0.01 });
    ids.forEach((id, k) => electric.setCharge(id, k % 2 === 0 ? 1 : -0.5));
    world.addForce(electric);
    const p0 = momentum(world, ids);
    for (let i = 0; i < 120; i++) world.step();
    expect(momentum(world, ids)).toEqual(p0.map((p) => expect.closeTo(p, 10)));
    expect(() => electric.setCharge(1.5, 1)).toThrow('ElectricForce.setCharge: id must be a particle id, got 1.5');
    expect(() => electric.setCharge(1, NaN)).toThrow('ElectricForce.setCharge: charge must be a finite number, got NaN');
  });
});

describe('Springs (Hooke)', () => {
  it('pulls with k·(d − l) along the spring, equal and opposite', () => {
    const world = new World(noGravity);
    const a = world.addParticle({ position: [0, 0, 0] });
    const b = world.addParticle({ position: [0, 0, 1.5] });
    const springs = new Springs(world);
    const id = springs.add(a, b, { stiffness: 20, length: 1 });
    springs.apply(world);
    expect(forceOn(world, a)).toEqual([0, 0, expect.closeTo(10, 12)]);
    expect(forceOn(world, b)).toEqual([0, 0, expect.closeTo(-10, 12)]);
    expect(springs.length(id)).toBe(1.5);
    springs.remove(id);
    expect(springs.count).toBe(0);
  });

  it('swings a mass on a spring from a fixed point at ω = √(k/m), keeping its amplitude', () => {
    const world = new World({ ...noGravity, ...plainVerlet });
    const anchor = world.addParticle({ position: [0, 0, 0], mass: 0 });
    const bob = world.addParticle({ position: [1.2, 0, 0], mass: 2 });
    const springs = new Springs(world);
    springs.add(anchor, bob, { stiffness: 40, length: 1 });
    world.addForce(springs);
    const x = record(world, 15, () => world.getPosition(bob)[0] - 1);
    expect(period(x, world.timeStep)).toBeCloseTo((2 * Math.PI) / Math.sqrt(40 / 2), 2);
    const lastPeriod = x.slice(-Math.round(1.5 * 60));
    expect(Math.max(...lastPeriod.map(Math.abs))).toBeCloseTo(0.2, 2);
  });

  it('swings two free masses at ω = √(k/μ), μ the reduced mass, keeping their momentum', () => {
    const world = new World({ ...noGravity, ...plainVerlet });
    const a = world.addParticle({ position: [0, 0, 0], mass: 1, velocity: [0, 0.4, 0] });
    const b = world.addParticle({ position: [1.3, 0, 0], mass: 3, velocity: [0, 0.4, 0] });
    const springs = new Springs(world);
    springs.add(a, b, { stiffness: 30, length: 1 });
    world.addForce(springs);
    const p0 = momentum(world, [a, b]);
    const stretch = record(world, 10, () => distance(world, a, b) - 1);
    const mu = (1 * 3) / (1 + 3);
    expect(period(stretch, world.timeStep)).toBeCloseTo((2 * Math.PI) / Math.sqrt(30 / mu), 2);
    expect(momentum(world, [a, b])).toEqual(p0.map((p) => expect.closeTo(p, 10)));
  });

  it('damps the swing as e^(−c·t/2m)', () => {
    const world = new World({ ...noGravity, ...plainVerlet });
    const anchor = world.addParticle({ position: [0, 0, 0], mass: 0 });
    const bob = world.addParticle({ position: [1.2, 0, 0], mass: 1 });
    const springs = new Springs(world);
    springs.add(anchor, bob, { stiffness: 40, length: 1, damping: 0.4 });
    world.addForce(springs);
    const x = record(world, 6, () => world.getPosition(bob)[0] - 1);
    const peaks: [number, number][] = [];
    for (let i = 1; i + 1 < x.length; i++) if (x[i]! > x[i - 1]! && x[i]! >= x[i + 1]!) peaks.push([(i + 1) * world.timeStep, x[i]!]);
    const [t0, x0] = peaks[0]!;
    const [t1, x1] = peaks[peaks.length - 1]!;
    expect(t1 - t0).toBeGreaterThan(4);
    expect(Math.log(x1 / x0) / (t1 - t0)).toBeCloseTo(-0.4 / (2 * 1), 2);
  });

  it('stretches by m·g/k under a hanging mass, where a stick keeps its length', () => {
    const world = new World(plainVerlet);
    const anchor = world.addParticle({ position: [0, 0, 0], mass: 0 });
    const onSpring = world.addParticle({ position: [0, -1, 0], mass: 2 });
    const stickAnchor = world.addParticle({ position: [3, 0, 0], mass: 0 });
    const onStick = world.addParticle({ position: [3, -1, 0], mass: 2 });
    const springs = new Springs(world);
    springs.add(anchor, onSpring, { stiffness: 200, damping: 8 });
    world.addForce(springs);
    world.addStick(stickAnchor, onStick);
    for (let i = 0; i < 600; i++) world.step();
    expect(distance(world, anchor, onSpring)).toBeCloseTo(1 + (2 * 9.81) / 200, 4);
    expect(distance(world, stickAnchor, onStick)).toBeCloseTo(1, 6);
  });

  it('rejects bad springs, naming the argument and the value', () => {
    const world = new World();
    const a = world.addParticle({ position: [0, 0, 0] });
    const springs = new Springs(world);
    expect(() => springs.add(a, a, { stiffness: 1 })).toThrow('Springs.add: a and b must differ, both are particle 0');
    expect(() => springs.add(a, 7, { stiffness: 1 })).toThrow('Springs.add: b: no particle with id 7');
    const b = world.addParticle({ position: [1, 0, 0] });
    expect(() => springs.add(a, b, { stiffness: 0 })).toThrow('Springs.add: stiffness must be > 0, got 0');
    expect(() => springs.add(a, b, { stiffness: 1, length: -1 })).toThrow('Springs.add: length must be a finite number in [0, Infinity], got -1');
    expect(() => springs.remove(42)).toThrow('Springs.remove: no spring with id 42');
  });
});

describe('ForceCallback', () => {
  it('runs a user force every step: a steady F changes the velocity of m by (F/m)·t', () => {
    const world = new World(noGravity);
    const id = world.addParticle({ position: [0, 0, 0], mass: 0.5 });
    world.addForce(
      new ForceCallback((w) => {
        w.particles.force[id * 3] = w.particles.force[id * 3]! + 2;
      }),
    );
    world.step();
    const v = world.getVelocity(id)[0];
    for (let i = 0; i < 60; i++) world.step();
    expect(world.getVelocity(id)[0] - v).toBeCloseTo((2 / 0.5) * 1, 9);
    expect(() => new ForceCallback(42 as never)).toThrow('ForceCallback: callback must be a function, got 42');
  });
});

describe('forces under the default substeps', () => {
  it('are evaluated every substep, so an undamped spring keeps its amplitude with 10 substeps (held over the step it grew ×40)', () => {
    const world = new World({ gravity: [0, 0, 0] });
    expect(world.substeps).toBe(10);
    const anchor = world.addParticle({ position: [0, 0, 0], mass: 0 });
    const bob = world.addParticle({ position: [1.1, 0, 0] });
    const springs = new Springs(world);
    springs.add(anchor, bob, { stiffness: 100, length: 1 });
    world.addForce(springs);
    let peak = 0;
    for (let i = 0; i < 600; i++) {
      world.step();
      if (i > 480) peak = Math.max(peak, Math.abs(world.getPosition(bob)[0] - 1));
    }
    expect(peak).toBeGreaterThan(0.095);
    expect(peak).toBeLessThan(0.105);
  });

  it('applyForce from inside a force generator acts once per substep, like writing particles.force', () => {
    const world = new World({ gravity: [0, 0, 0], substeps: 10 });
    const id = world.addParticle({ position: [0, 0, 0], mass: 1 });
    world.addForce({ apply: (w) => w.applyForce(id, [1, 0, 0]) });
    for (let i = 0; i < 60; i++) world.step();
    // 1 N on 1 kg for one second: v = 1 m/s (held over the substeps it came to 4.5 m/s).
    expect(world.getVelocity(id)[0]).toBeCloseTo(1, 6);
    // A generator's force is no held force: a step without generators coasts.
    world.forces.length = 0;
    world.step();
    expect(world.getVelocity(id)[0]).toBeCloseTo(1, 6);
  });

  it('given with applyForce act for the whole step, over all its substeps', () => {
    const world = new World({ gravity: [0, 0, 0], timeStep: 0.1 });
    const id = world.addParticle({ position: [0, 0, 0], mass: 2 });
    world.applyForce(id, [4, 0, 0]);
    world.step();
    // a = F/m = 2 m/s² for the whole 0.1 s step: v = 0.2 m/s.
    expect(world.getVelocity(id)[0]).toBeCloseTo(0.2, 9);
    world.step();
    expect(world.getVelocity(id)[0]).toBeCloseTo(0.2, 9); // gone after its step: coasts
  });

  it('given to a sleeping particle, wake it and act for one step only', () => {
    const world = new World({ gravity: [0, 0, 0], timeStep: 0.1, sleep: true });
    const id = world.addParticle({ position: [0, 0, 0], mass: 2 });
    const body = world.addBody(id, 1, { kind: 'ball' });
    for (let i = 0; i < 100 && !world.sleep.isAsleep(body.id); i++) world.step();
    expect(world.sleep.isAsleep(body.id)).toBe(true);
    world.applyForce(id, [4, 0, 0]);
    world.step();
    expect(world.getVelocity(id)[0]).toBeCloseTo(0.2, 9);
    world.step();
    expect(world.getVelocity(id)[0]).toBeCloseTo(0.2, 9);
  });
});
