/** Layout of {@link footOnTriangle}'s output. */
export const enum Foot {
  /** The triangle's unit normal, (b − a) × (c − a) normalised. */
  NX = 0,
  NY = 1,
  NZ = 2,
  /** The point's signed height over the plane along the normal (m). */
  Height = 3,
  /** Barycentric weights of the point's foot on the plane, for a, b and c (they sum to 1; negative outside). */
  S = 4,
  V = 5,
  U = 6,
  /**
   * A lower bound on the squared distance (m²) from the foot to the triangle, 0 when the foot
   * is inside: a negative weight times its corner's height over the opposite edge.
   */
  Outside2 = 7,
  Size = 8,
}

/** Layout of {@link triangleFrame}'s output: what a foot on the triangle needs, read once. */
export const enum Frame {
  /** Corner a (xyz). */
  AX = 0,
  AY = 1,
  AZ = 2,
  /** Edges a→b and a→c (xyz each). */
  E1X = 3,
  E1Y = 4,
  E1Z = 5,
  E2X = 6,
  E2Y = 7,
  E2Z = 8,
  /** The unnormalised normal e1 × e2 (xyz). */
  NX = 9,
  NY = 10,
  NZ = 11,
  /** |n|² (four times the area squared), |n|, e1·e1, e1·e2, e2·e2, |e2 − e1|². */
  Area2 = 12,
  Length = 13,
  D00 = 14,
  D01 = 15,
  D11 = 16,
  D22 = 17,
  Size = 18,
}

/** Reads triangle (a, b, c) of `pos` into `frame` from index `o` ({@link Frame}); returns false for one without area. */
export function triangleFrame(pos: Float64Array, a: number, b: number, c: number, frame: Float64Array, o = 0): boolean {
  const ax = pos[a * 3]!;
  const ay = pos[a * 3 + 1]!;
  const az = pos[a * 3 + 2]!;
  const e1x = pos[b * 3]! - ax;
  const e1y = pos[b * 3 + 1]! - ay;
  const e1z = pos[b * 3 + 2]! - az;
  const e2x = pos[c * 3]! - ax;
  const e2y = pos[c * 3 + 1]! - ay;
  const e2z = pos[c * 3 + 2]! - az;
  const nx = e1y * e2z - e1z * e2y;
  const ny = e1z * e2x - e1x * e2z;
  const nz = e1x * e2y - e1y * e2x;
  const area2 = nx * nx + ny * ny + nz * nz;
  if (area2 === 0) return false;
  frame[o + Frame.AX] = ax;
  frame[o + Frame.AY] = ay;
  frame[o + Frame.AZ] = az;
  frame[o + Frame.E1X] = e1x;
  frame[o + Frame.E1Y] = e1y;
  frame[o + Frame.E1Z] = e1z;
  frame[o + Frame.E2X] = e2x;
  frame[o + Frame.E2Y] = e2y;
  frame[o + Frame.E2Z] = e2z;
  frame[o + Frame.NX] = nx;
  frame[o + Frame.NY] = ny;
  frame[o + Frame.NZ] = nz;
  frame[o + Frame.Area2] = area2;
  frame[o + Frame.Length] = Math.sqrt(area2);
  frame[o + Frame.D00] = e1x * e1x + e1y * e1y + e1z * e1z;
  frame[o + Frame.D01] = e1x * e2x + e1y * e2y + e1z * e2z;
  frame[o + Frame.D11] = e2x * e2x + e2y * e2y + e2z * e2z;
  const fx = e2x - e1x;
  const fy = e2y - e1y;
  const fz = e2z - e1z;
  frame[o + Frame.D22] = fx * fx + fy * fy + fz * fz;
  return true;
}

/** The foot of point (`at[0..3)`) on the triangle of `frame` from index `o` ({@link triangleFrame}), into `out` ({@link Foot}). */
export function footOnFrame(frame: Float64Array, o: number, at: Float64Array, out: Float64Array): void {
  const px = at[0]! - frame[o + Frame.AX]!;
  const py = at[1]! - frame[o + Frame.AY]!;
  const pz = at[2]! - frame[o + Frame.AZ]!;
  const e1x = frame[o + Frame.E1X]!;
  const e1y = frame[o + Frame.E1Y]!;
  const e1z = frame[o + Frame.E1Z]!;
  const e2x = frame[o + Frame.E2X]!;
  const e2y = frame[o + Frame.E2Y]!;
  const e2z = frame[o + Frame.E2Z]!;
  const area2 = frame[o + Frame.Area2]!;
  const len = frame[o + Frame.Length]!;
  const d01 = frame[o + Frame.D01]!;
  const d00 = frame[o + Frame.D00]!;
  const d11 = frame[o + Frame.D11]!;
  const d20 = px * e1x + py * e1y + pz * e1z;
  const d21 = px * e2x + py * e2y + pz * e2z;
  // d00·d11 − d01² is |e1 × e2|², the area term already in hand.
  const v = (d11 * d20 - d01 * d21) / area2;
  const u = (d00 * d21 - d01 * d20) / area2;
  const s = 1 - v - u;
  const nx = frame[o + Frame.NX]! / len;
  const ny = frame[o + Frame.NY]! / len;
  const nz = frame[o + Frame.NZ]! / len;
  out[Foot.NX] = nx;
  out[Foot.NY] = ny;
  out[Foot.NZ] = nz;
  out[Foot.Height] = px * nx + py * ny + pz * nz;
  out[Foot.S] = s;
  out[Foot.V] = v;
  out[Foot.U] = u;
  // A corner's height over the opposite edge is 2·area / that edge: |n| / |edge|.
  let outside2 = 0;
  if (s < 0) outside2 = (s * s * area2) / frame[o + Frame.D22]!;
  if (v < 0) outside2 = Math.max(outside2, (v * v * area2) / d11);
  if (u < 0) outside2 = Math.max(outside2, (u * u * area2) / d00);
  out[Foot.Outside2] = outside2;
}

/**
 * Where point `p` stands over triangle (a, b, c), indices into `pos` (xyz per
 * index): the unit normal, its signed height and its foot's barycentric
 * weights, into `out` ({@link Foot}). Returns false, writing nothing, for a
 * triangle without area. With {@link triangleFrame} and {@link footOnFrame},
 * the one triangle helper of self-collision: the listing, the projection and
 * its side all read a triangle through it.
 */
export function footOnTriangle(pos: Float64Array, p: number, a: number, b: number, c: number, out: Float64Array): boolean {
  const frame = scratchFrame;
  if (!triangleFrame(pos, a, b, c, frame)) return false;
  const at = scratchPoint;
  at[0] = pos[p * 3]!;
  at[1] = pos[p * 3 + 1]!;
  at[2] = pos[p * 3 + 2]!;
  footOnFrame(frame, 0, at, out);
  return true;
}

const scratchFrame = new Float64Array(Frame.Size);
const scratchPoint = new Float64Array(3);
