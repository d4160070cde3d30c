import { particleSlot } from '../ids.js';
import { ParticleFlag } from '../particles.js';
import type { World } from '../world.js';
import { StickKindCode } from './sticks.js';
import { widen } from './table.js';
import type { TetherGraph } from './tetherGraph.js';
import { markBodiesHeldAsLaidOut } from './tetherLayout.js';

/**
 * A particle at least this many times heavier than a particle it is linked to
 * (a 13.5 kg box tied to a rope of 10 g particles) anchors the light particles
 * around it as an immovable one does: against it they move as if it were.
 */
export const HEAVY = 50;
/**
 * Most a path along the sticks may exceed the straight distance in a flat
 * body's rest layout for the straight distance to be taken as the tether's
 * length: a grid's sticks (rows, columns and diagonals) overestimate a
 * straight distance by up to 8.2% (at 22.5°); a longer path goes round a tear.
 */
const DETOUR = 1.083;

/** Where {@link buildTethers} writes: the tether rows and the anchor slots (implemented by `Tethers`). */
export interface TetherSink {
  /** Forgets every tether and slot. */
  reset(): void;
  /** Adds an anchor slot for particle `anchor`, held by rigid pin row `pin` (-1: none); returns the slot. */
  addSlot(anchor: number, pin: number): number;
  /** Adds a tether from `particle` to slot `slot` whose rest length is `rest` (m). */
  add(particle: number, slot: number, rest: number): void;
  /** Tethers in use. */
  readonly count: number;
  /** Per tether: its particle (in particle order up to the heavy anchors' rows). */
  readonly particle: Int32Array;
  /** Puts the rows back in particle order, keeping each particle's in the order added. */
  sortByParticle(): void;
}

/** Scratch of {@link buildTethers}, kept between builds. */
export class TetherBuildScratch {
  sources: Int32Array = new Int32Array(16);
  slotOf: Int32Array = new Int32Array(0);
  pinOf: Int32Array = new Int32Array(0);
  /** Per body slot: 1 when straight distances bound its tethers (see `markBodiesHeldAsLaidOut`), and scratch for that. */
  flat: Uint8Array = new Uint8Array(0);
  firstAnchor: Int32Array = new Int32Array(0);
  /** Adds a link a constraint reports to the graph (made once: a closure per rebuild would be garbage whenever a cloth tears). */
  readonly addLink: (a: number, b: number, length: number) => void;
  constructor(readonly graph: TetherGraph) {
    this.addLink = (a, b, length) => graph.link(a, b, length);
  }
}

/**
 * Measures every tether of `world` into `sink`: each particle joined to an
 * anchor by inextensible links gets one to each of its nearest anchors, as
 * long as the shortest path of links between them (or their straight
 * distance in a flat body's rest layout), and where a heavy particle carries
 * light ones from a pin, one from each light particle to the heavy one.
 */
export function buildTethers(world: World, sink: TetherSink, scratch: TetherBuildScratch): void {
  const particles = world.particles;
  const end = particles.end;
  const w = particles.inverseMass;
  const graph = scratch.graph;
  const perParticle = graph.perParticle;
  graph.clear();
  sink.reset();
  if (scratch.slotOf.length < end) {
    scratch.slotOf = new Int32Array(particles.capacity);
    scratch.pinOf = new Int32Array(particles.capacity);
  }
  const slotOf = scratch.slotOf;
  const pinOf = scratch.pinOf;
  slotOf.fill(-1, 0, end);
  pinOf.fill(-1, 0, end);
  // A rigidly pinned anchor is where its pin's target is: the pins move it there at the end of each pass.
  const pins = world.pins;
  for (let row = 0; row < pins.count; row++) if (pins.compliance[row] === 0 && pins.particle[row]! < end) pinOf[pins.particle[row]!] = row;
  let anchorCount = 0;
  for (let i = 0; i < end; i++) {
    if ((particles.flags[i]! & ParticleFlag.Alive) === 0 || w[i] !== 0) continue;
    anchorCount = addSource(scratch, i, anchorCount);
  }
  const sticks = world.sticks;
  for (let r = 0; r < sticks.count; r++) {
    if (sticks.kind[r] === StickKindCode.Min || sticks.compliance[r] !== 0 || sticks.stiffness[r] !== 1) continue;
    graph.link(sticks.a[r]!, sticks.b[r]!, sticks.rest[r]!);
  }
  const builtin = world.stages.constraints.items;
  for (let c = 0; c < builtin.length; c++) builtin[c]!.tetherLinks?.(scratch.addLink);
  const constraints = world.constraints;
  for (let c = 0; c < constraints.length; c++) constraints[c]!.tetherLinks?.(scratch.addLink);
  if (anchorCount === 0) return;
  if (scratch.flat.length < world.bodies.length) {
    scratch.flat = new Uint8Array(world.bodies.length * 2);
    scratch.firstAnchor = new Int32Array(world.bodies.length * 2);
  }
  markBodiesHeldAsLaidOut(world, scratch.sources, anchorCount, pinOf, scratch.flat, scratch.firstAnchor);
  graph.nearestAnchors(end, scratch.sources, anchorCount);
  for (let i = 0; i < end; i++) {
    if (w[i] === 0) continue;
    for (let j = 0; j < graph.labelCount[i]!; j++) {
      const anchor = graph.labelAnchor[i * perParticle + j]!;
      sink.add(i, slotFor(sink, slotOf, pinOf, anchor), straightened(world, scratch.flat, i, anchor, graph.labelDistance[i * perParticle + j]!));
    }
  }
  // Heavy particles anchor the light ones around them: a heavy load's tension keeps a light rope straight between it and the pin.
  // Only where an anchor carries the load: without one, a light particle pulled to a falling weight holds nothing up.
  const heavy = heavySources(world, scratch);
  if (heavy === 0) return;
  const fixed = sink.count;
  graph.nearestAnchors(end, scratch.sources, heavy);
  for (let i = 0; i < end; i++) {
    if (w[i] === 0 || !hasRowIn(sink.particle, i, fixed)) continue;
    for (let j = 0; j < graph.labelCount[i]!; j++) {
      const anchor = graph.labelAnchor[i * perParticle + j]!;
      if (w[i]! >= HEAVY * w[anchor]!) sink.add(i, slotFor(sink, slotOf, pinOf, anchor), graph.labelDistance[i * perParticle + j]!);
    }
  }
  sink.sortByParticle();
}

/** The slot of anchor particle `anchor`, added on first use. */
function slotFor(sink: TetherSink, slotOf: Int32Array, pinOf: Int32Array, anchor: number): number {
  if (slotOf[anchor]! < 0) slotOf[anchor] = sink.addSlot(anchor, pinOf[anchor]!);
  return slotOf[anchor]!;
}

/** Lists `i` as a source at `count`; returns the new count. */
function addSource(scratch: TetherBuildScratch, i: number, count: number): number {
  if (count === scratch.sources.length) scratch.sources = widen(scratch.sources, count * 2);
  scratch.sources[count] = i;
  return count + 1;
}

/** True when particle `i` has a tether among the first `rows` of `particle` (they are in particle order). */
function hasRowIn(particle: Int32Array, i: number, rows: number): boolean {
  let lo = 0;
  let hi = rows;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (particle[mid]! < i) lo = mid + 1;
    else hi = mid;
  }
  return lo < rows && particle[lo] === i;
}

/** Lists as sources the movable particles linked to one at least {@link HEAVY} times lighter; returns how many. */
function heavySources(world: World, scratch: TetherBuildScratch): number {
  const w = world.particles.inverseMass;
  const graph = scratch.graph;
  let count = 0;
  for (let l = 0; l < graph.linkCount; l++) {
    const a = graph.linkA[l]!;
    const b = graph.linkB[l]!;
    count = addHeavy(scratch, w, a, b, count);
    count = addHeavy(scratch, w, b, a, count);
  }
  return count;
}

/** Lists `heavy` as a source (at `count`) when it is at least {@link HEAVY} times `light` and not listed yet; returns the new count. */
function addHeavy(scratch: TetherBuildScratch, w: Float64Array, heavy: number, light: number, count: number): number {
  if (w[heavy] === 0 || w[light]! < HEAVY * w[heavy]!) return count;
  for (let k = 0; k < count; k++) if (scratch.sources[k] === heavy) return count;
  return addSource(scratch, heavy, count);
}

/**
 * The length of a tether from `particle` to `anchor` whose path along the
 * links is `path` long: the straight distance between them in their body's
 * flat rest layout when both are of one such body, held as laid out (`flat`),
 * and the path is no detour; else the path.
 */
function straightened(world: World, flat: Uint8Array, particle: number, anchor: number, path: number): number {
  const b = world.particles.body[particle]!;
  if (b < 0 || world.particles.body[anchor] !== b || flat[b] !== 1) return path;
  const body = world.bodies[b]!;
  const layout = body.restLayout;
  if (layout === undefined) return path;
  const i = (particle - particleSlot(body.first)) * 3;
  const a = (anchor - particleSlot(body.first)) * 3;
  const straight = Math.hypot(layout[i]! - layout[a]!, layout[i + 1]! - layout[a + 1]!, layout[i + 2]! - layout[a + 2]!);
  return path <= straight * DETOUR ? Math.min(straight, path) : path;
}
