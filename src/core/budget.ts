import { WORLD_DEFAULTS } from './defaults.js';
import { checkInteger, checkNumber } from './math.js';

/**
 * The paper's time/accuracy trade-off as a controller: "the algorithm can be
 * stopped at any time … this error margin can even be adjusted adaptively at
 * run-time". Given a per-frame budget in milliseconds it picks, before each
 * `advance()`, how many substeps and relaxation passes the frame's steps get so
 * that they fit, never going below `minSubsteps` × `minIterations` nor above the
 * world's own `substeps` × `iterations`.
 *
 * Cost model: a frame costs steps × substeps × passes × c, where c (ms per
 * substep-pass) is measured after every frame and smoothed. Substeps go first
 * (they are the larger unit), iterations only once substeps are at their minimum.
 */
export class TimeBudget {
  /** Smoothed cost of one substep-pass in ms; 0 until the first frame is measured. */
  costPerPass = 0;
  /** Substeps chosen for the coming frame. */
  substeps = 1;
  /** Iterations chosen for the coming frame. */
  iterations = 1;

  private budgetValue: number;
  private minSubstepsValue: number;
  private minIterationsValue: number;

  constructor(budgetMs = WORLD_DEFAULTS.budgetMs, minSubsteps = WORLD_DEFAULTS.minSubsteps, minIterations = WORLD_DEFAULTS.minIterations) {
    this.budgetValue = checkNumber(budgetMs, 'World: budgetMs', 0);
    this.minSubstepsValue = checkInteger(minSubsteps, 'World: minSubsteps', 1);
    this.minIterationsValue = checkInteger(minIterations, 'World: minIterations', 1);
  }

  /** Milliseconds per frame (>= 0); 0 turns the controller off. */
  get budgetMs(): number {
    return this.budgetValue;
  }
  set budgetMs(ms: number) {
    this.budgetValue = checkNumber(ms, 'World: budgetMs', 0);
  }

  /** Substeps never drop below this (an integer >= 1, capped by the world's `substeps`). */
  get minSubsteps(): number {
    return this.minSubstepsValue;
  }
  set minSubsteps(n: number) {
    this.minSubstepsValue = checkInteger(n, 'World: minSubsteps', 1);
  }

  /** Relaxation passes never drop below this (an integer >= 1, capped by each body's own count). */
  get minIterations(): number {
    return this.minIterationsValue;
  }
  set minIterations(n: number) {
    this.minIterationsValue = checkInteger(n, 'World: minIterations', 1);
  }

  /** True when a budget is set. */
  get active(): boolean {
    return this.budgetMs > 0;
  }

  /**
   * Chooses `substeps` and `iterations` for a frame of `steps` steps, given the
   * world's settings (the maxima) and `passes`, the most passes per substep any
   * body takes at full iterations.
   */
  plan(steps: number, maxSubsteps: number, maxIterations: number, passes: number): void {
    if (!this.active || this.costPerPass <= 0 || steps <= 0) {
      this.substeps = maxSubsteps;
      this.iterations = maxIterations;
      return;
    }
    const minSubsteps = Math.min(this.minSubsteps, maxSubsteps);
    const minIterations = Math.min(this.minIterations, maxIterations);
    // Substep-passes per step that fit the budget.
    const units = this.budgetMs / (steps * this.costPerPass);
    const full = passes / maxIterations;
    const substeps = Math.floor(units / passes);
    if (substeps >= minSubsteps) {
      this.substeps = Math.min(substeps, maxSubsteps);
      this.iterations = maxIterations;
      return;
    }
    this.substeps = minSubsteps;
    const iterations = Math.floor(units / (minSubsteps * full));
    this.iterations = Math.max(minIterations, Math.min(iterations, maxIterations));
  }

  /** Feeds back a frame: `ms` spent on `steps` steps of `substeps` substeps of `passes` passes each. */
  observe(ms: number, steps: number, substeps: number, passes: number): void {
    const units = steps * substeps * Math.max(passes, 1);
    if (units === 0 || !(ms >= 0)) return;
    const sample = ms / units;
    // Smoothing keeps one slow frame (a GC pause, a tab switch) from halving the quality.
    this.costPerPass = this.costPerPass > 0 ? this.costPerPass + 0.3 * (sample - this.costPerPass) : sample;
  }
}

/**
 * The passes a body asking for `n` gets when the world runs `active` of its
 * configured `configured` iterations: `n` itself at full quality, else scaled
 * down in proportion, but not below `min` (or `n`, when that is smaller).
 */
export function scaledIterations(n: number, active: number, configured: number, min: number): number {
  if (active >= configured) return n;
  const scaled = ((n * active) / configured + 0.5) | 0;
  const floor = n < min ? n : min;
  return scaled > floor ? scaled : floor;
}
