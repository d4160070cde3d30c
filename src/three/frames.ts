import type { Blend } from './positions.js';

/** A rigid placement: position and unit quaternion `[x, y, z, w]`, as the core's rigid bodies and limbs report them. */
export interface Frame {
  /** Position (m). */
  position: [number, number, number];
  /** Orientation, a unit quaternion `[x, y, z, w]`. */
  quaternion: [number, number, number, number];
}

/** Anything with a position and a quaternion, such as the core's `LimbFrame` and `RigidTransform`. */
export interface FrameLike {
  /** Position (m), x, y, z. */
  readonly position: ArrayLike<number>;
  /** Orientation, a unit quaternion x, y, z, w. */
  readonly quaternion: ArrayLike<number>;
}

/**
 * A fresh identity {@link Frame}, to be reused as an `out` argument.
 *
 * @example
 * ```ts
 * const frame = makeFrame();
 * body.transform(frame); // filled in place every frame
 * ```
 */
export function makeFrame(): Frame {
  return { position: [0, 0, 0], quaternion: [0, 0, 0, 1] };
}

/**
 * Copies frame `from` into `to` (any {@link FrameLike}, such as a core `LimbFrame`).
 *
 * @example
 * ```ts
 * copyFrame(ragdoll.updateFrames()[0]!, atStepStart);
 * ```
 */
export function copyFrame(from: FrameLike, to: Frame): Frame {
  for (let k = 0; k < 3; k++) to.position[k] = from.position[k]!;
  for (let k = 0; k < 4; k++) to.quaternion[k] = from.quaternion[k]!;
  return to;
}

/**
 * Blends frame `a` (start of the latest step) towards `b` (its end) by `blend.alpha`
 * into `out`: positions linearly, orientations by normalised linear
 * interpolation along the shorter arc. Steps are 1/60 s apart, so the angle
 * between `a` and `b` is small and nlerp is indistinguishable from slerp.
 *
 * @example
 * ```ts
 * blendFrames(atStepStart, now, frame, drawn);
 * ```
 */
export function blendFrames(a: FrameLike, b: FrameLike, blend: Blend, out: Frame): Frame {
  const alpha = blend.alpha;
  if (alpha >= 1) return copyFrame(b, out);
  const pa = a.position;
  const pb = b.position;
  for (let k = 0; k < 3; k++) out.position[k] = pa[k]! + (pb[k]! - pa[k]!) * alpha;
  const qa = a.quaternion;
  const qb = b.quaternion;
  const sign = qa[0]! * qb[0]! + qa[1]! * qb[1]! + qa[2]! * qb[2]! + qa[3]! * qb[3]! < 0 ? -1 : 1;
  let len = 0;
  for (let k = 0; k < 4; k++) {
    const q = qa[k]! + (qb[k]! * sign - qa[k]!) * alpha;
    out.quaternion[k] = q;
    len += q * q;
  }
  len = Math.sqrt(len);
  for (let k = 0; k < 4; k++) out.quaternion[k] = out.quaternion[k]! / len;
  return out;
}
