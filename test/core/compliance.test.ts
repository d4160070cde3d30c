import { describe, expect, it } from 'vitest';
import { complianceForStiffness, wasmKernelAvailable, World, type StickKernel, type WorldOptions } from '../../src/core/index.js';

// XPBD compliance (Macklin, Müller, Chentanez 2016): a stick of compliance α is
// a spring of k = 1/α, whatever the substeps and iterations. These check it
// against closed forms: the static stretch α·m·g, the spring period 2π·√(m·α),
// the elastic pendulum's period, and the curtain.

const kernels: StickKernel[] = wasmKernelAvailable() ? ['js', 'wasm'] : ['js'];
const g = 9.81;

/** A bob of mass `m` hanging on one stick of compliance `alpha` and rest length `length` below a pinned anchor at the origin, released from `start` (m below the anchor, default the rest length). */
function hangingMass(options: WorldOptions, m: number, alpha: number, length: number, start = length, angle = 0) {
  const world = new World({ damping: 0, ...options });
  const anchor = world.addParticle({ position: [0, 0, 0] });
  world.addPin(anchor);
  const bob = world.addParticle({ position: [start * Math.sin(angle), -start * Math.cos(angle), 0], mass: m });
  const stick = world.addStick(anchor, bob, { length, compliance: alpha });
  return { world, bob, stick };
}

/** Times of the downward zero crossings of `signal`, sampled once per step, linearly interpolated. */
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

describe('a compliant stick is a spring of k = 1/α at any solver setting', () => {
  // α·m·g = 0.02 m, 4% of the 0.5 m rest length.
  const m = 2;
  const alpha = 0.02 / (m * g);
  for (const kernel of kernels) {
    for (const substeps of [1, 2, 5, 10, 20, 50]) {
      it(`a hanging mass stretches it by α·m·g within 2% (${kernel} kernel, ${substeps} substeps, 1 and 4 iterations)`, () => {
        for (const iterations of [1, 4]) {
          // Released at its rest length it bounces between 0 and 2·α·m·g about the equilibrium;
          // 20 s hold 157 bounces (period 2π·√(m·α) = 0.127 s), so the average is the equilibrium within 0.2%.
          const { world, bob } = hangingMass({ kernel, substeps, iterations }, m, alpha, 0.5);
          expect(world.kernel).toBe(kernel);
          const steps = 20 * 60;
          let sum = 0;
          for (let i = 0; i < steps; i++) {
            world.step();
            sum += -world.getPosition(bob)[1] - 0.5;
          }
          expect(Math.abs(sum / steps / (alpha * m * g) - 1)).toBeLessThan(0.02);
        }
      });
    }
  }

  it('a rigid stick (compliance 0) under the same load does not stretch (the control)', () => {
    const { world, bob } = hangingMass({ substeps: 10 }, m, 0, 0.5);
    for (let i = 0; i < 120; i++) world.step();
    expect(-world.getPosition(bob)[1] - 0.5).toBeLessThan(1e-6);
  });
});

describe('a pendulum on a compliant rope', () => {
  // k = 1/α = 100 N/m on 1 kg: the static stretch m·g·α = 0.098 m lengthens the 0.5 m rope by a fifth.
  const m = 1;
  const alpha = 0.01;
  const length = 0.5;
  for (const kernel of kernels) {
    for (const substeps of [2, 10, 20]) {
      it(`bounces with the spring period 2π·√(m·α) within 2% (${kernel} kernel, ${substeps} substeps)`, () => {
        const { world, bob } = hangingMass({ kernel, substeps }, m, alpha, length);
        const equilibrium = length + alpha * m * g;
        const period = crossingPeriod(world, 240, () => -world.getPosition(bob)[1] - equilibrium);
        expect(Math.abs(period / (2 * Math.PI * Math.sqrt(m * alpha)) - 1)).toBeLessThan(0.02);
      });

      it(`swings with the elastic pendulum's period 2π·√((L + α·m·g)/g) within 2%, not the rigid rope's (${kernel} kernel, ${substeps} substeps)`, () => {
        // Released at 5° at its stretched length, so that it swings without bouncing.
        const stretched = length + alpha * m * g;
        const { world, bob } = hangingMass({ kernel, substeps }, m, alpha, length, stretched, (5 * Math.PI) / 180);
        const period = crossingPeriod(world, 60 * 8, () => world.getPosition(bob)[0]);
        expect(Math.abs(period / (2 * Math.PI * Math.sqrt(stretched / g)) - 1)).toBeLessThan(0.02);
        // The rigid rope's period is 9% shorter: the test tells them apart.
        expect(period / (2 * Math.PI * Math.sqrt(length / g)) - 1).toBeGreaterThan(0.08);
      });
    }
  }
});

describe('constraint damping', () => {
  /** Decay rate (1/s) of a 1 kg bob bouncing on a stick of α = 1e-3 m/N (ω = 31.6/s) with damping `c`, from the peaks of its bounce over 4 s. */
  function decayRate(substeps: number, c: number): number {
    const { world, bob, stick } = hangingMass({ substeps }, 1, 1e-3, 0.5);
    world.setStick(stick, { damping: c });
    const equilibrium = 0.5 + 1e-3 * g;
    const peaks: [number, number][] = [];
    let x1 = 0;
    let x2 = 0;
    for (let i = 0; i < 240; i++) {
      world.step();
      const x = Math.abs(-world.getPosition(bob)[1] - equilibrium);
      if (x1 > x && x1 > x2) peaks.push([(i - 1) * world.timeStep, x1]);
      x2 = x1;
      x1 = x;
    }
    const [t0, p0] = peaks[0]!;
    const [t1, p1] = peaks[peaks.length - 1]!;
    return Math.log(p0 / p1) / (t1 - t0);
  }

  for (const substeps of [10, 20]) {
    it(`adds the dashpot's decay rate c/(2m) within 10% (${substeps} substeps)`, () => {
      const c = 4;
      expect(Math.abs((decayRate(substeps, c) - decayRate(substeps, 0)) / (c / 2) - 1)).toBeLessThan(0.1);
    });

    // XPBD's compliant projection is implicit in the spring force, which damps a
    // mode of frequency ω at ω²·h/2 (h the substep): a property of the method
    // (halved by doubling the substeps), measured here so docs/materials.md's claim holds.
    it(`without it, the spring still loses amplitude at XPBD's ω²·h/2 within 15% (${substeps} substeps)`, () => {
      const h = 1 / 60 / substeps;
      expect(Math.abs(decayRate(substeps, 0) / ((1000 * h) / 2) - 1)).toBeLessThan(0.15);
    });
  }

  it('settles a hanging mass at α·m·g', () => {
    const { world, bob, stick } = hangingMass({ substeps: 10 }, 1, 1e-3, 0.5);
    world.setStick(stick, { damping: 20 });
    for (let i = 0; i < 300; i++) world.step();
    expect(Math.abs((-world.getPosition(bob)[1] - 0.5) / (1e-3 * g) - 1)).toBeLessThan(0.02);
  });
});

describe('the legacy per-pass stiffness, mapped to a compliance', () => {
  // One particle on a stick to a pin, 1 pass per substep: stiffness s settles at C = g·h²·(1 − s)/s, compliance α at α·m·g.
  function stretch(options: { substeps: number }, stick: { stiffness?: number; compliance?: number }): number {
    const world = new World({ damping: 5, substeps: options.substeps });
    const anchor = world.addParticle({ position: [0, 0, 0] });
    world.addPin(anchor);
    const bob = world.addParticle({ position: [0, -1, 0], mass: 0.5 });
    world.addStick(anchor, bob, { length: 1, ...stick });
    for (let i = 0; i < 600; i++) world.step();
    return -world.getPosition(bob)[1] - 1;
  }

  it('complianceForStiffness gives the stretch the stiffness gave at the settings it was tuned for, and keeps it at others', () => {
    const compliance = complianceForStiffness(0.3, { inverseMassSum: 2, h: 1 / 600, passes: 1 });
    const legacy = stretch({ substeps: 10 }, { stiffness: 0.3 });
    expect(Math.abs(legacy / (g * (1 / 600) ** 2 * (0.7 / 0.3)) - 1)).toBeLessThan(0.01);
    expect(Math.abs(stretch({ substeps: 10 }, { compliance }) / legacy - 1)).toBeLessThan(0.01);
    // At 4 times the substeps the legacy stick is 16 times stiffer; the mapped compliance is not.
    expect(stretch({ substeps: 40 }, { stiffness: 0.3 }) / legacy).toBeLessThan(0.1);
    expect(Math.abs(stretch({ substeps: 40 }, { compliance }) / legacy - 1)).toBeLessThan(0.01);
  });

  it('rejects a stiffness outside (0, 1], naming it', () => {
    expect(() => complianceForStiffness(1.5, { inverseMassSum: 1, h: 1 / 600, passes: 1 })).toThrow(/stiffness.*1\.5/);
  });
});
