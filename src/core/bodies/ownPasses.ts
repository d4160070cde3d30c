import { existingEdgeSystem } from '../collision/edges.js';
import { existingAngleTable } from '../constraints/angle.js';
import { solveSegment } from '../constraints/stickSolve.js';
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
    const first = body.first;
    const end = first + body.count;
    const angles = existingAngleTable(world);
    const edges = existingEdgeSystem(world);
    this.refresh(world, first, end);
    const sticks = world.sticks;
    const colliders = world.colliders;
    for (let pass = 0; pass < this.passes && this.needsPass(world); pass++) {
      if (angles !== undefined && this.angleCount > 0) angles.projectRows(world, this.angleRows, this.angleCount);
      if (this.segment >= 0) solveSegment(sticks, world.particles, this.segment, world.sqrtApprox, world.random, world.stickKernel);
      if (edges !== undefined && this.edgeCount > 0) edges.projectRows(world, this.edgeRows, this.edgeCount);
      for (let c = 0; c < colliders.length; c++) colliders[c]!.project(world.particles, first, end);
    }
  }

  /** True while a watched stick is further than `tolerance` from its rest length. */
  private needsPass(world: World): boolean {
    const sticks = world.sticks;
    const pos = world.particles.position;
    const rows = this.watchedRows;
    const tolerance = this.tolerance;
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
