import { respondToContacts } from './colliders/contactResponse.js';
import { orderSticks } from './constraints/coloring.js';
import { solvePins, solveSpringPins, startPinSubstep } from './constraints/pins.js';
import { resetMultipliers, solveSegment } from './constraints/stickSolve.js';
import { beginKinematicStep } from './kinematicColliders.js';
import { copyValues } from './particles.js';
import type { StepContext } from './stepContext.js';
import type { World } from './world.js';

/**
 * One fixed step of the world (the paper's TimeStep): per substep, forces, a
 * damped Verlet integration followed by relaxation passes over sticks, user
 * constraints, colliders and pins (pins last, as the paper sets IK targets last),
 * then the velocity response to the contacts those passes found (push-out speed
 * limit, restitution, friction), then sleep checks.
 * Only awake particle ranges are touched (`world.sleep.ranges`); each body's
 * sticks get its own number of passes (`sticks.segmentPasses`). Allocates nothing.
 */
export function stepWorld(world: World): void {
  const particles = world.particles;
  const sleep = world.sleep;
  const ranges = sleep.ranges;
  const forces = world.forces;
  // What was removed during the last step leaves the stage lists now that none of them is being walked.
  world.stages.compact();
  if (!world.sticks.ordered) orderSticks(world.sticks, particles, world.orderScratch);
  world.tethers.refresh(world);
  world.launchGuard.refresh(world);
  // Arrays replaced since the last step (a store grown directly, say) go back into the kernel's memory.
  world.placeKernelColumns();
  // A sleeping body wakes when a force generator pushes it: evaluate them once up front for the sleep check.
  if (sleep.sleepingBodies > 0 && forces.length > 0) {
    copyValues(particles.heldForce, particles.force, 0, particles.end * 3);
    applyGenerators(world);
  }
  // Kinematic colliders fix this step's move first: their sweep wakes the sleepers it reaches.
  if (world.kinematicColliders.length > 0) beginKinematicStep(world);
  sleep.prepare(world);
  for (let r = 0; r < sleep.rangeCount; r++) {
    copyValues(particles.position, world.stepStartPositions, ranges[r * 3]! * 3, ranges[r * 3 + 1]! * 3);
    world.launchGuard.record(particles, world.stepStartVelocities, ranges[r * 3]!, ranges[r * 3 + 1]!);
  }
  // Built once, read by the stages. With every particle asleep it has no substeps: user constraints would only touch sleepers.
  const context = world.stepContext;
  context.prepare(world);
  particles.pushOutRoom = context.pushOutCap;
  for (let s = 0; s < context.substeps; s++) {
    // Forces are evaluated every substep: a position-dependent force (a spring,
    // buoyancy) held over all substeps would pump energy into the motion.
    for (let r = 0; r < sleep.rangeCount; r++) copyValues(particles.heldForce, particles.force, ranges[r * 3]! * 3, ranges[r * 3 + 1]! * 3);
    applyGenerators(world);
    for (let r = 0; r < sleep.rangeCount; r++) integrate(world, context, ranges[r * 3]!, ranges[r * 3 + 1]!);
    for (let k = 0; k < world.substepStages.length; k++) world.substepStages[k]!.afterIntegrate(world, context);
    resetMultipliers(world.sticks, context);
    startPinSubstep(world.pins, context);
    for (let pass = 0; pass < sleep.maxPasses; pass++) relax(world, pass);
    for (let k = 0; k < world.substepStages.length; k++) world.substepStages[k]!.afterRelax?.(world, context);
    world.tethers.settle(world);
    for (let r = 0; r < sleep.rangeCount; r++) respondToContacts(particles, context, ranges[r * 3]!, ranges[r * 3 + 1]!);
    for (let r = 0; r < sleep.rangeCount; r++) world.launchGuard.limit(world, world.stepStartVelocities, context, ranges[r * 3]!, ranges[r * 3 + 1]!);
  }
  for (let r = 0; r < sleep.rangeCount; r++) world.launchGuard.clear(world, ranges[r * 3]!, ranges[r * 3 + 1]!);
  world.tethers.afterStep(world);
  // Held forces were for this step: cleared where it ran. A sleeper gets none without being
  // woken (applyForce wakes it), so a world at rest clears nothing.
  for (let r = 0; r < sleep.rangeCount; r++) particles.heldForce.fill(0, ranges[r * 3]! * 3, ranges[r * 3 + 1]! * 3);
  sleep.update(world);
}

/** Lets every force generator add its force into `particles.force`. */
function applyGenerators(world: World): void {
  const forces = world.forces;
  world.applyingForces = true;
  try {
    for (let f = 0; f < forces.length; f++) forces[f]!.apply(world);
  } finally {
    world.applyingForces = false;
  }
}

/** Relaxation pass number `pass`: every constraint that still gets a pass is projected once, Gauss–Seidel. */
function relax(world: World, pass: number): void {
  const particles = world.particles;
  const sticks = world.sticks;
  // Tethers first, which take a heavy load's stretch to the anchors (once a substep, in each particle's last
  // pass: what they correct is global, and a pass of sticks after them keeps it), then the sticks, which share
  // out what is left.
  world.tethers.project(world, pass);
  for (let k = 0; k < sticks.segmentCount; k++) if (pass < sticks.segmentPasses[k]!) solveSegment(sticks, particles, k, world.sqrtApprox, world.random, world.stickKernel);
  // The built-in kinds in their declared order (stages.ts: limits, attachments, contact, the tunnelling guard), then the users'.
  const builtin = world.stages.constraints.items;
  for (let c = 0; c < builtin.length; c++) builtin[c]!.project(world);
  const constraints = world.constraints;
  for (let c = 0; c < constraints.length; c++) constraints[c]!.project(world);
  // Bodies against each other, before the static colliders so that the ground has the last word.
  world.bodyContactStage?.project(world, pass);
  const colliders = world.colliders;
  const ranges = world.sleep.ranges;
  for (let r = 0; r < world.sleep.rangeCount; r++) {
    if (pass >= ranges[r * 3 + 2]!) continue;
    for (let c = 0; c < colliders.length; c++) colliders[c]!.project(particles, ranges[r * 3]!, ranges[r * 3 + 1]!);
  }
  // Built-in constraints that read where the colliders left the particles (self-collision's
  // particle–triangle contacts; stages.ts says why), before the pins.
  const late = world.stages.afterColliders.items;
  for (let c = 0; c < late.length; c++) late[c]!.project(world);
  solveSpringPins(world.pins, particles);
  solvePins(world.pins, particles);
}

/**
 * Verlet with the course notes' damping over particles `[from, to)`:
 * x' = x + (1 - k·h)(x - x*) + a·h², where a = g + F/m. Immovable particles
 * (inverse mass 0, including pinned ones) keep x* = x so that a pin moved by the
 * user gives them the velocity of the move.
 */
function integrate(world: World, context: StepContext, from: number, to: number): void {
  const particles = world.particles;
  const pos = particles.position;
  const prev = particles.previous;
  const force = particles.force;
  const w = particles.inverseMass;
  const keep = context.keep;
  const h2 = context.h2;
  const gx = context.gx;
  const gy = context.gy;
  const gz = context.gz;
  for (let i = from, p = from * 3; i < to; i++, p += 3) {
    const x = pos[p]!;
    const y = pos[p + 1]!;
    const z = pos[p + 2]!;
    const wi = w[i]!;
    if (wi !== 0) {
      pos[p] = x + (x - prev[p]!) * keep + (gx + force[p]! * wi) * h2;
      pos[p + 1] = y + (y - prev[p + 1]!) * keep + (gy + force[p + 1]! * wi) * h2;
      pos[p + 2] = z + (z - prev[p + 2]!) * keep + (gz + force[p + 2]! * wi) * h2;
    }
    prev[p] = x;
    prev[p + 1] = y;
    prev[p + 2] = z;
  }
}
