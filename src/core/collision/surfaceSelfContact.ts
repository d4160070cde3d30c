import { ParticleFlag, type ParticleStore } from '../particles.js';
import type { World } from '../world.js';
import { closestPointTriangle, PointTri } from './closestPoints.js';
import { separatePair } from './pairContact.js';
import { TriangleGrid } from './triangleGrid.js';

/**
 * Self-contact of one triangulated surface (a cloth) against itself: every
 * particle is kept `thickness` away from every triangle it is not a corner of,
 * on the side it was on when the step began, and from every particle no stick
 * joins.
 *
 * Particle–particle distance alone cannot hold a sheet thinner than its
 * spacing: a particle falls through the middle of a triangle, between its
 * corners. So a particle over a triangle is held at `thickness` from the
 * triangle's plane, shared between the particle and the three corners by
 * inverse mass and barycentric weight (Müller et al., "Position Based Dynamics",
 * 2007, section 4.4; Bridson et al. 2002 for the thickness). The side is the one
 * the particle was on at the start of the step, so a particle found behind its
 * triangle mid-step is brought back, not pushed on through. A particle beside
 * the triangle (its foot on the plane outside) is held `thickness` from the
 * triangle's nearest point instead, which meets the first at the edges: no
 * contact switches on deep as a particle slides over an edge.
 *
 * Two lists, as Verlet lists with a skin. The search
 * ({@link SurfaceSelfContact.findCandidates}, grids of the triangles' and
 * particles' boxes, {@link TriangleGrid}) lists the pairs within `thickness`
 * plus each side's allowance (the caller's skin), and runs again only when
 * some particle could have used its allowance up. Before every step
 * {@link SurfaceSelfContact.activate} picks from that list the few pairs that
 * can touch during the step (a ball and a plane test per pair); only those
 * are projected in each relaxation pass ({@link SurfaceSelfContact.project}),
 * so a sheet hanging free costs a pass over the list per step and nothing per
 * relaxation pass.
 */
export class SurfaceSelfContact {
  /** Pairs found by the latest search: particle, then triangle's three corners and the triangle's index (a particle pair has -1 after the second particle). */
  private pairs = new Int32Array(80);
  /** 1 per particle–triangle pair whose particle a stick joins to a corner. */
  private neighbours = new Int8Array(16);
  private pairCount = 0;
  /** The pairs this step projects ({@link SurfaceSelfContact.activate}): particle, then the three corners (-1 -1 after a second particle). */
  private active = new Int32Array(64);
  /** Per active particle–triangle pair, the side of the triangle's plane (+1 or -1) a particle over the triangle started the step on; 0 for one beside it. */
  private sides = new Int8Array(16);
  private activeCount = 0;
  /** Per triangle, this step ({@link FRAME} numbers): the centre and radius of a ball holding it grown by how near counts, how near counts, unit normal, corner a, the two barycentric vectors, and 0 (-1 if degenerate); see {@link SurfaceSelfContact.activate}. */
  private frames = new Float64Array(0);
  /** Per particle of the body, this step: the sum of its triangles' unit normals (xyz). */
  private readonly normals: Float64Array;
  /** Per particle of the body, this step: 1 where its triangles do not all face within {@link FLAT} of their mean. */
  private readonly bent: Uint8Array;
  /** Per particle of the body, this step: 1 where it or a stick neighbour is bent (its neighbour pairs are looked at). */
  private readonly curved: Uint8Array;
  private readonly triangleGrid = new TriangleGrid();
  private readonly pointGrid = new TriangleGrid();
  /** Boxes handed to the grids (6 per triangle or particle); grows with the body's triangles. */
  private boxes = new Float64Array(0);
  /** A grid query: x, y, z, half size. */
  private readonly probe = new Float64Array(4);
  private readonly ids: Int32Array;
  /** Per particle of the body, during a search: the particle whose stick neighbour it is, plus one (see {@link SurfaceSelfContact.markJoined}). */
  private readonly joinMarks: Int32Array;
  /** Per particle of the body, how far it can move relative to the body this step (m), set by the caller before a search. */
  readonly motion: Float64Array;
  /** A push of a particle from a triangle's point for {@link SurfaceSelfContact.pushApart}: the point's three weights, the unit normal, the gap. */
  private readonly push = new Float64Array(7);
  /** How far a particle and a triangle may part this substep beyond their own motion (m), set by each pass (an array: see `minimum`). */
  private readonly room = new Float64Array(1);
  /** The thickness for `separatePair` (a double in an array, so that none crosses the call). */
  private readonly minimum = new Float64Array(1);
  /** Scratch of {@link closestPointTriangle}. */
  private readonly buf = new Float64Array(PointTri.Size);

  /**
   * @param first,count the particle range of the body.
   * @param thickness least distance kept (m).
   * @param joinedStart,joined per particle first + k, its stick neighbours are joined[joinedStart[k] .. joinedStart[k + 1]) (body-relative).
   * @param pushOutSpeed most speed (m/s) at which a particle and a triangle closer than `thickness` are pushed apart beyond their own motion (Infinity: the world's `maxPushOutSpeed`).
   */
  constructor(
    private readonly first: number,
    private readonly count: number,
    readonly thickness: number,
    private readonly joinedStart: Int32Array,
    private readonly joined: Int32Array,
    private readonly pushOutSpeed = Infinity,
  ) {
    this.ids = new Int32Array(count);
    this.motion = new Float64Array(count);
    this.normals = new Float64Array(count * 3);
    this.bent = new Uint8Array(count);
    this.curved = new Uint8Array(count);
    this.joinMarks = new Int32Array(count);
    this.minimum[0] = thickness;
  }

  /** Pairs the latest search found (particle–triangle and particle–particle). */
  get candidates(): number {
    return this.pairCount;
  }

  /** Pairs projected in this step's passes. */
  get activePairs(): number {
    return this.activeCount;
  }

  /**
   * Lists the pairs that can come within `thickness` during the next step:
   * those closer now than `thickness` plus how far the two can close in, the
   * sum of their {@link SurfaceSelfContact.motion} (a triangle's is its fastest
   * corner's). Allocates only when more pairs are found than ever before, or
   * the body has more triangles than ever.
   */
  findCandidates(particles: ParticleStore, triangles: ArrayLike<number>, triangleCount: number): void {
    this.pairCount = 0;
    const flags = particles.flags;
    const pos = particles.position;
    const motion = this.motion;
    const first = this.first;
    const thickness = this.thickness;
    const ids = this.ids;
    let n = 0;
    for (let i = first; i < first + this.count; i++) if ((flags[i]! & ParticleFlag.Alive) !== 0) ids[n++] = i;
    if (n < 2) return;
    if (this.boxes.length < Math.max(triangleCount, n) * 6) this.boxes = new Float64Array(Math.max(triangleCount, n) * 6);
    const boxes = this.boxes;
    const q = this.buf;
    const probe = this.probe;
    // Triangles, each in the cells its box grown by the thickness and its fastest corner's motion overlaps.
    let edges = 0;
    for (let t = 0; t < triangleCount; t++) {
      const a = triangles[t * 3]!;
      const b = triangles[t * 3 + 1]!;
      const c = triangles[t * 3 + 2]!;
      edges += Math.sqrt(Math.max(distance2(pos, a * 3, b * 3), distance2(pos, b * 3, c * 3), distance2(pos, c * 3, a * 3)));
      const grow = thickness + Math.max(motion[a - first]!, motion[b - first]!, motion[c - first]!);
      for (let k = 0; k < 3; k++) {
        boxes[t * 6 + k] = Math.min(pos[a * 3 + k]!, pos[b * 3 + k]!, pos[c * 3 + k]!) - grow;
        boxes[t * 6 + 3 + k] = Math.max(pos[a * 3 + k]!, pos[b * 3 + k]!, pos[c * 3 + k]!) + grow;
      }
    }
    if (triangleCount > 0) {
      const grid = this.triangleGrid;
      // Cells the size of a typical triangle (not the largest: one torn, stretched
      // triangle would make every cell hold hundreds); a large one spans several. But no
      // smaller than a typical particle's query: while a cloth deforms fast (a 64² cloth
      // wrapping round a ball) every triangle's box and every particle's query grow by
      // its allowance, up to a third of a metre each side, and with cells a triangle wide
      // each box lay in about a thousand cells and each query read as many: one search
      // took 1.1 s.
      let widths = 0;
      for (let k = 0; k < n; k++) widths += 2 * motion[ids[k]! - first]!;
      grid.cellSize = Math.max(edges / triangleCount, thickness, widths / n);
      grid.build(boxes, triangleCount);
      for (let k = 0; k < n; k++) {
        const i = ids[k]!;
        const x = pos[i * 3]!;
        const y = pos[i * 3 + 1]!;
        const z = pos[i * 3 + 2]!;
        const mi = motion[i - first]!;
        this.markJoined(i);
        probe[0] = x;
        probe[1] = y;
        probe[2] = z;
        probe[3] = mi;
        const m = grid.gather(probe);
        const found = grid.found;
        for (let f = 0; f < m; f++) {
          const t = found[f]!;
          const o = t * 6;
          if (x < boxes[o]! - mi || x > boxes[o + 3]! + mi || y < boxes[o + 1]! - mi || y > boxes[o + 4]! + mi || z < boxes[o + 2]! - mi || z > boxes[o + 5]! + mi) continue;
          const a = triangles[t * 3]!;
          const b = triangles[t * 3 + 1]!;
          const c = triangles[t * 3 + 2]!;
          if (i === a || i === b || i === c) continue;
          for (let v = 0; v < 3; v++) {
            const corner = triangles[t * 3 + v]! * 3;
            q[PointTri.A + v * 3] = pos[corner]!;
            q[PointTri.A + v * 3 + 1] = pos[corner + 1]!;
            q[PointTri.A + v * 3 + 2] = pos[corner + 2]!;
          }
          q[0] = x;
          q[1] = y;
          q[2] = z;
          closestPointTriangle(q);
          const u = q[PointTri.U]!;
          const v = q[PointTri.V]!;
          const w = q[PointTri.W]!;
          const dx = x - (u * q[3]! + v * q[6]! + w * q[9]!);
          const dy = y - (u * q[4]! + v * q[7]! + w * q[10]!);
          const dz = z - (u * q[5]! + v * q[8]! + w * q[11]!);
          const near = thickness + mi + Math.max(motion[a - first]!, motion[b - first]!, motion[c - first]!);
          if (dx * dx + dy * dy + dz * dz >= near * near) continue;
          // The side is remembered only for a particle over the triangle now: one beside it
          // may legitimately go round its edge to the other side during the step.
          // A stick neighbour of a corner beside the triangle is the sheet lying on (a crease
          // of one spacing is the sticks' business): listed, but left alone until it is over
          // the triangle, a tight fold. (Measured: leaving these out of the search altogether
          // kept the draped 64² cloth of the bench from settling, searched every step.)
          const neighbour = this.isJoined(i, a) || this.isJoined(i, b) || this.isJoined(i, c);
          this.addPair(i, a, b, c, t);
          this.neighbours[this.pairCount - 1] = neighbour ? 1 : 0;
        }
      }
    }
    // Particle pairs no stick joins (corners, borders, and where two sheets meet edge on):
    // each particle in the cells of its box grown by half the thickness and its motion.
    let widths = 0;
    for (let k = 0; k < n; k++) {
      const i = ids[k]!;
      const grow = 0.5 * thickness + motion[i - first]!;
      widths += 2 * grow;
      for (let c = 0; c < 3; c++) {
        boxes[k * 6 + c] = pos[i * 3 + c]! - grow;
        boxes[k * 6 + 3 + c] = pos[i * 3 + c]! + grow;
      }
    }
    const grid = this.pointGrid;
    // Cells as wide as a box on average: most boxes then lie in one to eight cells.
    grid.cellSize = widths / n;
    grid.build(boxes, n);
    for (let k = 0; k < n; k++) {
      const i = ids[k]!;
      probe[0] = pos[i * 3]!;
      probe[1] = pos[i * 3 + 1]!;
      probe[2] = pos[i * 3 + 2]!;
      probe[3] = 0.5 * thickness + motion[i - first]!;
      this.markJoined(i);
      const m = grid.gather(probe);
      const found = grid.found;
      for (let f = 0; f < m; f++) {
        const j = ids[found[f]!]!;
        if (j <= i) continue;
        const near = thickness + motion[i - first]! + motion[j - first]!;
        if (distance2(pos, i * 3, j * 3) >= near * near || this.isJoined(i, j)) continue;
        this.addPair(i, j, -1, -1, -1);
      }
    }
  }

  /**
   * Before each step, after a search or not: picks from the pairs the latest
   * search listed those that can come within `thickness` during this step, the
   * only ones the step's passes project. `reach` holds, per particle of the
   * body, how far it can move relative to the body in the step (m). A pair
   * passes when the particle is nearer a ball about the triangle than the
   * thickness plus both reaches (a few multiplications per pair; a sheet at
   * rest passes none but its real contacts). Each particle–triangle pair that
   * passes remembers the side the particle starts the step on if it is over
   * the triangle, else none (0); a stick neighbour of a corner beside the
   * triangle is left out for the step, and where the sheet about it is nearly
   * flat (see {@link FLAT}) it is not looked at. Allocates only when more pairs pass
   * than ever before, or the body has more triangles than ever.
   */
  activate(particles: ParticleStore, triangles: ArrayLike<number>, triangleCount: number, reach: Float64Array): void {
    const pos = particles.position;
    const first = this.first;
    const thickness = this.thickness;
    this.frame(pos, triangles, triangleCount, reach);
    this.markCurved(triangles, triangleCount);
    const frames = this.frames;
    const curved = this.curved;
    const neighbours = this.neighbours;
    const pairs = this.pairs;
    this.activeCount = 0;
    for (let k = 0; k < this.pairCount; k++) {
      const i = pairs[k * 5]!;
      // A stick neighbour of a corner counts only over the triangle, a fold tighter than one
      // spacing, which bends the sheet: where it is nearly flat, most pairs of a hanging
      // cloth, the pair is skipped without a look.
      const neighbour = neighbours[k] === 1;
      if (neighbour && curved[i - first] === 0) continue;
      const a = pairs[k * 5 + 1]!;
      const t = pairs[k * 5 + 4]!;
      const x = pos[i * 3]!;
      const y = pos[i * 3 + 1]!;
      const z = pos[i * 3 + 2]!;
      const ri = reach[i - first]!;
      if (t < 0) {
        const near = ACTIVE_SKIN * thickness + ri + reach[a - first]!;
        const dx = x - pos[a * 3]!;
        const dy = y - pos[a * 3 + 1]!;
        const dz = z - pos[a * 3 + 2]!;
        if (dx * dx + dy * dy + dz * dz < near * near) this.addActive(i, a, -1, -1, 0);
        continue;
      }
      const o = t * FRAME;
      // Nearer the triangle's ball than the thickness and both reaches?
      let near = frames[o + 3]! + ri;
      let dx = x - frames[o]!;
      let dy = y - frames[o + 1]!;
      let dz = z - frames[o + 2]!;
      if (dx * dx + dy * dy + dz * dz >= near * near) continue;
      // Nearer its plane (a closer bound for one above or below the triangle)?
      dx = x - frames[o + 8]!;
      dy = y - frames[o + 9]!;
      dz = z - frames[o + 10]!;
      const d = frames[o + 5]! * dx + frames[o + 6]! * dy + frames[o + 7]! * dz;
      near = frames[o + 4]! + ri;
      if (d * d >= near * near) continue;
      // Over the triangle (its foot on the plane inside)?
      const v = frames[o + 11]! * dx + frames[o + 12]! * dy + frames[o + 13]! * dz + frames[o + 17]!;
      const u = frames[o + 14]! * dx + frames[o + 15]! * dy + frames[o + 16]! * dz + frames[o + 17]!;
      if (v >= 0 && u >= 0 && u + v <= 1) this.addActive(i, a, pairs[k * 5 + 2]!, pairs[k * 5 + 3]!, d > 0 ? 1 : d < 0 ? -1 : 0);
      else if (!neighbour) {
        // Beside it: nearer the triangle itself than the thickness and both reaches? (The
        // foot's distance outside is at least its most negative weight times that corner's
        // height; in a cloth lying in layers this drops most of the triangles about the one a
        // particle lies over, which the ball and plane tests let through.)
        const outside = Math.max(-(1 - u - v) * frames[o + 18]!, -v * frames[o + 19]!, -u * frames[o + 20]!);
        if (d * d + outside * outside < near * near) this.addActive(i, a, pairs[k * 5 + 2]!, pairs[k * 5 + 3]!, 0);
      }
    }
  }

  /**
   * Each triangle's frame for this step, once per triangle rather than once per pair (a
   * triangle is in 20 or so): its ball, its unit normal, corner a, and the two vectors
   * whose dot products with (x - a) are the barycentric weights of corners b and c of x's
   * foot on its plane. Allocates only when the body has more triangles than ever.
   */
  private frame(pos: Float64Array, triangles: ArrayLike<number>, triangleCount: number, reach: Float64Array): void {
    const first = this.first;
    if (this.frames.length < triangleCount * FRAME) this.frames = new Float64Array(triangleCount * FRAME);
    const frames = this.frames;
    // The sum of each particle's triangles' unit normals, for markCurved, in the same pass.
    const normals = this.normals;
    normals.fill(0);
    for (let t = 0; t < triangleCount; t++) {
      const a = triangles[t * 3]!;
      const b = triangles[t * 3 + 1]!;
      const c = triangles[t * 3 + 2]!;
      const ax = pos[a * 3]!;
      const ay = pos[a * 3 + 1]!;
      const az = pos[a * 3 + 2]!;
      const e1x = pos[b * 3]! - ax;
      const e1y = pos[b * 3 + 1]! - ay;
      const e1z = pos[b * 3 + 2]! - az;
      const e2x = pos[c * 3]! - ax;
      const e2y = pos[c * 3 + 1]! - ay;
      const e2z = pos[c * 3 + 2]! - az;
      // The centroid less a, and the largest distance from it to a corner.
      const gx = (e1x + e2x) / 3;
      const gy = (e1y + e2y) / 3;
      const gz = (e1z + e2z) / 3;
      const r2 = Math.max(gx * gx + gy * gy + gz * gz, (e1x - gx) ** 2 + (e1y - gy) ** 2 + (e1z - gz) ** 2, (e2x - gx) ** 2 + (e2y - gy) ** 2 + (e2z - gz) ** 2);
      const near = ACTIVE_SKIN * this.thickness + Math.max(reach[a - first]!, reach[b - first]!, reach[c - first]!);
      const nx = e1y * e2z - e1z * e2y;
      const ny = e1z * e2x - e1x * e2z;
      const nz = e1x * e2y - e1y * e2x;
      const len2 = nx * nx + ny * ny + nz * nz;
      const o = t * FRAME;
      frames[o] = ax + gx;
      frames[o + 1] = ay + gy;
      frames[o + 2] = az + gz;
      frames[o + 3] = Math.sqrt(r2) + near;
      frames[o + 4] = near;
      frames[o + 8] = ax;
      frames[o + 9] = ay;
      frames[o + 10] = az;
      if (len2 === 0) {
        // Degenerate: no normal, and no point is over it (weights of -1).
        for (let k = 5; k < 8; k++) frames[o + k] = 0;
        for (let k = 11; k < 17; k++) frames[o + k] = 0;
        frames[o + 17] = -1;
        for (let k = 18; k < 21; k++) frames[o + k] = 0;
        continue;
      }
      const len = Math.sqrt(len2);
      const ux = nx / len;
      const uy = ny / len;
      const uz = nz / len;
      frames[o + 5] = ux;
      frames[o + 6] = uy;
      frames[o + 7] = uz;
      const ka = (a - first) * 3;
      const kb = (b - first) * 3;
      const kc = (c - first) * 3;
      normals[ka] = normals[ka]! + ux;
      normals[ka + 1] = normals[ka + 1]! + uy;
      normals[ka + 2] = normals[ka + 2]! + uz;
      normals[kb] = normals[kb]! + ux;
      normals[kb + 1] = normals[kb + 1]! + uy;
      normals[kb + 2] = normals[kb + 2]! + uz;
      normals[kc] = normals[kc]! + ux;
      normals[kc + 1] = normals[kc + 1]! + uy;
      normals[kc + 2] = normals[kc + 2]! + uz;
      // For p = x - a in the plane: v = ((e2 × n) · p) / |n|², u = ((n × e1) · p) / |n|².
      frames[o + 11] = (e2y * nz - e2z * ny) / len2;
      frames[o + 12] = (e2z * nx - e2x * nz) / len2;
      frames[o + 13] = (e2x * ny - e2y * nx) / len2;
      frames[o + 14] = (ny * e1z - nz * e1y) / len2;
      frames[o + 15] = (nz * e1x - nx * e1z) / len2;
      frames[o + 16] = (nx * e1y - ny * e1x) / len2;
      frames[o + 17] = 0;
      // Heights over the edges opposite a, b and c: a foot at weight -k of a corner is k times
      // its height outside the triangle, at least.
      const fx = e2x - e1x;
      const fy = e2y - e1y;
      const fz = e2z - e1z;
      frames[o + 18] = len / Math.sqrt(fx * fx + fy * fy + fz * fz);
      frames[o + 19] = len / Math.sqrt(e2x * e2x + e2y * e2y + e2z * e2z);
      frames[o + 20] = len / Math.sqrt(e1x * e1x + e1y * e1y + e1z * e1z);
    }
  }

  /**
   * Marks, for this step, the particles whose neighbour pairs need a look: those that are
   * bent (one of their triangles faces more than {@link FLAT} away from their triangles'
   * mean normal, or is degenerate) or have a bent stick neighbour. Over the triangles of a
   * particle's neighbours the normals then differ by little (see {@link FLAT}), far from
   * the fold back over itself that puts a neighbour over one of them.
   */
  private markCurved(triangles: ArrayLike<number>, triangleCount: number): void {
    const first = this.first;
    const frames = this.frames;
    const normals = this.normals;
    const bent = this.bent;
    bent.fill(0);
    for (let t = 0; t < triangleCount; t++) {
      const o = t * FRAME;
      const nx = frames[o + 5]!;
      const ny = frames[o + 6]!;
      const nz = frames[o + 7]!;
      for (let v = 0; v < 3; v++) {
        const p = triangles[t * 3 + v]! - first;
        const mx = normals[p * 3]!;
        const my = normals[p * 3 + 1]!;
        const mz = normals[p * 3 + 2]!;
        const along = nx * mx + ny * my + nz * mz;
        if (along <= 0 || along * along < FLAT * FLAT * (mx * mx + my * my + mz * mz)) bent[p] = 1;
      }
    }
    const curved = this.curved;
    const joinedStart = this.joinedStart;
    const joined = this.joined;
    for (let k = 0; k < this.count; k++) {
      let c = bent[k]!;
      for (let e = joinedStart[k]!; e < joinedStart[k + 1]! && c === 0; e++) c = bent[joined[e]!]!;
      curved[k] = c;
    }
  }

  /**
   * One relaxation pass over the pairs found for this step: each particle over
   * its triangle is brought to `thickness` on its starting side, each particle
   * pair to `thickness` apart with friction (`separatePair`), shared by inverse
   * mass. Allocates nothing.
   */
  project(world: World): void {
    const particles = world.particles;
    this.room[0] = Math.min(particles.pushOutRoom, this.pushOutSpeed * world.substep);
    const pairs = this.active;
    // Backwards: the particle pairs (listed last) first, then the particle–triangle pairs,
    // whose correction is the finer one. (Measured: the folded sheet of
    // particleCollisions.test.ts rests 0.6% closer than its thickness the other way round.)
    for (let k = this.activeCount - 1; k >= 0; k--) {
      const i = pairs[k * 4]!;
      const a = pairs[k * 4 + 1]!;
      const b = pairs[k * 4 + 2]!;
      if (b < 0) separatePair(world, i, a, this.minimum);
      else this.holdOff(particles, i, a, b, pairs[k * 4 + 3]!, this.sides[k]!);
    }
  }

  /** Particle `i` over triangle (a, b, c): at least `thickness` on side `side` of its plane (0: the side it is on); beside it, see {@link SurfaceSelfContact.holdOffBeside}. */
  private holdOff(particles: ParticleStore, i: number, a: number, b: number, c: number, side: number): void {
    const pos = particles.position;
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
    if (len2 === 0) return;
    const px = pos[i * 3]! - ax;
    const py = pos[i * 3 + 1]! - ay;
    const pz = pos[i * 3 + 2]! - az;
    const above = px * nx + py * ny + pz * nz;
    // Without a remembered side, the side it is on now.
    const toward = side !== 0 ? side : above < 0 ? -1 : 1;
    // Already the thickness or more on its side: most pairs end here, without a square root.
    if (above * toward > 0 && above * above >= this.thickness * this.thickness * len2) return;
    const len = Math.sqrt(len2);
    nx = (nx / len) * toward;
    ny = (ny / len) * toward;
    nz = (nz / len) * toward;
    const d = px * nx + py * ny + pz * nz;
    const gap = this.thickness - d;
    if (gap <= 0) return;
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
      this.holdOffBeside(particles, i, a, b, c);
      return;
    }
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
    if (d2 >= thickness * thickness || d2 === 0) return;
    const d = Math.sqrt(d2);
    const push = this.push;
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
  }

  private addPair(i: number, a: number, b: number, c: number, t: number): void {
    const k = this.pairCount++;
    if (k * 5 + 5 > this.pairs.length) {
      const grown = new Int32Array(this.pairs.length * 2);
      grown.set(this.pairs);
      this.pairs = grown;
    }
    if (k >= this.neighbours.length) {
      const grown = new Int8Array(this.neighbours.length * 2);
      grown.set(this.neighbours);
      this.neighbours = grown;
    }
    this.pairs[k * 5] = i;
    this.pairs[k * 5 + 1] = a;
    this.pairs[k * 5 + 2] = b;
    this.pairs[k * 5 + 3] = c;
    this.pairs[k * 5 + 4] = t;
  }

  private addActive(i: number, a: number, b: number, c: number, side: number): void {
    const k = this.activeCount++;
    if (k * 4 + 4 > this.active.length) {
      const grown = new Int32Array(this.active.length * 2);
      grown.set(this.active);
      this.active = grown;
    }
    if (k >= this.sides.length) {
      const grown = new Int8Array(this.sides.length * 2);
      grown.set(this.sides);
      this.sides = grown;
    }
    this.active[k * 4] = i;
    this.active[k * 4 + 1] = a;
    this.active[k * 4 + 2] = b;
    this.active[k * 4 + 3] = c;
    this.sides[k] = side;
  }

  /** Marks particle `i`'s stick neighbours for {@link SurfaceSelfContact.isJoined}: one pass over them instead of one per pair. */
  private markJoined(i: number): void {
    const k = i - this.first;
    // A stick neighbour of i is marked i + 1: a mark left from an earlier particle is another number,
    // and one from an earlier search of the same particle still true (the sticks were read once).
    for (let e = this.joinedStart[k]!; e < this.joinedStart[k + 1]!; e++) this.joinMarks[this.joined[e]!] = i + 1;
  }

  /** Whether a stick joins particle `j` to the particle `i` last marked by {@link SurfaceSelfContact.markJoined}. */
  private isJoined(i: number, j: number): boolean {
    return this.joinMarks[j - this.first] === i + 1;
  }
}

/**
 * How near (in thicknesses, plus both reaches) a pair must be at the start of a
 * step to be projected in it. More than 1: the reaches are estimates from the
 * latest substep, and a particle that a collision or a stick turns mid-step can
 * move further. (Measured: at 1 the layers of the folded sheet in
 * particleCollisions.test.ts close to 0.75 of the thickness while landing.)
 */
const ACTIVE_SKIN = 2;

/**
 * Cosine of the largest angle (18°) between one of a particle's triangles and their mean
 * normal for the particle to count as flat. Over a flat particle's neighbours' triangles
 * the normals then differ by at most about 72°, far from the fold back over itself (near
 * 180°) that puts a neighbour over a triangle.
 */
const FLAT = 0.95;

/** Numbers per triangle in {@link SurfaceSelfContact.activate}'s frames. */
const FRAME = 21;

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
