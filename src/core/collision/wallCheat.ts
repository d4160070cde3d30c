import { pushOut, setSurface, type Collider, type Contact } from '../colliders/collider.js';
import type { ParticleStore } from '../particles.js';
import { Cast, castLineAll } from './lineCast.js';

/** Scratch slots of the cast buffer used here, past what the casts write. */
const MOVE = Cast.Scratch; // 3: the far end's move

/**
 * The paper's collision "cheat" for dead bodies (section 7): "if a fast moving
 * limb ends up being placed with the ends of the capped cylinder on each side of
 * a wall, the cylinder is projected to the side of the wall where the cylinder is
 * connected to the torso."
 *
 * A line is cast from the anchored end (toward the torso) to the other end; if
 * it enters an obstacle, the other end is beyond that surface. It is brought
 * back to the anchor's side, `radius` in front of the plane it entered, at the
 * limb's rest length: the limb folds flat against the wall, on the side of the
 * line it already leans to. Pushing the end straight out instead would
 * shorten the limb and its stick would shove it back through, and the torso
 * away. If the end was already behind the wall when the substep began (stuck,
 * not passing), it is moved without gaining velocity; otherwise the move is a
 * projection like any other (restitution zero, friction through pushOut).
 *
 * `cast` is scratch; the radius and the rest length are read from its
 * `Cast.User` and `Cast.User + 1` slots so that no double crosses the call.
 * Returns true when it moved the end.
 */
export function projectToAnchorSide(particles: ParticleStore, colliders: readonly Collider[], anchor: number, other: number, cast: Float64Array, contact: Contact): boolean {
  const radius = cast[Cast.User]!;
  const pos = particles.position;
  const a = anchor * 3;
  const b = other * 3;
  for (let k = 0; k < 3; k++) {
    cast[k] = pos[a + k]!;
    cast[3 + k] = pos[b + k]!;
  }
  if (!castLineAll(colliders, cast)) return false;
  const t = cast[Cast.T]!;
  const nx = cast[Cast.Normal]!;
  const ny = cast[Cast.Normal + 1]!;
  const nz = cast[Cast.Normal + 2]!;
  const dx = cast[3]! - cast[0]!;
  const dy = cast[4]! - cast[1]!;
  const dz = cast[5]! - cast[2]!;
  const length = cast[Cast.User + 1]!;
  const along = nx * dx + ny * dy + nz * dz; // < 0: the limb points into the wall
  // The anchor's height over the plane it must end up on (the entered plane pushed out by the radius).
  const height = -t * along - radius;
  // The limb's lean along the wall; straight in, any direction across the normal.
  let ux = dx - nx * along;
  let uy = dy - ny * along;
  let uz = dz - nz * along;
  let u = Math.sqrt(ux * ux + uy * uy + uz * uz);
  if (u < 1e-12 * (1 + Math.abs(along))) {
    const useX = Math.abs(nx) <= Math.abs(ny) && Math.abs(nx) <= Math.abs(nz);
    ux = useX ? 0 : -ny;
    uy = useX ? -nz : nx;
    uz = useX ? ny : 0;
    u = Math.sqrt(ux * ux + uy * uy + uz * uz);
  }
  const reach = length * length > height * height ? Math.sqrt(length * length - height * height) / u : 0;
  // New far end: the anchor's foot on that plane plus the lean, scaled to keep the length.
  cast[MOVE] = cast[0]! - nx * height + ux * reach - cast[3]!;
  cast[MOVE + 1] = cast[1]! - ny * height + uy * reach - cast[4]!;
  cast[MOVE + 2] = cast[2]! - nz * height + uz * reach - cast[5]!;
  const normal = nx * cast[MOVE]! + ny * cast[MOVE + 1]! + nz * cast[MOVE + 2]!;
  const prev = particles.previous;
  // Behind the entered plane already at the substep start: stuck, so no velocity from the fix.
  const hx = cast[0]! + dx * t;
  const hy = cast[1]! + dy * t;
  const hz = cast[2]! + dz * t;
  const stuck = nx * (prev[b]! - hx) + ny * (prev[b + 1]! - hy) + nz * (prev[b + 2]! - hz) < 0;
  for (let k = 0; k < 3; k++) {
    const tangential = cast[MOVE + k]! - cast[Cast.Normal + k]! * normal;
    pos[b + k] = pos[b + k]! + tangential;
    if (stuck) prev[b + k] = prev[b + k]! + cast[MOVE + k]!;
  }
  contact[0] = nx;
  contact[1] = ny;
  contact[2] = nz;
  contact[3] = normal;
  setSurface(contact, colliders[cast[Cast.Hit]!]!);
  pushOut(particles, other, contact);
  return true;
}
