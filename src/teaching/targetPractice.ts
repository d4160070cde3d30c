import { checkNumber, toVec3, type Vec3, type Vec3Like } from '../core/math.js';

/** What {@link targetPractice} takes. */
export interface TargetPracticeOptions {
  /** Launch speed |v| in m/s, > 0. */
  speed: number;
  /** Launch point. */
  start: Vec3Like;
  /** Point to hit. */
  target: Vec3Like;
  /** Constant acceleration, default `[0, -9.81, 0]` like `World`; "up" is its opposite. */
  gravity?: Vec3Like;
}

/** One way to hit the target. */
export interface Launch {
  /** Angle above the horizontal (the slides' φ), in radians, in [-π/2, π/2]. */
  elevation: number;
  /** Launch velocity (m/s), of length `speed`. */
  velocity: Vec3;
  /** Seconds from launch until the projectile reaches the target. */
  flightTime: number;
}

/** What {@link targetPractice} returns. */
export interface TargetPracticeSolution {
  /**
   * The slides' radicand A² − 2g(A/V)²(½g(A/V)² + Δz), with A the horizontal and
   * Δz the vertical distance to the target: negative means the speed is too low.
   * It is 0 for a target straight above or below (A = 0), where the launch is
   * vertical and reachable when V² ≥ 2g·Δz.
   */
  radicand: number;
  /** Zero, one or two launches, lowest elevation (earliest arrival) first. */
  launches: Launch[];
}

/**
 * The slides' "target practice": the launch angles that make a projectile fired
 * at `speed` from `start` hit `target` under constant `gravity`. Solving
 * target = start + v·t + ½·g·t² with |v| fixed gives
 * tan φ = (V² ± √(V⁴ − g·(g·A² + 2·Δz·V²))) / (g·A): two angles when the root
 * is real, one when it is zero, none when the target is out of reach.
 *
 * @example
 * ```ts
 * // The slides' example (z up): 30 m/s from (10, 0, 2) to (50, 0, 20) m.
 * const { launches } = targetPractice({ speed: 30, start: [10, 0, 2], target: [50, 0, 20], gravity: [0, 0, -9.81] });
 * launches.map((l) => (l.elevation * 180) / Math.PI); // [39.06, 75.17]
 * const world = new World({ gravity: [0, 0, -9.81] }); // the gravity the launches were solved for
 * world.addParticle({ position: [10, 0, 2], velocity: launches[0].velocity }); // at the target after launches[0].flightTime s
 * ```
 */
export function targetPractice(options: TargetPracticeOptions): TargetPracticeSolution {
  if (!options || typeof options !== 'object') throw new TypeError(`targetPractice: options must be an object, got ${String(options)}`);
  const speed = checkNumber(options.speed, 'targetPractice: speed', 0);
  if (speed === 0) throw new RangeError('targetPractice: speed must be > 0, got 0');
  const start = toVec3(options.start, 'targetPractice: start');
  const target = toVec3(options.target, 'targetPractice: target');
  const gravity = toVec3(options.gravity ?? [0, -9.81, 0], 'targetPractice: gravity');
  const g = Math.hypot(gravity[0], gravity[1], gravity[2]);
  if (g === 0) throw new RangeError('targetPractice: gravity must be non-zero, got [0, 0, 0]');
  const up: Vec3 = [-gravity[0] / g, -gravity[1] / g, -gravity[2] / g];
  const d: Vec3 = [target[0] - start[0], target[1] - start[1], target[2] - start[2]];
  const dz = d[0] * up[0] + d[1] * up[1] + d[2] * up[2];
  const across: Vec3 = [d[0] - dz * up[0], d[1] - dz * up[1], d[2] - dz * up[2]];
  const A = Math.hypot(across[0], across[1], across[2]);
  if (A === 0 && dz === 0) throw new RangeError(`targetPractice: target must differ from start, both are [${start.join(', ')}]`);
  const v2 = speed * speed;
  const discriminant = v2 * v2 - g * (g * A * A + 2 * dz * v2);
  const radicand = (discriminant * A * A) / (v2 * v2);
  if (discriminant < 0) return { radicand, launches: [] };
  if (A === 0) return { radicand, launches: verticalLaunches(speed, g, dz, up) };
  const horizontal: Vec3 = [across[0] / A, across[1] / A, across[2] / A];
  const root = Math.sqrt(discriminant);
  const launch = (tangentNumerator: number): Launch => {
    const elevation = Math.atan2(tangentNumerator, g * A);
    const c = Math.cos(elevation) * speed;
    const s = Math.sin(elevation) * speed;
    return {
      elevation,
      velocity: [horizontal[0] * c + up[0] * s, horizontal[1] * c + up[1] * s, horizontal[2] * c + up[2] * s],
      flightTime: A / c,
    };
  };
  const launches = discriminant === 0 ? [launch(v2)] : [launch(v2 - root), launch(v2 + root)];
  return { radicand, launches };
}

/**
 * A target straight above or below: fire straight up (reaching a point above on
 * the way up) or, for a point below, also straight down, which arrives first.
 */
function verticalLaunches(speed: number, g: number, dz: number, up: Vec3): Launch[] {
  const root = Math.sqrt(speed * speed - 2 * g * dz);
  const upward: Launch = { elevation: Math.PI / 2, velocity: [up[0] * speed, up[1] * speed, up[2] * speed], flightTime: dz > 0 ? (speed - root) / g : (speed + root) / g };
  if (dz > 0) return [upward];
  const downward: Launch = { elevation: -Math.PI / 2, velocity: [-up[0] * speed, -up[1] * speed, -up[2] * speed], flightTime: (root - speed) / g };
  return [downward, upward];
}
