import type { World } from '../world.js';

/** Writes to `out[0]` a number that changes whenever the links or anchors may have: stick and pin tables, masses, particles, and the constraints that report links. */
export function linkSignature(world: World, out: Float64Array): void {
  let signature = world.sticks.changes * 7 + world.pins.changes * 13 + world.particles.massChanges * 17 + world.particles.end * 19;
  const builtin = world.stages.constraints.items;
  for (let c = 0; c < builtin.length; c++) {
    const version = builtin[c]!.tetherVersion;
    if (version !== undefined) signature = (signature * 31 + version) % 2 ** 40;
  }
  const constraints = world.constraints;
  for (let c = 0; c < constraints.length; c++) {
    const version = constraints[c]!.tetherVersion;
    if (version !== undefined) signature = (signature * 31 + version) % 2 ** 40;
  }
  out[0] = signature;
}

/** Adds the sum of the sticks' rest lengths (m) to `out[0]`. */
export function addRestSum(world: World, out: Float64Array): void {
  const rest = world.sticks.rest;
  let sum = 0;
  for (let r = 0; r < world.sticks.count; r++) sum += rest[r]!;
  out[0] = out[0]! + sum;
}
