import type { World } from './world.js';

/**
 * A stage of the substep that runs right after Verlet integration, before the
 * relaxation passes (the rigid bodies' free rotation, `bodies/rigidMotion.ts`).
 * A table that needs one pushes it onto `world.substepStages` when first used.
 */
export interface SubstepStage {
  /** Called once per substep with the positions just predicted (`particles.position`) and the substep's start (`particles.previous`). */
  afterIntegrate(world: World, context: StepContext): void;
  /** Called once per substep after the relaxation passes, before the contacts turn into velocity (a body's extra passes, `bodies/ownPasses.ts`). */
  afterRelax?(world: World, context: StepContext): void;
}

/**
 * What the stages of one step read, worked out once when the step starts (as
 * Box2D v3 hands its `b2StepContext` to every solver stage): the substep length
 * and what follows from it, gravity, the contact limits per substep. Stages take
 * this object instead of reaching into `World`, and instead of the numbers
 * themselves: a double passed to a call V8 does not inline is boxed, an
 * allocation per call that the step must not make.
 *
 * @example
 * ```ts
 * const context = new StepContext();
 * context.prepare(world); // at the start of a step
 * context.h; // the substep length the step runs with
 * ```
 */
export class StepContext {
  /** Substeps this step runs (0 when every particle sleeps). */
  substeps = 0;
  /** Substep length h = timeStep / substeps in use (s). */
  h = 1 / 600;
  /** h². */
  h2 = 1 / 360_000;
  /** The damped Verlet step's velocity factor 1 − k·h (course notes). */
  keep = 1;
  /** Gravity (m/s²). */
  gx = 0;
  gy = 0;
  gz = 0;
  /** Most normal displacement per substep a push out of a collider may leave: `maxPushOutSpeed`·h. */
  pushOutCap = 0;
  /** Normal displacement per substep below which a contact does not bounce: `restitutionThreshold`·h. */
  bounceThreshold = 0;
  /** What gravity adds over the step plus `maxPushOutSpeed`, as motion per substep: the most a step may speed up what was held inside something (see `LaunchGuard`). */
  launchAllowance = 0;

  /** Reads what the stages need from `world` for the step about to run. */
  prepare(world: World): void {
    // The one formula, the world's (h = timeStep / substeps in use); the step's stages read it here.
    const h = world.substep;
    const g = world.gravity;
    this.substeps = world.sleep.awakeParticles > 0 ? world.activeSubsteps : 0;
    this.h = h;
    this.h2 = h * h;
    this.keep = 1 - world.damping * h;
    this.gx = g[0]!;
    this.gy = g[1]!;
    this.gz = g[2]!;
    this.pushOutCap = world.contacts.maxPushOutSpeed * h;
    this.bounceThreshold = world.contacts.restitutionThreshold * h;
    this.launchAllowance = this.pushOutCap + Math.sqrt(this.gx * this.gx + this.gy * this.gy + this.gz * this.gz) * world.timeStepValue * h;
  }
}

/**
 * Removes `stage` from the world's substep stages if it is there: safe to call
 * twice (a bare `splice(indexOf(…), 1)` would remove the last stage, someone
 * else's, once it is gone).
 */
export function removeSubstepStage(stages: SubstepStage[], stage: SubstepStage): void {
  const i = stages.indexOf(stage);
  if (i >= 0) stages.splice(i, 1);
}
