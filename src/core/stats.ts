/**
 * What a world reports about its latest steps (`world.stats`). One plain object,
 * updated in place by every step and every `advance()`: keep a reference and read
 * it each frame (a stats panel does), it is never replaced.
 */
export interface WorldStats {
  /** Wall-clock milliseconds per step, the mean over the steps of the latest `advance()` (0 until one ran a step). */
  msPerStep: number;
  /** Wall-clock milliseconds the latest `advance()` spent stepping. */
  msPerFrame: number;
  /** Steps the latest `advance()` ran. */
  stepsPerFrame: number;
  /** Relaxation passes per substep the latest step gave the world's own constraints: `iterations`, or fewer under a time budget. */
  iterationsUsed: number;
  /** Substeps of the latest step: `substeps`, or fewer under a time budget. */
  substepsUsed: number;
  /** Most relaxation passes any awake body got per substep in the latest step (bodies may set their own count). */
  passesUsed: number;
  /** Live bodies being simulated. */
  awakeBodies: number;
  /** Live bodies asleep: not integrated, no constraints solved, no collisions. */
  sleepingBodies: number;
  /** Live particles. */
  particles: number;
  /** Live particles not asleep. */
  awakeParticles: number;
  /** Live sticks. */
  sticks: number;
  /**
   * Simulated seconds per second given to `advance()`, measured over windows of
   * at least a second: 1 while the world keeps up, lower while `maxStepsPerAdvance`
   * drops time (see `RealTimeWatch`).
   */
  realTimeRatio: number;
  /** True while the latest window measured `realTimeRatio` below 0.95; cleared when the world keeps up again. */
  slowerThanRealTime: boolean;
}

/** A zeroed {@link WorldStats}. */
export function createStats(): WorldStats {
  return {
    msPerStep: 0,
    msPerFrame: 0,
    stepsPerFrame: 0,
    iterationsUsed: 0,
    substepsUsed: 0,
    passesUsed: 0,
    awakeBodies: 0,
    sleepingBodies: 0,
    particles: 0,
    awakeParticles: 0,
    sticks: 0,
    realTimeRatio: 1,
    slowerThanRealTime: false,
  };
}
