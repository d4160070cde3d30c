import type { World } from '../world.js';
import { closestPointTriangle, PointTri } from './closestPoints.js';
import { moveAlong, pressedIntoCollider, separatePair } from './pairContact.js';
import type { SelfContactList } from './selfContactList.js';
import { OVER_EDGE, STUCK_PASSES } from './selfContactTuning.js';
import { Foot, footOnTriangle } from './triangleFoot.js';

/**
 * The narrow phase of one body's self-collision, run every relaxation pass
 * over the listed pairs ({@link SelfContactList}): the particle pairs before
 * the colliders ({@link SelfContactPush.projectPairs}), the particle–triangle
 * hits after them ({@link SelfContactPush.projectHits}):
 *
 * - a particle pair is pushed `thickness` apart with friction (`separatePair`);
 *   one that passed through itself in the substep (its separation turned about
 *   on a line that came within the thickness of zero) is parted the way it came;
 * - a particle over its triangle (its foot inside) is held `thickness` from the
 *   plane on its side, shared with the corners by inverse mass and barycentric
 *   weight (Müller et al., "Position Based Dynamics", 2007, section 4.4), none
 *   pushed back into a collider that pushed it this substep. Its side is the
 *   one it stood on at the start of the substep in which a pass first found it
 *   over the triangle, kept while the pair is listed (across listings too): a
 *   particle pushed through in a pass is brought back, not held on the wrong side;
 * - a particle beside the triangle is held `thickness` from the triangle's
 *   nearest point; beside it by more than half the thickness in its plane and
 *   clear of it, it has no side (it may go round the triangle's edge). Nearer,
 *   it keeps it: one that passed through over the edge two triangles share ends
 *   just beside the triangle it came over. A stick neighbour of a corner beside
 *   the triangle is the sheet lying flat: left to the sticks.
 *
 * As between bodies, a pair is left parting by at most the push-out room this
 * substep beyond its own motion: where sticks press the sheet thinner than the
 * thickness (a cloth wound tight), it is held apart at that speed, not flung.
 */
export class SelfContactPush {
  /** Pairs found closer than the thickness in the latest pass. */
  touching = 0;
  /** Pairs looked at in the latest pass (the others' particles have not travelled as far as they were apart). */
  examined = 0;
  /** The thickness, then the push-out room this substep (m): doubles in an array, so that none crosses a call. */
  private readonly limits = new Float64Array(2);
  private readonly foot = new Float64Array(Foot.Size);
  /** The foot at the start of the substep, for a side. */
  private readonly then = new Float64Array(Foot.Size);
  private readonly closest = new Float64Array(PointTri.Size);
  /** The room a hit's particle had beyond the thickness when {@link SelfContactPush.holdOff} found it apart (m, a lower bound). */
  private readonly room = new Float64Array(1);
  /** A push: the point's three weights, the unit normal, the depth. */
  private readonly push = new Float64Array(7);
  /** The particles (slots) the latest pass's hits moved, each once: the colliders project them again (see `SelfCollisionPass`). */
  readonly moved: Int32Array;
  movedCount = 0;
  /** Per particle (body-relative), 1 while it is in {@link SelfContactPush.moved}. */
  private readonly movedMark: Uint8Array;

  /**
   * @param list the pairs to project.
   * @param first the body's first particle slot.
   * @param thickness least distance kept (m).
   * @param pushOutSpeed most speed (m/s) at which a particle and a triangle closer than `thickness` part beyond their own motion (Infinity: the world's `maxPushOutSpeed`).
   */
  constructor(
    private readonly list: SelfContactList,
    private readonly first: number,
    thickness: number,
    private readonly pushOutSpeed: number,
    count: number,
  ) {
    this.limits[0] = thickness;
    this.moved = new Int32Array(count);
    this.movedMark = new Uint8Array(count);
  }

  /**
   * The particle pairs of a relaxation pass, before the colliders (so the ground has the last
   * word on them); the pass's odometer reading is taken here. Allocates nothing.
   */
  projectPairs(world: World): void {
    const particles = world.particles;
    const list = this.list;
    this.limits[1] = Math.min(particles.pushOutRoom, this.pushOutSpeed * world.substep);
    let touching = 0;
    let examined = 0;
    this.touching = 0;
    this.examined = 0;
    if (list.pairCount + list.hitCount === 0) return;
    // A pair is looked at only once its particles have travelled, between them, as far as it
    // was apart when last seen: in a cloth lying in layers, the few in contact and those moving.
    list.advanceOdometers(particles.position);
    const odometer = list.odometer;
    const first = this.first;
    const pairs = list.pairs;
    const pairDue = list.pairDue;
    const pos = particles.position;
    const prev = particles.previous;
    const thickness = this.limits[0]!;
    const read = list.lastPass;
    const from = first * 3;
    for (let k = 0; k < list.pairCount; k++) {
      const i = pairs[k * 2]!;
      const j = pairs[k * 2 + 1]!;
      const travelled = odometer[i - first]! + odometer[j - first]!;
      if (travelled < pairDue[k]!) continue;
      examined++;
      const dx = pos[j * 3]! - pos[i * 3]!;
      const dy = pos[j * 3 + 1]! - pos[i * 3 + 1]!;
      const dz = pos[j * 3 + 2]! - pos[i * 3 + 2]!;
      const d2 = dx * dx + dy * dy + dz * dz;
      // Apart, it may still have passed through this substep: its separation turned about, and
      // the line from the one at the substep's start to this one came within the thickness of
      // zero. Worked out for every pair looked at and apart, in this hot loop: a rarely run
      // branch of double arithmetic is left to the interpreter, which boxes every double
      // (allocations).
      const apart = d2 >= thickness * thickness;
      let crossed = false;
      let mx = 0;
      let my = 0;
      let mz = 0;
      if (apart) {
        const px = prev[j * 3]! - prev[i * 3]!;
        const py = prev[j * 3 + 1]! - prev[i * 3 + 1]!;
        const pz = prev[j * 3 + 2]! - prev[i * 3 + 2]!;
        mx = dx - px;
        my = dy - py;
        mz = dz - pz;
        const along = Math.min(Math.max(-(px * mx + py * my + pz * mz) / (mx * mx + my * my + mz * mz + 1e-300), 0), 1);
        const cx = px + mx * along;
        const cy = py + my * along;
        const cz = pz + mz * along;
        crossed = px * dx + py * dy + pz * dz < 0 && cx * cx + cy * cy + cz * cz < thickness * thickness;
      }
      if ((!apart || crossed) && separatePair(world, i, j, this.limits, crossed)) touching++;
      else if (apart) {
        // Within twice its move of this substep of the thickness, it is looked at again in the next
        // pass (it may pass through in one move); farther, once its particles have travelled the gap.
        // The gap is taken where the odometers were read (this pass's start), not here: a push
        // earlier in the pass moved them, and the next reading counts from there, not from here
        // (a particle pushed away and back closes on its partner with no distance on the meter).
        const ax = read[j * 3 - from]! - read[i * 3 - from]!;
        const ay = read[j * 3 + 1 - from]! - read[i * 3 + 1 - from]!;
        const az = read[j * 3 + 2 - from]! - read[i * 3 + 2 - from]!;
        const gap = Math.sqrt(ax * ax + ay * ay + az * az) - thickness;
        pairDue[k] = travelled + (gap * gap > 4 * (mx * mx + my * my + mz * mz) ? gap : 0);
      }
    }
    this.touching = touching;
    this.examined = examined;
  }

  /**
   * The particle–triangle hits of a relaxation pass, after the colliders (after
   * {@link SelfContactPush.projectPairs} in the same pass, which reads the odometers); returns
   * whether any was pushed. Allocates nothing.
   */
  projectHits(world: World): boolean {
    const list = this.list;
    const odometer = list.odometer;
    const first = this.first;
    let touching = 0;
    let examined = 0;
    const hits = list.hits;
    const hitDue = list.hitDue;
    const room = this.room;
    for (let m = 0; m < this.movedCount; m++) this.movedMark[this.moved[m]! - first] = 0;
    this.movedCount = 0;
    for (let k = 0; k < list.hitCount; k++) {
      // A joined hit stores its particle as ~p; p ^ (p >> 31) reads either without a branch,
      // which mixed joined and free hits would mispredict.
      const p = hits[k * 4]!;
      const travelled = odometer[(p ^ (p >> 31)) - first]! + odometer[hits[k * 4 + 1]! - first]! + odometer[hits[k * 4 + 2]! - first]! + odometer[hits[k * 4 + 3]! - first]!;
      if (travelled < hitDue[k]!) continue;
      examined++;
      if (this.holdOff(world, k)) touching++;
      else hitDue[k] = travelled + room[0]!;
    }
    this.touching += touching;
    this.examined += examined;
    return touching > 0;
  }

  /** Hit `k` (see {@link SelfContactList.hits}): returns whether its particle was closer than the thickness. */
  private holdOff(world: World, k: number): boolean {
    const particles = world.particles;
    const pos = particles.position;
    const hits = this.list.hits;
    let p = hits[k * 4]!;
    const joined = p < 0;
    if (joined) p = ~p;
    const a = hits[k * 4 + 1]!;
    const b = hits[k * 4 + 2]!;
    const c = hits[k * 4 + 3]!;
    const foot = this.foot;
    if (!footOnTriangle(pos, p, a, b, c, foot)) return false;
    const thickness = this.limits[0]!;
    const height = foot[Foot.Height]!;
    const s = foot[Foot.S]!;
    const v = foot[Foot.V]!;
    const u = foot[Foot.U]!;
    const sides = this.list.sides;
    const push = this.push;
    if (s >= -OVER_EDGE && v >= -OVER_EDGE && u >= -OVER_EDGE) {
      // The side (its sign) and, beyond 1, how many passes in a row the particle was found on the
      // other side of the plane and brought back. After STUCK_PASSES of them it takes the side it
      // is on: something holds it there (over two neighbouring triangles on opposite sides, in a
      // crumple the sticks press thinner than the thickness), and the fight would never end.
      let held = sides[k]!;
      if (held === 0) held = this.startingSide(world, p, a, b, c);
      let side = held > 0 ? 1 : -1;
      if (height * side >= 0) held = side;
      else if (held * side < STUCK_PASSES) held += side;
      else {
        side = -side;
        held = side;
      }
      sides[k] = held;
      const depth = thickness - height * side;
      if (depth <= 0) {
        this.room[0] = -depth;
        return false;
      }
      // The weights clamped to [0, 1] here, not in a helper: a double handed to a call the
      // compiler does not inline is boxed (an allocation per hit pushed).
      push[0] = s < 0 ? 0 : s > 1 ? 1 : s;
      push[1] = v < 0 ? 0 : v > 1 ? 1 : v;
      push[2] = u < 0 ? 0 : u > 1 ? 1 : u;
      push[3] = foot[Foot.NX]! * side;
      push[4] = foot[Foot.NY]! * side;
      push[5] = foot[Foot.NZ]! * side;
      push[6] = depth;
      this.pushApart(world, p, a, b, c);
      return true;
    }
    const far2 = height * height + foot[Foot.Outside2]!;
    // Beside the triangle it is at least that far; a stick neighbour of a corner there is let be
    // until it comes over the triangle, as far as its foot lies outside (less the edge's slack).
    this.room[0] = joined ? 0.9 * Math.sqrt(foot[Foot.Outside2]!) : Math.sqrt(far2) - thickness;
    if (joined || far2 >= thickness * thickness || !this.holdOffBeside(world, p, a, b, c)) {
      // Beside the triangle and clear of it by half the thickness in its plane, it may go round
      // the edge: it has no side. Nearer, it keeps it: one that passed through the sheet over
      // the edge two triangles share ends just beside the one it came over.
      if (foot[Foot.Outside2]! * 4 >= thickness * thickness) sides[k] = 0;
      return false;
    }
    return true;
  }

  /** The side of triangle (a, b, c) particle `p` stood on at the start of the substep (±1); its side now (the height in `foot`) if that is unreadable. */
  private startingSide(world: World, p: number, a: number, b: number, c: number): number {
    const then = footOnTriangle(world.particles.previous, p, a, b, c, this.then) ? this.then[Foot.Height]! : 0;
    const side = then !== 0 ? then : this.foot[Foot.Height]!;
    return side < 0 ? -1 : 1;
  }

  /** Particle `p` beside triangle (a, b, c): at least the thickness from its nearest point. */
  private holdOffBeside(world: World, p: number, a: number, b: number, c: number): boolean {
    const pos = world.particles.position;
    const q = this.closest;
    for (let k = 0; k < 3; k++) {
      q[PointTri.P + k] = pos[p * 3 + k]!;
      q[PointTri.A + k] = pos[a * 3 + k]!;
      q[PointTri.B + k] = pos[b * 3 + k]!;
      q[PointTri.C + k] = pos[c * 3 + k]!;
    }
    closestPointTriangle(q);
    const wa = q[PointTri.U]!;
    const wb = q[PointTri.V]!;
    const wc = q[PointTri.W]!;
    const nx = q[0]! - (wa * q[3]! + wb * q[6]! + wc * q[9]!);
    const ny = q[1]! - (wa * q[4]! + wb * q[7]! + wc * q[10]!);
    const nz = q[2]! - (wa * q[5]! + wb * q[8]! + wc * q[11]!);
    const d2 = nx * nx + ny * ny + nz * nz;
    const thickness = this.limits[0]!;
    this.room[0] = d2 >= thickness * thickness ? Math.sqrt(d2) - thickness : 0;
    if (d2 >= thickness * thickness || d2 === 0) return false;
    const d = Math.sqrt(d2);
    const push = this.push;
    push[0] = wa;
    push[1] = wb;
    push[2] = wc;
    push[3] = nx / d;
    push[4] = ny / d;
    push[5] = nz / d;
    push[6] = thickness - d;
    this.pushApart(world, p, a, b, c);
    return true;
  }

  /**
   * Moves particle `p` from the point of triangle (a, b, c) with weights `push[0..3)` along the
   * unit normal `push[3..6)` by the depth `push[6]`, shared by inverse mass and those weights (so
   * momentum is kept), at most the push-out room beyond the pair's own motion this substep.
   */
  private pushApart(world: World, p: number, a: number, b: number, c: number): void {
    const particles = world.particles;
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
    // A particle the ground (any collider) pushed this substep is held there (pressedIntoCollider).
    const wp = pressedIntoCollider(particles, p, push, 3, 1) ? 0 : w[p]!;
    const wa = pressedIntoCollider(particles, a, push, 3, -1) ? 0 : w[a]! * ba;
    const wb = pressedIntoCollider(particles, b, push, 3, -1) ? 0 : w[b]! * bb;
    const wc = pressedIntoCollider(particles, c, push, 3, -1) ? 0 : w[c]! * bc;
    const denominator = wp + wa * ba + wb * bb + wc * bc;
    if (denominator === 0) return;
    // How fast the pair parts along the normal already this substep (m).
    const moved =
      (pos[p * 3]! - prev[p * 3]! - ba * (pos[a * 3]! - prev[a * 3]!) - bb * (pos[b * 3]! - prev[b * 3]!) - bc * (pos[c * 3]! - prev[c * 3]!)) * nx +
      (pos[p * 3 + 1]! - prev[p * 3 + 1]! - ba * (pos[a * 3 + 1]! - prev[a * 3 + 1]!) - bb * (pos[b * 3 + 1]! - prev[b * 3 + 1]!) - bc * (pos[c * 3 + 1]! - prev[c * 3 + 1]!)) * ny +
      (pos[p * 3 + 2]! - prev[p * 3 + 2]! - ba * (pos[a * 3 + 2]! - prev[a * 3 + 2]!) - bb * (pos[b * 3 + 2]! - prev[b * 3 + 2]!) - bc * (pos[c * 3 + 2]! - prev[c * 3 + 2]!)) * nz;
    const room = this.limits[1]! - moved;
    const depth = push[6]! < room ? push[6]! : room;
    if (depth <= 0) return;
    // No particle moves more than the depth: where the particle and the heavy corners are held
    // (pinned, or resting on a collider), a light corner of small weight would otherwise take the
    // push levered by 1 / its weight (a cloth dragged over a fold on the ground flung one 5 m).
    const most = Math.max(wp, wa, wb, wc);
    const lambda = depth / (most > denominator ? most : denominator);
    moveAlong(pos, p, nx, ny, nz, wp * lambda);
    moveAlong(pos, a, nx, ny, nz, -wa * lambda);
    moveAlong(pos, b, nx, ny, nz, -wb * lambda);
    moveAlong(pos, c, nx, ny, nz, -wc * lambda);
    if (wp > 0) this.noteMoved(p);
    if (wa > 0) this.noteMoved(a);
    if (wb > 0) this.noteMoved(b);
    if (wc > 0) this.noteMoved(c);
  }

  /** Adds particle `i` (slot) to {@link SelfContactPush.moved} once. */
  private noteMoved(i: number): void {
    const k = i - this.first;
    if (this.movedMark[k] === 1) return;
    this.movedMark[k] = 1;
    this.moved[this.movedCount++] = i;
  }
}
