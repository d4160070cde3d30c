import type { ParticleStore } from '../particles.js';
import type { World } from '../world.js';
import { ActiveSelfPairs } from './activeSelfPairs.js';
import { closestPointTriangle, PointTri } from './closestPoints.js';
import { separatePair } from './pairContact.js';

/**
 * Projects the pairs of a surface's self-contact picked for this step
 * ({@link ActiveSelfPairs}) in each relaxation pass: a particle over its
 * triangle is held `thickness` from the triangle's plane on the side it started
 * the step on, shared between the particle and the three corners by inverse
 * mass and barycentric weight (Müller et al., "Position Based Dynamics", 2007,
 * section 4.4); a particle beside the triangle `thickness` from its nearest
 * point; a particle pair `thickness` apart with friction. A pass skips a pair
 * whose particles cannot have moved far enough since its latest look to touch
 * (see {@link ActiveSelfPairs.due}).
 */
export class SelfContactProjection extends ActiveSelfPairs {
  /** The clearance a look at a pair found, for {@link SelfContactProjection.lookAgain} (a double in an array, so that none crosses a call). */
  private readonly clearance = new Float64Array(1);
  /** A push of a particle from a triangle's point for {@link SelfContactProjection.pushApart}: the point's three weights, the unit normal, the gap; then the clearance {@link SelfContactProjection.holdOffBeside} leaves. */
  private readonly push = new Float64Array(8);
  /** How far a particle and a triangle may part this substep beyond their own motion (m), set by each pass (an array: see `minimum`). */
  private readonly room = new Float64Array(1);
  /** The thickness for `separatePair` (a double in an array, so that none crosses the call). */
  private readonly minimum = new Float64Array(1);
  /** Scratch of {@link closestPointTriangle}. */
  private readonly buf = new Float64Array(PointTri.Size);

  /**
   * @param first,count the particle range of the body.
   * @param thickness least distance kept (m).
   * @param pushOutSpeed most speed (m/s) at which a particle and a triangle closer than `thickness` are pushed apart beyond their own motion (Infinity: the world's `maxPushOutSpeed`).
   */
  constructor(
    first: number,
    count: number,
    thickness: number,
    private readonly pushOutSpeed = Infinity,
  ) {
    super(first, count, thickness);
    this.minimum[0] = thickness;
  }

  /**
   * One relaxation pass over the pairs found for this step: each particle over
   * its triangle is brought to `thickness` on its starting side, each particle
   * pair to `thickness` apart with friction (`separatePair`), shared by inverse
   * mass. Allocates nothing.
   */
  project(world: World): void {
    if (this.activeCount === 0) return;
    const particles = world.particles;
    this.room[0] = Math.min(particles.pushOutRoom, this.pushOutSpeed * world.substep);
    const pos = particles.position;
    const lastPass = this.lastPass;
    const odometer = this.odometer;
    const travel = this.travel;
    const from = this.first * 3;
    if (this.trackedStale) this.track();
    const tracked = this.tracked;
    // Only the particles in active pairs: half of a draped 64² cloth. (One left out is in no
    // pair, so its travel is not read; taken in again, its new pairs are looked at in the next
    // pass, and its odometer goes on from where it was last followed.)
    for (let e = 0; e < this.trackedCount; e++) {
      const k = tracked[e]!;
      const x = pos[from + k * 3]!;
      const y = pos[from + k * 3 + 1]!;
      const z = pos[from + k * 3 + 2]!;
      const dx = x - lastPass[k * 3]!;
      const dy = y - lastPass[k * 3 + 1]!;
      const dz = z - lastPass[k * 3 + 2]!;
      const travelled = odometer[k]! + Math.sqrt(dx * dx + dy * dy + dz * dz);
      odometer[k] = travelled;
      travel[k] = travelled;
      lastPass[k * 3] = x;
      lastPass[k * 3 + 1] = y;
      lastPass[k * 3 + 2] = z;
    }
    const pairs = this.active;
    // Backwards: the particle pairs (listed last) first, then the particle–triangle pairs,
    // whose correction is the finer one. (Measured: the folded sheet of
    // particleCollisions.test.ts rests 0.6% closer than its thickness the other way round.)
    const due = this.due;
    const looked = this.looked;
    const first = this.first;
    for (let k = this.activeCount - 1; k >= 0; k--) {
      const b = pairs[k * 4 + 2]!;
      if (b < 0) {
        const sum = travel[pairs[k * 4]! - first]! + travel[pairs[k * 4 + 1]! - first]!;
        if (sum < due[k]!) continue;
        this.examined++;
        this.separate(world, k);
      } else {
        const sum = travel[pairs[k * 4]! - first]! + travel[pairs[k * 4 + 1]! - first]! + travel[b - first]! + travel[pairs[k * 4 + 3]! - first]!;
        if (sum < due[k]!) continue;
        looked[k] = 1;
        this.examined++;
        this.holdOff(particles, k);
      }
    }
  }

  /**
   * Pair `k` (particles `i`, `j` and, unless -1, `b` and `c`) was found `clearance[0]` beyond
   * touching: due again once its particles' `travel` sums to that plus their credit now
   * (2 · odometer - travel each: see {@link ActiveSelfPairs.travel}).
   */
  private lookAgain(k: number, i: number, j: number, b: number, c: number): void {
    const f = this.first;
    const travel = this.travel;
    const odometer = this.odometer;
    let credit = 2 * odometer[i - f]! - travel[i - f]! + 2 * odometer[j - f]! - travel[j - f]!;
    if (b >= 0) credit += 2 * odometer[b - f]! - travel[b - f]! + 2 * odometer[c - f]! - travel[c - f]!;
    this.due[k] = this.clearance[0]! + credit;
  }

  /** Active particle pair `k`, due: at least `thickness` apart, with friction (`separatePair`). */
  private separate(world: World, k: number): void {
    const pos = world.particles.position;
    const i = this.active[k * 4]!;
    const j = this.active[k * 4 + 1]!;
    const d = Math.sqrt(distance2(pos, i * 3, j * 3));
    if (d >= this.thickness) {
      this.clearance[0] = d - this.thickness;
      this.lookAgain(k, i, j, -1, -1);
      return;
    }
    // Touching: looked at again in the next pass.
    this.due[k] = -Infinity;
    const ix = pos[i * 3]!;
    const iy = pos[i * 3 + 1]!;
    const iz = pos[i * 3 + 2]!;
    const jx = pos[j * 3]!;
    const jy = pos[j * 3 + 1]!;
    const jz = pos[j * 3 + 2]!;
    if (separatePair(world, i, j, this.minimum)) {
      // Its travel grows by its move (in the L1 norm, at least as long).
      const travel = this.travel;
      const f = this.first;
      travel[i - f] = travel[i - f]! + Math.abs(pos[i * 3]! - ix) + Math.abs(pos[i * 3 + 1]! - iy) + Math.abs(pos[i * 3 + 2]! - iz);
      travel[j - f] = travel[j - f]! + Math.abs(pos[j * 3]! - jx) + Math.abs(pos[j * 3 + 1]! - jy) + Math.abs(pos[j * 3 + 2]! - jz);
    }
  }

  /**
   * Active pair `k`, particle `i` and triangle (a, b, c), due (see {@link ActiveSelfPairs.due}):
   * over the triangle, at least `thickness` on its side of the
   * plane (see {@link ActiveSelfPairs.sides}); beside it, see
   * {@link SelfContactProjection.holdOffBeside}.
   */
  private holdOff(particles: ParticleStore, k: number): void {
    const pairs = this.active;
    const i = pairs[k * 4]!;
    const a = pairs[k * 4 + 1]!;
    const b = pairs[k * 4 + 2]!;
    const c = pairs[k * 4 + 3]!;
    const due = this.due;
    const side = this.sides[k]!;
    const pos = particles.position;
    const thickness = this.thickness;
    const ax = pos[a * 3]!;
    const ay = pos[a * 3 + 1]!;
    const az = pos[a * 3 + 2]!;
    const e1x = pos[b * 3]! - ax;
    const e1y = pos[b * 3 + 1]! - ay;
    const e1z = pos[b * 3 + 2]! - az;
    const e2x = pos[c * 3]! - ax;
    const e2y = pos[c * 3 + 1]! - ay;
    const e2z = pos[c * 3 + 2]! - az;
    let nx = e1y * e2z - e1z * e2y;
    let ny = e1z * e2x - e1x * e2z;
    let nz = e1x * e2y - e1y * e2x;
    const len2 = nx * nx + ny * ny + nz * nz;
    // Degenerate, or touching below: looked at again in the next pass.
    due[k] = -Infinity;
    if (len2 === 0) return;
    const px = pos[i * 3]! - ax;
    const py = pos[i * 3 + 1]! - ay;
    const pz = pos[i * 3 + 2]! - az;
    const above = px * nx + py * ny + pz * nz;
    // Without a remembered side, the side it is on now.
    const toward = side !== 0 ? side : above < 0 ? -1 : 1;
    const len = Math.sqrt(len2);
    // Its height on its side; the thickness or more (as far from the triangle, at least):
    // most pairs end here.
    const d = (above * toward) / len;
    const gap = thickness - d;
    if (gap <= 0) {
      this.clearance[0] = -gap;
      this.lookAgain(k, i, a, b, c);
      return;
    }
    nx = (nx / len) * toward;
    ny = (ny / len) * toward;
    nz = (nz / len) * toward;
    // Barycentric weights of the particle's foot on the plane. A particle beside the triangle is held from
    // its nearest edge or corner instead: left alone, one lying past a free edge within the thickness of the
    // plane met the contact 11 mm deep the moment its foot drifted over the edge, was pushed off at the
    // push-out speed and pulled back by its sticks, over and over (crumples buzzed at 1–2 m/s).
    const d00 = e1x * e1x + e1y * e1y + e1z * e1z;
    const d01 = e1x * e2x + e1y * e2y + e1z * e2z;
    const d11 = e2x * e2x + e2y * e2y + e2z * e2z;
    const d20 = px * e1x + py * e1y + pz * e1z;
    const d21 = px * e2x + py * e2y + pz * e2z;
    const det = d00 * d11 - d01 * d01;
    const v = (d11 * d20 - d01 * d21) / det;
    const u = (d00 * d21 - d01 * d20) / det;
    const s = 1 - v - u;
    if (v < -EDGE || u < -EDGE || s < -EDGE) {
      // Its distance from the triangle is at least √(d² + o²), o the foot's distance outside,
      // itself at least a negative weight's size times that corner's height over the opposite
      // edge (|n| / edge): most particles beside a triangle end here, without the closest point.
      const fx = e2x - e1x;
      const fy = e2y - e1y;
      const fz = e2z - e1z;
      const outside2 = Math.max(s < 0 ? (s * s * len2) / (fx * fx + fy * fy + fz * fz) : 0, v < 0 ? (v * v * len2) / d11 : 0, u < 0 ? (u * u * len2) / d00 : 0);
      const far2 = d * d + outside2;
      if (far2 >= thickness * thickness) {
        this.clearance[0] = Math.sqrt(far2) - thickness;
        this.lookAgain(k, i, a, b, c);
        return;
      }
      this.holdOffBeside(particles, i, a, b, c);
      this.clearance[0] = this.push[7]!;
      this.lookAgain(k, i, a, b, c);
      return;
    }
    // Over the triangle within the thickness with no side yet (it came over since its side was
    // read): held on the side it is on from now on.
    if (side === 0) this.sides[k] = toward;
    const push = this.push;
    push[0] = clamp01(s);
    push[1] = clamp01(v);
    push[2] = clamp01(u);
    push[3] = nx;
    push[4] = ny;
    push[5] = nz;
    push[6] = gap;
    this.pushApart(particles, i, a, b, c);
  }

  /**
   * Particle `i` beside triangle (a, b, c) (its foot on the plane outside): at least `thickness`
   * from the triangle's closest point, along the line from that point, shared by inverse mass and
   * the closest point's barycentric weights, with the same push-out limit as over the triangle.
   */
  private holdOffBeside(particles: ParticleStore, i: number, a: number, b: number, c: number): void {
    const pos = particles.position;
    const q = this.buf;
    q[0] = pos[i * 3]!;
    q[1] = pos[i * 3 + 1]!;
    q[2] = pos[i * 3 + 2]!;
    q[3] = pos[a * 3]!;
    q[4] = pos[a * 3 + 1]!;
    q[5] = pos[a * 3 + 2]!;
    q[6] = pos[b * 3]!;
    q[7] = pos[b * 3 + 1]!;
    q[8] = pos[b * 3 + 2]!;
    q[9] = pos[c * 3]!;
    q[10] = pos[c * 3 + 1]!;
    q[11] = pos[c * 3 + 2]!;
    closestPointTriangle(q);
    const ba = q[PointTri.U]!;
    const bb = q[PointTri.V]!;
    const bc = q[PointTri.W]!;
    const nx = q[0]! - (ba * q[3]! + bb * q[6]! + bc * q[9]!);
    const ny = q[1]! - (ba * q[4]! + bb * q[7]! + bc * q[10]!);
    const nz = q[2]! - (ba * q[5]! + bb * q[8]! + bc * q[11]!);
    const d2 = nx * nx + ny * ny + nz * nz;
    const thickness = this.thickness;
    const push = this.push;
    // How far from touching it is left (0 once pushed): see holdOff's `due`.
    push[7] = d2 >= thickness * thickness ? Math.sqrt(d2) - thickness : 0;
    if (d2 >= thickness * thickness || d2 === 0) return;
    const d = Math.sqrt(d2);
    push[0] = ba;
    push[1] = bb;
    push[2] = bc;
    push[3] = nx / d;
    push[4] = ny / d;
    push[5] = nz / d;
    push[6] = thickness - d;
    this.pushApart(particles, i, a, b, c);
  }

  /**
   * Moves particle `i` away from the point of triangle (a, b, c) with barycentric weights
   * `push[0..3)` along the unit normal `push[3..6)` by the gap `push[6]`, shared by inverse mass
   * and those weights (so momentum is kept). As between bodies, the pair is left parting by at most
   * `pushOutSpeed` this substep: where sticks and pins press the sheet thinner than the thickness
   * (a cloth wound tight, a crumple held by its own sticks), the whole gap becoming speed every
   * substep pumped it up to 140 m/s; capped, the sheet is held apart at that speed instead.
   */
  private pushApart(particles: ParticleStore, i: number, a: number, b: number, c: number): void {
    const pos = particles.position;
    const prev = particles.previous;
    const w = particles.inverseMass;
    const push = this.push;
    const ba = push[0]!;
    const bb = push[1]!;
    const bc = push[2]!;
    const nx = push[3]!;
    const ny = push[4]!;
    const nz = push[5]!;
    const wi = w[i]!;
    const wa = w[a]! * ba;
    const wb = w[b]! * bb;
    const wc = w[c]! * bc;
    const denominator = wi + wa * ba + wb * bb + wc * bc;
    if (denominator === 0) return;
    const moved =
      (pos[i * 3]! - prev[i * 3]! - ba * (pos[a * 3]! - prev[a * 3]!) - bb * (pos[b * 3]! - prev[b * 3]!) - bc * (pos[c * 3]! - prev[c * 3]!)) * nx +
      (pos[i * 3 + 1]! - prev[i * 3 + 1]! - ba * (pos[a * 3 + 1]! - prev[a * 3 + 1]!) - bb * (pos[b * 3 + 1]! - prev[b * 3 + 1]!) - bc * (pos[c * 3 + 1]! - prev[c * 3 + 1]!)) * ny +
      (pos[i * 3 + 2]! - prev[i * 3 + 2]! - ba * (pos[a * 3 + 2]! - prev[a * 3 + 2]!) - bb * (pos[b * 3 + 2]! - prev[b * 3 + 2]!) - bc * (pos[c * 3 + 2]! - prev[c * 3 + 2]!)) * nz;
    const gap = push[6]!;
    const room = this.room[0]! - moved;
    const depth = gap < room ? gap : room;
    if (depth <= 0) return;
    const lambda = depth / denominator;
    move(pos, i, nx, ny, nz, wi * lambda);
    move(pos, a, nx, ny, nz, -wa * lambda);
    move(pos, b, nx, ny, nz, -wb * lambda);
    move(pos, c, nx, ny, nz, -wc * lambda);
    // Along a unit normal: each moves as far as its share.
    const travel = this.travel;
    const f = this.first;
    travel[i - f] = travel[i - f]! + wi * lambda;
    travel[a - f] = travel[a - f]! + wa * lambda;
    travel[b - f] = travel[b - f]! + wb * lambda;
    travel[c - f] = travel[c - f]! + wc * lambda;
  }
}

/** Barycentric slack: a particle this far (in weight) past a triangle's edge still counts as over it, so none slips between two. */
const EDGE = 1e-3;

function clamp01(x: number): number {
  return x < 0 ? 0 : x > 1 ? 1 : x;
}

function distance2(pos: Float64Array, p: number, q: number): number {
  const dx = pos[p]! - pos[q]!;
  const dy = pos[p + 1]! - pos[q + 1]!;
  const dz = pos[p + 2]! - pos[q + 2]!;
  return dx * dx + dy * dy + dz * dz;
}

function move(pos: Float64Array, i: number, x: number, y: number, z: number, by: number): void {
  pos[i * 3] = pos[i * 3]! + x * by;
  pos[i * 3 + 1] = pos[i * 3 + 1]! + y * by;
  pos[i * 3 + 2] = pos[i * 3 + 2]! + z * by;
}
