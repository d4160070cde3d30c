import type { WorldStats } from './stats.js';

/**
 * What a world says when it runs slower than real time (see {@link RealTimeWatch}):
 * the numbers behind the message, for a UI or a log.
 */
export interface SlowerThanRealTimeReport {
  /** Simulated seconds per second given to `advance()` over the window measured, in [0, 1). */
  readonly realTimeRatio: number;
  /** Wall-clock milliseconds per step over that window. */
  readonly msPerStep: number;
  /** Steps per simulated second (`1 / timeStep`): what real time needs. */
  readonly stepsPerSecond: number;
  /** Share of the time given that stepping took (wall clock over the seconds given). */
  readonly steppingShare: number;
  /** What happened and what to change, in one paragraph. */
  readonly message: string;
}

/** Seconds given to `advance()` that one measurement spans: "slower than real time for more than a second". */
const WINDOW_SECONDS = 1;
/** Fewest `advance()` calls a window needs: one call of many seconds is a stalled tab or a breakpoint, not a slow scene. */
const WINDOW_CALLS = 3;
/** A call given more than this is a stall: it starts the window again instead of counting. */
const STALL_SECONDS = 1;
/** Real-time ratio below which a window counts as slow (the ratio is exact: the time dropped). */
const SLOW_RATIO = 0.95;
/** Fewest calls of a slow window that dropped time: one hitch (a long garbage collection) is not a slow scene. */
const DROPPING_CALLS = 3;

/**
 * Watches whether a world's `advance()` keeps up with the time it is given.
 * `advance()` runs at most `maxStepsPerAdvance` steps and drops the rest of the
 * time; this adds up, per window of at least a second given (and three calls),
 * the time given and the time dropped, and publishes their ratio in
 * `stats.realTimeRatio` and `stats.slowerThanRealTime` (set below 0.95 when at
 * least three calls dropped time, so one hitch is not a slow scene; cleared when
 * a window keeps up again). A call given more than a second (a stalled tab) is
 * not measured. The first time a window is slow it calls
 * `onSlow` (or, without one, `console.warn`) once, with the measured step cost
 * and what to change. It only reports: the positions depend on the time given,
 * never on the wall clock, and watching allocates nothing per call.
 *
 * @example
 * ```ts
 * const world = new World({ onSlowerThanRealTime: (report) => showBanner(report.message) });
 * // each frame:
 * world.advance(delta);
 * if (world.stats.slowerThanRealTime) console.log(world.stats.realTimeRatio);
 * ```
 */
export class RealTimeWatch {
  /** True once the world has said it is slower than real time (it says so once). */
  said = false;
  private given = 0;
  private dropped = 0;
  private calls = 0;
  private droppingCalls = 0;
  private steps = 0;
  private steppingMs = 0;

  private onSlowValue: ((report: SlowerThanRealTimeReport) => void) | undefined;

  constructor(onSlow?: (report: SlowerThanRealTimeReport) => void) {
    this.onSlowValue = checkOnSlow(onSlow);
  }

  /** Called once, the first time the world is measured slower than real time; without it, `console.warn`. A function or undefined; anything else throws, naming it. */
  get onSlow(): ((report: SlowerThanRealTimeReport) => void) | undefined {
    return this.onSlowValue;
  }
  set onSlow(onSlow: ((report: SlowerThanRealTimeReport) => void) | undefined) {
    this.onSlowValue = checkOnSlow(onSlow);
  }

  /**
   * @internal One `advance()` call: `given` seconds, `dropped` of them not stepped,
   * `steps` steps run in `ms` wall-clock milliseconds.
   */
  observe(stats: WorldStats, given: number, dropped: number, steps: number, ms: number, timeStep: number, maxSteps: number): void {
    if (given > STALL_SECONDS) {
      this.restart();
      return;
    }
    this.given += given;
    this.dropped += dropped;
    this.calls++;
    if (dropped > 0) this.droppingCalls++;
    this.steps += steps;
    this.steppingMs += ms;
    // The tolerance lets ten calls of 0.1 s (0.9999999999999999 s) make a second.
    if (this.given < WINDOW_SECONDS * (1 - 1e-9) || this.calls < WINDOW_CALLS) return;
    const ratio = Math.max(0, 1 - this.dropped / this.given);
    stats.realTimeRatio = ratio;
    stats.slowerThanRealTime = ratio < SLOW_RATIO && this.droppingCalls >= DROPPING_CALLS;
    if (stats.slowerThanRealTime && !this.said) {
      this.said = true;
      this.say(ratio, timeStep, maxSteps);
    }
    this.restart();
  }

  private say(ratio: number, timeStep: number, maxSteps: number): void {
    const msPerStep = this.steps > 0 ? this.steppingMs / this.steps : 0;
    const stepsPerSecond = 1 / timeStep;
    const steppingShare = this.steppingMs / (this.given * 1000);
    const report: SlowerThanRealTimeReport = { realTimeRatio: ratio, msPerStep, stepsPerSecond, steppingShare, message: slowMessage(ratio, msPerStep, stepsPerSecond, steppingShare, maxSteps) };
    if (this.onSlow) this.onSlow(report);
    else console.warn(report.message);
  }

  private restart(): void {
    this.given = this.dropped = this.calls = this.droppingCalls = this.steps = this.steppingMs = 0;
  }
}

function slowMessage(ratio: number, msPerStep: number, stepsPerSecond: number, share: number, maxSteps: number): string {
  const needed = msPerStep * stepsPerSecond;
  const cause =
    needed > 1000 * SLOW_RATIO
      ? `stepping alone needs ${Math.round(needed)} ms per second of simulated time`
      : `stepping took ${Math.round(share * 100)}% of the time, so slow frames are the rest of it: at most ${maxSteps} steps run per advance() (maxStepsPerAdvance)`;
  return (
    `World: running at ${ratio.toFixed(2)} of real time (time beyond maxStepsPerAdvance is dropped). ` +
    `A step costs ${msPerStep.toFixed(2)} ms and real time needs ${Math.round(stepsPerSecond)} steps a second; ${cause}. ` +
    'To keep up: fewer particles or sticks, fewer substeps or iterations, budgetMs (the world then lowers substeps and iterations to fit), ' +
    'sleep: true for bodies at rest, a longer timeStep, or a higher maxStepsPerAdvance when rendering is what is slow.'
  );
}

function checkOnSlow(onSlow: unknown): ((report: SlowerThanRealTimeReport) => void) | undefined {
  if (onSlow !== undefined && typeof onSlow !== 'function') throw new TypeError(`World: onSlowerThanRealTime must be a function, got ${String(onSlow)}`);
  return onSlow as ((report: SlowerThanRealTimeReport) => void) | undefined;
}
