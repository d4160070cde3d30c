import { WORLD_DEFAULTS } from './defaults.js';
import { particleSlot } from './ids.js';
import { clearContact } from './colliders/contactResponse.js';
import { widen } from './constraints/table.js';
import { isAnchor } from './constraints/coloring.js';
import { checkBoolean, checkNumber } from './math.js';
import { copyValues, ParticleFlag, type ParticleStore } from './particles.js';
import { PassSchedule } from './passSchedule.js';
import { boxAwake, drifted, moving, pushed, resting } from './restDetection.js';
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
 * Sleeping ("bodies should time out when they have fallen to rest", paper section 9).
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
 * Before each step, once it has settled who sleeps, its {@link PassSchedule} lays
 * out the solver's work (`ranges`, `maxPasses`, the stick table's `segmentPasses`),
 * so a sleeping body costs a few tests per step and none of the solver's work.
 * Allocates only when bodies or particles were added.
 */
export class SleepSystem {
  private enabledValue: boolean;
  private speedValue: number;
  private timeValue: number;
  /** What the solver works on in the coming step: awake particle ranges and passes per body. */
  readonly schedule = new PassSchedule();
  /** Live bodies awake after the latest step. */
  awakeBodies = 0;
  /** Live bodies asleep after the latest step. */
  sleepingBodies = 0;
  /** Live particles not asleep. */
  awakeParticles = 0;

  private asleep: Uint8Array = new Uint8Array(8);
  private quiet: Int32Array = new Int32Array(8);
  private root: Int32Array = new Int32Array(8);
  private restless: Uint8Array = new Uint8Array(8);
  private ready: Uint8Array = new Uint8Array(8);
  private bounds: Float64Array = new Float64Array(8 * 6);
  /** Scratch: [0] the squared step limit, [1..6] a probe box, [7] the squared drift limit. */
  private probe: Float64Array = new Float64Array(8);
  /** Positions where each particle's current rest period began (drift check). */
  private anchor: Float64Array = new Float64Array(0);
  private sleepingParticles = 0;
  /** Particles each sleeping body put to sleep (its live ones). */
  private sleepers: Int32Array = new Int32Array(8);
  private islandsFor = -1;
  private bodyCount = 0;

  constructor(enabled = WORLD_DEFAULTS.sleep, speed = WORLD_DEFAULTS.sleepSpeed, time = WORLD_DEFAULTS.sleepTime) {
    this.enabledValue = checkBoolean(enabled, 'World: sleep');
    this.speedValue = checkNumber(speed, 'World: sleepSpeed', 0);
    this.timeValue = checkNumber(time, 'World: sleepTime', 0);
  }

  /** Put resting bodies to sleep (true or false; anything else throws, naming it). Turning it off wakes every body at the next step. */
  get enabled(): boolean {
    return this.enabledValue;
  }
  set enabled(on: boolean) {
    this.enabledValue = checkBoolean(on, 'World: sleep');
  }

  /**
   * Speed (m/s, >= 0) below which a particle counts as resting. A body also must not
   * drift more than `speed · time / 4` over the rest period, so a slow swing
   * whose turning point dips below the speed does not freeze mid-way.
   */
  get speed(): number {
    return this.speedValue;
  }
  set speed(speed: number) {
    this.speedValue = checkNumber(speed, 'World: sleepSpeed', 0);
  }

  /** Seconds (>= 0) a body must rest before it falls asleep. */
  get time(): number {
    return this.timeValue;
  }
  set time(seconds: number) {
    this.timeValue = checkNumber(seconds, 'World: sleepTime', 0);
  }

  /** Awake particle ranges, triples `[from, to, passes]`, for `rangeCount` ranges (the schedule's). */
  get ranges(): Int32Array {
    return this.schedule.ranges;
  }
  /** Ranges in use in `ranges`. */
  get rangeCount(): number {
    return this.schedule.rangeCount;
  }
  /** Most relaxation passes any awake body or the world gets in the coming step. */
  get maxPasses(): number {
    return this.schedule.maxPasses;
  }

  /** True while body `id` sleeps. */
  isAsleep(id: number): boolean {
    return this.asleep[id] === 1;
  }

  /**
   * Before a step: wakes sleeping bodies that forces act on, then has the
   * schedule fix each body's passes for this step and count who sleeps (see
   * {@link PassSchedule.plan}).
   */
  prepare(world: World): void {
    const bodies = world.bodies;
    if (bodies.length !== this.bodyCount) this.fit(bodies.length);
    if (world.sticks.layoutVersion !== this.islandsFor) this.findIslands(world);
    const particles = world.particles;
    // Force generators write into particles.force (so does applyForce called inside one); applyForce outside them wakes by itself.
    if (this.sleepingBodies > 0 && (world.forces.length > 0 || !this.enabled)) {
      for (let b = 0; b < bodies.length; b++) {
        const body = bodies[b]!;
        if (this.asleep[b] === 1 && body.alive && (!this.enabled || pushed(particles, body))) this.wakeIsland(world, this.root[b]!);
      }
    }
    const schedule = this.schedule;
    // A body removed while asleep was let go of at once (forgetBody): every sleeper here is alive.
    schedule.plan(world, this.asleep);
    this.awakeBodies = schedule.awakeBodies;
    this.sleepingBodies = schedule.sleepingBodies;
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
    const h = world.stepContext.h;
    // Passed in an array: a double argument to a call V8 does not inline is boxed.
    this.probe[0] = this.speed * h * this.speed * h;
    const drift = (this.speed * this.time) / 4;
    this.probe[7] = drift * drift;
    if (this.anchor.length < particles.capacity * 3) this.anchor = new Float64Array(particles.capacity * 3);
    const needed = Math.max(1, Math.ceil(this.time / world.timeStepValue));
    for (let b = 0; b < bodies.length; b++) {
      const body = bodies[b]!;
      if (!body.alive || this.asleep[b] === 1) continue;
      const from = particleSlot(body.first);
      const to = particleSlot(body.first) + body.count;
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

  /**
   * Wakes the islands of sleeping bodies whose bounds overlap `box` (min xyz,
   * max xyz): what a kinematic collider sweeps over a step.
   */
  wakeInBox(world: World, box: Float64Array): void {
    const bounds = this.bounds;
    for (let b = 0; b < this.bodyCount; b++) {
      if (this.asleep[b] !== 1 || !world.bodies[b]!.alive) continue;
      const o = b * 6;
      if (box[0]! > bounds[o + 3]! || box[3]! < bounds[o]! || box[1]! > bounds[o + 4]! || box[4]! < bounds[o + 1]! || box[2]! > bounds[o + 5]! || box[5]! < bounds[o + 2]!) continue;
      this.wakeIsland(world, this.root[b]!);
    }
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
    this.schedule.forgetBody(b);
  }

  /** Marks the particle ranges stale (particles were added to or removed from a body). */
  invalidate(): void {
    this.schedule.invalidate();
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
    // The counts the next step reads before it plans (a sleeper pushed by a force wakes only while some body sleeps).
    this.sleepingBodies = 0;
    this.awakeBodies = 0;
    for (let b = 0; b < bodies; b++) {
      const body = world.bodies[b]!;
      // A removed body's range may hold other bodies' particles by now: it sleeps no one.
      if (!body.alive) {
        this.asleep[b] = 0;
        this.sleepers[b] = 0;
        continue;
      }
      let sleepers = 0;
      for (let i = particleSlot(body.first); i < particleSlot(body.first) + body.count; i++)
        if ((flags[i]! & (ParticleFlag.Alive | ParticleFlag.Asleep)) === (ParticleFlag.Alive | ParticleFlag.Asleep)) sleepers++;
      this.sleepers[b] = sleepers;
      this.sleepingParticles += sleepers;
      if (this.asleep[b] === 1) this.sleepingBodies++;
      else this.awakeBodies++;
    }
    this.awakeParticles = world.particles.count - this.sleepingParticles;
    this.islandsFor = -1;
    this.schedule.invalidate();
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
    const from = particleSlot(body.first) * 3;
    const to = (particleSlot(body.first) + body.count) * 3;
    // Zero velocity: a body that wakes starts from rest, plus whatever woke it.
    copyValues(particles.position, particles.previous, from, to);
    copyValues(particles.position, world.stepStartPositions, from, to);
    let sleepers = 0;
    for (let i = particleSlot(body.first); i < particleSlot(body.first) + body.count; i++) {
      if ((particles.flags[i]! & ParticleFlag.Alive) === 0) continue;
      particles.flags[i]! |= ParticleFlag.Asleep;
      clearContact(particles, i);
      sleepers++;
    }
    this.asleep[b] = 1;
    this.quiet[b] = 0;
    this.sleepers[b] = sleepers;
    this.sleepingParticles += sleepers;
    this.schedule.invalidate();
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
    for (let i = particleSlot(body.first); i < particleSlot(body.first) + body.count; i++) flags[i]! &= ~ParticleFlag.Asleep;
    this.sleepingParticles -= this.sleepers[b]!;
    this.awakeParticles += this.sleepers[b]!;
    this.sleepers[b] = 0;
    this.asleep[b] = 0;
    this.quiet[b] = 0;
    this.schedule.invalidate();
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
      if (body.alive && this.asleep[b] === 0 && this.quiet[b] === 0) this.wakeWhatEnters(world, particleSlot(body.first), particleSlot(body.first) + body.count, true);
    }
    const loose = this.schedule.loose;
    for (let r = 0; r < this.schedule.looseCount; r++) this.wakeWhatEnters(world, loose[r * 2]!, loose[r * 2 + 1]!, false);
  }

  /** Boxes the awake particles of `[from, to)` (only loose ones unless `inBody`) and wakes the sleepers they enter. */
  private wakeWhatEnters(world: World, from: number, to: number, inBody: boolean): void {
    const particles = world.particles;
    if (!boxAwake(particles, from, to, inBody, this.probe)) return;
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

  /** Grows the per-body arrays to `n` bodies (new bodies start awake). */
  private fit(n: number): void {
    if (n > this.asleep.length) {
      const size = Math.max(n, this.asleep.length * 2);
      this.asleep = widen(this.asleep, size);
      this.quiet = widen(this.quiet, size);
      this.root = widen(this.root, size);
      this.restless = widen(this.restless, size);
      this.ready = widen(this.ready, size);
      this.sleepers = widen(this.sleepers, size);
      this.bounds = widen(this.bounds, size * 6);
    }
    for (let b = this.bodyCount; b < n; b++) this.root[b] = b;
    this.bodyCount = n;
    this.islandsFor = -1;
    this.schedule.fit(n);
  }
}

function find(root: Int32Array, b: number): number {
  while (root[b] !== b) b = root[b]!;
  return b;
}
