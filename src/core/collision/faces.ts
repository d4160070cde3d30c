import type { ConstraintId, ParticleId } from '../ids.js';
import type { BodyRecord } from '../bodies/body.js';
import { BoxCollider } from '../colliders/box.js';
import { CapsuleCollider } from '../colliders/capsule.js';
import { alive, collides, makeContact, pushOut, setSurface, type Collider } from '../colliders/collider.js';
import { ObbCollider } from '../colliders/obb.js';
import { PlaneCollider } from '../colliders/plane.js';
import { SphereCollider } from '../colliders/sphere.js';
import { TriangleMeshCollider } from '../colliders/triangleMesh.js';
import type { Constraint } from '../constraints/constraint.js';
import { ConstraintTable, widen } from '../constraints/table.js';
import type { FeatureKind, WorldFeature } from '../features.js';
import type { ParticleStore } from '../particles.js';
import type { Registry } from '../registry.js';
import type { World } from '../world.js';
import { closestPointTriangle, PointTri, SegSeg } from './closestPoints.js';
import { BOUNDS, boxCorner, FEATURE, nearBox, nearCapsule, nearestAxisPoint, NORMAL, SIDE } from './faceFeatures.js';
import { addBuiltinConstraint } from '../stages.js';

/** Particle triangles that obstacles must not poke through, one row each. */
export class FaceTable extends ConstraintTable {
  a: Int32Array;
  b: Int32Array;
  c: Int32Array;

  constructor(capacity = 16) {
    super(capacity);
    this.a = new Int32Array(capacity);
    this.b = new Int32Array(capacity);
    this.c = new Int32Array(capacity);
  }

  add(id: number, a: number, b: number, c: number): number {
    const row = this.addRow(id);
    this.a[row] = a;
    this.b[row] = b;
    this.c[row] = c;
    return row;
  }

  protected growColumns(capacity: number): void {
    this.a = widen(this.a, capacity);
    this.b = widen(this.b, capacity);
    this.c = widen(this.c, capacity);
  }

  protected copyRow(from: number, to: number): void {
    this.a[to] = this.a[from]!;
    this.b[to] = this.b[from]!;
    this.c[to] = this.c[from]!;
  }
}

/**
 * The collision triangles of one world. Each relaxation pass, every feature of
 * every static collider near a triangle (a sphere's centre with its radius, the
 * nearest point of a capsule's axis with its radius, a box's corners, a mesh's
 * vertices) is kept on the side of the triangle it was on at the start of the
 * substep and outside its radius; the triangle is pushed away at the contact
 * point with barycentric weights, the paper's section 5 rule for a point inside
 * a rigid body's face.
 */
export class FaceSystem implements Constraint, WorldFeature {
  /** Triangle rows held, for `world.constraintCount`. */
  get constraintCount(): number {
    return this.table.count;
  }
  /** @param registry the world's, which issues the ids of its rows. */
  constructor(private readonly registry: Registry) {}

  readonly table = new FaceTable();
  /** Changes whenever a row is added or removed (the body-contact stage re-lists its features then). */
  version = 0;
  private rows = new Map<number, number>();
  /** Bodies whose whole surface is solid, with the triangle ids made from it and the triangle count they follow. */
  private solidSurfaces: { body: BodyRecord; ids: number[]; triangleCount: number }[] = [];
  /** Scratch, laid out as faceFeatures.ts describes. */
  private buf = new Float64Array(30);
  private segment = new Float64Array(SegSeg.Size);
  private contact = makeContact(false);

  add(world: World, idA: number, idB: number, idC: number): number {
    const a = world.checkParticle(idA, 'addCollisionTriangle: a');
    const b = world.checkParticle(idB, 'addCollisionTriangle: b');
    const c = world.checkParticle(idC, 'addCollisionTriangle: c');
    if (a === b || b === c || a === c) throw new RangeError(`addCollisionTriangle: a, b and c must differ, got ${idA}, ${idB}, ${idC}`);
    const id = this.registry.issue(this);
    this.rows.set(id, this.table.add(id, a, b, c));
    this.version++;
    return id;
  }

  remove(id: number): void {
    const row = this.rows.get(id);
    if (row === undefined) throw new RangeError(`remove: no collision triangle with id ${String(id)}`);
    this.rows.delete(id);
    this.registry.release(id);
    const moved = this.table.removeRow(row);
    if (moved >= 0) this.rows.set(moved, row);
    this.version++;
  }

  /** Makes `body`'s whole surface solid and keeps it so as the surface changes (a cloth tearing). */
  addSurface(world: World, body: BodyRecord): void {
    const surface = body.surface;
    if (!surface) throw new RangeError(`addSurfaceCollision: body ${body.id} (${body.kind}) has no surface`);
    if (this.solidSurfaces.some((s) => s.body === body)) return;
    const entry = { body, ids: [] as number[], triangleCount: -1 };
    this.solidSurfaces.push(entry);
    this.syncSurface(world, entry);
  }

  /** A removed body's surface stops being followed (its triangles go with its particles). */
  bodyRemoved(_world: World, body: BodyRecord): void {
    this.removeSurface(body);
  }

  /** Removes every triangle with a corner in `[first, end)`, before the slots can be reused. */
  particlesRemoved(_world: World, first: number, end: number): void {
    const t = this.table;
    const inside = (id: number) => id >= first && id < end;
    for (let row = t.count - 1; row >= 0; row--) if (inside(t.a[row]!) || inside(t.b[row]!) || inside(t.c[row]!)) this.remove(t.ids[row]!);
  }

  /** Takes the solidity of `body`'s surface away again. */
  removeSurface(body: BodyRecord): void {
    const k = this.solidSurfaces.findIndex((s) => s.body === body);
    if (k < 0) return;
    for (const id of this.solidSurfaces[k]!.ids) if (this.rows.has(id)) this.remove(id);
    this.solidSurfaces.splice(k, 1);
  }

  /** Re-makes a solid surface's triangles from the surface as it is now. */
  private syncSurface(world: World, entry: { body: BodyRecord; ids: number[]; triangleCount: number }): void {
    for (const id of entry.ids) if (this.rows.has(id)) this.remove(id);
    const surface = entry.body.surface!;
    entry.ids = [];
    for (let t = 0; t < surface.triangleCount; t++) entry.ids.push(this.add(world, surface.triangles[t * 3]!, surface.triangles[t * 3 + 1]!, surface.triangles[t * 3 + 2]!));
    entry.triangleCount = surface.triangleCount;
  }

  project(world: World): void {
    // A torn surface has fewer triangles: the solid ones follow (torn ones must not hold the tear shut).
    for (let k = 0; k < this.solidSurfaces.length; k++) {
      const entry = this.solidSurfaces[k]!;
      if (entry.body.surface!.triangleCount !== entry.triangleCount) this.syncSurface(world, entry);
    }
    const particles = world.particles;
    const colliders = world.colliders;
    // Only spheres, capsules, boxes and meshes have features to keep out (a plane has none; other
    // bodies meet these triangles in bodyContacts.ts): without one, there is nothing to do.
    let featured = false;
    for (let k = 0; k < colliders.length; k++) if (!(colliders[k] instanceof PlaneCollider)) featured = true;
    if (!featured) return;
    const t = this.table;
    for (let row = 0; row < t.count; row++) {
      const a = t.a[row]!;
      const b = t.b[row]!;
      const c = t.c[row]!;
      if (!alive(particles, a) || !alive(particles, b) || !alive(particles, c)) continue;
      if (!(collides(particles, a) || collides(particles, b) || collides(particles, c))) continue;
      this.fitBounds(particles, row);
      for (let k = 0; k < colliders.length; k++) this.collide(particles, row, colliders[k]!);
    }
  }

  /** Every feature of collider `c` near triangle `row`. */
  private collide(particles: ParticleStore, row: number, c: Collider): void {
    const buf = this.buf;
    if (c instanceof SphereCollider) {
      if (c.inside) return;
      for (let k = 0; k < 3; k++) buf[FEATURE + k] = c.center[k]!;
      buf[FEATURE + 3] = c.radius;
      this.feature(particles, row, c);
    } else if (c instanceof CapsuleCollider) {
      if (!nearCapsule(buf, c)) return;
      this.loadTriangle(particles.position, row);
      if (nearestAxisPoint(buf, this.segment, c)) this.feature(particles, row, c);
    } else if (c instanceof ObbCollider || (c instanceof BoxCollider && !c.inside)) {
      if (!nearBox(buf, c)) return;
      for (let corner = 0; corner < 8; corner++) {
        boxCorner(buf, c, corner);
        this.feature(particles, row, c);
      }
    } else if (c instanceof TriangleMeshCollider) {
      const box = c.vertexBvh.queryBox;
      for (let k = 0; k < 6; k++) box[k] = buf[BOUNDS + k]!;
      const n = c.vertexBvh.query(c.vertexCandidates);
      for (let i = 0; i < n; i++) {
        const v = c.vertexCandidates[i]! * 3;
        for (let k = 0; k < 3; k++) buf[FEATURE + k] = c.vertices[v + k]!;
        buf[FEATURE + 3] = 0;
        this.feature(particles, row, c);
      }
    }
  }

  /**
   * The feature in the scratch (point and radius) against triangle `row`: if it
   * is closer than its radius, or has crossed to the other side since the
   * substep began, the triangle is pushed away from it.
   */
  private feature(particles: ParticleStore, row: number, c: Collider): void {
    const buf = this.buf;
    const radius = buf[FEATURE + 3]!;
    for (let k = 0; k < 3; k++) {
      if (buf[FEATURE + k]! + radius < buf[BOUNDS + k]! || buf[FEATURE + k]! - radius > buf[BOUNDS + 3 + k]!) return;
    }
    const a = this.table.a[row]!;
    const b = this.table.b[row]!;
    const cc = this.table.c[row]!;
    if (!this.orient(particles, row)) return;
    for (let k = 0; k < 3; k++) buf[PointTri.P + k] = buf[FEATURE + k]!;
    closestPointTriangle(buf);
    const u = buf[PointTri.U]!;
    const v = buf[PointTri.V]!;
    const w = buf[PointTri.W]!;
    const nx = buf[NORMAL]!;
    const ny = buf[NORMAL + 1]!;
    const nz = buf[NORMAL + 2]!;
    const side = buf[SIDE]!;
    const contact = this.contact;
    if (buf[PointTri.Interior] === 1) {
      const s = side * (nx * (buf[FEATURE]! - buf[3]!) + ny * (buf[FEATURE + 1]! - buf[4]!) + nz * (buf[FEATURE + 2]! - buf[5]!));
      if (s >= radius) return;
      contact[0] = -side * nx;
      contact[1] = -side * ny;
      contact[2] = -side * nz;
      contact[3] = radius - s;
    } else {
      if (radius === 0) return;
      const dx = u * buf[3]! + v * buf[6]! + w * buf[9]! - buf[FEATURE]!;
      const dy = u * buf[4]! + v * buf[7]! + w * buf[10]! - buf[FEATURE + 1]!;
      const dz = u * buf[5]! + v * buf[8]! + w * buf[11]! - buf[FEATURE + 2]!;
      const d2 = dx * dx + dy * dy + dz * dz;
      if (d2 >= radius * radius || d2 === 0) return;
      const d = Math.sqrt(d2);
      contact[0] = dx / d;
      contact[1] = dy / d;
      contact[2] = dz / d;
      contact[3] = radius - d;
    }
    setSurface(contact, c);
    // Section 5 with barycentric weights: x_i += w_i·b_i·Δ / Σ w_j·b_j².
    const wa = collides(particles, a) ? particles.inverseMass[a]! : 0;
    const wb = collides(particles, b) ? particles.inverseMass[b]! : 0;
    const wc = collides(particles, cc) ? particles.inverseMass[cc]! : 0;
    const denominator = wa * u * u + wb * v * v + wc * w * w;
    if (denominator === 0) return;
    const depth = contact[3]! / denominator;
    // Each corner's share goes through pushOut (so friction sees it); written
    // into the contact rather than passed, so no double crosses a call.
    contact[3] = wa * u * depth;
    if (contact[3]! > 0) pushOut(particles, a, contact);
    contact[3] = wb * v * depth;
    if (contact[3]! > 0) pushOut(particles, b, contact);
    contact[3] = wc * w * depth;
    if (contact[3]! > 0) pushOut(particles, cc, contact);
  }

  /**
   * Loads the triangle into the point–triangle query, its unit normal into
   * NORMAL and into SIDE the side (±1) the feature was on at the start of the
   * substep, judged from the particles' previous positions. False if degenerate.
   */
  private orient(particles: ParticleStore, row: number): boolean {
    const a = this.table.a[row]!;
    const b = this.table.b[row]!;
    const c = this.table.c[row]!;
    const buf = this.buf;
    const prev = particles.previous;
    this.loadTriangle(particles.position, row);
    let nx = (buf[7]! - buf[4]!) * (buf[11]! - buf[5]!) - (buf[8]! - buf[5]!) * (buf[10]! - buf[4]!);
    let ny = (buf[8]! - buf[5]!) * (buf[9]! - buf[3]!) - (buf[6]! - buf[3]!) * (buf[11]! - buf[5]!);
    let nz = (buf[6]! - buf[3]!) * (buf[10]! - buf[4]!) - (buf[7]! - buf[4]!) * (buf[9]! - buf[3]!);
    const length = Math.sqrt(nx * nx + ny * ny + nz * nz);
    if (length === 0) return false;
    nx /= length;
    ny /= length;
    nz /= length;
    buf[NORMAL] = nx;
    buf[NORMAL + 1] = ny;
    buf[NORMAL + 2] = nz;
    const pa = a * 3;
    const pb = b * 3;
    const pc = c * 3;
    const ex = prev[pb]! - prev[pa]!;
    const ey = prev[pb + 1]! - prev[pa + 1]!;
    const ez = prev[pb + 2]! - prev[pa + 2]!;
    const fx = prev[pc]! - prev[pa]!;
    const fy = prev[pc + 1]! - prev[pa + 1]!;
    const fz = prev[pc + 2]! - prev[pa + 2]!;
    const sPrev = (ey * fz - ez * fy) * (buf[FEATURE]! - prev[pa]!) + (ez * fx - ex * fz) * (buf[FEATURE + 1]! - prev[pa + 1]!) + (ex * fy - ey * fx) * (buf[FEATURE + 2]! - prev[pa + 2]!);
    buf[SIDE] = sPrev >= 0 ? 1 : -1;
    return true;
  }

  /** Bounds of the triangle swept over the substep (previous and current corners): a feature it passed counts. */
  private fitBounds(particles: ParticleStore, row: number): void {
    const pos = particles.position;
    const prev = particles.previous;
    const buf = this.buf;
    const a = this.table.a[row]! * 3;
    const b = this.table.b[row]! * 3;
    const c = this.table.c[row]! * 3;
    // Compares written out: Math.min of six arguments cost most of a pass over a solid 30² cloth.
    for (let k = 0; k < 3; k++) {
      const x0 = pos[a + k]!;
      const x1 = pos[b + k]!;
      const x2 = pos[c + k]!;
      const x3 = prev[a + k]!;
      const x4 = prev[b + k]!;
      const x5 = prev[c + k]!;
      const l0 = x0 < x1 ? x0 : x1;
      const l1 = x2 < x3 ? x2 : x3;
      const l2 = x4 < x5 ? x4 : x5;
      const h0 = x0 > x1 ? x0 : x1;
      const h1 = x2 > x3 ? x2 : x3;
      const h2 = x4 > x5 ? x4 : x5;
      const low = l0 < l1 ? l0 : l1;
      const high = h0 > h1 ? h0 : h1;
      buf[BOUNDS + k] = low < l2 ? low : l2;
      buf[BOUNDS + 3 + k] = high > h2 ? high : h2;
    }
  }

  /** Loads triangle `row`'s current corners into the point–triangle query. */
  private loadTriangle(pos: Float64Array, row: number): void {
    const buf = this.buf;
    const a = this.table.a[row]! * 3;
    const b = this.table.b[row]! * 3;
    const c = this.table.c[row]! * 3;
    for (let k = 0; k < 3; k++) {
      buf[3 + k] = pos[a + k]!;
      buf[6 + k] = pos[b + k]!;
      buf[9 + k] = pos[c + k]!;
    }
  }
}

/** The world's collision triangles as a feature of it (see `World.features`). */
export const FACES: FeatureKind<FaceSystem> = {
  name: 'collisionTriangles',
  create: (world) => {
    const system = new FaceSystem(world.registry);
    addBuiltinConstraint(world, 'collisionTriangles', system);
    return system;
  },
};

/** The collision triangles of `world`, created (and added to its relaxation loop) on first use. */
export function faceSystem(world: World): FaceSystem {
  return world.features.of(FACES);
}

/** The collision triangles of `world` if it has any (without creating the system). */
export function existingFaceSystem(world: World): FaceSystem | undefined {
  return world.features.get(FACES);
}

/**
 * Makes the particle triangle (a, b, c) solid to static colliders: a sphere,
 * a capsule, a box corner or a mesh vertex poking through it pushes the
 * triangle away with barycentric weights (the paper's section 5 for a
 * penetration point inside a face), shared by inverse mass, with friction.
 * Either side of the triangle works; an obstacle stays on the side it started
 * on. Returns an id that `world.remove` takes.
 *
 * @example
 * ```ts
 * // the bottom face of a rigid box resting on a mesh spike
 * addCollisionTriangle(world, corner0, corner1, corner2);
 * ```
 */
export function addCollisionTriangle(world: World, a: ParticleId, b: ParticleId, c: ParticleId): ConstraintId {
  return faceSystem(world).add(world, a, b, c);
}

/**
 * Makes every triangle of `body.surface` (a cloth, a soft body) a collision
 * triangle, and keeps them in step with the surface: when a cloth tears, the torn
 * triangles stop colliding. Undo with `remove()` on what it returns (or
 * `world.remove` of it); the body's removal undoes it too. A surface is solid or
 * not: adding it twice makes it no more solid, and either handle takes it back.
 *
 * @example
 * ```ts
 * const cloth = createCloth(world, { width: 20, height: 20, orientation: 'horizontal', tearStrain: 0.5 });
 * addSurfaceCollision(world, cloth.body); // box corners cannot poke through between particles
 * ```
 */
export function addSurfaceCollision(world: World, body: BodyRecord): SurfaceCollision {
  const system = faceSystem(world);
  system.addSurface(world, body);
  return { remove: () => system.removeSurface(body) };
}

/** What {@link addSurfaceCollision} returns. */
export interface SurfaceCollision {
  /** Takes the solidity back: only the particles of the body collide again. Harmless when already taken back. */
  remove(): void;
}
