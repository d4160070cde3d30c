import type { WorldStats } from '../core/stats.js';
import type { World } from '../core/world.js';

// A frame: what the worker publishes after each advance and the main thread copies into its
// shadow world. One Float64Array region: a header, then three arrays of `floats` numbers
// (xyz by particle slot): positions, positions at the start of the step (for interpolation)
// and previous positions (for velocities).

/** Header slots of a frame (indices into its Float64Array region). */
export const FRAME = {
  /** Advances applied so far (the frame follows the `advance` command with this count). */
  advances: 0,
  /** Commands applied so far. */
  commands: 1,
  /** The world's `stepCount`. */
  stepCount: 2,
  /** The world's `time`. */
  time: 3,
  /** The world's `alpha` (leftover fraction of a step, for interpolation). */
  alpha: 4,
  /** Numbers in each of the three arrays: `particles.end * 3`. */
  floats: 5,
  /** The world's stats, in {@link STAT_KEYS} order (13 slots). */
  stats: 6,
  /** The world's next id (`registry.next`): with `end`, what the shadow checks it agrees on. */
  nextId: 19,
  /** The world's `particles.end`. */
  end: 20,
} as const;

/** The numeric stats a frame carries, in order (`slowerThanRealTime` as 0 or 1). */
export const STAT_KEYS = [
  'msPerStep',
  'msPerFrame',
  'stepsPerFrame',
  'iterationsUsed',
  'substepsUsed',
  'passesUsed',
  'awakeBodies',
  'sleepingBodies',
  'particles',
  'awakeParticles',
  'sticks',
  'realTimeRatio',
  'slowerThanRealTime',
] as const satisfies readonly (keyof WorldStats)[];

/** Float64 slots before the arrays. */
export const FRAME_HEADER = 24;

/** Float64 slots a frame of `floats` numbers per array takes. */
export function frameLength(floats: number): number {
  return FRAME_HEADER + 3 * floats;
}

/** Numbers per array the world's frame holds now. */
export function worldFloats(world: World): number {
  return world.particles.end * 3;
}

/** Writes `world`'s frame into `out` from index `at` (room for {@link frameLength} of {@link worldFloats} is the caller's to make). */
export function writeFrame(world: World, out: Float64Array, at: number, advances: number, commands: number): void {
  const n = worldFloats(world);
  out[at + FRAME.advances] = advances;
  out[at + FRAME.commands] = commands;
  out[at + FRAME.stepCount] = world.stepCount;
  out[at + FRAME.time] = world.time;
  out[at + FRAME.alpha] = world.alpha;
  out[at + FRAME.floats] = n;
  out[at + FRAME.nextId] = world.registry.next;
  out[at + FRAME.end] = world.particles.end;
  const stats = world.stats;
  for (let k = 0; k < STAT_KEYS.length; k++) out[at + FRAME.stats + k] = Number(stats[STAT_KEYS[k]!]);
  const base = at + FRAME_HEADER;
  out.set(world.particles.position.subarray(0, n), base);
  out.set(world.stepStartPositions.subarray(0, n), base + n);
  out.set(world.particles.previous.subarray(0, n), base + 2 * n);
}

/**
 * Copies the frame at index `at` of `frame` into the shadow world: positions, step-start
 * positions and previous positions (as far as both hold particles), step count, time,
 * alpha and stats; and its header into `header`. The shadow never steps: this is how it
 * shows the worker's latest step.
 */
export function readFrame(frame: Float64Array, at: number, shadow: World, header: Float64Array): void {
  header.set(frame.subarray(at, at + FRAME_HEADER));
  const n = Math.min(frame[at + FRAME.floats]!, worldFloats(shadow));
  const base = at + FRAME_HEADER;
  const stride = frame[at + FRAME.floats]!;
  shadow.particles.position.set(frame.subarray(base, base + n));
  shadow.stepStartPositions.set(frame.subarray(base + stride, base + stride + n));
  shadow.particles.previous.set(frame.subarray(base + 2 * stride, base + 2 * stride + n));
  shadow.stepCount = frame[at + FRAME.stepCount]!;
  shadow.time = frame[at + FRAME.time]!;
  shadow.alpha = frame[at + FRAME.alpha]!;
  const stats = shadow.stats as unknown as Record<string, number | boolean>;
  for (let k = 0; k < STAT_KEYS.length; k++) {
    const key = STAT_KEYS[k]!;
    const v = frame[at + FRAME.stats + k]!;
    stats[key] = key === 'slowerThanRealTime' ? v !== 0 : v;
  }
}
