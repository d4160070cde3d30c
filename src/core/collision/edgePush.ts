import { collides, makeContact, pushOut, setSurface, type Collider } from '../colliders/collider.js';
import { ParticleFlag, type ParticleStore } from '../particles.js';
import { makeSegmentQuery, Seg } from './segmentContact.js';

/**
 * Shortest stretch (as a share of the segment) held out at both ends: over a
 * shorter one the two ends' depths hardly differ, and solving for both would
 * divide by its length.
 */
const STRETCH = 1e-3;

/**
 * Pushes a capsule edge out of a contact the segment query found: the paper's
 * section 5 share of the penetration between the edge's two ends, or, for an
 * edge lying along a face, both ends of the stretch it touches over. Holds the
 * query it reads and its own scratch, so that it allocates nothing.
 */
export class EdgePush {
  /** The segment query: the edge's ends and radius in, the contact out (see `segmentContact.ts`). */
  readonly query = makeSegmentQuery();
  /** Scratch of a stretch contact (see shareStretch): the two ends' moves, then the weights wa, wb and the stretch's ends (parameter, depth). */
  private readonly moves = new Float64Array(8);
  private readonly contact = makeContact(false);

  /**
   * The paper's section 5: the penetration point p = c1·x1 + c2·x2 (c1 = 1 - t,
   * c2 = t) must move by Δ; with λ = 1/(c1² + c2²), x1 += c1·λ·Δ and x2 += c2·λ·Δ.
   * Weighted by inverse mass w: xi += wi·ci·Δ / (w1·c1² + w2·c2²), which moves p
   * by exactly Δ. Each end's share goes through pushOut, so friction acts on it.
   * As for a particle (see `pushOut`), the penetration the point brought into the
   * substep comes out at most `particles.pushOutRoom` per substep: what the
   * point moved in by this substep is taken back whole.
   */
  share(particles: ParticleStore, a: number, b: number, c: Collider): void {
    const q = this.query;
    if (q[Seg.Stretch] === 1 && q[Seg.Hi]! - q[Seg.Lo]! > STRETCH) {
      this.shareStretch(particles, a, b, c);
      return;
    }
    const c2 = q[7]!;
    const c1 = 1 - c2;
    const wa = collides(particles, a) ? particles.inverseMass[a]! : 0;
    const wb = collides(particles, b) ? particles.inverseMass[b]! : 0;
    const denominator = wa * c1 * c1 + wb * c2 * c2;
    if (denominator === 0) return;
    const nx = q[8]!;
    const ny = q[9]!;
    const nz = q[10]!;
    const pos = particles.position;
    const prev = particles.previous;
    const pa = a * 3;
    const pb = b * 3;
    const approach =
      c1 * ((pos[pa]! - prev[pa]!) * nx + (pos[pa + 1]! - prev[pa + 1]!) * ny + (pos[pa + 2]! - prev[pa + 2]!) * nz) +
      c2 * ((pos[pb]! - prev[pb]!) * nx + (pos[pb + 1]! - prev[pb + 1]!) * ny + (pos[pb + 2]! - prev[pb + 2]!) * nz);
    const room = particles.pushOutRoom - approach;
    const depth = q[11]! < room ? q[11]! : room;
    if (q[11]! > room) {
      particles.flags[a] = particles.flags[a]! | ParticleFlag.HeldBack | ParticleFlag.Pushed;
      particles.flags[b] = particles.flags[b]! | ParticleFlag.HeldBack | ParticleFlag.Pushed;
    }
    if (depth <= 0) return;
    const k = depth / denominator;
    const contact = this.contact;
    contact[0] = nx;
    contact[1] = ny;
    contact[2] = nz;
    setSurface(contact, c);
    const da = wa * c1 * k;
    const db = wb * c2 * k;
    if (da > 0) {
      contact[3] = da;
      pushOut(particles, a, contact);
    }
    if (db > 0) {
      contact[3] = db;
      pushOut(particles, b, contact);
    }
  }

  /**
   * Fills the query with the stretch held at `planes[o..o + 6)` (normal, offset,
   * its ends' parameters) as the segment now lies: both ends' depths, and the
   * deeper end as the point for a stretch too short to hold at both ends. False
   * when no part of it is in the face any more.
   */
  stretchOn(planes: Float64Array, o: number): boolean {
    const q = this.query;
    const nx = planes[o]!;
    const ny = planes[o + 1]!;
    const nz = planes[o + 2]!;
    const sa = nx * q[0]! + ny * q[1]! + nz * q[2]! - planes[o + 3]!;
    const sb = nx * q[3]! + ny * q[4]! + nz * q[5]! - planes[o + 3]!;
    const lo = planes[o + 4]!;
    const hi = planes[o + 5]!;
    const s0 = sa + (sb - sa) * lo;
    const s1 = sa + (sb - sa) * hi;
    const r = q[6]!;
    if ((s0 < s1 ? s0 : s1) >= r) return false;
    q[Seg.Stretch] = 1;
    q[Seg.Lo] = lo;
    q[Seg.Hi] = hi;
    q[Seg.LoDepth] = r - s0;
    q[Seg.HiDepth] = r - s1;
    q[7] = s0 < s1 ? lo : hi;
    q[8] = nx;
    q[9] = ny;
    q[10] = nz;
    q[11] = r - (s0 < s1 ? s0 : s1);
    return true;
  }

  /**
   * A capsule lying along a face touches it over a stretch [lo, hi] of its
   * segment, not at a point. Pushed out at its deepest point only (as
   * {@link EdgePush.share} does), the push jumped from one end of the stretch to the
   * other as the tilt changed sign by a micrometre, and lifted the end the face
   * held along with the other, a lift left as velocity: a ragdoll lying with its
   * spine across a step's nose (the pelvis on the tread, the chest over the drop)
   * or a shin along a tread chattered at about 1 cm/s for ever and never fell
   * asleep, or did, depending on the last bit of its start position
   * (test/core/ragdollLimits.test.ts). Here both ends of the stretch are
   * kept out of the face at once, by the smallest mass-weighted move of the two
   * particles along the face normal (Σ mᵢuᵢ² with the point at lo raised by at
   * least its depth d₀ and the point at hi by d₁): one end alone (the section 5
   * push there) when that clears the other too, else both ends exactly to the
   * face. That is a projection onto a convex set, so it changes continuously
   * with the tilt: a level segment is lifted level whichever way it tilts by a
   * nanometre. Friction and the push-out speed limit act on each particle's
   * share as in {@link EdgePush.share}.
   */
  private shareStretch(particles: ParticleStore, a: number, b: number, c: Collider): void {
    const q = this.query;
    const wa = collides(particles, a) ? particles.inverseMass[a]! : 0;
    const wb = collides(particles, b) ? particles.inverseMass[b]! : 0;
    if (wa + wb === 0) return;
    const nx = q[8]!;
    const ny = q[9]!;
    const nz = q[10]!;
    const pos = particles.position;
    const prev = particles.previous;
    const pa = a * 3;
    const pb = b * 3;
    const lo = q[Seg.Lo]!;
    const hi = q[Seg.Hi]!;
    // What each end moved in by this substep is taken back whole, what it brought in at most pushOutRoom (see share).
    const va = (pos[pa]! - prev[pa]!) * nx + (pos[pa + 1]! - prev[pa + 1]!) * ny + (pos[pa + 2]! - prev[pa + 2]!) * nz;
    const vb = (pos[pb]! - prev[pb]!) * nx + (pos[pb + 1]! - prev[pb + 1]!) * ny + (pos[pb + 2]! - prev[pb + 2]!) * nz;
    let d0 = q[Seg.LoDepth]!;
    let d1 = q[Seg.HiDepth]!;
    const room0 = particles.pushOutRoom - ((1 - lo) * va + lo * vb);
    const room1 = particles.pushOutRoom - ((1 - hi) * va + hi * vb);
    if (d0 > room0 || d1 > room1) {
      particles.flags[a] = particles.flags[a]! | ParticleFlag.HeldBack | ParticleFlag.Pushed;
      particles.flags[b] = particles.flags[b]! | ParticleFlag.HeldBack | ParticleFlag.Pushed;
      if (d0 > room0) d0 = room0;
      if (d1 > room1) d1 = room1;
    }
    if (d0 <= 0 && d1 <= 0) return;
    // One end alone (share's push at it), if that raises the other end far enough
    // too: then it is the smallest move (the other end's condition is inactive).
    // Else both ends go exactly to the face.
    // Through scratch: a double passed to a call V8 does not inline is boxed, an allocation per contact.
    const moves = this.moves;
    moves[2] = wa;
    moves[3] = wb;
    moves[4] = lo;
    moves[5] = d0;
    moves[6] = hi;
    moves[7] = d1;
    if (!this.oneEnd(4, 6) && !this.oneEnd(6, 4)) {
      if (wa === 0 || wb === 0) {
        // A particle that cannot move leaves no move that puts both ends on the face: the deeper one, as share does.
        if (d0 >= d1) this.oneEnd(4, 6);
        else this.oneEnd(6, 4);
      } else {
        // (1 − lo)·ua + lo·ub = d₀, (1 − hi)·ua + hi·ub = d₁.
        const det = hi - lo;
        moves[0] = (d0 * hi - d1 * lo) / det;
        moves[1] = (d1 * (1 - lo) - d0 * (1 - hi)) / det;
      }
    }
    const contact = this.contact;
    contact[0] = nx;
    contact[1] = ny;
    contact[2] = nz;
    setSurface(contact, c);
    this.move(particles, a, 0);
    this.move(particles, b, 1);
  }

  /**
   * The move of a stretch's ends that raises one end of it alone by its depth
   * (the section 5 weights at that end), into `moves[0..2)` (a's, b's); true if
   * that raises the other end by at least its depth too. The ends' parameter and
   * depth are at `moves[end]`, `moves[end + 1]` and `moves[other]`,
   * `moves[other + 1]`, the weights at `moves[2..4)`. An end not in the face
   * needs no move.
   */
  private oneEnd(end: number, other: number): boolean {
    const moves = this.moves;
    const wa = moves[2]!;
    const wb = moves[3]!;
    const t = moves[end]!;
    const d = moves[end + 1]!;
    moves[0] = 0;
    moves[1] = 0;
    if (d > 0) {
      const denominator = wa * (1 - t) * (1 - t) + wb * t * t;
      if (denominator === 0) return false;
      moves[0] = (wa * (1 - t) * d) / denominator;
      moves[1] = (wb * t * d) / denominator;
    }
    const s = moves[other]!;
    return (1 - s) * moves[0]! + s * moves[1]! >= moves[other + 1]!;
  }

  /** Moves particle `i` by `moves[slot]` along the contact normal: a push out through pushOut (friction, contact record), a pull toward the face directly. */
  private move(particles: ParticleStore, i: number, slot: number): void {
    const u = this.moves[slot]!;
    if (u > 0) {
      this.contact[3] = u;
      pushOut(particles, i, this.contact);
    } else if (u < 0) {
      const p = i * 3;
      const pos = particles.position;
      pos[p] = pos[p]! + this.contact[0]! * u;
      pos[p + 1] = pos[p + 1]! + this.contact[1]! * u;
      pos[p + 2] = pos[p + 2]! + this.contact[2]! * u;
    }
  }
}
