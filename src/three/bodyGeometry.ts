import { particleSlot } from '../core/ids.js';
import { Box3, BufferAttribute, BufferGeometry, DynamicDrawUsage, Sphere } from 'three';
import type { Surface } from '../core/bodies/body.js';
import type { World } from '../core/world.js';
import { fitBounds } from './bounds.js';
import { computeNormals } from './normals.js';
import { readRange, type Blend } from './positions.js';

/** What a {@link BodyGeometry} draws: a body's contiguous particle range, optionally triangulated. */
export interface BodyGeometryOptions {
  /** First particle id of the body. */
  first: number;
  /** Particles in the body; vertex i is particle `first + i`. */
  count: number;
  /** Triangles over particle ids (cloth, soft bodies); kept in sync when the body tears. Without it the vertices are a polyline. */
  surface?: Surface;
  /** Texture coordinates, two per vertex, copied once. */
  uvs?: ArrayLike<number>;
}

/**
 * A `BufferGeometry` whose vertices are a body's particles. `update()` copies
 * the positions into the attribute's own array (one pass, blended for
 * interpolation), follows the surface's triangles when the body tears,
 * recomputes normals and bounds, and allocates nothing.
 *
 * @example
 * ```ts
 * const cloth = createCloth(world, options);
 * const view = new BodyGeometry({ first: cloth.first, count: cloth.count, surface: cloth.surface, uvs: cloth.uvs });
 * mesh.geometry = view.geometry;
 * // every frame, after stepping:
 * view.update(world, store.getState().frame);
 * ```
 */
export class BodyGeometry {
  /** The geometry to draw (positions, plus normals and an index for a surface, uvs when given); `update` refills it in place. */
  readonly geometry = new BufferGeometry();
  /** First particle id of the range drawn. */
  readonly first: number;
  /** Particles drawn: vertex i is particle `first + i`. */
  readonly count: number;
  private readonly positions: Float32Array;
  private readonly position: BufferAttribute;
  private readonly surface: Surface | undefined;
  private normal: BufferAttribute | undefined;
  private index: BufferAttribute | undefined;
  private indexCount = -1;

  constructor({ first, count, surface, uvs }: BodyGeometryOptions) {
    this.first = first;
    this.count = count;
    this.surface = surface;
    this.positions = new Float32Array(count * 3);
    this.position = new BufferAttribute(this.positions, 3).setUsage(DynamicDrawUsage);
    this.geometry.setAttribute('position', this.position);
    if (surface) {
      this.normal = new BufferAttribute(new Float32Array(count * 3), 3).setUsage(DynamicDrawUsage);
      this.geometry.setAttribute('normal', this.normal);
    }
    if (uvs) this.geometry.setAttribute('uv', new BufferAttribute(Float32Array.from(uvs), 2));
    this.geometry.boundingBox = new Box3();
    this.geometry.boundingSphere = new Sphere();
  }

  /** Reads the body's positions back (blended by `blend.alpha`) and refreshes triangles, normals and bounds. */
  update(world: World, blend: Blend): void {
    readRange(world, this.first, this.count, blend, this.positions);
    this.position.needsUpdate = true;
    if (this.surface) {
      this.syncIndex(this.surface);
      computeNormals(this.positions, this.index!.array, this.indexCount, this.normal!.array as Float32Array, this.count);
      this.normal!.needsUpdate = true;
    }
    fitBounds(this.positions, this.count, this.geometry.boundingSphere!, this.geometry.boundingBox);
  }

  /** Frees the geometry. */
  dispose(): void {
    this.geometry.dispose();
  }

  /**
   * Copies the surface's triangles (as vertex indices) when their count changed
   * since the last copy. A surface changes only that way (tearing keeps the
   * whole triangles, in order, and drops the rest), so an unchanged count means
   * unchanged triangles, and the frame skips comparing tens of thousands of indices.
   */
  private syncIndex(surface: Surface): void {
    const n = surface.triangleCount * 3;
    if (n === this.indexCount && this.index) return;
    const triangles = surface.triangles;
    if (!this.index || this.index.array.length < triangles.length) {
      // First call, or the body grew its triangle array: the only allocation, and not per frame.
      this.index = new BufferAttribute(new Uint32Array(triangles.length), 1).setUsage(DynamicDrawUsage);
      this.geometry.setIndex(this.index);
      this.indexCount = -1;
    }
    const index = this.index.array as Uint32Array;
    // The surface holds slots.
    const first = particleSlot(this.first);
    let changed = n !== this.indexCount;
    for (let i = 0; i < n; i++) {
      const v = triangles[i]! - first;
      if (index[i] !== v) {
        index[i] = v;
        changed = true;
      }
    }
    if (!changed) return;
    this.indexCount = n;
    this.index.needsUpdate = true;
    this.geometry.setDrawRange(0, n);
  }
}
