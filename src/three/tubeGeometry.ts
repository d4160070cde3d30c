import { Box3, BufferAttribute, BufferGeometry, DynamicDrawUsage, Sphere } from 'three';
import type { World } from '../core/world.js';
import { fitBounds } from './bounds.js';
import { readRange, type Blend } from './positions.js';

/** What a {@link TubeGeometry} draws. */
export interface TubeGeometryOptions {
  /** First particle id of the chain. */
  first: number;
  /** Particles along the chain (at least 2). */
  count: number;
  /** Tube radius in m. */
  radius: number;
  /** Vertices around the tube. Default 8. */
  radialSegments?: number;
}

/**
 * A tube around a chain of particles (a rope), rebuilt in place every frame:
 * each particle gets a ring of vertices in a frame carried along the chain by
 * parallel transport, so the tube does not twist as the rope swings. Normals
 * point radially out. Allocates nothing after construction.
 *
 * @example
 * ```ts
 * const tube = new TubeGeometry({ first: rope.first, count: rope.count, radius: 0.02 });
 * mesh.geometry = tube.geometry;
 * tube.update(world, frame); // every frame, frame = store.getState().frame
 * ```
 */
export class TubeGeometry {
  /** The tube geometry to draw; `update` refills it in place. */
  readonly geometry = new BufferGeometry();
  /** Particle id of the chain's first particle. */
  readonly first: number;
  /** Particles in the chain: `first` to `first + count - 1`. */
  readonly count: number;
  /** Tube radius (m); read at every update, so it may be changed. */
  radius: number;
  private readonly radial: number;
  private readonly center: Float64Array;
  private readonly positions: Float32Array;
  private readonly normals: Float32Array;
  private readonly cos: Float64Array;
  private readonly sin: Float64Array;
  /** Centre, normal and binormal of the ring being written: typed, so no double is boxed crossing the call. */
  private readonly ring = new Float64Array(9);

  constructor({ first, count, radius, radialSegments = 8 }: TubeGeometryOptions) {
    if (!Number.isInteger(count) || count < 2) throw new RangeError(`TubeGeometry: count must be an integer >= 2, got ${count}`);
    if (!Number.isInteger(radialSegments) || radialSegments < 3) throw new RangeError(`TubeGeometry: radialSegments must be an integer >= 3, got ${radialSegments}`);
    this.first = first;
    this.count = count;
    this.radius = radius;
    this.radial = radialSegments;
    this.center = new Float64Array(count * 3);
    this.positions = new Float32Array(count * radialSegments * 3);
    this.normals = new Float32Array(count * radialSegments * 3);
    this.cos = new Float64Array(radialSegments);
    this.sin = new Float64Array(radialSegments);
    for (let j = 0; j < radialSegments; j++) {
      this.cos[j] = Math.cos((2 * Math.PI * j) / radialSegments);
      this.sin[j] = Math.sin((2 * Math.PI * j) / radialSegments);
    }
    const index = new Uint32Array((count - 1) * radialSegments * 6);
    let k = 0;
    for (let i = 0; i < count - 1; i++) {
      for (let j = 0; j < radialSegments; j++) {
        const a = i * radialSegments + j;
        const b = (i + 1) * radialSegments + j;
        const c = i * radialSegments + ((j + 1) % radialSegments);
        const d = (i + 1) * radialSegments + ((j + 1) % radialSegments);
        // Counter-clockwise seen from outside, so the faces point out.
        index.set([a, c, b, b, c, d], k);
        k += 6;
      }
    }
    this.geometry.setIndex(new BufferAttribute(index, 1));
    this.geometry.setAttribute('position', new BufferAttribute(this.positions, 3).setUsage(DynamicDrawUsage));
    this.geometry.setAttribute('normal', new BufferAttribute(this.normals, 3).setUsage(DynamicDrawUsage));
    this.geometry.boundingBox = new Box3();
    this.geometry.boundingSphere = new Sphere();
  }

  /** Rebuilds the tube around the chain's positions blended by `blend.alpha`. */
  update(world: World, blend: Blend): void {
    const c = this.center;
    const n = this.count;
    readRange(world, this.first, n, blend, c);
    // The carried frame: normal (nx, ny, nz); the binormal is tangent × normal.
    let nx = 0;
    let ny = 0;
    let nz = 0;
    let tx = 0;
    let ty = 1;
    let tz = 0;
    for (let i = 0; i < n; i++) {
      const prev = (i > 0 ? i - 1 : i) * 3;
      const next = (i < n - 1 ? i + 1 : i) * 3;
      const dx = c[next]! - c[prev]!;
      const dy = c[next + 1]! - c[prev + 1]!;
      const dz = c[next + 2]! - c[prev + 2]!;
      const len = Math.sqrt(dx * dx + dy * dy + dz * dz);
      // Coincident neighbours keep the previous tangent.
      if (len > 1e-12) {
        tx = dx / len;
        ty = dy / len;
        tz = dz / len;
      }
      // Parallel transport: remove the normal's component along the new tangent.
      let dot = nx * tx + ny * ty + nz * tz;
      let mx = nx - dot * tx;
      let my = ny - dot * ty;
      let mz = nz - dot * tz;
      let m = Math.sqrt(mx * mx + my * my + mz * mz);
      if (m < 1e-6) {
        // First ring, or the normal became parallel to the tangent: any perpendicular will do.
        const ax = Math.abs(tx) < 0.9 ? 1 : 0;
        const ay = 1 - ax;
        dot = ax * tx + ay * ty;
        mx = ax - dot * tx;
        my = ay - dot * ty;
        mz = -dot * tz;
        m = Math.sqrt(mx * mx + my * my + mz * mz);
      }
      nx = mx / m;
      ny = my / m;
      nz = mz / m;
      const bx = ty * nz - tz * ny;
      const by = tz * nx - tx * nz;
      const bz = tx * ny - ty * nx;
      const ring = this.ring;
      ring[0] = c[i * 3]!;
      ring[1] = c[i * 3 + 1]!;
      ring[2] = c[i * 3 + 2]!;
      ring[3] = nx;
      ring[4] = ny;
      ring[5] = nz;
      ring[6] = bx;
      ring[7] = by;
      ring[8] = bz;
      this.writeRing(i);
    }
    this.geometry.attributes.position!.needsUpdate = true;
    this.geometry.attributes.normal!.needsUpdate = true;
    const box = this.geometry.boundingBox!;
    fitBounds(c, n, this.geometry.boundingSphere!, box);
    this.geometry.boundingSphere!.radius += this.radius;
    box.min.subScalar(this.radius);
    box.max.addScalar(this.radius);
  }

  /** Frees the geometry. */
  dispose(): void {
    this.geometry.dispose();
  }

  /** Writes ring `i` around the centre and frame in `this.ring`. */
  private writeRing(i: number): void {
    const ring = this.ring;
    const px = ring[0]!;
    const py = ring[1]!;
    const pz = ring[2]!;
    const nx = ring[3]!;
    const ny = ring[4]!;
    const nz = ring[5]!;
    const bx = ring[6]!;
    const by = ring[7]!;
    const bz = ring[8]!;
    const r = this.radius;
    for (let j = 0; j < this.radial; j++) {
      const cs = this.cos[j]!;
      const sn = this.sin[j]!;
      const ox = cs * nx + sn * bx;
      const oy = cs * ny + sn * by;
      const oz = cs * nz + sn * bz;
      const k = (i * this.radial + j) * 3;
      this.normals[k] = ox;
      this.normals[k + 1] = oy;
      this.normals[k + 2] = oz;
      this.positions[k] = px + ox * r;
      this.positions[k + 1] = py + oy * r;
      this.positions[k + 2] = pz + oz * r;
    }
  }
}
