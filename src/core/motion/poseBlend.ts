/**
 * Weight of the end pose at share `s` of a blend, 3s² − 2s³ (clamped to
 * [0, 1]): it leaves 0 and arrives at 1 with zero slope, and its slope is at
 * most 1.5 (at s = 1/2).
 */
export function smoothstep(s: number): number {
  if (s <= 0) return 0;
  if (s >= 1) return 1;
  return s * s * (3 - 2 * s);
}

/**
 * The particle half of a get-up's pose blend (see `GetUpBlend` in the three layer, which adds
 * the bones' twist): each particle's target goes from where the particle lay when the blend
 * began, L, to where the animation puts it now, A(t), as L + (A(t) − L)·w(t/T), w the
 * {@link smoothstep}. Held by rigid pins, a particle then moves at
 * |A′(t)·w + (A(t) − L)·w′/T| ≤ |A′(t)| + 1.5·|A(t) − L| / T. Allocates nothing once built.
 *
 * @example
 * ```ts
 * const blend = new PoseBlend(11);
 * blend.start(world.particles.position, firstSlot, 1); // a 1 s blend from where the particles lie
 * // every step, with the animated targets written:
 * if (blend.advance(world.timeStep)) handOver();
 * blend.blendTarget(world.pins.target, row, i);
 * ```
 */
export class PoseBlend {
  /** Where each particle lay when the blend began (xyz per particle). */
  protected readonly from: Float64Array;
  /**
   * Elapsed seconds, duration (0: not running) and the animated pose's weight: in a typed
   * array, as doubles in fields can box in V8 each step; shared with whoever reads the weight.
   */
  readonly state: Float64Array;

  /** A blend of `count` particles, not running; `state` (3 numbers) may be shared with a reader of the weight. */
  constructor(count: number, state: Float64Array = new Float64Array(3)) {
    this.from = new Float64Array(count * 3);
    this.state = state;
  }

  /** True from {@link PoseBlend.start} until the blend reaches the animation or is stopped. */
  get running(): boolean {
    return this.state[1]! > 0;
  }

  /** Starts a blend of `seconds` from the particles in slots `first`… (indices, not ids: see `particleSlot`) as they lie in `positions` (a world's xyz positions). */
  start(positions: Float64Array, first: number, seconds: number): void {
    this.from.set(positions.subarray(first * 3, first * 3 + this.from.length));
    this.state[0] = 0;
    this.state[1] = seconds;
    this.state[2] = 0;
  }

  /**
   * Moves the blend on by `dt` seconds (one step); true when this step ends
   * it, the pose wholly the animation's (the caller hands over then).
   */
  advance(dt: number): boolean {
    const state = this.state;
    state[0] = state[0]! + dt;
    // A relative tolerance, so that 60 steps of 1/60 s end a 1 s blend on the 60th.
    const share = state[0]! / state[1]!;
    state[2] = share >= 1 - 1e-9 ? 1 : smoothstep(share);
    return state[2] === 1;
  }

  /**
   * Writes into `out[at]` the weight of the ragdoll's own pose: 1 − the animated
   * pose's weight while the blend runs, 1 otherwise (a typed array, not a
   * returned double, which V8 can box).
   */
  ragdollWeight(out: Float64Array, at: number): void {
    out[at] = this.state[1]! > 0 ? 1 - this.state[2]! : 1;
  }

  /** Ends the blend where it is (a hit, or the strengths set anew). */
  stop(): void {
    this.state[1] = 0;
  }

  /**
   * Blends particle `i`'s target, xyz at `row` of `target` and holding its
   * animated place, toward where the particle lay by the blend's weight.
   */
  blendTarget(target: Float64Array, row: number, i: number): void {
    const weight = this.state[2]!;
    if (weight === 1) return;
    for (let k = 0; k < 3; k++) {
      const from = this.from[i * 3 + k]!;
      target[row + k] = from + (target[row + k]! - from) * weight;
    }
  }
}
