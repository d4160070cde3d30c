import { describe, expect, it } from 'vitest';
import {
  explicitEuler,
  leapfrog,
  particleState,
  positionVerlet,
  projectilePosition,
  projectileVelocity,
  steppers,
  symplecticEuler,
  velocityVerlet,
  type AccelerationFunction,
  type StepperName,
} from '../../src/teaching/index.js';
import type { Vec3 } from '../../src/core/index.js';

const names = Object.keys(steppers) as StepperName[];

// The slides' projectile (z up): at t = 5 s it is at (10, 0, 2) m moving at (7.68, 0, 29) m/s.
const slidesP: Vec3 = [10, 0, 2];
const slidesV: Vec3 = [7.68, 0, 29];
const g: Vec3 = [0, 0, -9.81];
const constantGravity: AccelerationFunction = (_p, _v, out) => {
  out[0] = g[0];
  out[1] = g[1];
  out[2] = g[2];
};

const omega = 2;
/** A unit mass on a spring of k = ω² to the origin. */
const spring: AccelerationFunction = (p, _v, out) => {
  for (let k = 0; k < 3; k++) out[k] = -omega * omega * p[k]!;
};
/** A unit-GM sun at the origin. */
const kepler: AccelerationFunction = (p, _v, out) => {
  const r = Math.hypot(p[0], p[1], p[2]);
  for (let k = 0; k < 3; k++) out[k] = -p[k]! / (r * r * r);
};

/** Largest |x(t) − cos ωt| over [0, T] for a spring released from x = 1 at rest. */
function springError(name: StepperName, T: number, n: number): number {
  const state = particleState([1, 0, 0]);
  const dt = T / n;
  let worst = 0;
  for (let i = 1; i <= n; i++) {
    steppers[name].step(state, spring, dt);
    worst = Math.max(worst, Math.abs(state.p[0] - Math.cos(omega * i * dt)));
  }
  return worst;
}

/** Energy over time, relative to the start: ½v² + U(p), sampled after every step. */
function energyHistory(name: StepperName, acceleration: AccelerationFunction, potential: (p: Vec3) => number, p0: Vec3, v0: Vec3, dt: number, n: number): number[] {
  const state = particleState(p0, v0);
  const energy = () => 0.5 * (state.v[0] ** 2 + state.v[1] ** 2 + state.v[2] ** 2) + potential(state.p);
  const e0 = energy();
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    steppers[name].step(state, acceleration, dt);
    out.push(energy() / e0);
  }
  return out;
}

describe('the closed-form projectile (slides)', () => {
  it('gives the slides’ exact positions 0.2, 0.1 and 0.01 s on', () => {
    const exact = [
      [0.2, 11.536, 7.6038],
      [0.1, 10.768, 4.851],
      [0.01, 10.0768, 2.2895],
    ];
    for (const [t, x, z] of exact) {
      const p = projectilePosition(slidesP, slidesV, g, t!);
      expect(p[0]).toBeCloseTo(x!, 4);
      expect(p[2]).toBeCloseTo(z!, 4);
    }
    expect(projectileVelocity(slidesV, g, 2)).toEqual([7.68, 0, expect.closeTo(29 - 19.62, 12)]);
  });
});

describe('explicit Euler (slides)', () => {
  it('misses the slides’ exact positions by their truncation errors 0.1962, 0.049 and 0.0005 m', () => {
    for (const [dt, printed] of [
      [0.2, '0.1962'],
      [0.1, '0.049'],
      [0.01, '0.0005'],
    ] as const) {
      const state = particleState(slidesP, slidesV);
      explicitEuler(state, constantGravity, dt);
      const exact = projectilePosition(slidesP, slidesV, g, dt);
      expect(state.p[0]).toBeCloseTo(exact[0], 12);
      const error = state.p[2] - exact[2];
      // One step's error is ½·g·dt²: it quarters as the step halves.
      expect(error).toBeCloseTo(0.5 * 9.81 * dt * dt, 12);
      expect(error.toFixed(printed.length - 2)).toBe(printed);
    }
  });

  it('is first order under constant gravity: over one second its error is ½·g·dt, halving with the step', () => {
    for (const n of [5, 10, 20]) {
      const state = particleState(slidesP, slidesV);
      for (let i = 0; i < n; i++) explicitEuler(state, constantGravity, 1 / n);
      expect(state.p[2] - projectilePosition(slidesP, slidesV, g, 1)[2]).toBeCloseTo(0.5 * 9.81 * (1 / n), 9);
    }
  });

  it('multiplies a spring’s energy by exactly 1 + ω²·dt² every step', () => {
    const history = energyHistory('explicitEuler', spring, (p) => 0.5 * omega * omega * p[0] ** 2, [1, 0, 0], [0, 0, 0], 0.05, 100);
    expect(history[99]).toBeCloseTo((1 + omega * omega * 0.05 * 0.05) ** 100, 9);
  });
});

describe('Verlet (slides, Jakobsen)', () => {
  it('started with one explicit Euler step, matches explicit Euler exactly under constant acceleration', () => {
    const euler = particleState(slidesP, slidesV);
    explicitEuler(euler, constantGravity, 0.2);
    const verlet = particleState(euler.p, euler.v);
    verlet.previous = [...slidesP];
    for (let i = 2; i <= 27; i++) {
      explicitEuler(euler, constantGravity, 0.2);
      positionVerlet(verlet, constantGravity, 0.2);
      for (let k = 0; k < 3; k++) expect(verlet.p[k]).toBeCloseTo(euler.p[k]!, 9);
    }
    // The slides' table: at t = 10.4 s, 27 steps on, the projectile is 20.87 m high.
    expect(verlet.p[2]).toBeCloseTo(20.87, 2);
  });

  it('with the World’s start follows the closed-form parabola exactly, as do leapfrog and velocity Verlet', () => {
    for (const name of ['positionVerlet', 'leapfrog', 'velocityVerlet'] as const) {
      const state = particleState(slidesP, slidesV);
      for (let i = 1; i <= 50; i++) {
        steppers[name].step(state, constantGravity, 0.1);
        const exact = projectilePosition(slidesP, slidesV, g, i * 0.1);
        for (let k = 0; k < 3; k++) expect(state.p[k]).toBeCloseTo(exact[k]!, 9);
      }
    }
  });
});

describe('order of accuracy on a spring (error over 3 s as the step halves)', () => {
  const ratios = (name: StepperName) => {
    const e = [100, 200, 400].map((n) => springError(name, 3, n));
    return [e[0]! / e[1]!, e[1]! / e[2]!];
  };

  it('explicit and symplectic Euler are first order: the error halves', () => {
    for (const name of ['explicitEuler', 'symplecticEuler'] as const) {
      for (const r of ratios(name)) expect(r, name).toBeGreaterThan(1.8);
      for (const r of ratios(name)) expect(r, name).toBeLessThan(2.3);
    }
  });

  it('leapfrog, velocity Verlet and position Verlet are second order: the error quarters', () => {
    for (const name of ['leapfrog', 'velocityVerlet', 'positionVerlet'] as const) {
      for (const r of ratios(name)) expect(r, name).toBeGreaterThan(3.7);
      for (const r of ratios(name)) expect(r, name).toBeLessThan(4.3);
    }
  });

  it('the `steppers` table states each one’s measured order', () => {
    for (const name of names) {
      const [, r] = ratios(name);
      expect(steppers[name].order, name).toBe(r! > 3 ? 2 : 1);
    }
  });

  it('leapfrog and velocity Verlet trace the same positions (forces of position alone)', () => {
    const a = particleState([1, 0.5, 0], [0, 1, 0]);
    const b = particleState([1, 0.5, 0], [0, 1, 0]);
    for (let i = 0; i < 500; i++) {
      leapfrog(a, spring, 0.01);
      velocityVerlet(b, spring, 0.01);
    }
    for (let k = 0; k < 3; k++) expect(a.p[k]).toBeCloseTo(b.p[k]!, 10);
  });
});

describe('energy over many periods', () => {
  const springPotential = (p: Vec3) => 0.5 * omega * omega * (p[0] ** 2 + p[1] ** 2 + p[2] ** 2);
  const keplerPotential = (p: Vec3) => -1 / Math.hypot(p[0], p[1], p[2]);

  it('only explicit Euler gains energy on a spring (ω·dt = 0.1, 50 periods)', () => {
    for (const name of names) {
      const history = energyHistory(name, spring, springPotential, [1, 0, 0], [0, 0, 0], 0.05, 1600);
      const worst = Math.max(...history.map((e) => Math.abs(e - 1)));
      if (name === 'explicitEuler') expect(history[1599]).toBeGreaterThan(100);
      else expect(worst, name).toBeLessThan(0.11);
      expect(steppers[name].gainsEnergy, name).toBe(history[1599]! > 1.5);
    }
  });

  it('only explicit Euler spirals out of a circular orbit (20 orbits, 200 steps each)', () => {
    const dt = (2 * Math.PI) / 200;
    for (const name of names) {
      const history = energyHistory(name, kepler, keplerPotential, [1, 0, 0], [0, 1, 0], dt, 4000);
      // Energy −½ rising towards 0 is the orbit widening.
      if (name === 'explicitEuler') expect(history[3999]).toBeLessThan(0.5);
      else expect(Math.max(...history.map((e) => Math.abs(e - 1))), name).toBeLessThan(0.05);
    }
  });

  it('second-order steppers hold energy far closer than symplectic Euler', () => {
    const worst = (name: StepperName) => Math.max(...energyHistory(name, spring, springPotential, [1, 0, 0], [0, 0, 0], 0.05, 400).map((e) => Math.abs(e - 1)));
    expect(worst('leapfrog')).toBeLessThan(worst('symplecticEuler') / 10);
    expect(worst('velocityVerlet')).toBeLessThan(worst('symplecticEuler') / 10);
  });
});

describe('stepper input', () => {
  it('rejects a step that is not a positive finite number', () => {
    const state = particleState([0, 0, 0]);
    expect(() => symplecticEuler(state, spring, 0)).toThrow('symplecticEuler: dt must be a positive finite number, got 0');
    expect(() => positionVerlet(state, spring, NaN)).toThrow('positionVerlet: dt must be a positive finite number, got NaN');
    expect(() => projectilePosition([0, 0, 0], [0, 0, 0], [0, 0, NaN], 1)).toThrow('projectilePosition: gravity must be finite numbers, got [0, 0, NaN]');
  });
});
