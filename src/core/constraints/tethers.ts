import { ParticleFlag } from '../particles.js';
import type { World } from '../world.js';
import { StickKindCode } from './sticks.js';
import { widen } from './table.js';
import { TetherGraph } from './tetherGraph.js';
import { linkSignature } from './linkSignature.js';

/** Anchors each particle is tethered to: the nearest along the links (a hammock's centre reaches all four corners). */
const ANCHORS_PER_PARTICLE = 4;
/**
 * A particle at least this many times heavier than a particle it is linked to
 * (a 13.5 kg box tied to a rope of 10 g particles) anchors the light particles
 * around it as an immovable one does: against it they move as if it were.
 */
const HEAVY = 50;
/**
 * A tether counts as taut when its particle is within this share of its length
 * from the end: a hanging cloth's particles sit a little short of their
 * tethers (the sticks curve), and are still held by them.
 */
const TAUT = 0.002;
/**
 * Taut tethers whose directions sum to less than this share of their number
 * pull against each other (a drum's skin, a hammock's middle): the particle
 * cannot move in any direction without stretching one of them.
 */
const LOCKED = 0.5;
/**
 * Most a path along the sticks may exceed the straight distance in a flat
 * body's rest layout for the straight distance to be taken as the tether's
 * length: a grid's sticks (rows, columns and diagonals) overestimate a
 * straight distance by up to 8.2% (at 22.5°); a longer path goes round a tear.
 */
const DETOUR = 1.083;
/** ParticleFlag.Asleep, as a plain number in the innermost loop. */
const ASLEEP = 4;
/** A push counts as against taut tethers when its direction is at least this cosine from their mean direction. */
const AGAINST = 0.25;

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
 * cloth or rope moves as freely as without it.
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
export class Tethers {
  /**
   * Tether the particles to their anchors: `WorldOptions.tethers`, default true.
   * False drops every tether before the next step (plain relaxation, as the
   * paper has it); true measures them again.
   */
  enabled: boolean;

  constructor(enabled = true) {
    this.enabled = enabled;
  }
  /** Tethers in use. */
  count = 0;
  /** Per tether: its particle, its anchor and its length (m), grouped by particle. */
  particle: Int32Array = new Int32Array(64);
  anchor: Int32Array = new Int32Array(64);
  length: Float64Array = new Float64Array(64);
  /** Per tether: the squared distance beyond which it counts as taut, and 1 / its length. */
  private slack2: Float64Array = new Float64Array(64);
  private inverse: Float64Array = new Float64Array(64);
  /** Per particle, as of its latest projection: how many of its tethers were taut, and the sum of their directions (from anchor to particle). */
  taut: Uint8Array = new Uint8Array(0);
  pull: Float64Array = new Float64Array(0);
  /** The direction of the push {@link Tethers.holds} asks about (written there, not passed: a double passed to a call may be boxed). */
  readonly push = new Float64Array(3);
  private readonly graph = new TetherGraph(ANCHORS_PER_PARTICLE);
  /** Adds a link a constraint reports to the graph (made once: a closure per rebuild would be garbage whenever a cloth tears). */
  private readonly addLink = (a: number, b: number, length: number): void => this.graph.link(a, b, length);
  private anchors: Int32Array = new Int32Array(16);
  /** What the tethers were measured for (see `linkSignature`), and the same worked out now, in arrays: a double in a field or a return value may be boxed, an allocation per step. */
  private readonly signature = new Float64Array([-1]);
  private readonly scratch = new Float64Array(1);

  /** Measures the tethers again when the links or anchors changed since the last call (once per step, before the passes). */
  refresh(world: World): void {
    if (!this.enabled) {
      if (this.count > 0) this.clearRows();
      return;
    }
    const scratch = this.scratch;
    linkSignature(world, scratch);
    // Rest lengths may be written directly (a winch reeling a rope in): with tethers to keep right, their sum joins the signature.
    if (this.count > 0) addRestSum(world, scratch);
    if (scratch[0] === this.signature[0]) return;
    this.build(world);
    linkSignature(world, this.signature);
    if (this.count > 0) addRestSum(world, this.signature);
  }

  /** Drops every tether (turned off). */
  private clearRows(): void {
    this.count = 0;
    this.taut.fill(0);
    this.signature[0] = -1;
  }

  /** One relaxation pass: pulls every particle beyond a tether back onto it, and records which of its tethers are taut. */
  project(world: World): void {
    const count = this.count;
    if (count === 0 || !this.enabled) return;
    const particles = world.particles;
    const pos = particles.position;
    const w = particles.inverseMass;
    const flags = particles.flags;
    const taut = this.taut;
    const pull = this.pull;
    const particle = this.particle;
    const anchor = this.anchor;
    const lengths = this.length;
    const slack2 = this.slack2;
    const inverse = this.inverse;
    let r = 0;
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
        const a = anchor[r]! * 3;
        const dx = x - pos[a]!;
        const dy = y - pos[a + 1]!;
        const dz = z - pos[a + 2]!;
        const d2 = dx * dx + dy * dy + dz * dz;
        if (d2 <= slack2[r]!) continue;
        // Taut: within TAUT of its length, so dx / length stands for the unit direction without a square root.
        const k = inverse[r]!;
        n++;
        sx += dx * k;
        sy += dy * k;
        sz += dz * k;
        const length = lengths[r]!;
        if (d2 <= length * length) continue;
        const d = Math.sqrt(d2);
        const s = (d - length) / d;
        x -= dx * s;
        y -= dy * s;
        z -= dz * s;
      }
      pos[p] = x;
      pos[p + 1] = y;
      pos[p + 2] = z;
      taut[i] = n;
      pull[p] = sx;
      pull[p + 1] = sy;
      pull[p + 2] = sz;
    }
  }

  /**
   * After a substep's passes: the velocity half of the tethers. A particle
   * locked between opposing taut tethers to still anchors (a hammock's skin)
   * cannot be moving at all; the motion the passes left it (a contact's push
   * that the tethers then took back, as a spring would throw it back) is
   * taken away. It only takes speed away, and leaves alone what moving
   * anchors hand on.
   */
  settle(world: World): void {
    const count = this.count;
    if (count === 0 || !this.enabled) return;
    const particles = world.particles;
    const pos = particles.position;
    const prev = particles.previous;
    const taut = this.taut;
    const pull = this.pull;
    const particle = this.particle;
    const anchor = this.anchor;
    let r = 0;
    while (r < count) {
      const i = particle[r]!;
      const first = r;
      while (r < count && particle[r] === i) r++;
      const n = taut[i]!;
      if (n < 2) continue;
      const p = i * 3;
      const sx = pull[p]!;
      const sy = pull[p + 1]!;
      const sz = pull[p + 2]!;
      if (sx * sx + sy * sy + sz * sz >= LOCKED * LOCKED * n * n) continue;
      // Against a moving anchor (a cape on a carried box) the passes' own answer stands: what it hands on is no push to take back.
      let still = true;
      for (let k = first; k < r && still; k++) {
        const a = anchor[k]! * 3;
        still = pos[a] === prev[a] && pos[a + 1] === prev[a + 1] && pos[a + 2] === prev[a + 2];
      }
      if (!still) continue;
      prev[p] = pos[p]!;
      prev[p + 1] = pos[p + 1]!;
      prev[p + 2] = pos[p + 2]!;
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

  private build(world: World): void {
    const particles = world.particles;
    const end = particles.end;
    const graph = this.graph;
    graph.clear();
    let anchorCount = 0;
    for (let i = 0; i < end; i++) {
      if ((particles.flags[i]! & ParticleFlag.Alive) === 0 || particles.inverseMass[i] !== 0) continue;
      if (anchorCount === this.anchors.length) this.anchors = widen(this.anchors, anchorCount * 2);
      this.anchors[anchorCount++] = i;
    }
    this.count = 0;
    if (this.taut.length < end) {
      this.taut = new Uint8Array(particles.capacity);
      this.pull = new Float64Array(particles.capacity * 3);
    } else {
      this.taut.fill(0);
      this.pull.fill(0);
    }
    const sticks = world.sticks;
    for (let r = 0; r < sticks.count; r++) {
      const kind = sticks.kind[r]!;
      if (kind === StickKindCode.Min || sticks.compliance[r] !== 0 || sticks.stiffness[r] !== 1) continue;
      graph.link(sticks.a[r]!, sticks.b[r]!, sticks.rest[r]!);
    }
    const constraints = world.constraints;
    for (let c = 0; c < constraints.length; c++) constraints[c]!.tetherLinks?.(this.addLink);
    const w = particles.inverseMass;
    if (anchorCount > 0) {
      graph.nearestAnchors(end, this.anchors, anchorCount);
      for (let i = 0; i < end; i++) {
        if (w[i] === 0) continue;
        for (let j = 0; j < graph.labelCount[i]!; j++) {
          const anchor = graph.labelAnchor[i * ANCHORS_PER_PARTICLE + j]!;
          this.add(i, anchor, straightened(world, i, anchor, graph.labelDistance[i * ANCHORS_PER_PARTICLE + j]!));
        }
      }
    }
    // Heavy particles anchor the light ones around them: a heavy load's tension keeps a light rope straight between it and the pin.
    // Only where an anchor carries the load: without one, a light particle pulled to a falling weight holds nothing up.
    const heavy = anchorCount > 0 ? this.heavySources(w) : 0;
    if (heavy > 0) {
      const fixed = this.count;
      graph.nearestAnchors(end, this.anchors, heavy);
      for (let i = 0; i < end; i++) {
        if (w[i] === 0 || !this.hasRowIn(i, fixed)) continue;
        for (let j = 0; j < graph.labelCount[i]!; j++) {
          const anchor = graph.labelAnchor[i * ANCHORS_PER_PARTICLE + j]!;
          if (w[i]! >= HEAVY * w[anchor]!) this.add(i, anchor, graph.labelDistance[i * ANCHORS_PER_PARTICLE + j]!);
        }
      }
      this.sortByParticle();
    }
  }

  /** True when particle `i` has a tether among the first `rows` (they are in particle order). */
  private hasRowIn(i: number, rows: number): boolean {
    let lo = 0;
    let hi = rows;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.particle[mid]! < i) lo = mid + 1;
      else hi = mid;
    }
    return lo < rows && this.particle[lo] === i;
  }

  /** Lists in `anchors` the movable particles linked to one at least {@link HEAVY} times lighter; returns how many. */
  private heavySources(w: Float64Array): number {
    const graph = this.graph;
    let count = 0;
    for (let l = 0; l < graph.linkCount; l++) {
      const a = graph.linkA[l]!;
      const b = graph.linkB[l]!;
      count = this.addHeavy(w, a, b, count);
      count = this.addHeavy(w, b, a, count);
    }
    return count;
  }

  /** Lists `heavy` as a source (at `count`) when it is at least {@link HEAVY} times `light` and not listed yet; returns the new count. */
  private addHeavy(w: Float64Array, heavy: number, light: number, count: number): number {
    if (w[heavy] === 0 || w[light]! < HEAVY * w[heavy]!) return count;
    for (let k = 0; k < count; k++) if (this.anchors[k] === heavy) return count;
    if (count === this.anchors.length) this.anchors = widen(this.anchors, count * 2);
    this.anchors[count] = heavy;
    return count + 1;
  }

  /** Puts the tethers back in particle order (the heavy anchors' were appended after the fixed ones'), keeping each particle's in the order added. */
  private sortByParticle(): void {
    const order = Array.from({ length: this.count }, (_, r) => r).sort((x, y) => this.particle[x]! - this.particle[y]! || x - y);
    for (const column of [this.particle, this.anchor, this.length, this.slack2, this.inverse]) {
      const sorted = order.map((r) => column[r]!);
      column.set(sorted);
    }
  }

  private add(particle: number, anchor: number, length: number): void {
    if (this.count === this.particle.length) {
      const n = this.count * 2;
      this.particle = widen(this.particle, n);
      this.anchor = widen(this.anchor, n);
      this.length = widen(this.length, n);
      this.slack2 = widen(this.slack2, n);
      this.inverse = widen(this.inverse, n);
    }
    this.particle[this.count] = particle;
    this.anchor[this.count] = anchor;
    this.length[this.count] = length;
    this.slack2[this.count] = (length * (1 - TAUT)) ** 2;
    this.inverse[this.count] = length > 0 ? 1 / length : 0;
    this.count++;
  }
}

/** Adds the sum of the sticks' rest lengths (m) to `out[0]`. */
function addRestSum(world: World, out: Float64Array): void {
  const rest = world.sticks.rest;
  let sum = 0;
  for (let r = 0; r < world.sticks.count; r++) sum += rest[r]!;
  out[0] = out[0]! + sum;
}

/**
 * The length of a tether from `particle` to `anchor` whose path along the
 * links is `path` long: the straight distance between them in their body's
 * flat rest layout when both are of one such body and the path is no detour,
 * else the path.
 */
function straightened(world: World, particle: number, anchor: number, path: number): number {
  const b = world.particles.body[particle]!;
  if (b < 0 || world.particles.body[anchor] !== b) return path;
  const body = world.bodies[b]!;
  const layout = body.restLayout;
  if (layout === undefined) return path;
  const i = (particle - body.first) * 3;
  const a = (anchor - body.first) * 3;
  const straight = Math.hypot(layout[i]! - layout[a]!, layout[i + 1]! - layout[a + 1]!, layout[i + 2]! - layout[a + 2]!);
  return path <= straight * DETOUR ? Math.min(straight, path) : path;
}
