import { particleSlot } from '../ids.js';
import { existingEdgeSystem } from '../collision/edges.js';
import { existingAngleTable } from '../constraints/angle.js';
import { solveSegment } from '../constraints/stickSolve.js';
import { ParticleFlag, type ParticleStore } from '../particles.js';
import type { SubstepStage } from '../stepContext.js';
import type { World } from '../world.js';
import type { BodyRecord } from './body.js';

/**
 * Extra relaxation passes for one body over its own constraints only, run every
 * substep after the world's passes: its angle limits, its sticks, its capsule
 * edges, then the colliders over its particles, so that the ground keeps the
 * last word. A ragdoll landing on its head is a chain of a light head, a light
 * neck and a heavy chest stopped at one end by the ground; one Gauss–Seidel
 * pass per substep hands the stop on by one stick per pass, and the neck ran on
 * into the head, whose bone came out 21% short at 5 m/s. More passes for the
 * body (`iterations`) also repeat every other body's limits, capsules and body
 * contacts in the world (12 passes cost ten times one); these repeat only the
 * body's own rows. Limits come before the sticks: projected after them they
 * pressed the head's bone short again.
 *
 * The passes run only while a watched stick (a ragdoll's bones) is off its rest
 * length by more than `tolerance`, and stop as soon as none is: in flight and at
 * rest the world's pass leaves the bones within 0.2%, so they cost one check of
 * the bones per substep and change nothing, and only a hard impact pays for them.
 * Run every substep at rest they changed how a body settles (a ragdoll lying on
 * its side crept at 2 cm/s and rolled over after 7 s).
 *
 * Two guards keep the passes from adding motion. They wait while a collider holds
 * back a particle's push-out (a body made or moved inside a collider comes out
 * at `maxPushOutSpeed`; passes that make the body rigid turn those pushes into a
 * lever's swing). And a pass that raises the body's kinetic energy is undone and
 * ends the passes: a ragdoll made upside down half in the floor left at 52 m/s
 * without that (23 m/s with no passes), one made 27 cm in the floor rose 11 m.
 * The energy is measured in the frame of a moving (kinematic) collider the body
 * touches, if any: a bat swung into a ragdoll gives it energy it is owed, and the
 * passes must act as they would on a ragdoll thrown at a still bat.
 *
 * Registered as a substep stage (see `SubstepStage.afterRelax`); it skips the
 * body while it sleeps. Allocates nothing once its row lists are built (they are
 * rebuilt when a table's rows move).
 */
export class OwnPasses implements SubstepStage {
  /** Most passes per substep. */
  passes: number;
  /** The passes stop once every watched stick is within this share of its rest length. */
  tolerance: number;
  private readonly body: BodyRecord;
  /** Ids of the sticks whose length decides whether another pass is needed (a ragdoll's bones). */
  private readonly watched: Int32Array;
  /** Their rows in the stick table, found again when they move. */
  private readonly watchedRows: Int32Array;
  private angleRows: Int32Array = new Int32Array(16);
  private angleCount = 0;
  private angleVersion = -1;
  private edgeRows: Int32Array = new Int32Array(16);
  private edgeCount = 0;
  private edgeVersion = -1;
  private saved: Float64Array = new Float64Array(0);
  private readonly energy = new Float64Array(2);
  /** The substep's motion (m) of the frame the energy is measured in: a touching kinematic collider's surface, else 0. */
  private readonly frame = new Float64Array(3);
  private segment = -1;
  private segmentVersion = -1;

  constructor(body: BodyRecord, passes: number, watched: readonly number[], tolerance: number) {
    this.body = body;
    this.passes = passes;
    this.tolerance = tolerance;
    this.watched = Int32Array.from(watched);
    this.watchedRows = new Int32Array(watched.length).fill(-1);
  }

  /** Nothing to do before the passes. */
  afterIntegrate(): void {}

  /** The extra passes of this substep. */
  afterRelax(world: World): void {
    const body = this.body;
    if (this.passes === 0 || !body.alive || world.sleep.isAsleep(body.id)) return;
    const first = particleSlot(body.first);
    const end = first + body.count;
    const angles = existingAngleTable(world);
    const edges = existingEdgeSystem(world);
    this.refresh(world, first, end);
    if (this.heldBack(world, first, end) || !this.exceeds(world)) return;
    const particles = world.particles;
    const sticks = world.sticks;
    const colliders = world.colliders;
    const count = body.count * 3;
    const saved = this.saved.length >= count ? this.saved : (this.saved = new Float64Array(count));
    // Energies live in a typed array: a double returned from or passed to a call V8 does not inline is boxed.
    const energy = this.energy;
    contactFrame(particles, first, end, this.frame);
    kineticMeasure(particles, first, end, this.frame, energy, 0);
    // A bone is off its length (checked above); after each pass, stop once none is.
    for (let pass = 0; pass < this.passes; pass++) {
      copyValues(particles.position, first * 3, saved, 0, count);
      if (angles !== undefined && this.angleCount > 0) angles.projectRows(world, this.angleRows, this.angleCount, true);
      if (this.segment >= 0) solveSegment(sticks, particles, this.segment, world.sqrtApprox, world.random, world.stickKernel);
      if (edges !== undefined && this.edgeCount > 0) edges.projectRows(world, this.edgeRows, this.edgeCount);
      for (let c = 0; c < colliders.length; c++) colliders[c]!.project(particles, first, end);
      kineticMeasure(particles, first, end, this.frame, energy, 1);
      if (energy[1]! > energy[0]!) {
        copyValues(saved, 0, particles.position, first * 3, count);
        break;
      }
      energy[0] = energy[1]!;
      if (!this.exceeds(world)) break;
    }
  }

  /**
   * True when a collider held back the push-out of one of the body's particles
   * since the last call (it was made or moved inside a collider); clears the flags.
   * The passes then wait: each would push such a particle out by the push-out
   * limit again, and the body's sticks, made rigid by the passes, turn those
   * pushes into a lever's swing (a ragdoll made upside down, half in the floor,
   * left at 52 m/s, 23 m/s without the passes).
   */
  private heldBack(world: World, first: number, end: number): boolean {
    const flags = world.particles.flags;
    let held = false;
    for (let i = first; i < end; i++) {
      if ((flags[i]! & ParticleFlag.HeldBack) === 0) continue;
      flags[i] = flags[i]! & ~ParticleFlag.HeldBack;
      held = true;
    }
    return held;
  }

  /** True while a watched stick is further than `tolerance` from its rest length. */
  private exceeds(world: World): boolean {
    const tolerance = this.tolerance;
    const sticks = world.sticks;
    const pos = world.particles.position;
    const rows = this.watchedRows;
    for (let i = 0; i < rows.length; i++) {
      let row = rows[i]!;
      if (row < 0 || row >= sticks.count || sticks.ids[row] !== this.watched[i]) {
        row = world.stickRow(this.watched[i]!);
        rows[i] = row;
        if (row < 0) continue;
      }
      const a = sticks.a[row]! * 3;
      const b = sticks.b[row]! * 3;
      const dx = pos[b]! - pos[a]!;
      const dy = pos[b + 1]! - pos[a + 1]!;
      const dz = pos[b + 2]! - pos[a + 2]!;
      const rest = sticks.rest[row]!;
      const error = Math.sqrt(dx * dx + dy * dy + dz * dz) - rest;
      if (error > tolerance * rest || error < -tolerance * rest) return true;
    }
    return false;
  }

  /** Finds the body's stick segment and its rows in the angle and edge tables again where they moved. */
  private refresh(world: World, first: number, end: number): void {
    const sticks = world.sticks;
    if (this.segmentVersion !== sticks.layoutVersion) {
      this.segmentVersion = sticks.layoutVersion;
      this.segment = -1;
      for (let k = 0; k < sticks.segmentCount; k++) if (sticks.segmentBody[k] === this.body.id) this.segment = k;
    }
    const angles = existingAngleTable(world);
    if (angles !== undefined && this.angleVersion !== angles.version) {
      this.angleVersion = angles.version;
      this.angleCount = 0;
      for (let row = 0; row < angles.count; row++) {
        const m = angles.middle[row]!;
        if (m < first || m >= end) continue;
        if (this.angleCount === this.angleRows.length) this.angleRows = grow(this.angleRows);
        this.angleRows[this.angleCount++] = row;
      }
    }
    const edges = existingEdgeSystem(world);
    if (edges !== undefined && this.edgeVersion !== edges.version) {
      this.edgeVersion = edges.version;
      this.edgeCount = 0;
      const t = edges.table;
      for (let row = 0; row < t.count; row++) {
        const a = t.a[row]!;
        const b = t.b[row]!;
        if (a < first || a >= end || b < first || b >= end) continue;
        if (this.edgeCount === this.edgeRows.length) this.edgeRows = grow(this.edgeRows);
        this.edgeRows[this.edgeCount++] = row;
      }
    }
  }
}

function grow(rows: Int32Array): Int32Array {
  const next = new Int32Array(rows.length * 2);
  next.set(rows);
  return next;
}

/** Writes Σ m·|x − x*|² over particles `[first, end)` (twice the kinetic energy times h²) into `out[slot]`. */
function kineticMeasure(particles: ParticleStore, first: number, end: number, frame: Float64Array, out: Float64Array, slot: number): void {
  const pos = particles.position;
  const prev = particles.previous;
  const w = particles.inverseMass;
  const fx = frame[0]!;
  const fy = frame[1]!;
  const fz = frame[2]!;
  let sum = 0;
  for (let i = first; i < end; i++) {
    const wi = w[i]!;
    if (wi === 0) continue;
    const p = i * 3;
    const dx = pos[p]! - prev[p]! - fx;
    const dy = pos[p + 1]! - prev[p + 1]! - fy;
    const dz = pos[p + 2]! - prev[p + 2]! - fz;
    sum += (dx * dx + dy * dy + dz * dz) / wi;
  }
  out[slot] = sum;
}

/** `out` = the surface motion over this substep of the first kinematic collider contact among the particles (0 if none). */
function contactFrame(particles: ParticleStore, first: number, end: number, out: Float64Array): void {
  const motion = particles.contactMotion;
  out[0] = 0;
  out[1] = 0;
  out[2] = 0;
  for (let i = first; i < end; i++) {
    const p = i * 3;
    if (motion[p] === 0 && motion[p + 1] === 0 && motion[p + 2] === 0) continue;
    out[0] = motion[p]!;
    out[1] = motion[p + 1]!;
    out[2] = motion[p + 2]!;
    return;
  }
}

/** Copies `count` values from `from[fromStart..]` to `to[toStart..]` (a loop: `subarray` would allocate a view). */
function copyValues(from: Float64Array, fromStart: number, to: Float64Array, toStart: number, count: number): void {
  for (let k = 0; k < count; k++) to[toStart + k] = from[fromStart + k]!;
}
