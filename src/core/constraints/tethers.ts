import { WORLD_DEFAULTS } from '../defaults.js';
import { checkBoolean } from '../math.js';
import type { World } from '../world.js';
import { TetherGraph } from './tetherGraph.js';
import { addRestSum, linkSignature } from './linkSignature.js';
import { buildTethers, TetherBuildScratch } from './tetherBuild.js';
import { TAUT, TetherRows } from './tetherRows.js';
import { LOCKED, settleRows } from './tetherSettle.js';

/** Anchors each particle is tethered to: the nearest along the links (a hammock's centre reaches all four corners). */
const ANCHORS_PER_PARTICLE = 4;
/** ParticleFlag.Asleep, as a plain number in the innermost loop. */
const ASLEEP = 4;
/** A push counts as against taut tethers when its direction is at least this cosine from their mean direction. */
const AGAINST = 0.25;

/** What a snapshot keeps of the tethers: the lengths they ratcheted to and the pins they pause for (see `Tethers.save`). */
export interface TethersSnapshot {
  /** True when the tethers were measured for the links and anchors the snapshot has. */
  fresh: boolean;
  count: number;
  rest: Float64Array;
  length: Float64Array;
  slotCount: number;
  paused: Uint8Array;
  lastTarget: Float64Array;
  /** Per particle up to the particle end, as of its latest projection: taut tethers and the sum of their directions (body contacts read them before the next projection); absent from older snapshots (none taut). */
  taut?: Uint8Array;
  pull?: Float64Array;
}

/**
 * Long-range attachments (Kim, Chentanez and Müller 2012, "Long Range
 * Attachments"; Jolt's soft bodies ship them): every particle joined to an
 * anchor (an immovable particle: a pin, a mass-0 point) by inextensible links
 * is tethered to its nearest anchors, each tether as long as the shortest path
 * of links between them. A tether only pulls, and only moves its particle
 * (the anchor does not move), so in one projection it takes back whatever a
 * heavy load stretched between the anchor and the particle: a 13.5 kg weight
 * on a 0.2 kg rope, a box in a hammock. Relaxation alone hands each correction
 * to the lighter particle, and a chain of light particles passes a heavy load
 * on only after many passes; a tether passes it straight to the anchor.
 *
 * A tether never pushes, never pulls a particle closer than any fold of the
 * links allows, and never moves an anchor: it adds no energy, and a slack
 * cloth or rope moves as freely as without it. A particle farther from its
 * anchor than that when the tether is measured (a net built stretched, a pin
 * set down away from its cloth) is not pulled in: the tether starts at the
 * distance it finds and only shortens, to its rest length, as the particle
 * comes inside it. A rigidly pinned anchor counts where its pin's target is
 * (the pins move it there within the pass). While a pin is being moved (its
 * target changed since the last step: a drag) the tethers to it rest, and the
 * sticks alone pass the drag on, as they do without tethers; when it stops
 * they start again from where the particles are, each as long as its
 * particle is far (or its rest length), and keep that length until they are
 * measured again: the drag may have led the cloth round an obstacle that a
 * shortening tether would pull it through.
 *
 * Links are rigid sticks of kind `'equal'` or `'max'` and the constraints that
 * report inextensible links (`Constraint.tetherLinks`, as zero-length
 * attachments do); compliant sticks stretch by design and bound nothing. The
 * tethers are measured again whenever the links or anchors change (a stick
 * added, removed or torn, a pin added or removed, a mass set), before the next
 * step, and cost nothing in a world without anchors.
 *
 * The tethers also tell body contacts which particles a push cannot move
 * ({@link Tethers.holds}): a box pressing on a hammock meets its tension, not
 * 1.5 g of cotton.
 */
export class Tethers extends TetherRows {
  private enabledValue: boolean;

  constructor(enabled = WORLD_DEFAULTS.tethers) {
    super();
    this.enabledValue = checkBoolean(enabled, 'World: tethers');
  }

  /**
   * Tether the particles to their anchors: `WorldOptions.tethers`, default true
   * (true or false; anything else throws, naming it). False drops every tether
   * before the next step (plain relaxation, as the paper has it); true measures
   * them again.
   */
  get enabled(): boolean {
    return this.enabledValue;
  }
  set enabled(on: boolean) {
    this.enabledValue = checkBoolean(on, 'World: tethers');
  }
  /** Per particle id i (up to the particle end): the first tether row of particle i or above. */
  firstRow: Int32Array = new Int32Array(1);
  /** Per particle, as of its latest projection: how many of its tethers were taut, and the sum of their directions (from anchor to particle). */
  taut: Uint8Array = new Uint8Array(0);
  pull: Float64Array = new Float64Array(0);
  /** The direction of the push {@link Tethers.holds} asks about (written there, not passed: a double passed to a call may be boxed). */
  readonly push = new Float64Array(3);
  private readonly scratchBuild = new TetherBuildScratch(new TetherGraph(ANCHORS_PER_PARTICLE));
  /** What the tethers were measured for (see `linkSignature`), and the same worked out now, in arrays: a double in a field or a return value may be boxed, an allocation per step. */
  private readonly signature = new Float64Array([-1]);
  private readonly scratch = new Float64Array(1);

  /** Measures the tethers again when the links or anchors changed since the last call, and pauses those of moving pins (once per step, before the passes). */
  refresh(world: World): void {
    if (!this.enabled) {
      if (this.count > 0) this.clearRows();
      return;
    }
    if (!this.current(world)) {
      this.build(world);
    } else this.watchPins(world);
  }

  /** True when the tethers were measured for the links and anchors `world` has now. */
  private current(world: World): boolean {
    const scratch = this.scratch;
    linkSignature(world, scratch);
    // Rest lengths may be written directly (a winch reeling a rope in): with tethers to keep right, their sum joins the signature.
    if (this.count > 0) addRestSum(world, scratch);
    return scratch[0] === this.signature[0];
  }

  /** Drops every tether (turned off). */
  private clearRows(): void {
    this.count = 0;
    this.slotCount = 0;
    this.taut.fill(0);
    this.signature[0] = -1;
  }

  /**
   * Pauses the tethers of every pin whose target moved between the last step
   * and this one (a drag: the whole move lands on the step's first substep);
   * one that stopped takes its particles as they are. A target a substep stage
   * moves along within the steps (an `Attachment` carrying a cape) is followed
   * substep by substep, and pauses nothing.
   */
  private watchPins(world: World): void {
    const target = world.pins.target;
    const last = this.lastTarget;
    for (let s = 0; s < this.slotCount; s++) {
      const row = this.slotPin[s]!;
      if (row < 0) continue;
      const t = row * 3;
      const k = s * 3;
      if (target[t] !== last[k] || target[t + 1] !== last[k + 1] || target[t + 2] !== last[k + 2]) this.paused[s] = 1;
      else if (this.paused[s] === 1) {
        this.paused[s] = 0;
        this.regrab(world, s);
      }
    }
  }

  /** Starts the tethers of slot `s` at their particles' distances now (never shorter than rest), and keeps them so long until they are measured again. */
  private regrab(world: World, s: number): void {
    this.locate(world, false);
    const pos = world.particles.position;
    const where = this.where;
    for (let r = 0; r < this.count; r++) {
      if (this.slot[r] !== s) continue;
      const p = this.particle[r]! * 3;
      const a = s * 3;
      const d = Math.hypot(pos[p]! - where[a]!, pos[p + 1]! - where[a + 1]!, pos[p + 2]! - where[a + 2]!);
      // It keeps that length: the drag may have led the cloth round an obstacle (a ring, a rail) that the straight tether would shortcut if it shortened.
      if (d > this.rest[r]!) this.rest[r] = d;
      this.setLength(r, this.rest[r]!);
    }
    this.countLong();
  }

  /** Fills `where` with each slot's anchor position for this pass; `move`: also moves the pinned anchors of tethers at work onto their targets. */
  private locate(world: World, move: boolean): void {
    const pos = world.particles.position;
    const target = world.pins.target;
    const where = this.where;
    for (let s = 0; s < this.slotCount; s++) {
      const row = this.slotPin[s]!;
      const k = s * 3;
      if (row >= 0) {
        where[k] = target[row * 3]!;
        where[k + 1] = target[row * 3 + 1]!;
        where[k + 2] = target[row * 3 + 2]!;
        // In a pass, the pinned anchor goes there now, not at the pass's end: the sticks then see the anchor the tethers see, and a carried cape moves in the carrier's frame as it hangs on still pins.
        if (move && this.paused[s] === 0) {
          const a = this.slotParticle[s]! * 3;
          pos[a] = where[k]!;
          pos[a + 1] = where[k + 1]!;
          pos[a + 2] = where[k + 2]!;
        }
      } else {
        const a = this.slotParticle[s]! * 3;
        where[k] = pos[a]!;
        where[k + 1] = pos[a + 1]!;
        where[k + 2] = pos[a + 2]!;
      }
    }
  }

  /**
   * Relaxation pass `pass`: in each awake particle's last pass (a cloth's only
   * one at the default solver), pulls it back onto any tether it is beyond,
   * shortens the tethers it came inside, and records which are taut. Run in
   * the last pass rather than the first, the tethers leave the sticks one
   * pass to share out their correction, not several to undo it.
   */
  project(world: World, pass: number): void {
    if (this.count === 0 || !this.enabled) return;
    const ranges = world.sleep.ranges;
    let located = false;
    for (let k = 0; k < world.sleep.rangeCount; k++) {
      if (ranges[k * 3 + 2]! - 1 !== pass) continue;
      const from = this.firstRow[ranges[k * 3]!]!;
      const to = this.firstRow[ranges[k * 3 + 1]!]!;
      if (from === to) continue;
      if (!located) this.locate(world, true);
      located = true;
      this.projectRows(world, from, to);
    }
  }

  /** Projects tether rows `[from, to)` (whole particles' groups). */
  private projectRows(world: World, from: number, count: number): void {
    const particles = world.particles;
    const pos = particles.position;
    const w = particles.inverseMass;
    const flags = particles.flags;
    const taut = this.taut;
    const pull = this.pull;
    const particle = this.particle;
    const slot = this.slot;
    const where = this.where;
    const paused = this.paused;
    const rest = this.rest;
    const lengths = this.length;
    const slack2 = this.slack2;
    const inverse = this.inverse;
    let long = this.longRows;
    let r = from;
    while (r < count) {
      const i = particle[r]!;
      const p = i * 3;
      let last = r + 1;
      while (last < count && particle[last] === i) last++;
      if (w[i] === 0 || (flags[i]! & ASLEEP) !== 0) {
        taut[i] = 0;
        r = last;
        continue;
      }
      let x = pos[p]!;
      let y = pos[p + 1]!;
      let z = pos[p + 2]!;
      let n = 0;
      let sx = 0;
      let sy = 0;
      let sz = 0;
      for (; r < last; r++) {
        const s = slot[r]!;
        if (paused[s] !== 0) continue;
        const a = s * 3;
        const dx = x - where[a]!;
        const dy = y - where[a + 1]!;
        const dz = z - where[a + 2]!;
        const d2 = dx * dx + dy * dy + dz * dz;
        // Measured long (the particle began outside its rest length): shorten it to where the particle came in, never below rest.
        if (long > 0 && lengths[r]! > rest[r]! && d2 < lengths[r]! * lengths[r]!) {
          const d = Math.sqrt(d2);
          const shorter = d > rest[r]! ? d : rest[r]!;
          if (shorter === rest[r]) long--;
          lengths[r] = shorter;
          const t = shorter * (1 - TAUT);
          slack2[r] = t * t;
          inverse[r] = 1 / shorter;
        }
        if (d2 <= slack2[r]!) continue;
        const length = lengths[r]!;
        // Taut: within TAUT of its length, so dx / length stands for the unit direction without a square root.
        const k = inverse[r]!;
        n++;
        sx += dx * k;
        sy += dy * k;
        sz += dz * k;
        if (d2 <= length * length) continue;
        const d = Math.sqrt(d2);
        const c = (d - length) / d;
        x -= dx * c;
        y -= dy * c;
        z -= dz * c;
      }
      pos[p] = x;
      pos[p + 1] = y;
      pos[p + 2] = z;
      taut[i] = n;
      pull[p] = sx;
      pull[p + 1] = sy;
      pull[p + 2] = sz;
    }
    this.longRows = long;
  }

  /**
   * After a substep's passes: the velocity half of the tethers. A particle
   * locked between opposing taut tethers to anchors that move together (a
   * hammock's skin on still pins, a cape's shoulders on a carried box) cannot
   * move but with them; the motion the passes left it besides theirs (a
   * contact's push that the tethers then took back, as a spring would throw
   * it back) is taken away. In the anchors' frame it only takes speed away;
   * anchors moving apart (a drag, a turn) hand on what they hand on.
   */
  settle(world: World): void {
    if (this.count === 0 || !this.enabled) return;
    const ranges = world.sleep.ranges;
    for (let k = 0; k < world.sleep.rangeCount; k++) settleRows(world, this, ranges[k * 3]!, ranges[k * 3 + 1]!);
  }

  /** After a step: remembers the pins' targets, so the next step tells a pin moved in between (a drag) from one a substep stage moves along (see `refresh`). */
  afterStep(world: World): void {
    if (this.slotCount === 0) return;
    const target = world.pins.target;
    const last = this.lastTarget;
    for (let s = 0; s < this.slotCount; s++) {
      const row = this.slotPin[s]!;
      if (row < 0) continue;
      last[s * 3] = target[row * 3]!;
      last[s * 3 + 1] = target[row * 3 + 1]!;
      last[s * 3 + 2] = target[row * 3 + 2]!;
    }
  }

  /**
   * True when particle `i`'s taut tethers resist moving it along {@link Tethers.push}:
   * they pull against each other (it cannot move at all without stretching
   * one), or the move has a share of at least {@link AGAINST} along their
   * mean direction. A curtain hanging from its top edge holds against a pull
   * down, not against a push sideways (it swings); a hammock's middle holds
   * both ways.
   */
  holds(i: number): boolean {
    const nx = this.push[0]!;
    const ny = this.push[1]!;
    const nz = this.push[2]!;
    if (i >= this.taut.length) return false;
    const n = this.taut[i]!;
    if (n === 0) return false;
    const sx = this.pull[i * 3]!;
    const sy = this.pull[i * 3 + 1]!;
    const sz = this.pull[i * 3 + 2]!;
    const s = Math.sqrt(sx * sx + sy * sy + sz * sz);
    if (s < LOCKED * n) return true;
    return nx * sx + ny * sy + nz * sz > AGAINST * s;
  }

  /** A copy of what the tethers learned while stepping (for `World.snapshot`). */
  save(world: World): TethersSnapshot {
    return {
      fresh: this.enabled && this.current(world),
      count: this.count,
      rest: this.rest.slice(0, this.count),
      length: this.length.slice(0, this.count),
      slotCount: this.slotCount,
      paused: this.paused.slice(0, this.slotCount),
      lastTarget: this.lastTarget.slice(0, this.slotCount * 3),
      taut: this.taut.slice(0, world.particles.end),
      pull: this.pull.slice(0, world.particles.end * 3),
    };
  }

  /** Brings back what {@link Tethers.save} kept, after the rest of the world is restored; without it the next step measures them again. */
  load(world: World, snap: TethersSnapshot | undefined): void {
    this.signature[0] = -1;
    if (!this.enabled || snap === undefined || !snap.fresh) return;
    this.build(world);
    if (this.count !== snap.count || this.slotCount !== snap.slotCount) {
      this.signature[0] = -1;
      return;
    }
    this.rest.set(snap.rest);
    for (let r = 0; r < this.count; r++) this.setLength(r, snap.length[r]!);
    this.countLong();
    this.paused.set(snap.paused);
    this.lastTarget.set(snap.lastTarget);
    if (snap.taut !== undefined && snap.pull !== undefined) {
      const end = Math.min(snap.taut.length, this.taut.length);
      this.taut.set(snap.taut.subarray(0, end));
      this.pull.set(snap.pull.subarray(0, end * 3));
    }
  }

  /** Measures the tethers for the links and anchors `world` has now; each starts no shorter than its particle's distance from the anchor. */
  private build(world: World): void {
    const particles = world.particles;
    const end = particles.end;
    buildTethers(world, this, this.scratchBuild);
    if (this.taut.length < end) {
      this.taut = new Uint8Array(particles.capacity);
      this.pull = new Float64Array(particles.capacity * 3);
    } else {
      this.taut.fill(0);
      this.pull.fill(0);
    }
    this.locate(world, false);
    const target = world.pins.target;
    for (let s = 0; s < this.slotCount; s++) {
      const row = this.slotPin[s]!;
      if (row < 0) continue;
      this.lastTarget[s * 3] = target[row * 3]!;
      this.lastTarget[s * 3 + 1] = target[row * 3 + 1]!;
      this.lastTarget[s * 3 + 2] = target[row * 3 + 2]!;
    }
    const pos = particles.position;
    const where = this.where;
    for (let r = 0; r < this.count; r++) {
      const p = this.particle[r]! * 3;
      const a = this.slot[r]! * 3;
      const d = Math.hypot(pos[p]! - where[a]!, pos[p + 1]! - where[a + 1]!, pos[p + 2]! - where[a + 2]!);
      this.setLength(r, d > this.rest[r]! ? d : this.rest[r]!);
    }
    this.countLong();
    if (this.firstRow.length < end + 1) this.firstRow = new Int32Array(particles.capacity + 1);
    let r = 0;
    for (let i = 0; i <= end; i++) {
      while (r < this.count && this.particle[r]! < i) r++;
      this.firstRow[i] = r;
    }
    linkSignature(world, this.signature);
    if (this.count > 0) addRestSum(world, this.signature);
  }
}
