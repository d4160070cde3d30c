import type { World } from '../world.js';
import type { BodyBroadPhase } from './bodyBroadPhase.js';
import { farther } from './broadPhaseBoxes.js';

/*
 * The broad phase's listing of candidate pairs with capsule edges and hulls (bodyBroadPhase.ts
 * lists segments against triangles and hulls itself): points against capsules and hulls, hull
 * corners against triangles, capsules against capsules, hulls against hulls. It joins the broad
 * phase with the world's first capsule edge or hull (the body-contact stage hands it over with
 * their tests), so an app of cloths and ropes alone carries none of it.
 */

// bodyBroadPhase.ts's Pair as plain numbers (a const enum imported from another module is a
// property load per use under vitest's module runner).
const POINT_SEGMENT = 0;
const SEGMENT_SEGMENT = 1;
const POINT_HULL = 2;
const HULL_HULL = 5;
const POINT_TRIANGLE = 6;

/** The pair listing the broad phase calls once a world has a capsule edge or a hull. */
export interface SolidPairs {
  /** The points of participant `p` inside the pair's overlap against the capsules or the hull of `q`. */
  pointsAgainst: typeof pointsAgainst;
  /** After the segments: hull corners against triangles both ways, capsule against capsule, hull against hull. */
  rest: typeof rest;
}

/** The listing the capsule and hull tests hand the broad phase. */
export const solidPairs: SolidPairs = { pointsAgainst, rest };

/** The points of `p` inside the overlap against the capsules or the hull of `q`. */
function pointsAgainst(broad: BodyBroadPhase, world: World, p: number, q: number): void {
  const f = broad.features;
  const hull = f.hull[q]!;
  if (f.chunkFrom[p] === f.chunkTo[p] || (hull < 0 && f.segFrom[q] === f.segTo[q])) return;
  const pos = world.particles.position;
  const radius = world.particles.radius;
  const flags = world.particles.flags;
  const o = broad.overlap;
  const probe = broad.probe;
  const m = broad.margin;
  for (let c = f.chunkFrom[p]!; c < f.chunkTo[p]!; c++) {
    if (!broad.meets(broad.chunkBox, c * 6, o, 0)) continue;
    for (let e = f.chunkStart[c]!; e < f.chunkEnd[c]!; e++) {
      const i = f.points[e]!;
      const pi = i * 3;
      const r = radius[i]! + m;
      for (let a = 0; a < 3; a++) {
        probe[a] = pos[pi + a]! - r;
        probe[3 + a] = pos[pi + a]! + r;
      }
      if (!broad.meets(probe, 0, o, 0) || (flags[i]! & 1) === 0 /* ParticleFlag.Alive */) continue;
      if (hull >= 0) {
        broad.add(POINT_HULL, i, hull);
        continue;
      }
      for (let s = f.segFrom[q]!; s < f.segTo[q]!; s++) if (broad.meets(probe, 0, broad.segBox, s * 6)) broad.add(POINT_SEGMENT, i, s);
    }
  }
}

/** The corners of `p`'s hull inside the overlap against the triangles of `q` (a box corner cannot poke between a cloth's particles). */
function cornersAgainst(broad: BodyBroadPhase, p: number, q: number): void {
  const f = broad.features;
  const hull = f.hull[p]!;
  if (hull < 0 || !broad.trianglesFor(p, q)) return;
  const pos = broad.positions;
  const corners = broad.corners;
  const o = broad.overlap;
  const vertices = f.hulls[hull]!.vertices;
  const r = f.hullRadius[hull]! + broad.margin;
  for (let v = 0; v < vertices.length; v++) {
    const i = vertices[v]!;
    // The corner's box over the substeps to come: its hull's edges were grown the same way.
    broad.ahead[2] = 0;
    farther(pos, broad.previous, i * 3, broad.ahead);
    const d = r + broad.ahead[2]! * broad.ahead[0]! + broad.ahead[1]!;
    for (let a = 0; a < 3; a++) {
      corners[a] = pos[i * 3 + a]! - d;
      corners[3 + a] = pos[i * 3 + a]! + d;
    }
    if (!broad.meets(corners, 0, o, 0)) continue;
    for (let c = f.triChunkFrom[q]!; c < f.triChunkTo[q]!; c++) {
      if (!broad.triangleChunkNear(c) || !broad.meets(corners, 0, broad.triChunkBox, c * 6)) continue;
      for (let t = f.triChunkStart[c]!; t < f.triChunkEnd[c]!; t++) if (broad.triangleMeets(t, c, corners, 0)) broad.add(POINT_TRIANGLE, i, t);
    }
  }
}

function rest(broad: BodyBroadPhase, p: number, q: number): void {
  const f = broad.features;
  cornersAgainst(broad, p, q);
  cornersAgainst(broad, q, p);
  // Capsule against capsule (a hull's edges meet other bodies through the hull).
  if (f.hull[p]! < 0 && f.hull[q]! < 0) {
    const o = broad.overlap;
    for (let s = f.segFrom[p]!; s < f.segTo[p]!; s++) {
      if (!broad.meets(broad.segBox, s * 6, o, 0)) continue;
      for (let r = f.segFrom[q]!; r < f.segTo[q]!; r++) if (broad.meets(broad.segBox, s * 6, broad.segBox, r * 6)) broad.add(SEGMENT_SEGMENT, s, r);
    }
  }
  const hp = f.hull[p]!;
  const hq = f.hull[q]!;
  if (hp >= 0 && hq >= 0) broad.add(HULL_HULL, hp, hq);
}
