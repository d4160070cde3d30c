import { ANGLE_DEFAULTS } from '../defaults.js';
import type { ConstraintId, ParticleId } from '../ids.js';
// Angle constraints as the API offers them: add, change, remove, measure. The
// rows and their projection are in angleTable.ts, the one-way hinge in hinge.ts,
// the option checks in angleOptions.ts.
import type { FeatureKind } from '../features.js';
import type { World } from '../world.js';
import { type AngleOptions, checkAngleOptions, writeAngleOptions } from './angleOptions.js';
import { AngleTable } from './angleTable.js';
import { addBuiltinConstraint } from '../stages.js';

// Re-exported so that angle constraints are imported from this one file, as `sinew-physics/core` does.
export { AngleTable, type AngleOptions };

/** The world's angle table as a feature of it (see `World.features`). */
export const ANGLES: FeatureKind<AngleTable> = {
  name: 'angles',
  create: (world) => {
    const table = new AngleTable(world.registry);
    addBuiltinConstraint(world, 'angles', table);
    return table;
  },
};

/** The world's angle table (created and registered as a constraint on first use). */
export function angleTable(world: World): AngleTable {
  return world.features.of(ANGLES);
}

/** The world's angle table, or undefined when it has none. */
export function existingAngleTable(world: World): AngleTable | undefined {
  return world.features.get(ANGLES);
}

/**
 * Keeps the angle at `middle` between the arms to `a` and `b` within
 * [min, max] (radians); returns an id that `world.remove` takes (the world's
 * registry issues it, so it names no stick or pin). Removing any of the three
 * particles (or their body) removes the constraint.
 *
 * @example
 * ```ts
 * // an elbow that bends to 30° at most and never past straight
 * addAngleConstraint(world, shoulder, elbow, hand, { min: Math.PI / 6, max: Math.PI });
 * ```
 */
export function addAngleConstraint(world: World, idA: ParticleId, idMiddle: ParticleId, idB: ParticleId, options: AngleOptions = {}): ConstraintId {
  const a = world.checkParticle(idA, 'addAngleConstraint: a');
  const middle = world.checkParticle(idMiddle, 'addAngleConstraint: middle');
  const b = world.checkParticle(idB, 'addAngleConstraint: b');
  if (a === middle || b === middle || a === b) throw new RangeError(`addAngleConstraint: a, middle and b must be three different particles, got ${idA}, ${idMiddle}, ${idB}`);
  const checked = checkAngleOptions(world, options, ANGLE_DEFAULTS, 'addAngleConstraint');
  const table = angleTable(world);
  const id = table.add(a, middle, b);
  writeAngleOptions(table, table.rows.get(id)!, checked);
  return id;
}

/** Changes an angle constraint's limits, stiffness, compliance or hinge in place (unset options keep their values). */
export function setAngleConstraint(world: World, id: number, options: AngleOptions): void {
  const table = world.features.get(ANGLES);
  const row = table?.rows.get(id);
  if (table === undefined || row === undefined) throw new RangeError(`setAngleConstraint: no angle constraint with id ${id}`);
  const current = { min: table.min[row]!, max: table.max[row]!, stiffness: table.stiffness[row]!, compliance: table.compliance[row]! };
  writeAngleOptions(table, row, checkAngleOptions(world, options, current, 'setAngleConstraint'));
}

/** The angle (radians, in [0, π]) at particle `middle` between the arms to `a` and `b`. */
export function angleAt(world: World, a: number, middle: number, b: number): number {
  const p = world.particles.position;
  let dot = 0;
  let lu = 0;
  let lv = 0;
  for (let k = 0; k < 3; k++) {
    const u = p[a * 3 + k]! - p[middle * 3 + k]!;
    const v = p[b * 3 + k]! - p[middle * 3 + k]!;
    dot += u * v;
    lu += u * u;
    lv += v * v;
  }
  return Math.acos(Math.max(-1, Math.min(1, dot / Math.sqrt(lu * lv))));
}
