import { scaledIterations } from './budget.js';
import { widen } from './constraints/table.js';
import { ParticleFlag, type ParticleStore } from './particles.js';
import type { World } from './world.js';

/**
 * The bookkeeping of what the solver works on in a step: which particles it
 * integrates and how many relaxation passes each body gets.
 *
 * Each step it lays out the work: `ranges` lists the awake particle id ranges
 * (with the relaxation passes they get) and the stick table's `segmentPasses` the
 * passes per stick segment, so a sleeping body costs a few tests per step and
 * none of the solver's work. Who sleeps is the `SleepSystem`'s to decide; it
 * owns a schedule and hands it its `asleep` flags. Allocates only when bodies or
 * particles were added.
 */
export class PassSchedule {
  /** Awake particle ranges, triples `[from, to, passes]`, for `rangeCount` ranges. */
  ranges: Int32Array = new Int32Array(24);
  /** Ranges in use in `ranges`. */
  rangeCount = 0;
  /** Most relaxation passes any awake body or the world gets in the coming step. */
  maxPasses = 1;
  /** Runs of loose (bodiless) awake particle ids, pairs `[from, to)`. */
  loose: Int32Array = new Int32Array(8);
  /** Runs in use in `loose`. */
  looseCount = 0;
  /** Live bodies that get passes in the coming step (the awake ones), as of the latest `plan`. */
  awakeBodies = 0;
  /** Live bodies that get none because they sleep, as of the latest `plan`. */
  sleepingBodies = 0;

  /** Per body id: its passes in the coming step, 0 while it sleeps, -1 once removed (or before its first plan). */
  private passes: Int32Array = new Int32Array(8);
  private bodyCount = 0;
  private rangesFor = -1;
  private rangesDirty = true;

  /**
   * Before a step, once sleeping has settled who sleeps (`asleep`, per body id):
   * fixes each body's passes for this step (its own iteration count, scaled by the
   * time budget), counts the awake and sleeping bodies, fills the stick table's
   * `segmentPasses` and rebuilds `ranges` when anything changed.
   */
  plan(world: World, asleep: Uint8Array): void {
    const bodies = world.bodies;
    const worldPasses = world.activeIterations;
    let maxPasses = worldPasses;
    let awake = 0;
    let sleeping = 0;
    for (let b = 0; b < bodies.length; b++) {
      const body = bodies[b]!;
      if (!body.alive) {
        this.setPasses(b, -1);
        continue;
      }
      if (asleep[b] === 1) {
        this.setPasses(b, 0);
        sleeping++;
        continue;
      }
      const n = scaledIterations(body.iterations ?? world.iterations, worldPasses, world.iterations, world.budget.minIterations);
      this.setPasses(b, n);
      if (n > maxPasses) maxPasses = n;
      awake++;
    }
    const sticks = world.sticks;
    for (let k = 0; k < sticks.segmentCount; k++) {
      const body = sticks.segmentBody[k]!;
      sticks.segmentPasses[k] = body < 0 ? worldPasses : Math.max(this.passes[body]!, 0);
    }
    const particles = world.particles;
    if (this.rangesDirty || this.rangesFor !== particles.end) this.buildRanges(particles, worldPasses);
    this.maxPasses = maxPasses;
    this.awakeBodies = awake;
    this.sleepingBodies = sleeping;
  }

  /** Marks the particle ranges stale (particles were added to or removed from a body, a body fell asleep or woke). */
  invalidate(): void {
    this.rangesDirty = true;
  }

  /** Body `b` was removed: it gets no passes, and the ranges are laid out again without it. */
  forgetBody(b: number): void {
    this.passes[b] = -1;
    this.rangesDirty = true;
  }

  /** Grows the per-body passes to `n` bodies (a new body gets none until it is planned). */
  fit(n: number): void {
    if (n > this.passes.length) this.passes = widen(this.passes, Math.max(n, this.passes.length * 2));
    for (let b = this.bodyCount; b < n; b++) this.passes[b] = -1;
    this.bodyCount = n;
    this.rangesDirty = true;
  }

  private setPasses(b: number, n: number): void {
    if (this.passes[b] !== n) {
      this.passes[b] = n;
      this.rangesDirty = true;
    }
  }

  /** Awake particle ranges with their passes: runs of ids whose body (or loose state) gives the same passes. */
  private buildRanges(particles: ParticleStore, worldPasses: number): void {
    let count = 0;
    let current = 0;
    let from = 0;
    const end = particles.end;
    for (let i = 0; i <= end; i++) {
      // Free slots (removed particles) belong to no range: a world's step costs the same after any history.
      const b = i < end && (particles.flags[i]! & ParticleFlag.Alive) !== 0 ? particles.body[i]! : -2;
      const p = b === -2 ? -1 : b < 0 || b >= this.bodyCount ? worldPasses : this.passes[b]!;
      if (p === current && i < end) continue;
      if (current > 0) count = this.pushRange(count, from, i, current);
      current = p;
      from = i;
    }
    this.rangeCount = count;
    let loose = 0;
    for (let i = 0; i < end; i++) {
      if (!loneParticle(particles, i)) continue;
      let j = i + 1;
      while (j < end && loneParticle(particles, j)) j++;
      if (this.loose.length < (loose + 1) * 2) this.loose = widen(this.loose, this.loose.length * 2);
      this.loose[loose * 2] = i;
      this.loose[loose * 2 + 1] = j;
      loose++;
      i = j;
    }
    this.looseCount = loose;
    this.rangesFor = end;
    this.rangesDirty = false;
  }

  private pushRange(count: number, from: number, to: number, passes: number): number {
    if (this.ranges.length < (count + 1) * 3) this.ranges = widen(this.ranges, this.ranges.length * 2);
    this.ranges[count * 3] = from;
    this.ranges[count * 3 + 1] = to;
    this.ranges[count * 3 + 2] = passes;
    return count + 1;
  }
}

/** True for a live particle of no body (a closure here would be allocated whenever the ranges are rebuilt). */
function loneParticle(particles: ParticleStore, i: number): boolean {
  return particles.body[i]! < 0 && (particles.flags[i]! & ParticleFlag.Alive) !== 0;
}
