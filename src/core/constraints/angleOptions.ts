import { checkCompliance } from '../materials.js';
import { ANGLE_DEFAULTS } from '../defaults.js';
import { checkNumber } from '../math.js';
import type { World } from '../world.js';
import type { AngleTable } from './angleTable.js';

/** What {@link addAngleConstraint} takes; angles in radians. */
export interface AngleOptions {
  /** Smallest angle allowed at the middle particle, in [0, π]. Default 0. */
  min?: number;
  /** Largest angle allowed at the middle particle, in [0, π]. Default π (straight). */
  max?: number;
  /**
   * Share of the error repaired per relaxation pass, in (0, 1]. Default 1. Below
   * 1 the limit's softness depends on the substeps and iterations; `compliance`
   * gives one that does not.
   */
  stiffness?: number;
  /**
   * Compliance of the limit in rad/(N·m) (XPBD): past a limit the joint is a
   * torsion spring of k = 1/compliance N·m/rad, whatever the solver settings.
   * Default 0 (a hard limit).
   */
  compliance?: number;
  /**
   * Makes the joint a one-way hinge, like a knee: the bend from the direction
   * a → middle to the direction middle → b must turn positively (right-hand rule)
   * about the axis from particle `axis[0]` to particle `axis[1]`, or negatively by
   * at most `tolerance` radians (default 0): the paper's dot-product constraint,
   * b stays on one side of the plane through the middle particle spanned by the
   * axis and a → middle. `sideways` (radians, default π/2: no limit) bounds how
   * far b's limb leans out of the hinge plane relative to a's limb, measured along
   * the axis, e.g. the few tens of degrees a knee's axis turns with the thigh's twist.
   */
  hinge?: { axis: readonly [number, number]; tolerance?: number; sideways?: number };
}

/** {@link AngleOptions} checked, with the hinge's angles turned into the sines a row stores. */
export interface CheckedAngle {
  min: number;
  max: number;
  stiffness: number;
  compliance: number;
  hinge?: { from: number; to: number; slack: number; lean: number };
}

/** Checks `o` (unset values from `defaults`); errors name `what`, the function called. */
export function checkAngleOptions(world: World, o: AngleOptions, defaults: { min: number; max: number; stiffness: number; compliance?: number }, what: string): CheckedAngle {
  if (o === null || typeof o !== 'object') throw new TypeError(`${what}: options must be an object, got ${String(o)}`);
  const min = checkNumber(o.min ?? defaults.min, `${what}: min`, 0, Math.PI);
  const max = checkNumber(o.max ?? defaults.max, `${what}: max`, 0, Math.PI);
  if (min > max) throw new RangeError(`${what}: min must not exceed max, got min ${min} and max ${max}`);
  const stiffness = checkNumber(o.stiffness ?? defaults.stiffness, `${what}: stiffness`, 0, 1);
  if (stiffness === 0) throw new RangeError(`${what}: stiffness must be in (0, 1], got 0`);
  const compliance = checkCompliance(o.compliance ?? defaults.compliance ?? ANGLE_DEFAULTS.compliance, `${what}: compliance`);
  if (o.hinge === undefined) return { min, max, stiffness, compliance };
  const axis = o.hinge?.axis;
  if (!Array.isArray(axis) || axis.length !== 2) throw new TypeError(`${what}: hinge.axis must be two particle ids, got ${String(axis)}`);
  const from = world.checkParticle(axis[0], `${what}: hinge.axis[0]`);
  const to = world.checkParticle(axis[1], `${what}: hinge.axis[1]`);
  if (from === to) throw new RangeError(`${what}: hinge.axis must be two different particles, both are ${axis[0]}`);
  const tolerance = checkNumber(o.hinge.tolerance ?? ANGLE_DEFAULTS.hingeTolerance, `${what}: hinge.tolerance`, 0, Math.PI / 2);
  const sideways = checkNumber(o.hinge.sideways ?? ANGLE_DEFAULTS.hingeSideways, `${what}: hinge.sideways`, 0, Math.PI / 2);
  return { min, max, stiffness, compliance, hinge: { from, to, slack: Math.sin(tolerance), lean: sideways >= Math.PI / 2 ? -1 : Math.sin(sideways) } };
}

/** Writes checked options into row `row` of `table`; options without a hinge leave the row's hinge (or its lack of one) as it was. */
export function writeAngleOptions(table: AngleTable, row: number, o: CheckedAngle): void {
  table.min[row] = o.min;
  table.max[row] = o.max;
  table.cosMin[row] = Math.cos(o.min);
  table.cosMax[row] = Math.cos(o.max);
  table.stiffness[row] = o.stiffness;
  table.compliance[row] = o.compliance;
  if (o.hinge) {
    table.axisFrom[row] = o.hinge.from;
    table.axisTo[row] = o.hinge.to;
    table.hingeSlack[row] = o.hinge.slack;
    table.hingeLean[row] = o.hinge.lean;
  }
}
