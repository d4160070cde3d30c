import type { RapierBodyLike, RapierColliderLike, RapierRotation, RapierVector } from './rapierTypes.js';

// Reading poses from Rapier for the bridge: what a collider's and a body's pose is
// before and after Rapier's step (a collider's own pose is stale until Rapier steps).

/** A collider's own world pose (position xyz, quaternion xyzw) into `out`: current only after Rapier's step. */
export function readColliderPose(collider: RapierColliderLike, out: Float64Array): void {
  writePose(collider.translation(), collider.rotation(), out);
}

/** A body's centre of mass in the world and its rotation (xyz, quaternion xyzw) into `out`: the pose a `CoupledBody` follows. */
export function readCentre(body: RapierBodyLike, out: Float64Array): void {
  writePose(body.worldCom(), body.rotation(), out);
}

/** Position `t` and quaternion `r` into `out` (xyz, xyzw). */
function writePose(t: RapierVector, r: RapierRotation, out: Float64Array): void {
  out[0] = t.x;
  out[1] = t.y;
  out[2] = t.z;
  out[3] = r.x;
  out[4] = r.y;
  out[5] = r.z;
  out[6] = r.w;
}

/**
 * A collider's world pose before Rapier's step into `out`, read from its body
 * when it has one: the body's pose composed with the collider's pose relative to
 * it. Rapier brings a collider's own `translation()` and `rotation()` up to date
 * only in its step, so they are stale after a body's `setTranslation` until the
 * next one: @react-three/rapier places its bodies so after making their
 * colliders (which then read (0, 0, 0) until the first step), and the bridge
 * writes sinew's yield back so every step. The body's pose is current. Within
 * float32 rounding of `last` (the pose Rapier's last step left), `last` itself:
 * Rapier composes in float32, and a collider standing still keeps still.
 */
export function readPoseBefore(collider: RapierColliderLike, out: Float64Array, last: Float64Array): void {
  const body = collider.parent();
  const local = body ? collider.translationWrtParent() : null;
  const turn = body ? collider.rotationWrtParent() : null;
  if (!body || !local || !turn) {
    readColliderPose(collider, out);
    return;
  }
  const t = body.translation();
  const q = body.rotation();
  // The body's rotation applied to the collider's offset (v + 2w(u×v) + 2u×(u×v), u the quaternion's vector part).
  const cx = 2 * (q.y * local.z - q.z * local.y);
  const cy = 2 * (q.z * local.x - q.x * local.z);
  const cz = 2 * (q.x * local.y - q.y * local.x);
  out[0] = t.x + local.x + q.w * cx + (q.y * cz - q.z * cy);
  out[1] = t.y + local.y + q.w * cy + (q.z * cx - q.x * cz);
  out[2] = t.z + local.z + q.w * cz + (q.x * cy - q.y * cx);
  // The body's rotation, then the collider's within it: q ⊗ turn.
  out[3] = q.w * turn.x + q.x * turn.w + q.y * turn.z - q.z * turn.y;
  out[4] = q.w * turn.y - q.x * turn.z + q.y * turn.w + q.z * turn.x;
  out[5] = q.w * turn.z + q.x * turn.y - q.y * turn.x + q.z * turn.w;
  out[6] = q.w * turn.w - q.x * turn.x - q.y * turn.y - q.z * turn.z;
  for (let k = 0; k < 7; k++) {
    // A few float32 ulps of the coordinate (2⁻²³ relative), at least 1e-6.
    if (!(Math.abs(out[k]! - last[k]!) <= 1e-6 * Math.max(1, Math.abs(last[k]!)))) return;
  }
  out.set(last);
}
