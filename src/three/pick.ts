import { Matrix4, type Camera } from 'three';
import { ParticleFlag } from '../core/particles.js';
import type { World } from '../core/world.js';

/** Where the pointer is and how near it must be, for {@link pickParticle}. */
export interface PickQuery {
  /** Pointer x in normalised device coordinates, in [-1, 1] (+1 at the right). */
  x: number;
  /** Pointer y in normalised device coordinates, in [-1, 1] (+1 at the top). */
  y: number;
  /** Width of the drawing area in CSS pixels. */
  width: number;
  /** Height of the drawing area in CSS pixels. */
  height: number;
  /** How far from the pointer a particle's drawn edge may be, in pixels. */
  radius: number;
  /** Extra test a particle must pass (e.g. "belongs to a draggable body"). */
  filter?: (id: number) => boolean;
}

const viewProjection = new Matrix4();

/**
 * The particle under the pointer: each live particle that can move on its own
 * (immovable ones are scenery) is projected to the screen; among those whose
 * drawn disc (radius included) comes within `query.radius` pixels of the
 * pointer, the nearest to it wins, and when two are within 2 pixels of each
 * other the one nearer the camera. Returns -1 when none qualifies. One pass
 * over the particles, no allocation: cheap enough to run on every pointerdown.
 *
 * @example
 * ```ts
 * const id = pickParticle(world, camera, { x: ndc.x, y: ndc.y, width: size.width, height: size.height, radius: 24 });
 * ```
 */
export function pickParticle(world: World, camera: Camera, query: PickQuery): number {
  camera.updateMatrixWorld();
  const m = viewProjection.multiplyMatrices(camera.projectionMatrix, camera.matrixWorldInverse).elements;
  const particles = world.particles;
  const pos = particles.position;
  const halfW = query.width / 2;
  const halfH = query.height / 2;
  // Pixels per metre at unit clip depth, to size each particle's disc.
  const scale = camera.projectionMatrix.elements[5]! * halfH;
  let best = -1;
  let bestDistance = Infinity;
  let bestDepth = Infinity;
  for (let i = 0; i < particles.end; i++) {
    if ((particles.flags[i]! & ParticleFlag.Alive) === 0 || particles.freeInverseMass[i] === 0) continue;
    const x = pos[i * 3]!;
    const y = pos[i * 3 + 1]!;
    const z = pos[i * 3 + 2]!;
    const w = m[3]! * x + m[7]! * y + m[11]! * z + m[15]!;
    if (w <= 0) continue;
    const sx = ((m[0]! * x + m[4]! * y + m[8]! * z + m[12]!) / w - query.x) * halfW;
    const sy = ((m[1]! * x + m[5]! * y + m[9]! * z + m[13]!) / w - query.y) * halfH;
    const depth = (m[2]! * x + m[6]! * y + m[10]! * z + m[14]!) / w;
    const distance = Math.max(0, Math.sqrt(sx * sx + sy * sy) - (particles.radius[i]! * scale) / w);
    if (distance > query.radius) continue;
    const better = distance < bestDistance - 2 || (distance <= bestDistance + 2 && depth < bestDepth);
    if (!better || (query.filter && !query.filter(particles.idOf(i)))) continue;
    best = i;
    bestDistance = distance;
    bestDepth = depth;
  }
  // The loop walks slots; the caller gets the particle's id.
  return best < 0 ? -1 : particles.idOf(best);
}
