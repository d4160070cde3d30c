import { describe, expect, it } from 'vitest';
import { createCloth, createRope, World, type WorldOptions } from '../../src/core/index.js';
import { leastAllocation } from '../support/heap.js';

// XPBD compliance for attachments: a pin of compliance α is a zero-length
// spring of k = 1/α between its particle and its target, whatever the
// substeps and iterations. Checked against closed forms as the sticks are in
// compliance.test.ts: the static sag α·m·g, the spring period 2π·√(m·α), and an
// energy audit in which nothing gains energy.

const g = 9.81;

/** A particle of mass `m` pinned at the origin by a pin of compliance `alpha` (and `damping`), released from rest at the target. */
function hangingOnPin(options: WorldOptions, m: number, alpha: number, damping = 0) {
  const world = new World({ damping: 0, ...options });
  const bob = world.addParticle({ position: [0, 0, 0], mass: m });
  const pin = world.addPin(bob, [0, 0, 0], { compliance: alpha, damping });
  return { world, bob, pin };
}

/** Mean period between the downward zero crossings of `signal`, sampled once per step, linearly interpolated. */
function crossingPeriod(world: World, steps: number, signal: () => number): number {
  const crossings: number[] = [];
  let x = signal();
  for (let i = 0; i < steps; i++) {
    world.step();
    const nx = signal();
    if (x > 0 && nx <= 0) crossings.push((i + x / (x - nx)) * world.timeStep);
    x = nx;
  }
  expect(crossings.length).toBeGreaterThanOrEqual(4);
  return (crossings[crossings.length - 1]! - crossings[0]!) / (crossings.length - 1);
}

describe('a compliant pin is a zero-length spring of k = 1/α at any solver setting', () => {
  // α·m·g = 0.02 m; period 2π·√(m·α) = 0.284 s.
  const m = 2;
  const alpha = 0.02 / (m * g);

  for (const substeps of [5, 10, 20]) {
    for (const iterations of [1, 2, 4]) {
      it(`a hanging mass sags α·m·g within 2% (${substeps} substeps × ${iterations} iterations)`, () => {
        // Released at the target it bounces between 0 and 2·α·m·g; the mean over 20 s (70 periods) is the equilibrium.
        const { world, bob } = hangingOnPin({ substeps, iterations }, m, alpha);
        const steps = 20 * 60;
        let sum = 0;
        for (let i = 0; i < steps; i++) {
          world.step();
          sum -= world.getPosition(bob)[1];
        }
        expect(Math.abs(sum / steps / (alpha * m * g) - 1)).toBeLessThan(0.02);
        // Damped, it settles there (the steady state of XPBD is exact, not only its mean).
        const damped = hangingOnPin({ substeps, iterations }, m, alpha, 20);
        for (let i = 0; i < 10 * 60; i++) damped.world.step();
        expect(Math.abs(-damped.world.getPosition(damped.bob)[1] / (alpha * m * g) - 1)).toBeLessThan(0.02);
      });

      it(`bounces with the period 2π·√(m·α) within 2% (${substeps} substeps × ${iterations} iterations)`, () => {
        const { world, bob } = hangingOnPin({ substeps, iterations }, m, alpha);
        const period = crossingPeriod(world, 240, () => -world.getPosition(bob)[1] - alpha * m * g);
        expect(Math.abs(period / (2 * Math.PI * Math.sqrt(m * alpha)) - 1)).toBeLessThan(0.02);
      });
    }
  }

  it('swings sideways with the same period: the spring has no preferred axis', () => {
    const { world, bob } = hangingOnPin({ substeps: 10, gravity: [0, 0, 0] }, m, alpha);
    world.setPosition(bob, [0.05, 0, 0.05]);
    const period = crossingPeriod(world, 240, () => world.getPosition(bob)[0]);
    expect(Math.abs(period / (2 * Math.PI * Math.sqrt(m * alpha)) - 1)).toBeLessThan(0.02);
    const p = world.getPosition(bob);
    expect(Math.abs(p[0] - p[2])).toBeLessThan(1e-12);
  });

  it('pulls a chain by its end as a spring: a rope hanging on it sags by α times the whole weight', () => {
    const world = new World({ damping: 0.5, substeps: 10 });
    const rope = createRope(world, { from: [0, 0, 0], to: [0, -1, 0], segments: 10, mass: 1.1, pinStart: true, pinCompliance: 1e-3 });
    for (let i = 0; i < 600; i++) world.step();
    expect(world.getMass(rope.first)).toBeCloseTo(0.1, 12);
    // 11 particles of 0.1 kg: the pin carries 1.1 kg.
    expect(Math.abs(-world.getPosition(rope.first)[1] / (1e-3 * 1.1 * g) - 1)).toBeLessThan(0.02);
  });
});

describe('a curtain on compliant pins', () => {
  for (const [substeps, iterations] of [
    [5, 1],
    [20, 4],
  ] as const) {
    it(`its top row sags α times the weight of a column within 2% (${substeps} substeps × ${iterations} iterations)`, () => {
      // 20 × 20 particles of 1 kg pinned along the top by pins of 1e-4 m/N: each carries its column, 20 kg, so 19.6 mm.
      const world = new World({ substeps, iterations, damping: 0 });
      const cloth = createCloth(world, { width: 20, height: 20, spacing: 0.05, corner: [0, 2, 0], pin: 'top', pinCompliance: 1e-4, particleMass: 1 });
      const p = world.particles.position;
      let sum = 0;
      for (let i = 0; i < 600; i++) {
        world.step();
        // Averaged over seconds 8 to 10: it bounces about the hanging shape until then.
        if (i >= 480) for (let x = 0; x < 20; x++) sum += 2 - p[(cloth.first + x) * 3 + 1]!;
      }
      expect(Math.abs(sum / (120 * 20) / (1e-4 * 20 * g) - 1)).toBeLessThan(0.02);
    });
  }
});

describe('energy of a compliant pin: with damping 0 nothing gains energy', () => {
  /** Kinetic (by the substep's velocity) + gravitational + elastic ½·|x − t|²/α, positions at the substep midpoint as in energyAudit.ts. */
  function energy(world: World, bob: number, m: number, alpha: number): number {
    const pos = world.particles.position;
    const prev = world.particles.previous;
    const h = world.timeStep / world.substeps;
    let v2 = 0;
    let r2 = 0;
    for (let k = 0; k < 3; k++) {
      const v = (pos[bob * 3 + k]! - prev[bob * 3 + k]!) / h;
      const mid = (pos[bob * 3 + k]! + prev[bob * 3 + k]!) / 2;
      v2 += v * v;
      r2 += mid * mid;
    }
    const y = (pos[bob * 3 + 1]! + prev[bob * 3 + 1]!) / 2;
    return 0.5 * m * v2 + m * g * y + (0.5 * r2) / alpha;
  }

  for (const [substeps, iterations] of [
    [5, 1],
    [10, 1],
    [20, 4],
  ] as const) {
    it(`a mass thrown sideways on a compliant pin keeps at most its energy over 20 s (${substeps} substeps × ${iterations} iterations)`, () => {
      const m = 0.5;
      const alpha = 2e-3;
      const { world, bob } = hangingOnPin({ substeps, iterations }, m, alpha);
      world.setVelocity(bob, [1, 2, 0.5]);
      world.step();
      // Measured from a floor below the lowest point it can reach, so that the relative gain is of a positive total.
      const floor = 1;
      const total = () => energy(world, bob, m, alpha) + m * g * floor;
      const e0 = total();
      let lowest = e0;
      let maxRise = 0;
      let maxGain = -Infinity;
      for (let s = 0; s < 20 * 60; s++) {
        world.step();
        const e = total();
        maxGain = Math.max(maxGain, (e - e0) / e0);
        lowest = Math.min(lowest, e);
        maxRise = Math.max(maxRise, (e - lowest) / e0);
      }
      expect(maxGain).toBeLessThanOrEqual(1e-3);
      expect(maxRise).toBeLessThanOrEqual(1e-3);
    });
  }

  it("the constraint damping only takes energy out, step after step, at the dashpot's rate", () => {
    // k = 100 N/m, m = 1 kg, c = 2 N·s/m (damping ratio 0.1): the energy falls as e^(−c·t/m) on average.
    const { world, bob } = hangingOnPin({ substeps: 10, gravity: [0, 0, 0] }, 1, 1e-2, 2);
    world.setPosition(bob, [0.1, 0, 0]);
    const e0 = (0.5 * 0.1 * 0.1) / 1e-2;
    let last = Infinity;
    for (let s = 0; s < 120; s++) {
      world.step();
      const e = energy(world, bob, 1, 1e-2);
      expect(e).toBeLessThanOrEqual(last);
      last = e;
    }
    // Measured 0.80 of e^(−4) after 2 s: the rest is XPBD's own (implicit) damping and where in a swing the 2 s end.
    const ratio = last / e0 / Math.exp(-4);
    expect(ratio).toBeGreaterThan(0.6);
    expect(ratio).toBeLessThan(1.2);
  });
});

describe('compliant pins in the world', () => {
  it('compliance 0 is the rigid pin, bit for bit, with a compliant pin elsewhere in the table', () => {
    const run = (withSpring: boolean) => {
      const world = new World({ substeps: 5 });
      const cloth = createCloth(world, { width: 8, height: 8, spacing: 0.1, pin: 'top-corners' });
      if (withSpring) {
        const other = world.addParticle({ position: [5, 0, 0] });
        world.addPin(other, [5, 0, 0], { compliance: 1e-3 });
      }
      for (let i = 0; i < 120; i++) world.step();
      return world.particles.position.slice(cloth.first * 3, (cloth.first + cloth.count) * 3);
    };
    expect(run(true)).toEqual(run(false));
  });

  it('leaves the particle its mass, and setPin switches between rigid and compliant', () => {
    const world = new World({ substeps: 10 });
    const a = world.addParticle({ position: [0, 0, 0], mass: 2 });
    const pin = world.addPin(a, undefined, { compliance: 1e-3 });
    expect(world.particles.inverseMass[a]).toBe(0.5);
    world.setPin(pin, { compliance: 0 });
    expect(world.particles.inverseMass[a]).toBe(0);
    expect(world.getMass(a)).toBe(2);
    world.setPin(pin, { compliance: 1e-3 });
    expect(world.particles.inverseMass[a]).toBe(0.5);
    // A rigid pin beside a compliant one holds the particle; removing the rigid one frees it.
    const rigid = world.addPin(a);
    expect(world.particles.inverseMass[a]).toBe(0);
    world.removeConstraint(rigid);
    expect(world.particles.inverseMass[a]).toBe(0.5);
    world.removeConstraint(pin);
    expect(world.particles.inverseMass[a]).toBe(0.5);
    expect(world.pins.compliant).toBe(false);
  });

  it('a rope asleep on a compliant pin stays where it fell asleep, and wakes when the target moves', () => {
    const world = new World({ substeps: 10, sleep: true, damping: 2 });
    const rope = createRope(world, { from: [0, 0, 0], to: [0, -0.5, 0], segments: 5, particleMass: 1, pinStart: true, pinCompliance: 1e-2 });
    // A loose particle falling far away keeps the substeps running while the rope sleeps.
    world.addParticle({ position: [100, 0, 0] });
    for (let i = 0; i < 600 && !world.sleep.isAsleep(rope.body.id); i++) world.step();
    expect(world.sleep.isAsleep(rope.body.id)).toBe(true);
    const asleep = world.getPosition(rope.first);
    // 6 particles of 1 kg: 0.59 m below the target.
    expect(asleep[1]).toBeCloseTo(-1e-2 * 6 * g, 1);
    for (let i = 0; i < 120; i++) world.step();
    expect(world.getPosition(rope.first)).toEqual(asleep);
    world.setPinTarget(rope.startPin!, [0, 1, 0]);
    world.step();
    expect(world.sleep.isAsleep(rope.body.id)).toBe(false);
    for (let i = 0; i < 120; i++) world.step();
    expect(world.getPosition(rope.first)[1]).toBeGreaterThan(asleep[1] + 0.5);
  });

  it('rejects bad values, naming them', () => {
    const world = new World();
    const a = world.addParticle({ position: [0, 0, 0] });
    expect(() => world.addPin(a, undefined, { compliance: -1 })).toThrow(/addPin: compliance.*-1/);
    expect(() => world.addPin(a, undefined, { damping: NaN })).toThrow(/addPin: damping.*NaN/);
    const pin = world.addPin(a);
    expect(() => world.setPin(pin, { compliance: Infinity })).toThrow(/setPin: compliance.*Infinity/);
    expect(() => world.setPin(pin + 100, { compliance: 1 })).toThrow(/setPin: no pin with id/);
    expect(() => createRope(world, { from: [0, 0, 0], to: [1, 0, 0], segments: 2, pinStart: true, pinCompliance: -2 })).toThrow(/createRope: pinCompliance.*-2/);
  });

  it('a snapshot keeps the pins compliant, and an older one without the columns restores them rigid', () => {
    const { world, bob } = hangingOnPin({ substeps: 10 }, 1, 1e-2, 0.5);
    for (let i = 0; i < 30; i++) world.step();
    const snap = world.snapshot();
    const later = () => {
      for (let i = 0; i < 30; i++) world.step();
      return world.getPosition(bob);
    };
    const first = later();
    world.restore(snap);
    expect(later()).toEqual(first);
    expect(snap.pins.compliance?.[0]).toBe(1e-2);
    const old = { ...snap, pins: { ...snap.pins } };
    delete old.pins.compliance;
    delete old.pins.damping;
    world.restore(old);
    expect(world.pins.compliance[0]).toBe(0);
    expect(world.pins.compliant).toBe(false);
  });

  it('steps without allocating', () => {
    const world = new World({ substeps: 10 });
    const cloth = createCloth(world, { width: 10, height: 10, spacing: 0.1, structural: { compliance: 1e-4 } });
    for (let i = 0; i < 10; i++) world.addPin(cloth.first + i, undefined, { compliance: 1e-3, damping: i % 2 });
    const run = (steps: number) => {
      for (let i = 0; i < steps; i++) world.step();
    };
    run(60);
    expect(leastAllocation(() => run(2000))).toBeLessThan(16 * 1024);
  });
});
