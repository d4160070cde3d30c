// Numbers behind the Integrators story: the three scenes (a projectile, a spring,
// an orbit), their closed forms, and runs of sinew's teaching steppers at a time
// step, with the truncation error and the energy drift of each run. Everything
// here runs once per change of the story's controls, never per frame.
import { particleState, projectilePosition, steppers, type AccelerationFunction, type StepperName } from '../../src/teaching/index.js';
import type { Vec3 } from '../../src/core/math.js';

/** The three scenes the Integrators story can show. */
export type Scenario = 'projectile' | 'spring' | 'orbit';

/** A stepper as the story shows it. */
export interface IntegratorInfo {
  name: StepperName;
  label: string;
  color: string;
  /** Order of accuracy claimed by `steppers` (1 or 2). */
  order: 1 | 2;
}

/** The five teaching steppers, in the order the story lays them out. */
export const INTEGRATORS: readonly IntegratorInfo[] = [
  { name: 'explicitEuler', label: 'Explicit Euler', color: '#ff6b6b', order: steppers.explicitEuler.order },
  { name: 'symplecticEuler', label: 'Symplectic Euler', color: '#ffa94d', order: steppers.symplecticEuler.order },
  { name: 'leapfrog', label: 'Leapfrog', color: '#69db7c', order: steppers.leapfrog.order },
  { name: 'velocityVerlet', label: 'Velocity Verlet', color: '#4dabf7', order: steppers.velocityVerlet.order },
  { name: 'positionVerlet', label: 'Position Verlet', color: '#c0a6ff', order: steppers.positionVerlet.order },
];

/** A scene: initial state, forces, closed form, energy, and how to plot it. */
export interface ScenarioSpec {
  title: string;
  /** Simulated seconds shown (and over which the error is measured). */
  duration: number;
  /** Period of the motion, for the energy trend (undefined: not periodic). */
  period: number | undefined;
  p0: Vec3;
  v0: Vec3;
  acceleration: AccelerationFunction;
  /** The exact position at time `t`, written into `out`. */
  exact(t: number, out: Vec3): Vec3;
  /** Energy per unit mass. */
  energy(p: Readonly<Vec3>, v: Readonly<Vec3>): number;
  /** Plot coordinates (u, v) of position `p` at time `t`. */
  plotU(p: Readonly<Vec3>, t: number): number;
  plotV(p: Readonly<Vec3>, t: number): number;
  /** Plot window: [uMin, uMax, vMin, vMax]. */
  window: readonly [number, number, number, number];
  /** Keep 1 m = 1 m on both plot axes. */
  equalAspect: boolean;
  /** Axis names for the panels. */
  axes: readonly [string, string];
}

const G = 9.81;
/** Spring and orbit: ω = π rad/s, so one period is 2 s. */
const OMEGA = Math.PI;

/** The slides' 75.2° shot (z up there, y up here): from (10, 2) m at (7.68, 29) m/s. */
export const SLIDES_P0: Vec3 = [10, 2, 0];
export const SLIDES_V0: Vec3 = [7.68, 29, 0];
const GRAVITY: Vec3 = [0, -G, 0];

export const SCENARIOS: Readonly<Record<Scenario, ScenarioSpec>> = {
  projectile: {
    title: 'projectile: the slides’ 75.2° shot, 30 m/s',
    duration: 5.4,
    period: undefined,
    p0: SLIDES_P0,
    v0: SLIDES_V0,
    acceleration: (_p, _v, out) => {
      out[0] = 0;
      out[1] = -G;
      out[2] = 0;
    },
    exact: (t, out) => projectilePosition(SLIDES_P0, SLIDES_V0, GRAVITY, t, out),
    energy: (p, v) => 0.5 * (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]) + G * p[1],
    plotU: (p) => p[0],
    plotV: (p) => p[1],
    window: [6, 56, 0, 54],
    equalAspect: true,
    axes: ['x (m)', 'height (m)'],
  },
  spring: {
    title: 'spring: x″ = −ω²x, period 2 s',
    duration: 4,
    period: 2,
    p0: [1, 0, 0],
    v0: [0, 0, 0],
    acceleration: (p, _v, out) => {
      out[0] = -OMEGA * OMEGA * p[0];
      out[1] = -OMEGA * OMEGA * p[1];
      out[2] = -OMEGA * OMEGA * p[2];
    },
    exact: (t, out) => {
      out[0] = Math.cos(OMEGA * t);
      out[1] = 0;
      out[2] = 0;
      return out;
    },
    energy: (p, v) => 0.5 * (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]) + 0.5 * OMEGA * OMEGA * (p[0] * p[0] + p[1] * p[1] + p[2] * p[2]),
    plotU: (_p, t) => t,
    plotV: (p) => p[0],
    window: [0, 4, -2.2, 2.2],
    equalAspect: false,
    axes: ['time (s)', 'x (m)'],
  },
  orbit: {
    title: 'orbit: a = −GM·p/|p|³, circular, period 2 s',
    duration: 4,
    period: 2,
    p0: [1, 0, 0],
    v0: [0, OMEGA, 0],
    acceleration: (p, _v, out) => {
      const r2 = p[0] * p[0] + p[1] * p[1] + p[2] * p[2];
      const k = -(OMEGA * OMEGA) / (r2 * Math.sqrt(r2));
      out[0] = k * p[0];
      out[1] = k * p[1];
      out[2] = k * p[2];
    },
    exact: (t, out) => {
      out[0] = Math.cos(OMEGA * t);
      out[1] = Math.sin(OMEGA * t);
      out[2] = 0;
      return out;
    },
    energy: (p, v) => 0.5 * (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]) - (OMEGA * OMEGA) / Math.hypot(p[0], p[1], p[2]),
    plotU: (p) => p[0],
    plotV: (p) => p[1],
    window: [-2.2, 2.2, -2.2, 2.2],
    equalAspect: true,
    axes: ['x (m)', 'y (m)'],
  },
};

/** One run of one stepper over a scene's duration. */
export interface Run {
  /** Steps taken and the step used (duration / steps: the control's Δt rounded so the steps fit the duration). */
  steps: number;
  dt: number;
  /** Plot coordinates (u, v) of the position after each step, step 0 first. */
  plot: Float32Array;
  /** Largest distance between the numerical and the exact position over the run (m). */
  maxError: number;
  /** Relative energy change: mean over the last period minus mean over the first, over |E₀| (projectile: E(T) − E₀). */
  energyDrift: number;
}

/** Runs stepper `name` over `spec` with `steps` steps; `keepPlot: false` skips the plot coordinates (an empty array). */
export function run(spec: ScenarioSpec, name: StepperName, steps: number, keepPlot = true): Run {
  const dt = spec.duration / steps;
  const step = steppers[name].step;
  const state = particleState(spec.p0, spec.v0);
  const exact: Vec3 = [0, 0, 0];
  const plot = new Float32Array(keepPlot ? (steps + 1) * 2 : 0);
  if (keepPlot) {
    plot[0] = spec.plotU(state.p, 0);
    plot[1] = spec.plotV(state.p, 0);
  }
  // Position Verlet's `v` is the mean velocity over the latest step, (p − p*)/dt, half a
  // step behind `p`; its energy uses v + a·dt/2, the velocity at `p` to second order.
  const velocity: Vec3 = [0, 0, 0];
  const a: Vec3 = [0, 0, 0];
  const halfStepBehind = name === 'positionVerlet';
  const energy = (n: number) => {
    if (!halfStepBehind || n === 0) return spec.energy(state.p, state.v);
    spec.acceleration(state.p, state.v, a);
    for (let k = 0; k < 3; k++) velocity[k] = state.v[k]! + 0.5 * a[k]! * dt;
    return spec.energy(state.p, velocity);
  };
  const e0 = energy(0);
  const periodSteps = spec.period === undefined ? 0 : Math.max(1, Math.round(spec.period / dt));
  let firstSum = e0;
  let firstCount = 1;
  let lastSum = 0;
  let lastCount = 0;
  let maxError = 0;
  for (let n = 1; n <= steps; n++) {
    step(state, spec.acceleration, dt);
    const t = n * dt;
    spec.exact(t, exact);
    const error = Math.hypot(state.p[0] - exact[0], state.p[1] - exact[1], state.p[2] - exact[2]);
    if (error > maxError || Number.isNaN(error)) maxError = error;
    if (keepPlot) {
      plot[n * 2] = spec.plotU(state.p, t);
      plot[n * 2 + 1] = spec.plotV(state.p, t);
    }
    if (periodSteps > 0) {
      const e = energy(n);
      if (n < periodSteps) {
        firstSum += e;
        firstCount++;
      }
      if (n > steps - periodSteps) {
        lastSum += e;
        lastCount++;
      }
    }
  }
  const energyDrift = periodSteps > 0 && lastCount > 0 ? (lastSum / lastCount - firstSum / firstCount) / Math.abs(e0) : (energy(steps) - e0) / Math.abs(e0);
  return { steps, dt, plot, maxError, energyDrift };
}

/** Steps that fit `spec.duration` for a wished-for step `dt` (at least 1). */
export function stepsFor(spec: ScenarioSpec, dt: number): number {
  return Math.max(1, Math.round(spec.duration / dt));
}

/** Below this a position error is rounding, not truncation: the stepper is exact here. */
export const EXACT = 1e-9;

/** What the story shows for one stepper: runs at Δt and Δt/2, and the error over a sweep of steps. */
export interface Comparison {
  info: IntegratorInfo;
  run: Run;
  half: Run;
  /** maxError at Δt over maxError at Δt/2: about 2 for a first-order stepper, 4 for a second-order one (NaN when exact). */
  ratio: number;
  /** [dt, maxError] pairs for the log–log plot, largest step first. */
  sweep: [number, number][];
}

/** Runs every stepper on `scenario` at step `dt` and at `dt / 2`, plus a sweep of 2⁻⁴…2³ × `dt`. */
export function compare(scenario: Scenario, dt: number): Comparison[] {
  const spec = SCENARIOS[scenario];
  const steps = stepsFor(spec, dt);
  return INTEGRATORS.map((info) => {
    const full = run(spec, info.name, steps);
    const half = run(spec, info.name, steps * 2);
    const ratio = full.maxError < EXACT ? Number.NaN : full.maxError / half.maxError;
    const sweep: [number, number][] = [];
    for (let j = 3; j >= -4; j--) {
      const n = Math.max(1, Math.round(steps / 2 ** j));
      if (sweep.length > 0 && spec.duration / n === sweep[sweep.length - 1]![0]) continue;
      sweep.push([spec.duration / n, run(spec, info.name, n, false).maxError]);
    }
    return { info, run: full, half, ratio, sweep };
  });
}

/** The slides' truncation error table: one explicit Euler step from the slides' state. */
export interface OneStep {
  dt: number;
  numerical: number;
  exact: number;
  error: number;
}

/** One explicit Euler step of the slides' shot at Δt = 0.2, 0.1 and 0.01 s: the height after it, numerical and exact. */
export function slidesTable(): OneStep[] {
  const spec = SCENARIOS.projectile;
  const exact: Vec3 = [0, 0, 0];
  return [0.2, 0.1, 0.01].map((dt) => {
    const state = particleState(spec.p0, spec.v0);
    steppers.explicitEuler.step(state, spec.acceleration, dt);
    spec.exact(dt, exact);
    return { dt, numerical: state.p[1], exact: exact[1], error: state.p[1] - exact[1] };
  });
}
