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

/**
 * Layout of {@link triangleFrame}'s output: what a foot on the triangle needs, read once, with
 * every division done (a listing takes the feet of dozens of particles on each triangle).
 */
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
  /** The unit normal, (e1 × e2) / |e1 × e2| (xyz). */
  NX = 9,
  NY = 10,
  NZ = 11,
  /** e1·e1, e1·e2 and e2·e2, each over |e1 × e2|² (the barycentric weights' coefficients). */
  D00 = 12,
  D01 = 13,
  D11 = 14,
  /** |e1 × e2|² over the squared length of the edge opposite a, b and c: each corner's squared height over it. */
  HeightA = 15,
  HeightB = 16,
  HeightC = 17,
  Size = 18,
}

/** Reads triangle (a, b, c) of `pos` into `frame` ({@link Frame}); returns false for one without area. */
export function triangleFrame(pos: Float64Array, a: number, b: number, c: number, frame: Float64Array): boolean {
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
  const inverse = 1 / area2;
  const length = Math.sqrt(area2);
  frame[Frame.AX] = ax;
  frame[Frame.AY] = ay;
  frame[Frame.AZ] = az;
  frame[Frame.E1X] = e1x;
  frame[Frame.E1Y] = e1y;
  frame[Frame.E1Z] = e1z;
  frame[Frame.E2X] = e2x;
  frame[Frame.E2Y] = e2y;
  frame[Frame.E2Z] = e2z;
  frame[Frame.NX] = nx / length;
  frame[Frame.NY] = ny / length;
  frame[Frame.NZ] = nz / length;
  const d00 = e1x * e1x + e1y * e1y + e1z * e1z;
  const d11 = e2x * e2x + e2y * e2y + e2z * e2z;
  const fx = e2x - e1x;
  const fy = e2y - e1y;
  const fz = e2z - e1z;
  frame[Frame.D00] = d00 * inverse;
  frame[Frame.D01] = (e1x * e2x + e1y * e2y + e1z * e2z) * inverse;
  frame[Frame.D11] = d11 * inverse;
  // A corner's height over the opposite edge is 2·area / that edge: |n| / |edge|.
  frame[Frame.HeightA] = area2 / (fx * fx + fy * fy + fz * fz);
  frame[Frame.HeightB] = area2 / d11;
  frame[Frame.HeightC] = area2 / d00;
  return true;
}

/** The foot of point (`at[0..3)`) on the triangle of `frame` ({@link triangleFrame}), into `out` ({@link Foot}). */
export function footOnFrame(frame: Float64Array, at: Float64Array, out: Float64Array): void {
  const px = at[0]! - frame[Frame.AX]!;
  const py = at[1]! - frame[Frame.AY]!;
  const pz = at[2]! - frame[Frame.AZ]!;
  const d20 = px * frame[Frame.E1X]! + py * frame[Frame.E1Y]! + pz * frame[Frame.E1Z]!;
  const d21 = px * frame[Frame.E2X]! + py * frame[Frame.E2Y]! + pz * frame[Frame.E2Z]!;
  const d01 = frame[Frame.D01]!;
  // d00·d11 − d01² is |e1 × e2|², by which the coefficients are already divided.
  const v = frame[Frame.D11]! * d20 - d01 * d21;
  const u = frame[Frame.D00]! * d21 - d01 * d20;
  const s = 1 - v - u;
  const nx = frame[Frame.NX]!;
  const ny = frame[Frame.NY]!;
  const nz = frame[Frame.NZ]!;
  out[Foot.NX] = nx;
  out[Foot.NY] = ny;
  out[Foot.NZ] = nz;
  out[Foot.Height] = px * nx + py * ny + pz * nz;
  out[Foot.S] = s;
  out[Foot.V] = v;
  out[Foot.U] = u;
  // A negative weight times its corner's height over the opposite edge, the largest of them.
  const os = s < 0 ? s * s * frame[Frame.HeightA]! : 0;
  const ov = v < 0 ? v * v * frame[Frame.HeightB]! : 0;
  const ou = u < 0 ? u * u * frame[Frame.HeightC]! : 0;
  out[Foot.Outside2] = os > ov ? (os > ou ? os : ou) : ov > ou ? ov : ou;
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
  footOnFrame(frame, at, out);
  return true;
}

const scratchFrame = new Float64Array(Frame.Size);
const scratchPoint = new Float64Array(3);
