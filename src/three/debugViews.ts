import { Box3, BufferAttribute, BufferGeometry, DynamicDrawUsage, LineBasicMaterial, LineSegments, Points, PointsMaterial, Sphere, Vector3 } from 'three';
import { ParticleFlag } from '../core/particles.js';
import type { World } from '../core/world.js';
import { fitBounds } from './bounds.js';
import type { Blend } from './positions.js';

/**
 * Every live particle of a world as a point (pinned ones in another colour),
 * rewritten in place each frame and packed so dead slots draw nothing. The
 * buffers grow with the world's particle capacity, never per frame otherwise.
 *
 * @example
 * ```ts
 * const points = new ParticlePoints();
 * scene.add(points.object);
 * points.update(world, frame); // every frame, frame = store.getState().frame
 * ```
 */
export class ParticlePoints {
  /** The points object; add it to the scene. */
  readonly object: Points<BufferGeometry, PointsMaterial>;
  private positions = new Float32Array(0);
  private colors = new Float32Array(0);

  constructor(
    size = 6,
    private readonly free: readonly [number, number, number] = [1, 0.85, 0.3],
    private readonly pinned: readonly [number, number, number] = [1, 0.3, 0.3],
  ) {
    this.object = new Points(new BufferGeometry(), new PointsMaterial({ size, sizeAttenuation: false, vertexColors: true, depthTest: false }));
    this.object.renderOrder = 999;
    this.object.geometry.boundingSphere = new Sphere();
  }

  /** Rewrites the points from the live particles, blended by `blend.alpha`. */
  update(world: World, blend: Blend): void {
    const alpha = blend.alpha;
    const particles = world.particles;
    if (this.positions.length < particles.capacity * 3) this.allocate(particles.capacity);
    const p = particles.position;
    const s = world.stepStartPositions;
    let n = 0;
    for (let i = 0; i < particles.end; i++) {
      const flags = particles.flags[i]!;
      if ((flags & ParticleFlag.Alive) === 0) continue;
      for (let k = 0; k < 3; k++) {
        const c = p[i * 3 + k]!;
        this.positions[n * 3 + k] = alpha >= 1 ? c : s[i * 3 + k]! + (c - s[i * 3 + k]!) * alpha;
        this.colors[n * 3 + k] = (flags & ParticleFlag.Pinned) !== 0 || particles.inverseMass[i] === 0 ? this.pinned[k]! : this.free[k]!;
      }
      n++;
    }
    const geometry = this.object.geometry;
    geometry.setDrawRange(0, n);
    geometry.attributes.position!.needsUpdate = true;
    geometry.attributes.color!.needsUpdate = true;
    fitBounds(this.positions, n, geometry.boundingSphere!, null);
  }

  /** Frees the geometry and the material. */
  dispose(): void {
    this.object.geometry.dispose();
    this.object.material.dispose();
  }

  private allocate(capacity: number): void {
    this.positions = new Float32Array(capacity * 3);
    this.colors = new Float32Array(capacity * 3);
    const geometry = this.object.geometry;
    geometry.setAttribute('position', new BufferAttribute(this.positions, 3).setUsage(DynamicDrawUsage));
    geometry.setAttribute('color', new BufferAttribute(this.colors, 3).setUsage(DynamicDrawUsage));
  }
}

/**
 * Every stick as a line coloured by strain (length − rest) / rest: green at
 * rest, shading to red when stretched and to blue when compressed, fully so at
 * ±`strainScale`. Rewritten in place each frame.
 *
 * @example
 * ```ts
 * const lines = new StickLines(0.05); // full red at 5 % stretch
 * scene.add(lines.object);
 * lines.update(world, frame);
 * ```
 */
export class StickLines {
  /** The lines object; add it to the scene. */
  readonly object: LineSegments<BufferGeometry, LineBasicMaterial>;
  private positions = new Float32Array(0);
  private colors = new Float32Array(0);

  constructor(public strainScale = 0.05) {
    this.object = new LineSegments(new BufferGeometry(), new LineBasicMaterial({ vertexColors: true, depthTest: false, transparent: true, opacity: 0.9 }));
    this.object.renderOrder = 998;
    // Every stick lies between two particles, so there is nothing to cull a debug view of them all
    // by; and fitting bounds to tens of thousands of line ends took a third of the update. Bounds
    // that hold everything keep three.js from computing its own (raycasts then test every line).
    this.object.frustumCulled = false;
    this.object.geometry.boundingSphere = new Sphere(new Vector3(), Infinity);
    this.object.geometry.boundingBox = new Box3(new Vector3(-Infinity, -Infinity, -Infinity), new Vector3(Infinity, Infinity, Infinity));
  }

  /** Rewrites the lines and their strain colours from the sticks, blended by `blend.alpha`. */
  update(world: World, blend: Blend): void {
    const alpha = blend.alpha;
    const blended = alpha < 1;
    const sticks = world.sticks;
    if (this.positions.length < sticks.capacity * 6) this.allocate(sticks.capacity);
    // Locals, not `this.` or `sticks.` loads, in the loop that runs for every stick of every frame.
    const p = world.positions;
    const s = world.stepStartPositions;
    const out = this.positions;
    const colors = this.colors;
    const ends = sticks.a;
    const others = sticks.b;
    const rests = sticks.rest;
    const scale = 1 / this.strainScale;
    const count = sticks.count;
    for (let row = 0, k = 0; row < count; row++, k += 6) {
      const a = ends[row]! * 3;
      const b = others[row]! * 3;
      let ax = p[a]!;
      let ay = p[a + 1]!;
      let az = p[a + 2]!;
      let bx = p[b]!;
      let by = p[b + 1]!;
      let bz = p[b + 2]!;
      // Strain from the latest step's positions, drawn where the frame's blend puts the ends.
      const dx = bx - ax;
      const dy = by - ay;
      const dz = bz - az;
      const rest = rests[row]!;
      const strain = rest > 0 ? (Math.sqrt(dx * dx + dy * dy + dz * dz) - rest) / rest : 0;
      if (blended) {
        ax = s[a]! + (ax - s[a]!) * alpha;
        ay = s[a + 1]! + (ay - s[a + 1]!) * alpha;
        az = s[a + 2]! + (az - s[a + 2]!) * alpha;
        bx = s[b]! + (bx - s[b]!) * alpha;
        by = s[b + 1]! + (by - s[b + 1]!) * alpha;
        bz = s[b + 2]! + (bz - s[b + 2]!) * alpha;
      }
      out[k] = ax;
      out[k + 1] = ay;
      out[k + 2] = az;
      out[k + 3] = bx;
      out[k + 4] = by;
      out[k + 5] = bz;
      // Strain in units of strainScale, clamped to [-1, 1]: blue ← green → red. Inline, so no double crosses a call.
      const t = strain * scale;
      const u = t > 1 ? 1 : t < -1 ? -1 : t;
      const r = u > 0 ? 0.25 + 0.75 * u : 0.25 * (1 + u);
      const g = 0.85 * (1 - Math.abs(u)) + 0.15;
      const blue = u < 0 ? 0.25 - 0.75 * u : 0.25 * (1 - u);
      colors[k] = colors[k + 3] = r;
      colors[k + 1] = colors[k + 4] = g;
      colors[k + 2] = colors[k + 5] = blue;
    }
    const geometry = this.object.geometry;
    geometry.setDrawRange(0, count * 2);
    geometry.attributes.position!.needsUpdate = true;
    geometry.attributes.color!.needsUpdate = true;
    // No bounds to fit: the object is never culled, and its sphere holds everything (see the constructor).
  }

  /** Frees the geometry and the material. */
  dispose(): void {
    this.object.geometry.dispose();
    this.object.material.dispose();
  }

  private allocate(capacity: number): void {
    this.positions = new Float32Array(capacity * 6);
    this.colors = new Float32Array(capacity * 6);
    const geometry = this.object.geometry;
    geometry.setAttribute('position', new BufferAttribute(this.positions, 3).setUsage(DynamicDrawUsage));
    geometry.setAttribute('color', new BufferAttribute(this.colors, 3).setUsage(DynamicDrawUsage));
  }
}
