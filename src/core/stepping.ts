import { checkNumber } from './math.js';
import { stepWorld } from './solver.js';
import type { World } from './world.js';

// Stepping at a fixed rate: the body of `World.step()` (one step between the
// before- and after-step callbacks) and of `World.advance()` (whole steps from an
// accumulator, planned with the time budget, timed for the stats).

/** One fixed step: before-step callbacks, the solver, the clock and stats, after-step callbacks. */
export function runStep(world: World): void {
  for (let i = 0; i < world.beforeStep.length; i++) world.beforeStep[i]!(world);
  if (!world.budget.active) world.activeIterations = world.iterations;
  else if (world.activeIterations > world.iterations) world.activeIterations = world.iterations;
  stepWorld(world);
  world.time += world.timeStepValue;
  world.stepCount++;
  const stats = world.stats;
  stats.iterationsUsed = world.activeIterations;
  stats.substepsUsed = world.activeSubsteps;
  stats.passesUsed = world.sleep.maxPasses;
  stats.awakeBodies = world.sleep.awakeBodies;
  stats.sleepingBodies = world.sleep.sleepingBodies;
  stats.particles = world.particles.count;
  stats.awakeParticles = world.sleep.awakeParticles;
  stats.sticks = world.sticks.count;
  for (let i = 0; i < world.afterStep.length; i++) world.afterStep[i]!(world);
}

/**
 * Adds `elapsedSeconds` to the world's accumulator and runs as many whole steps as
 * it holds, at most `maxStepsPerAdvance`; sets `alpha`; returns the steps run.
 */
export function advanceWorld(world: World, elapsedSeconds: number): number {
  checkNumber(elapsedSeconds, 'advance: elapsedSeconds', 0);
  const dt = world.timeStepValue;
  world.accumulator += elapsedSeconds;
  // The tolerance keeps 60 calls of 1/60 s from drifting into a skipped step.
  const due = dt * (1 - 1e-9);
  let planned = 0;
  for (let acc = world.accumulator; acc >= due && planned < world.maxStepsPerAdvance; acc = Math.max(0, acc - dt)) planned++;
  if (world.budget.active && planned > 0) {
    world.budget.plan(planned, world.substepsValue, world.iterations, fullPasses(world));
    world.setActive(world.budget.substeps, world.budget.iterations);
  }
  // The clock is read per frame, not per step: its boxed result is the frame's only garbage.
  const start = planned > 0 ? world.clock() : 0;
  let steps = 0;
  world.frameSteps = Math.max(planned, 1);
  try {
    while (world.accumulator >= due && steps < world.maxStepsPerAdvance) {
      world.frameStep = steps;
      world.step();
      world.accumulator = Math.max(0, world.accumulator - dt);
      steps++;
    }
  } finally {
    world.frameStep = 0;
    world.frameSteps = 1;
  }
  const ms = steps > 0 ? world.clock() - start : 0;
  if (steps > 0) {
    world.stats.msPerFrame = ms;
    world.stats.msPerStep = ms / steps;
    world.stats.stepsPerFrame = steps;
    world.budget.observe(ms, steps, world.activeSubsteps, world.sleep.maxPasses);
  }
  let dropped = 0;
  if (world.accumulator >= due) {
    // Time beyond maxStepsPerAdvance is dropped. A remainder within the tolerance
    // of a whole step (10 s is not a whole number of 1/60 s steps in binary) is
    // that step, dropped too: kept, it made the next advance(0) run a step.
    dropped = world.accumulator;
    world.accumulator %= dt;
    if (world.accumulator >= due) world.accumulator = 0;
    dropped -= world.accumulator;
  }
  world.realTime.observe(world.stats, elapsedSeconds, dropped, steps, ms, dt, world.maxStepsPerAdvance);
  world.alpha = world.accumulator / dt;
  return steps;
}

/** Most passes per substep an awake body (or the world) asks for at full quality. */
function fullPasses(world: World): number {
  let passes = world.iterations;
  for (let b = 0; b < world.bodies.length; b++) {
    const body = world.bodies[b]!;
    if (body.alive && !world.sleep.isAsleep(b) && body.iterations !== undefined && body.iterations > passes) passes = body.iterations;
  }
  return passes;
}
