import { particleSlot, type ParticleId } from '../ids.js';
import { StickKindCode } from '../constraints/sticks.js';
import { ParticleFlag } from '../particles.js';
import type { Vec3 } from '../math.js';
import type { World } from '../world.js';

/** A path along a flat body's sticks at most this many times the straight rest distance counts as no detour (a grid's sticks overestimate a straight line by up to 8.2%). */
const DETOUR = 1.083;
/** Rounds of projection onto the anchors' spheres: each round moves the target onto every sphere it is outside of. */
const ROUNDS = 8;

/**
 * How far a particle can get from each anchor of its body (a pinned or
 * immovable particle): the length of the shortest path of rigid sticks
 * between them, or the straight distance in the body's flat rest layout when
 * that path is no detour (a cloth made flat), as the long-range attachments
 * measure it. A drag keeps its target within that reach ({@link BodyReach.clamp}):
 * a pinned cloth cannot be pulled further than its sticks reach from its pins,
 * so a pointer dragged past it leaves the cloth hanging taut toward it instead
 * of pulling on sticks that cannot give. Measured once, when made (it
 * allocates); the anchors' positions are read at each clamp, so moving pins
 * move the reach along.
 */
export class BodyReach {
  /** The slots of the anchors the particle is joined to. */
  readonly anchors: Int32Array;
  /** The particle's reach from each anchor (m). */
  readonly reach: Float64Array;

  /** @param particle the id of the particle whose reach this is (throws if it was removed). */
  constructor(
    world: World,
    readonly particle: ParticleId,
  ) {
    const slot = world.checkParticle(particle, 'BodyReach: particle');
    const body = world.bodyAt(slot);
    if (body === undefined) {
      this.anchors = new Int32Array(0);
      this.reach = new Float64Array(0);
      return;
    }
    const first = particleSlot(body.first);
    const count = body.count;
    const distance = pathLengths(world, slot, first, count);
    const flags = world.particles.flags;
    const w = world.particles.inverseMass;
    const anchors: number[] = [];
    const reach: number[] = [];
    const layout = body.restLayout;
    for (let k = 0; k < count; k++) {
      const i = first + k;
      if (i === slot || (flags[i]! & ParticleFlag.Alive) === 0 || w[i] !== 0 || distance[k] === Infinity) continue;
      let length = distance[k]!;
      if (layout !== undefined) {
        const p = (slot - first) * 3;
        const q = k * 3;
        const straight = Math.hypot(layout[p]! - layout[q]!, layout[p + 1]! - layout[q + 1]!, layout[p + 2]! - layout[q + 2]!);
        if (length <= straight * DETOUR) length = Math.min(straight, length);
      }
      anchors.push(i);
      reach.push(length);
    }
    this.anchors = Int32Array.from(anchors);
    this.reach = Float64Array.from(reach);
  }

  /** Moves `target` (in place) to within the particle's reach of every anchor, nearly: a few rounds of projection onto the anchors' spheres. */
  clamp(world: World, target: Vec3): void {
    const pos = world.particles.position;
    const anchors = this.anchors;
    for (let round = 0; round < ROUNDS; round++) {
      let inside = true;
      for (let k = 0; k < anchors.length; k++) {
        const a = anchors[k]! * 3;
        const dx = target[0] - pos[a]!;
        const dy = target[1] - pos[a + 1]!;
        const dz = target[2] - pos[a + 2]!;
        const d = Math.sqrt(dx * dx + dy * dy + dz * dz);
        const r = this.reach[k]!;
        if (d <= r) continue;
        inside = false;
        const s = r / d;
        target[0] = pos[a]! + dx * s;
        target[1] = pos[a + 1]! + dy * s;
        target[2] = pos[a + 2]! + dz * s;
      }
      if (inside) return;
    }
  }
}

/** Shortest paths along the body's rigid sticks from the particle in `slot` to every slot of `[first, first + count)` (Dijkstra on a binary heap; Infinity where none leads). */
function pathLengths(world: World, slot: number, first: number, count: number): Float64Array {
  const sticks = world.sticks;
  // The body's links as adjacency lists.
  const degree = new Int32Array(count + 1);
  const inBody = (i: number) => i >= first && i < first + count;
  const rigid = (row: number) => sticks.compliance[row] === 0 && sticks.kind[row] !== StickKindCode.Min && inBody(sticks.a[row]!) && inBody(sticks.b[row]!);
  for (let row = 0; row < sticks.count; row++) {
    if (!rigid(row)) continue;
    degree[sticks.a[row]! - first + 1]!++;
    degree[sticks.b[row]! - first + 1]!++;
  }
  for (let k = 0; k < count; k++) degree[k + 1] = degree[k + 1]! + degree[k]!;
  const next = new Int32Array(degree[count]!);
  const length = new Float64Array(degree[count]!);
  const fill = degree.slice(0, count);
  for (let row = 0; row < sticks.count; row++) {
    if (!rigid(row)) continue;
    const a = sticks.a[row]! - first;
    const b = sticks.b[row]! - first;
    next[fill[a]!] = b;
    length[fill[a]!++] = sticks.rest[row]!;
    next[fill[b]!] = a;
    length[fill[b]!++] = sticks.rest[row]!;
  }
  const distance = new Float64Array(count).fill(Infinity);
  const heap: [number, number][] = [];
  const push = (d: number, k: number) => {
    heap.push([d, k]);
    for (let c = heap.length - 1; c > 0;) {
      const parent = (c - 1) >> 1;
      if (heap[parent]![0] <= heap[c]![0]) break;
      [heap[parent], heap[c]] = [heap[c]!, heap[parent]!];
      c = parent;
    }
  };
  const pop = (): [number, number] => {
    const top = heap[0]!;
    const last = heap.pop()!;
    if (heap.length > 0) {
      heap[0] = last;
      for (let c = 0; ;) {
        const l = 2 * c + 1;
        const r = l + 1;
        let least = c;
        if (l < heap.length && heap[l]![0] < heap[least]![0]) least = l;
        if (r < heap.length && heap[r]![0] < heap[least]![0]) least = r;
        if (least === c) break;
        [heap[least], heap[c]] = [heap[c]!, heap[least]!];
        c = least;
      }
    }
    return top;
  };
  distance[slot - first] = 0;
  push(0, slot - first);
  while (heap.length > 0) {
    const [d, k] = pop();
    if (d > distance[k]!) continue;
    // An anchor ends the path: the body beyond it hangs from it, not from the particle.
    if (k !== slot - first && world.particles.inverseMass[first + k] === 0) continue;
    for (let e = degree[k]!; e < degree[k + 1]!; e++) {
      const j = next[e]!;
      const dj = d + length[e]!;
      if (dj < distance[j]!) {
        distance[j] = dj;
        push(dj, j);
      }
    }
  }
  return distance;
}
