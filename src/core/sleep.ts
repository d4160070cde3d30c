import { clearContact } from './colliders/contactResponse.js';
import { widen } from './constraints/table.js';
import type { BodyRecord } from './bodies/body.js';
import { scaledIterations } from './budget.js';
import { isAnchor } from './constraints/coloring.js';
import { checkNumber } from './math.js';
import { copyValues, ParticleFlag, type ParticleStore } from './particles.js';
import type { World } from './world.js';

/** How far (m) beyond a sleeping body's bounds another particle may come before it wakes the body. */
const WAKE_MARGIN = 0.01;

/** A sleeping system's state as a snapshot carries it. */
export interface SleepSnapshot {
  /** Per body id: 1 while the body sleeps, else 0. */
  asleep: Uint8Array;
  /** Per body id: consecutive steps the body has rested (0 when moving or asleep). */
  quiet: Int32Array;
  /** Six numbers per body id: min x, y, z then max x, y, z (m) of its particles grown by their radii, from the latest drift check. */
  bounds: Float64Array;
  /** Where each particle's rest period began. */
  anchor: Float64Array;
}

/**
 * Sleeping ("bodies should time out when they have fallen to rest", paper section 9),
 * and the bookkeeping of what the solver works on.
 *
 * A body whose particles have all moved slower than `speed` for `time` seconds
 * falls asleep: its particles get the Asleep flag and zero velocity, and from then
 * on it is not integrated, its sticks are not solved and colliders skip it. Bodies
 * joined by sticks form an island and sleep and wake together; a body tied to a
 * loose movable particle never sleeps. A sleeping body wakes when `World.wake` is
 * called for one of its particles (pins, teleports, impulses, explosions do), when
 * a force is applied to it, or when a particle of an awake body or a loose particle
 * enters its bounding box.
 *
 * Each step it also lays out the work: `ranges` lists the awake particle id ranges
 * (with the relaxation passes they get) and the stick table's `segmentPasses` the
 * passes per stick segment, so a sleeping body costs a few tests per step and
 * none of the solver's work. Allocates only when bodies or particles were added.
 */
export class SleepSystem {
  /** Put resting bodies to sleep. Turning it off wakes every body at the next step. */
  enabled: boolean;
  /**
   * Speed (m/s) below which a particle counts as resting. A body also must not
   * drift more than `speed · time / 4` over the rest period, so a slow swing
   * whose turning point dips below the speed does not freeze mid-way.
   */
  speed: number;
  /** Seconds a body must rest before it falls asleep. */
  time: number;
  /** Awake particle ranges, triples `[from, to, passes]`, for `rangeCount` ranges. */
  ranges: Int32Array = new Int32Array(24);
  /** Ranges in use in `ranges`. */
  rangeCount = 0;
  /** Most relaxation passes any awake body or the world gets in the coming step. */
  maxPasses = 1;
  /** Live bodies awake after the latest step. */
  awakeBodies = 0;
  /** Live bodies asleep after the latest step. */
  sleepingBodies = 0;
  /** Live particles not asleep. */
  awakeParticles = 0;

  private asleep: Uint8Array = new Uint8Array(8);
  private quiet: Int32Array = new Int32Array(8);
  private passes: Int32Array = new Int32Array(8);
  private root: Int32Array = new Int32Array(8);
  private restless: Uint8Array = new Uint8Array(8);
  private ready: Uint8Array = new Uint8Array(8);
  private bounds: Float64Array = new Float64Array(8 * 6);
  /** Scratch: [0] the squared step limit, [1..6] a probe box, [7] the squared drift limit. */
  private probe: Float64Array = new Float64Array(8);
  /** Positions where each particle's current rest period began (drift check). */
  private anchor: Float64Array = new Float64Array(0);
  /** Runs of loose (bodiless) awake particle ids, pairs `[from, to)`. */
  private loose: Int32Array = new Int32Array(8);
  private looseCount = 0;
  private sleepingParticles = 0;
  /** Particles each sleeping body put to sleep (its live ones). */
  private sleepers: Int32Array = new Int32Array(8);
  private islandsFor = -1;
  private bodyCount = 0;
  private rangesFor = -1;
  private rangesDirty = true;

  constructor(enabled = false, speed = 0.01, time = 0.5) {
    this.enabled = enabled;
    this.speed = checkNumber(speed, 'World: sleepSpeed', 0);
    this.time = checkNumber(time, 'World: sleepTime', 0);
  }

  /** True while body `id` sleeps. */
  isAsleep(id: number): boolean {
    return this.asleep[id] === 1;
  }

  /**
   * Before a step: wakes sleeping bodies that forces act on, fixes each body's
   * passes for this step (its own iteration count, scaled by the time budget),
   * fills the stick table's `segmentPasses` and rebuilds `ranges` when anything changed.
   */
  prepare(world: World): void {
    const bodies = world.bodies;
    if (bodies.length !== this.bodyCount) this.fit(bodies.length);
    if (world.sticks.layoutVersion !== this.islandsFor) this.findIslands(world);
    const particles = world.particles;
    const worldPasses = world.activeIterations;
    // Force generators write into particles.force (so does applyForce called inside one); applyForce outside them wakes by itself.
    if (this.sleepingBodies > 0 && (world.forces.length > 0 || !this.enabled)) {
      for (let b = 0; b < bodies.length; b++) {
        const body = bodies[b]!;
        if (this.asleep[b] === 1 && body.alive && (!this.enabled || pushed(particles, body))) this.wakeIsland(world, this.root[b]!);
      }
    }
    let maxPasses = worldPasses;
    let awake = 0;
    let sleeping = 0;
    for (let b = 0; b < bodies.length; b++) {
      const body = bodies[b]!;
      if (!body.alive) {
        if (this.asleep[b] === 1) {
          // Removed while asleep: its particles are gone.
          this.asleep[b] = 0;
          this.sleepingParticles -= this.sleepers[b]!;
        }
        this.setPasses(b, -1);
        continue;
      }
      if (this.asleep[b] === 1) {
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
    if (this.rangesDirty || this.rangesFor !== particles.end) this.buildRanges(particles, worldPasses);
    this.maxPasses = maxPasses;
    this.awakeBodies = awake;
    this.sleepingBodies = sleeping;
    this.awakeParticles = particles.count - this.sleepingParticles;
  }

  /**
   * After a step: bodies that have rested long enough fall asleep, island by
   * island, and sleeping bodies that an awake particle came close to wake up.
   */
  update(world: World): void {
    // Nothing awake: nothing can fall asleep, nothing can touch a sleeper.
    if (!this.enabled || this.awakeParticles === 0) return;
    const bodies = world.bodies;
    const particles = world.particles;
    const h = world.timeStepValue / world.activeSubsteps;
    // Passed in an array: a double argument to a call V8 does not inline is boxed.
    this.probe[0] = this.speed * h * this.speed * h;
    const drift = (this.speed * this.time) / 4;
    this.probe[7] = drift * drift;
    if (this.anchor.length < particles.capacity * 3) this.anchor = new Float64Array(particles.capacity * 3);
    const needed = Math.max(1, Math.ceil(this.time / world.timeStepValue));
    for (let b = 0; b < bodies.length; b++) {
      const body = bodies[b]!;
      if (!body.alive || this.asleep[b] === 1) continue;
      const from = body.first;
      const to = body.first + body.count;
      if (!resting(particles, from, to, this.probe) || (this.quiet[b]! > 0 && drifted(particles, from, to, this.anchor, this.probe, this.bounds, b * 6))) this.quiet[b] = 0;
      else if (this.quiet[b]!++ === 0) copyValues(particles.position, this.anchor, from * 3, to * 3);
      this.ready[this.root[b]!] = 1;
    }
    for (let b = 0; b < bodies.length; b++) {
      if (!bodies[b]!.alive || this.asleep[b] === 1) continue;
      const r = this.root[b]!;
      if (this.quiet[b]! < needed || this.restless[r] === 1) this.ready[r] = 0;
    }
    for (let b = 0; b < bodies.length; b++) {
      if (!bodies[b]!.alive || this.asleep[b] === 1 || this.ready[this.root[b]!] === 0) continue;
      this.fallAsleep(world, b);
    }
    if (this.sleepingBodies > 0) this.wakeTouched(world);
  }

  /** Wakes the island of the body holding particle `id` (or just the particle, if it is loose). */
  wakeParticle(world: World, id: number): void {
    const b = world.particles.body[id]!;
    if (b < 0 || b >= this.bodyCount) {
      world.particles.flags[id]! &= ~ParticleFlag.Asleep;
      return;
    }
    this.quiet[b] = 0;
    if (this.asleep[b] === 1) this.wakeIsland(world, this.root[b]!);
  }

  /** Wakes every body. */
  wakeAll(world: World): void {
    for (let b = 0; b < this.bodyCount; b++) if (this.asleep[b] === 1) this.wakeBody(world, b);
  }

  /** Body `b` was removed: its slot starts over awake, for the next body that takes it. */
  forgetBody(b: number): void {
    if (b >= this.bodyCount) return;
    if (this.asleep[b] === 1) {
      this.asleep[b] = 0;
      this.sleepingParticles -= this.sleepers[b]!;
    }
    this.sleepers[b] = 0;
    this.quiet[b] = 0;
    this.passes[b] = -1;
    this.rangesDirty = true;
  }

  /** Marks the particle ranges stale (particles were added to or removed from a body). */
  invalidate(): void {
    this.rangesDirty = true;
  }

  /** The state a snapshot must carry for a restored world to fall asleep on the same step. */
  save(): SleepSnapshot {
    return { asleep: this.asleep.slice(0, this.bodyCount), quiet: this.quiet.slice(0, this.bodyCount), bounds: this.bounds.slice(0, this.bodyCount * 6), anchor: this.anchor.slice() };
  }

  /** Restores {@link save}'s state; particle flags come back with the particles. */
  load(world: World, state: SleepSnapshot | undefined): void {
    const bodies = world.bodies.length;
    this.fit(bodies);
    this.asleep.fill(0);
    this.quiet.fill(0);
    if (state) {
      this.asleep.set(state.asleep.subarray(0, Math.min(bodies, state.asleep.length)));
      this.quiet.set(state.quiet.subarray(0, Math.min(bodies, state.quiet.length)));
      this.bounds.set(state.bounds.subarray(0, Math.min(bodies * 6, state.bounds.length)));
      this.anchor = state.anchor.slice();
    }
    const flags = world.particles.flags;
    this.sleepingParticles = 0;
    for (let b = 0; b < bodies; b++) {
      const body = world.bodies[b]!;
      let sleepers = 0;
      for (let i = body.first; i < body.first + body.count; i++) if ((flags[i]! & (ParticleFlag.Alive | ParticleFlag.Asleep)) === (ParticleFlag.Alive | ParticleFlag.Asleep)) sleepers++;
      this.sleepers[b] = sleepers;
      this.sleepingParticles += sleepers;
    }
    this.islandsFor = -1;
    this.rangesDirty = true;
  }

  private setPasses(b: number, n: number): void {
    if (this.passes[b] !== n) {
      this.passes[b] = n;
      this.rangesDirty = true;
    }
  }

  /**
   * Puts body `b` to sleep. Its bounds were written by this step's drift check.
   * Only integer work here and copies through the solver's hot `copyValues`: this
   * runs rarely, so V8 may still interpret it, and interpreted code boxes every
   * double it touches.
   */
  private fallAsleep(world: World, b: number): void {
    const body = world.bodies[b]!;
    const particles = world.particles;
    const from = body.first * 3;
    const to = (body.first + body.count) * 3;
    // Zero velocity: a body that wakes starts from rest, plus whatever woke it.
    copyValues(particles.position, particles.previous, from, to);
    copyValues(particles.position, world.stepStartPositions, from, to);
    let sleepers = 0;
    for (let i = body.first; i < body.first + body.count; i++) {
      if ((particles.flags[i]! & ParticleFlag.Alive) === 0) continue;
      particles.flags[i]! |= ParticleFlag.Asleep;
      clearContact(particles, i);
      sleepers++;
    }
    this.asleep[b] = 1;
    this.quiet[b] = 0;
    this.sleepers[b] = sleepers;
    this.sleepingParticles += sleepers;
    this.rangesDirty = true;
    this.sleepingBodies++;
    this.awakeBodies--;
    this.awakeParticles -= sleepers;
  }

  private wakeIsland(world: World, root: number): void {
    for (let b = 0; b < this.bodyCount; b++) if (this.root[b] === root && this.asleep[b] === 1) this.wakeBody(world, b);
  }

  private wakeBody(world: World, b: number): void {
    const body = world.bodies[b]!;
    const flags = world.particles.flags;
    for (let i = body.first; i < body.first + body.count; i++) flags[i]! &= ~ParticleFlag.Asleep;
    this.sleepingParticles -= this.sleepers[b]!;
    this.awakeParticles += this.sleepers[b]!;
    this.sleepers[b] = 0;
    this.asleep[b] = 0;
    this.quiet[b] = 0;
    this.rangesDirty = true;
    if (body.alive) {
      this.sleepingBodies--;
      this.awakeBodies++;
    }
  }

  /**
   * Wakes sleeping bodies whose bounds an awake particle has entered: each awake
   * body (and each run of loose particles) is boxed first, so only boxes that
   * overlap a sleeper's cost a particle-by-particle test.
   */
  private wakeTouched(world: World): void {
    const bodies = world.bodies;
    for (let b = 0; b < bodies.length; b++) {
      const body = bodies[b]!;
      // Only a body in motion wakes others: resting neighbours (a stack) must be able to sleep together.
      if (body.alive && this.asleep[b] === 0 && this.quiet[b] === 0) this.wakeWhatEnters(world, body.first, body.first + body.count, true);
    }
    for (let r = 0; r < this.looseCount; r++) this.wakeWhatEnters(world, this.loose[r * 2]!, this.loose[r * 2 + 1]!, false);
  }

  /** Boxes the awake particles of `[from, to)` (only loose ones unless `inBody`) and wakes the sleepers they enter. */
  private wakeWhatEnters(world: World, from: number, to: number, inBody: boolean): void {
    const particles = world.particles;
    if (!box(particles, from, to, inBody, this.probe)) return;
    const bodies = world.bodies;
    const probe = this.probe;
    const bounds = this.bounds;
    for (let s = 0; s < bodies.length; s++) {
      if (this.asleep[s] === 0 || !bodies[s]!.alive) continue;
      const o = s * 6;
      if (
        probe[4]! < bounds[o]! - WAKE_MARGIN ||
        probe[1]! > bounds[o + 3]! + WAKE_MARGIN ||
        probe[5]! < bounds[o + 1]! - WAKE_MARGIN ||
        probe[2]! > bounds[o + 4]! + WAKE_MARGIN ||
        probe[6]! < bounds[o + 2]! - WAKE_MARGIN ||
        probe[3]! > bounds[o + 5]! + WAKE_MARGIN
      ) {
        continue;
      }
      if (this.enters(particles, from, to, s, inBody)) this.wakeIsland(world, this.root[s]!);
    }
  }

  /** True when a live awake particle of `[from, to)` (only loose ones unless `inBody`) is inside sleeping body `s`'s bounds. */
  private enters(particles: ParticleStore, from: number, to: number, s: number, inBody: boolean): boolean {
    const pos = particles.position;
    const box = this.bounds;
    const o = s * 6;
    for (let i = from; i < to; i++) {
      if ((particles.flags[i]! & (ParticleFlag.Alive | ParticleFlag.Asleep)) !== ParticleFlag.Alive) continue;
      const p = i * 3;
      if (!inBody && (particles.body[i]! >= 0 || !moving(particles, p, this.probe))) continue;
      const grow = particles.radius[i]! + WAKE_MARGIN;
      if (
        pos[p]! > box[o]! - grow &&
        pos[p]! < box[o + 3]! + grow &&
        pos[p + 1]! > box[o + 1]! - grow &&
        pos[p + 1]! < box[o + 4]! + grow &&
        pos[p + 2]! > box[o + 2]! - grow &&
        pos[p + 2]! < box[o + 5]! + grow
      ) {
        return true;
      }
    }
    return false;
  }

  /** Union–find over bodies joined by sticks; a body tied to a loose movable particle makes its island restless. */
  private findIslands(world: World): void {
    const particles = world.particles;
    const sticks = world.sticks;
    const root = this.root;
    for (let b = 0; b < this.bodyCount; b++) {
      root[b] = b;
      this.restless[b] = 0;
    }
    for (let row = 0; row < sticks.count; row++) {
      const ba = particles.body[sticks.a[row]!]!;
      const bb = particles.body[sticks.b[row]!]!;
      if (ba >= 0 && bb >= 0 && ba !== bb) {
        const ra = find(root, ba);
        const rb = find(root, bb);
        if (ra !== rb) root[ra > rb ? ra : rb] = ra < rb ? ra : rb;
      }
    }
    for (let b = 0; b < this.bodyCount; b++) root[b] = find(root, b);
    for (let row = 0; row < sticks.count; row++) {
      const a = sticks.a[row]!;
      const b = sticks.b[row]!;
      const ba = particles.body[a]!;
      const bb = particles.body[b]!;
      if (ba >= 0 && bb < 0 && !isAnchor(particles, b)) this.restless[root[ba]!] = 1;
      if (bb >= 0 && ba < 0 && !isAnchor(particles, a)) this.restless[root[bb]!] = 1;
    }
    // An island that now joins sleeping and awake bodies wakes whole.
    for (let b = 0; b < this.bodyCount; b++) if (this.asleep[b] === 0 && world.bodies[b]!.alive) this.wakeIsland(world, root[b]!);
    this.islandsFor = sticks.layoutVersion;
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

  /** Grows the per-body arrays to `n` bodies (new bodies start awake). */
  private fit(n: number): void {
    if (n > this.asleep.length) {
      const size = Math.max(n, this.asleep.length * 2);
      this.asleep = widen(this.asleep, size);
      this.quiet = widen(this.quiet, size);
      this.passes = widen(this.passes, size);
      this.root = widen(this.root, size);
      this.restless = widen(this.restless, size);
      this.ready = widen(this.ready, size);
      this.sleepers = widen(this.sleepers, size);
      this.bounds = widen(this.bounds, size * 6);
    }
    for (let b = this.bodyCount; b < n; b++) {
      this.root[b] = b;
      this.passes[b] = -1;
    }
    this.bodyCount = n;
    this.islandsFor = -1;
    this.rangesDirty = true;
  }
}

/** True when the particle at position offset `p` moved more than √limit[0] in the latest substep. */
function moving(particles: ParticleStore, p: number, limit: Float64Array): boolean {
  const pos = particles.position;
  const prev = particles.previous;
  const dx = pos[p]! - prev[p]!;
  const dy = pos[p + 1]! - prev[p + 1]!;
  const dz = pos[p + 2]! - prev[p + 2]!;
  return dx * dx + dy * dy + dz * dz > limit[0]!;
}

/**
 * True when a particle of `[from, to)` is farther than √limit[7] from where its
 * rest period began. On the way it writes the particles' bounds, grown by their
 * radii, into `bounds[o..o+5]`: a body falls asleep right after a full check.
 */
function drifted(particles: ParticleStore, from: number, to: number, anchor: Float64Array, limit: Float64Array, bounds: Float64Array, o: number): boolean {
  const pos = particles.position;
  const radius = particles.radius;
  const max = limit[7]!;
  let x0 = Infinity;
  let y0 = Infinity;
  let z0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  let z1 = -Infinity;
  for (let i = from, p = from * 3; i < to; i++, p += 3) {
    const x = pos[p]!;
    const y = pos[p + 1]!;
    const z = pos[p + 2]!;
    const dx = x - anchor[p]!;
    const dy = y - anchor[p + 1]!;
    const dz = z - anchor[p + 2]!;
    if (dx * dx + dy * dy + dz * dz > max) return true;
    const r = radius[i]!;
    if (x - r < x0) x0 = x - r;
    if (x + r > x1) x1 = x + r;
    if (y - r < y0) y0 = y - r;
    if (y + r > y1) y1 = y + r;
    if (z - r < z0) z0 = z - r;
    if (z + r > z1) z1 = z + r;
  }
  bounds[o] = x0;
  bounds[o + 1] = y0;
  bounds[o + 2] = z0;
  bounds[o + 3] = x1;
  bounds[o + 4] = y1;
  bounds[o + 5] = z1;
  return false;
}

/** True when every particle of `[from, to)` moved less than √limit[0] in the latest substep. */
function resting(particles: ParticleStore, from: number, to: number, limit: Float64Array): boolean {
  const pos = particles.position;
  const max = limit[0]!;
  const prev = particles.previous;
  for (let p = from * 3; p < to * 3; p += 3) {
    const dx = pos[p]! - prev[p]!;
    const dy = pos[p + 1]! - prev[p + 1]!;
    const dz = pos[p + 2]! - prev[p + 2]!;
    if (dx * dx + dy * dy + dz * dz > max) return false;
  }
  return true;
}

/**
 * Writes the bounds of the live awake particles of `[from, to)` (only loose ones
 * unless `inBody`), grown by their radii, into `out[1..6]`; false when there are none.
 */
function box(particles: ParticleStore, from: number, to: number, inBody: boolean, out: Float64Array): boolean {
  const pos = particles.position;
  let x0 = Infinity;
  let y0 = Infinity;
  let z0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  let z1 = -Infinity;
  for (let i = from; i < to; i++) {
    if ((particles.flags[i]! & (ParticleFlag.Alive | ParticleFlag.Asleep)) !== ParticleFlag.Alive) continue;
    if (!inBody && particles.body[i]! >= 0) continue;
    const r = particles.radius[i]!;
    const p = i * 3;
    if (pos[p]! - r < x0) x0 = pos[p]! - r;
    if (pos[p]! + r > x1) x1 = pos[p]! + r;
    if (pos[p + 1]! - r < y0) y0 = pos[p + 1]! - r;
    if (pos[p + 1]! + r > y1) y1 = pos[p + 1]! + r;
    if (pos[p + 2]! - r < z0) z0 = pos[p + 2]! - r;
    if (pos[p + 2]! + r > z1) z1 = pos[p + 2]! + r;
  }
  out[1] = x0;
  out[2] = y0;
  out[3] = z0;
  out[4] = x1;
  out[5] = y1;
  out[6] = z1;
  return x0 <= x1;
}

/** True when a force was applied to a particle of the body since the last step. */
function pushed(particles: ParticleStore, body: BodyRecord): boolean {
  const force = particles.force;
  for (let p = body.first * 3; p < (body.first + body.count) * 3; p++) if (force[p] !== 0) return true;
  return false;
}

function find(root: Int32Array, b: number): number {
  while (root[b] !== b) b = root[b]!;
  return b;
}

/** True for a live particle of no body (a closure here would be allocated whenever the ranges are rebuilt). */
function loneParticle(particles: ParticleStore, i: number): boolean {
  return particles.body[i]! < 0 && (particles.flags[i]! & ParticleFlag.Alive) !== 0;
}
