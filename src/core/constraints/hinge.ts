import type { World } from '../world.js';

/** The columns of an angle table the hinge reads: its particles, stiffness and hinge limits, per row. */
export interface HingeRows {
  readonly a: Int32Array;
  readonly middle: Int32Array;
  readonly b: Int32Array;
  readonly axisFrom: Int32Array;
  readonly axisTo: Int32Array;
  readonly stiffness: Float64Array;
  readonly hingeSlack: Float64Array;
  readonly hingeLean: Float64Array;
}

/**
 * Largest correction per hinge projection (radians). The angle rows repair their
 * whole violation, but a hinge folded far the wrong way (a ragdoll made half
 * inside the floor, its shins folded back above it by the wall cheat) repaired at
 * once threw the body 80 m up; at 0.03 rad per pass it unfolds over a few
 * substeps, and no impact in the tests bends a knee past its limit for long.
 */
const MAX_CORRECTION = 0.03;

/**
 * The one-way hinge of an angle row (see {@link AngleOptions.hinge}), projected
 * with scratch arrays of its own so that a pass allocates nothing. An
 * {@link AngleTable} holds one and hands it the rows that have a hinge.
 */
export class HingeProjection {
  /** Scratch of the hinge projection (unit vectors, lengths, gradients per particle). */
  private readonly gradient = new Float64Array(45);
  /** Scratch: the particles of a hinge, a, middle, b, axis from, axis to. */
  private readonly roles = new Int32Array(5);

  /**
   * Projects the hinge of row `row`. With û = unit(middle − a), ĥ = unit(axis),
   * n̂ = unit(ĥ × û) (the way the joint may bend), sin = |ĥ × û| and
   * ŝ = unit(b − middle), two inequalities:
   *   C₁ = sin·(ŝ·n̂ + sin(tolerance)) ≥ 0    (bends one way)
   *   C₂ = fade·(sin(sideways) − |(ŝ − û)·ĥ|) ≥ 0, fade = min(1, 2·sin²)
   *        (leans out of the hinge plane at most so far; the lean stops measuring
   *        anything as the limb turns onto the axis)
   * Each is projected along its full gradient over all five particles involved
   * (a, middle, b and the two axis particles), mass-weighted. Both functions are
   * unchanged by rotations and translations, so the projection keeps momentum and
   * angular momentum and, unlike a push along a fixed normal, cannot pump energy
   * into a tumbling body.
   *
   * C₁ is weighted by sin so that it stays continuous where the limb lines up with
   * the axis: there n̂ turns over, and ŝ·n̂ alone jumped from allowed to deeply
   * violated as a thigh swept past the hip axis. With a fade standing in for the
   * weight, the limb crossed that region unresisted, and the hinge then pushed the
   * violation back out over many substeps, each push left as velocity: a tumbling
   * ragdoll gained energy (test/core/energy.test.ts: up to 12.5% of the tumble's;
   * in one tumble a knee added 40% within four steps). Weighted, C₁ → 0 at the axis,
   * so a violation only grows by motion against the constraint, whose projection
   * takes speed out; its gradient stays bounded, so it cannot kick either.
   */
  project(rows: HingeRows, world: World, row: number): void {
    const g = this.gradient;
    const pos = world.particles.position;
    this.load(rows, pos, row);
    // g[0..2] û, [3..5] ĥ, [6..8] n̂, [9..11] ŝ; lengths in g[12] |u|, g[13] |h|, g[14] |s|, g[15] |ĥ × û|.
    const sin = g[15]!;
    if (sin < 1e-6) return; // the axis along the limb leaves no side to keep to
    // As the limb turns toward the axis, the lean limit stops making sense (the axis
    // no longer measures a lean): fade it out below 45°.
    const fade = sin > Math.SQRT1_2 ? 1 : 2 * sin * sin;
    const sn = g[9]! * g[6]! + g[10]! * g[7]! + g[11]! * g[8]!;
    const slack = rows.hingeSlack[row]!;
    const c1 = sin * (sn + slack);
    if (c1 < 0) {
      // With m = ĥ × û (|m| = sin) and a = ∂C₁/∂m = ŝ + slack·n̂:
      // ∂C₁/∂s = (m − (m·ŝ)ŝ)/|s|, ∂C₁/∂u = P_û(a × ĥ)/|u|, ∂C₁/∂h = P_ĥ(û × a)/|h|,
      // P_x removing the component along x.
      const is = 1 / g[14]!;
      for (let k = 0; k < 3; k++) {
        g[16 + k] = (g[6 + k]! - sn * g[9 + k]!) * sin * is;
        g[19 + k] = g[9 + k]! + slack * g[6 + k]!;
      }
      this.crossGradients();
      g[43] = c1;
      g[44] = 1;
      this.apply(rows, world, row);
      this.load(rows, pos, row);
    }
    const lean = rows.hingeLean[row]!;
    if (lean < 0) return;
    // d = (ŝ − û)·ĥ: how far the lower limb leans along the axis, relative to the upper one.
    const sh = g[9]! * g[3]! + g[10]! * g[4]! + g[11]! * g[5]!;
    const uh = g[0]! * g[3]! + g[1]! * g[4]! + g[2]! * g[5]!;
    const d = sh - uh;
    const c2 = lean - Math.abs(d);
    if (c2 >= 0) return;
    // The fade is part of the constraint, C₂ = fade(sin)·(sin(sideways) − |d|), and
    // its gradient is projected in full, as C₁'s weight is. Applied as a factor of
    // the correction only, a lean left while the thigh lay near the hip axis (fade
    // ~0) was pushed out over many substeps as the thigh left it, each push left as
    // velocity: a ragdoll with its hands flung up and down gained 4× the energy
    // of the fling within three steps (measured: one knee added 184 J to 41 J). With
    // the fade's own gradient, the violation grows only as the thigh moves away
    // from the axis, and its projection slows that motion instead.
    const sign = d > 0 ? -1 : 1;
    const is = (sign * fade) / g[14]!;
    const iu = (sign * fade) / g[12]!;
    const ih = (sign * fade) / g[13]!;
    // d(fade)/d(sin) · (sin(sideways) − |d|), times ∂sin/∂m = n̂ (m = ĥ × û, sin = |m|).
    const dFade = sin > Math.SQRT1_2 ? 0 : 4 * sin * c2;
    for (let k = 0; k < 3; k++) {
      g[16 + k] = (g[3 + k]! - sh * g[9 + k]!) * is; // ∂/∂s
      g[28 + k] = -(g[3 + k]! - uh * g[k]!) * iu; // ∂/∂u of the lean, scratch
      g[31 + k] = (g[9 + k]! - g[k]! - d * g[3 + k]!) * ih; // ∂/∂h of the lean, scratch
      g[19 + k] = dFade * g[6 + k]!;
    }
    this.crossGradients();
    for (let k = 0; k < 3; k++) {
      g[22 + k] = g[22 + k]! + g[28 + k]!;
      g[25 + k] = g[25 + k]! + g[31 + k]!;
    }
    g[43] = fade * c2;
    g[44] = 1;
    this.apply(rows, world, row);
  }

  /** Fills `gradient[0..15]` with û, ĥ, n̂, ŝ, |u|, |h|, |s| and |ĥ × û| for row `row`. */
  private load(rows: HingeRows, pos: Float64Array, row: number): void {
    const g = this.gradient;
    const pa = rows.a[row]! * 3;
    const pm = rows.middle[row]! * 3;
    const pb = rows.b[row]! * 3;
    const pf = rows.axisFrom[row]! * 3;
    const pt = rows.axisTo[row]! * 3;
    for (let k = 0; k < 3; k++) {
      g[k] = pos[pm + k]! - pos[pa + k]!;
      g[3 + k] = pos[pt + k]! - pos[pf + k]!;
      g[9 + k] = pos[pb + k]! - pos[pm + k]!;
    }
    const lu = Math.sqrt(g[0]! * g[0]! + g[1]! * g[1]! + g[2]! * g[2]!) || 1;
    const lh = Math.sqrt(g[3]! * g[3]! + g[4]! * g[4]! + g[5]! * g[5]!) || 1;
    const ls = Math.sqrt(g[9]! * g[9]! + g[10]! * g[10]! + g[11]! * g[11]!) || 1;
    for (let k = 0; k < 3; k++) {
      g[k] = g[k]! / lu;
      g[3 + k] = g[3 + k]! / lh;
      g[9 + k] = g[9 + k]! / ls;
    }
    g[6] = g[4]! * g[2]! - g[5]! * g[1]!;
    g[7] = g[5]! * g[0]! - g[3]! * g[2]!;
    g[8] = g[3]! * g[1]! - g[4]! * g[0]!;
    const ln = Math.sqrt(g[6]! * g[6]! + g[7]! * g[7]! + g[8]! * g[8]!);
    const inverse = ln > 0 ? 1 / ln : 0;
    g[6] = g[6]! * inverse;
    g[7] = g[7]! * inverse;
    g[8] = g[8]! * inverse;
    g[12] = lu;
    g[13] = lh;
    g[14] = ls;
    g[15] = ln;
  }

  /**
   * From a = ∂C/∂m in gradient[19..21], m = ĥ × û: ∂C/∂u = P_û(a × ĥ)/|u| into
   * [22..24] and ∂C/∂h = P_ĥ(û × a)/|h| into [25..27], P_x removing the part along x.
   */
  private crossGradients(): void {
    const g = this.gradient;
    const ax = g[19]!;
    const ay = g[20]!;
    const az = g[21]!;
    const ux = g[0]!;
    const uy = g[1]!;
    const uz = g[2]!;
    const hx = g[3]!;
    const hy = g[4]!;
    const hz = g[5]!;
    const px = ay * hz - az * hy;
    const py = az * hx - ax * hz;
    const pz = ax * hy - ay * hx;
    const pu = px * ux + py * uy + pz * uz;
    const qx = uy * az - uz * ay;
    const qy = uz * ax - ux * az;
    const qz = ux * ay - uy * ax;
    const qh = qx * hx + qy * hy + qz * hz;
    const iu = 1 / g[12]!;
    const ih = 1 / g[13]!;
    g[22] = (px - pu * ux) * iu;
    g[23] = (py - pu * uy) * iu;
    g[24] = (pz - pu * uz) * iu;
    g[25] = (qx - qh * hx) * ih;
    g[26] = (qy - qh * hy) * ih;
    g[27] = (qz - qh * hz) * ih;
  }

  /**
   * Projects a violated hinge inequality of value c = gradient[43] < 0, faded by
   * gradient[44] (passed in the array: a double argument to a call V8 does not
   * inline is boxed, an allocation per pass), whose gradients with
   * respect to s, u and h are in gradient[16..18], [22..24] and [25..27]. Per
   * particle (s = b − middle, u = middle − a, h = to − from): b gets ∂/∂s, middle
   * ∂/∂u − ∂/∂s, a −∂/∂u, to ∂/∂h, from −∂/∂h, summed where one particle plays two
   * parts (a hip is the middle of a hip limit and an end of its axis).
   */
  private apply(rows: HingeRows, world: World, row: number): void {
    const g = this.gradient;
    const c = g[43]!;
    const fade = g[44]!;
    const ids = this.roles;
    const w = world.particles.inverseMass;
    ids[0] = rows.a[row]!;
    ids[1] = rows.middle[row]!;
    ids[2] = rows.b[row]!;
    ids[3] = rows.axisFrom[row]!;
    ids[4] = rows.axisTo[row]!;
    for (let k = 0; k < 3; k++) {
      g[28 + k] = -g[22 + k]!; // a
      g[31 + k] = g[22 + k]! - g[16 + k]!; // middle
      g[34 + k] = g[16 + k]!; // b
      g[37 + k] = -g[25 + k]!; // from
      g[40 + k] = g[25 + k]!; // to
    }
    // Merge roles played by one particle into its first role.
    for (let r = 1; r < 5; r++) {
      for (let q = 0; q < r; q++) {
        if (ids[q] !== ids[r]) continue;
        for (let k = 0; k < 3; k++) {
          g[28 + q * 3 + k] = g[28 + q * 3 + k]! + g[28 + r * 3 + k]!;
          g[28 + r * 3 + k] = 0;
        }
        break;
      }
    }
    let denominator = 0;
    for (let r = 0; r < 5; r++) {
      const o = 28 + r * 3;
      denominator += w[ids[r]!]! * (g[o]! * g[o]! + g[o + 1]! * g[o + 1]! + g[o + 2]! * g[o + 2]!);
    }
    if (denominator === 0) return;
    const depth = c < -MAX_CORRECTION ? -MAX_CORRECTION : c;
    const lambda = (-depth * fade * rows.stiffness[row]!) / denominator;
    const pos = world.particles.position;
    for (let r = 0; r < 5; r++) {
      const o = 28 + r * 3;
      const p = ids[r]! * 3;
      const s = lambda * w[ids[r]!]!;
      pos[p] = pos[p]! + s * g[o]!;
      pos[p + 1] = pos[p + 1]! + s * g[o + 1]!;
      pos[p + 2] = pos[p + 2]! + s * g[o + 2]!;
    }
  }
}
