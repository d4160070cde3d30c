import { applyFriction } from './colliders/collider.js';
import { solvePins } from './constraints/pins.js';
import { solveSticks } from './constraints/sticks.js';
import { ParticleFlag } from './particles.js';
import type { World } from './world.js';

/**
 * One fixed step of the world (the paper's TimeStep): forces, then per substep a
 * damped Verlet integration followed by `iterations` relaxation passes over sticks,
 * user constraints, colliders and pins (pins last, as the paper sets IK targets last),
 * then friction from the contacts those passes found. Allocates nothing.
 */
export function stepWorld(world: World): void {
  const particles = world.particles;
  const forces = world.forces;
  for (let f = 0; f < forces.length; f++) forces[f]!.apply(world);
  for (let s = 0; s < world.substepsValue; s++) {
    integrate(world);
    for (let pass = 0; pass < world.iterations; pass++) relax(world);
    applyFriction(particles, 0, particles.end);
  }
  particles.force.fill(0, 0, particles.end * 3);
}

/** One relaxation pass: every constraint projected once, Gauss–Seidel. */
function relax(world: World): void {
  const particles = world.particles;
  solveSticks(world.sticks, particles, 0, world.sticks.count, world.sqrtApprox, world.random);
  const constraints = world.constraints;
  for (let c = 0; c < constraints.length; c++) constraints[c]!.project(world);
  const colliders = world.colliders;
  for (let c = 0; c < colliders.length; c++) colliders[c]!.project(particles, 0, particles.end);
  solvePins(world.pins, particles);
}

/**
 * Verlet with the course notes' damping: x' = x + (1 - k·h)(x - x*) + a·h², where
 * a = g + F/m. Immovable particles (inverse mass 0, including pinned ones) keep
 * x* = x so that a pin moved by the user gives them the velocity of the move.
 */
// Takes the world rather than h and k: a double passed to a call V8 does not
// inline is boxed, and that allocation would run every substep.
function integrate(world: World): void {
  const particles = world.particles;
  const gravity = world.gravity;
  const h = world.timeStepValue / world.substepsValue;
  const damping = world.damping;
  const pos = particles.position;
  const prev = particles.previous;
  const force = particles.force;
  const w = particles.inverseMass;
  const flags = particles.flags;
  const keep = 1 - damping * h;
  const h2 = h * h;
  const gx = gravity[0]!;
  const gy = gravity[1]!;
  const gz = gravity[2]!;
  for (let i = 0, p = 0; i < particles.end; i++, p += 3) {
    if ((flags[i]! & ParticleFlag.Asleep) !== 0) continue;
    const x = pos[p]!;
    const y = pos[p + 1]!;
    const z = pos[p + 2]!;
    const wi = w[i]!;
    if (wi === 0) {
      prev[p] = x;
      prev[p + 1] = y;
      prev[p + 2] = z;
      continue;
    }
    pos[p] = x + (x - prev[p]!) * keep + (gx + force[p]! * wi) * h2;
    pos[p + 1] = y + (y - prev[p + 1]!) * keep + (gy + force[p + 1]! * wi) * h2;
    pos[p + 2] = z + (z - prev[p + 2]!) * keep + (gz + force[p + 2]! * wi) * h2;
    prev[p] = x;
    prev[p + 1] = y;
    prev[p + 2] = z;
  }
}
