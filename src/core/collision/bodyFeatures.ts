import { particleSlot } from '../ids.js';
import type { BodyRecord } from '../bodies/body.js';
import { widen } from '../constraints/table.js';
import { ParticleFlag } from '../particles.js';
import type { World } from '../world.js';
import { existingEdgeSystem } from './edges.js';
import { existingFaceSystem } from './faces.js';
import { hullOf, hullVersion, type HullShape } from './hull.js';

/** Points of a body are boxed in runs of this many (consecutive ids lie close in a cloth or a rope). */
export const CHUNK = 32;

/**
 * What each body collides with other bodies by, listed from the world's tables
 * and re-listed only when they change (a body, a capsule edge, a solid face, a
 * hull or a stick added or removed, a surface torn, a body's `collideAs` changed):
 *
 * - **points**: the particles of a body with no hull that no capsule edge ends
 *   at (a cloth's, a rope's), each a ball of its own radius, in chunks of
 *   {@link CHUNK};
 * - **segments**: capsule edges (a ragdoll's limbs), and the edges of hulls;
 * - **chain segments**: of a body that collides as a `'chain'` (a rope), the
 *   segments between consecutive particles, which meet triangles only (its
 *   particles meet capsules and hulls as points);
 * - **hulls**: the convex hull of a rigid body (`hull.ts`), its corners, edges and planes;
 * - **triangles**: of a body that collides as a `'surface'` (a cloth), its
 *   surface's triangles; else its solid faces (`addSurfaceCollision`); in chunks
 *   of {@link CHUNK}.
 *
 * A body that takes part is a "participant", numbered in this list, not by body id.
 */
export class BodyFeatures {
  /** Participants. */
  count = 0;
  records: BodyRecord[] = [];
  /** Per participant: points[pointFrom[k] .. pointTo[k]), chunks, segments, hull (-1: none), triangles and their chunks. */
  pointFrom: Int32Array = new Int32Array(8);
  pointTo: Int32Array = new Int32Array(8);
  chunkFrom: Int32Array = new Int32Array(8);
  chunkTo: Int32Array = new Int32Array(8);
  segFrom: Int32Array = new Int32Array(8);
  segTo: Int32Array = new Int32Array(8);
  /** Chain segments: segments[segTo[k] .. chainTo[k]). */
  chainTo: Int32Array = new Int32Array(8);
  hull: Int32Array = new Int32Array(8);
  triFrom: Int32Array = new Int32Array(8);
  triTo: Int32Array = new Int32Array(8);
  triChunkFrom: Int32Array = new Int32Array(8);
  triChunkTo: Int32Array = new Int32Array(8);
  /** 1 when every corner of the participant's triangles is one of its points (a cloth's surface): its point boxes hold them. */
  triOwn: Uint8Array = new Uint8Array(8);

  /** Particle ids of every participant's points. */
  points: Int32Array = new Int32Array(16);
  /** Point chunk c: points[chunkStart[c] .. chunkEnd[c]). */
  chunkStart: Int32Array = new Int32Array(8);
  chunkEnd: Int32Array = new Int32Array(8);

  segments = 0;
  segA: Int32Array = new Int32Array(16);
  segB: Int32Array = new Int32Array(16);
  /** Capsule edge row for the radius, or {@link HULL_EDGE}, or {@link CHAIN}. */
  segRow: Int32Array = new Int32Array(16);
  /** The hull a hull edge belongs to, or -1 for a capsule edge. */
  segHull: Int32Array = new Int32Array(16);

  hulls: HullShape[] = [];
  /** A number naming each hull's body for good (its serial), for memories that outlive a re-listing. */
  hullKey: Int32Array = new Int32Array(4);
  /** Radius of each hull's corners (their largest), refreshed every substep. */
  hullRadius: Float64Array = new Float64Array(4);

  triangles = 0;
  triA: Int32Array = new Int32Array(16);
  triB: Int32Array = new Int32Array(16);
  triC: Int32Array = new Int32Array(16);
  /** Triangle chunk c: triangles triChunkStart[c] .. triChunkEnd[c]. */
  triChunkStart: Int32Array = new Int32Array(8);
  triChunkEnd: Int32Array = new Int32Array(8);
  /** Of a participant whose points hold its triangles' corners: the point chunks triChunkPointFrom[c] .. triChunkPointTo[c] hold chunk c's; else -1. */
  triChunkPointFrom: Int32Array = new Int32Array(8);
  triChunkPointTo: Int32Array = new Int32Array(8);

  /** Body pairs that a stick joins or a particle is shared between (they do not collide, like Box2D's joined bodies). */
  readonly joined = new Set<number>();

  private key: Float64Array = new Float64Array(6).fill(-1);
  /** Per body that collides as more than its particles: its serial, `collideAs` and triangle count, as last listed. */
  private shapes: Float64Array = new Float64Array(24);
  private shapeCount = 0;

  /** Re-lists the features when the world's tables changed since the last call; true when it did. */
  refresh(world: World): boolean {
    const edges = existingEdgeSystem(world);
    const faces = existingFaceSystem(world);
    let alive = 0;
    for (let b = 0; b < world.bodies.length; b++) if (world.bodies[b]!.alive) alive++;
    const key = this.key;
    if (
      key[0] === alive &&
      key[1] === world.nextBodySerial &&
      key[2] === (edges ? edges.version : -1) &&
      key[3] === (faces ? faces.version : -1) &&
      key[4] === hullVersion(world) &&
      key[5] === world.sticks.layoutVersion &&
      this.sameShapes(world)
    ) {
      return false;
    }
    key[0] = alive;
    key[1] = world.nextBodySerial;
    key[2] = edges ? edges.version : -1;
    key[3] = faces ? faces.version : -1;
    key[4] = hullVersion(world);
    key[5] = world.sticks.layoutVersion;
    this.list(world);
    this.keepShapes(world);
    return true;
  }

  /** True when every body's `collideAs` and surface triangle count are as last listed. */
  private sameShapes(world: World): boolean {
    const shapes = this.shapes;
    let n = 0;
    for (let b = 0; b < world.bodies.length; b++) {
      const body = world.bodies[b]!;
      if (!body.alive || body.collideAs === undefined) continue;
      const o = n * 3;
      if (o + 3 > shapes.length || shapes[o] !== body.serial || shapes[o + 1] !== shapeCode(body) || shapes[o + 2] !== (body.surface ? body.surface.triangleCount : 0)) return false;
      n++;
    }
    return n === this.shapeCount;
  }

  /** Records what {@link sameShapes} compares. */
  private keepShapes(world: World): void {
    let n = 0;
    for (const body of world.bodies) if (body.alive && body.collideAs !== undefined) n++;
    if (this.shapes.length < n * 3) this.shapes = new Float64Array(n * 6);
    n = 0;
    for (const body of world.bodies) {
      if (!body.alive || body.collideAs === undefined) continue;
      this.shapes[n * 3] = body.serial;
      this.shapes[n * 3 + 1] = shapeCode(body);
      this.shapes[n * 3 + 2] = body.surface ? body.surface.triangleCount : 0;
      n++;
    }
    this.shapeCount = n;
  }

  /** One number for the pair of body ids `a` and `b`, in either order. */
  static pairKey(a: number, b: number): number {
    return a < b ? a * 0x100000 + b : b * 0x100000 + a;
  }

  private list(world: World): void {
    const particles = world.particles;
    const edges = existingEdgeSystem(world)?.table;
    const faces = existingFaceSystem(world)?.table;
    const bodies = world.bodies;
    const capsulesOf = new Map<BodyRecord, number[]>();
    const trianglesOf = new Map<BodyRecord, number[]>();
    const ownerOf = (slot: number) => world.bodyAt(slot);
    for (let row = 0; edges && row < edges.count; row++) {
      const body = ownerOf(edges.a[row]!);
      if (!body || hullOf(body)) continue;
      let list = capsulesOf.get(body);
      if (!list) capsulesOf.set(body, (list = []));
      list.push(row);
    }
    for (let row = 0; faces && row < faces.count; row++) {
      const body = ownerOf(faces.a[row]!);
      // A body colliding as its surface lists the surface's triangles instead (the same ones, when solid).
      if (!body || hullOf(body) || (body.collideAs === 'surface' && body.surface)) continue;
      let list = trianglesOf.get(body);
      if (!list) trianglesOf.set(body, (list = []));
      list.push(row);
    }
    const records: BodyRecord[] = [];
    const points: number[] = [];
    const pointRange: number[] = [];
    const segA: number[] = [];
    const segB: number[] = [];
    const segRow: number[] = [];
    const segHull: number[] = [];
    const segRange: number[] = [];
    const hulls: HullShape[] = [];
    const hullIndex: number[] = [];
    const tris: number[] = [];
    const triRange: number[] = [];
    const chainRange: number[] = [];
    const triOwn: number[] = [];
    for (const body of bodies) {
      if (!body.alive) continue;
      const hull = hullOf(body);
      const capsules = capsulesOf.get(body) ?? [];
      const triangles = trianglesOf.get(body) ?? [];
      const pointStart = points.length;
      const segStart = segA.length;
      const triStart = tris.length / 3;
      if (hull) {
        hullIndex.push(hulls.length);
        for (let e = 0; e < hull.edges.length; e += 2) {
          segA.push(hull.edges[e]!);
          segB.push(hull.edges[e + 1]!);
          segRow.push(HULL_EDGE);
          segHull.push(hulls.length);
        }
        hulls.push(hull);
      } else {
        hullIndex.push(-1);
        const covered = new Set<number>();
        for (const row of capsules) {
          segA.push(edges!.a[row]!);
          segB.push(edges!.b[row]!);
          segRow.push(row);
          segHull.push(-1);
          covered.add(edges!.a[row]!);
          covered.add(edges!.b[row]!);
        }
        for (let i = particleSlot(body.first); i < particleSlot(body.first) + body.count; i++) if ((particles.flags[i]! & ParticleFlag.Alive) !== 0 && !covered.has(i)) points.push(i);
        const surface = body.collideAs === 'surface' ? body.surface : undefined;
        if (surface) for (let t = 0; t < surface.triangleCount * 3; t++) tris.push(surface.triangles[t]!);
        else for (const row of triangles) tris.push(faces!.a[row]!, faces!.b[row]!, faces!.c[row]!);
        // Its own points box its triangles when every corner is one of them.
        const own = new Set(points.slice(pointStart));
        let all = true;
        for (let t = triStart * 3; t < tris.length && all; t++) all = own.has(tris[t]!);
        triOwn.push(all ? 1 : 0);
      }
      if (hull) triOwn.push(0);
      const segEnd = segA.length;
      // A chain: consecutive live particles of a body with no capsules.
      if (!hull && capsules.length === 0 && body.collideAs === 'chain') {
        const alive = (i: number) => (particles.flags[i]! & ParticleFlag.Alive) !== 0;
        for (let i = particleSlot(body.first); i + 1 < particleSlot(body.first) + body.count; i++) {
          if (!alive(i) || !alive(i + 1)) continue;
          segA.push(i);
          segB.push(i + 1);
          segRow.push(CHAIN);
          segHull.push(-1);
        }
      }
      records.push(body);
      pointRange.push(pointStart, points.length);
      segRange.push(segStart, segEnd);
      chainRange.push(segA.length);
      triRange.push(triStart, tris.length / 3);
    }
    const n = records.length;
    this.count = n;
    this.records = records;
    this.hulls = hulls;
    if (this.pointFrom.length < n) {
      const size = Math.max(n, this.pointFrom.length * 2);
      for (const column of ['pointFrom', 'pointTo', 'chunkFrom', 'chunkTo', 'segFrom', 'segTo', 'chainTo', 'hull', 'triFrom', 'triTo', 'triChunkFrom', 'triChunkTo'] as const)
        this[column] = new Int32Array(size);
      this.triOwn = new Uint8Array(size);
    }
    this.points = fit(this.points, points.length);
    this.points.set(points);
    this.segments = segA.length;
    this.segA = fit(this.segA, segA.length);
    this.segB = fit(this.segB, segA.length);
    this.segRow = fit(this.segRow, segA.length);
    this.segHull = fit(this.segHull, segA.length);
    this.segA.set(segA);
    this.segB.set(segB);
    this.segRow.set(segRow);
    this.segHull.set(segHull);
    this.hullRadius = widen(this.hullRadius, Math.max(this.hullRadius.length, hulls.length));
    this.hullKey = fit(this.hullKey, hulls.length);
    for (let k = 0; k < n; k++) if (hullIndex[k]! >= 0) this.hullKey[hullIndex[k]!] = records[k]!.serial;
    this.triangles = tris.length / 3;
    this.triA = fit(this.triA, this.triangles);
    this.triB = fit(this.triB, this.triangles);
    this.triC = fit(this.triC, this.triangles);
    for (let t = 0; t < this.triangles; t++) {
      this.triA[t] = tris[t * 3]!;
      this.triB[t] = tris[t * 3 + 1]!;
      this.triC[t] = tris[t * 3 + 2]!;
    }
    // Chunks of consecutive points and triangles, boxed each substep.
    const chunkStart: number[] = [];
    const chunkEnd: number[] = [];
    const triChunkStart: number[] = [];
    const triChunkEnd: number[] = [];
    for (let k = 0; k < n; k++) {
      this.pointFrom[k] = pointRange[k * 2]!;
      this.pointTo[k] = pointRange[k * 2 + 1]!;
      this.segFrom[k] = segRange[k * 2]!;
      this.segTo[k] = segRange[k * 2 + 1]!;
      this.chainTo[k] = chainRange[k]!;
      this.triOwn[k] = triOwn[k]!;
      this.hull[k] = hullIndex[k]!;
      this.triFrom[k] = triRange[k * 2]!;
      this.triTo[k] = triRange[k * 2 + 1]!;
      this.chunkFrom[k] = chunkStart.length;
      for (let s = this.pointFrom[k]!; s < this.pointTo[k]!; s += CHUNK) {
        chunkStart.push(s);
        chunkEnd.push(Math.min(s + CHUNK, this.pointTo[k]!));
      }
      this.chunkTo[k] = chunkStart.length;
      this.triChunkFrom[k] = triChunkStart.length;
      for (let s = this.triFrom[k]!; s < this.triTo[k]!; s += CHUNK) {
        triChunkStart.push(s);
        triChunkEnd.push(Math.min(s + CHUNK, this.triTo[k]!));
      }
      this.triChunkTo[k] = triChunkStart.length;
    }
    this.chunkStart = Int32Array.from(chunkStart);
    this.chunkEnd = Int32Array.from(chunkEnd);
    this.triChunkStart = Int32Array.from(triChunkStart);
    this.triChunkEnd = Int32Array.from(triChunkEnd);
    this.triChunkPointFrom = new Int32Array(triChunkStart.length).fill(-1);
    this.triChunkPointTo = new Int32Array(triChunkStart.length).fill(-1);
    for (let k = 0; k < n; k++) {
      if (this.triOwn[k] === 0) continue;
      const index = new Map<number, number>();
      for (let e = this.pointFrom[k]!; e < this.pointTo[k]!; e++) index.set(this.points[e]!, e);
      for (let c = this.triChunkFrom[k]!; c < this.triChunkTo[k]!; c++) {
        let lo = Infinity;
        let hi = -Infinity;
        for (let t = triChunkStart[c]!; t < triChunkEnd[c]!; t++) {
          for (const v of [this.triA[t]!, this.triB[t]!, this.triC[t]!]) {
            const e = index.get(v)!;
            lo = Math.min(lo, e);
            hi = Math.max(hi, e);
          }
        }
        this.triChunkPointFrom[c] = this.chunkFrom[k]! + Math.floor((lo - this.pointFrom[k]!) / CHUNK);
        this.triChunkPointTo[c] = this.chunkFrom[k]! + Math.floor((hi - this.pointFrom[k]!) / CHUNK) + 1;
      }
    }
    // Joined bodies: a stick between their ranges (shared particles come with sticks too).
    this.joined.clear();
    const sticks = world.sticks;
    for (let row = 0; row < sticks.count; row++) {
      const ba = particles.body[sticks.a[row]!]!;
      const bb = particles.body[sticks.b[row]!]!;
      if (ba >= 0 && bb >= 0 && ba !== bb) this.joined.add(BodyFeatures.pairKey(ba, bb));
    }
    for (let k = 0; k < n; k++) {
      const own = records[k]!.id;
      const h = hullIndex[k]!;
      if (h < 0) continue;
      for (const v of hulls[h]!.vertices) {
        const other = particles.body[v]!;
        if (other >= 0 && other !== own) this.joined.add(BodyFeatures.pairKey(own, other));
      }
    }
  }
}

/** `segRow` of a hull's edge. */
export const HULL_EDGE = -1;
/** `segRow` of a chain segment. */
export const CHAIN = -2;

/** A number for a body's `collideAs`. */
function shapeCode(body: BodyRecord): number {
  return body.collideAs === 'surface' ? 1 : body.collideAs === 'chain' ? 2 : 0;
}

function fit(array: Int32Array, n: number): Int32Array {
  return array.length >= n ? array : new Int32Array(Math.max(n, array.length * 2));
}
