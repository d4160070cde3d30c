import { particleSlot } from '../ids.js';
import type { ConstraintId, ParticleId } from '../ids.js';
import type { BodyRecord } from '../bodies/body.js';
import { BoxCollider } from '../colliders/box.js';
import { CapsuleCollider } from '../colliders/capsule.js';
import { alive, collides, makeContact, type Collider } from '../colliders/collider.js';
import { ObbCollider } from '../colliders/obb.js';
import { PlaneCollider } from '../colliders/plane.js';
import { SphereCollider } from '../colliders/sphere.js';
import { TriangleMeshCollider } from '../colliders/triangleMesh.js';
import type { Constraint } from '../constraints/constraint.js';
import type { FeatureKind, WorldFeature } from '../features.js';
import { checkNumber } from '../math.js';
import type { ParticleStore } from '../particles.js';
import type { Registry } from '../registry.js';
import type { World } from '../world.js';
import { bodyContacts } from './bodyContacts.js';
import { capsuleTests } from './bodyContactTests.js';
import { Cast, makeLineCast } from './lineCast.js';
import { Seg, segmentVsBox, segmentVsCapsule, segmentVsObb, segmentVsPlane, segmentVsSphere, segmentVsTriangle } from './segmentContact.js';
import { projectToAnchorSide } from './wallCheat.js';
import { EdgePush } from './edgePush.js';
import { EdgeTable } from './edgeTable.js';
import { addBuiltinConstraint } from '../stages.js';

export { EdgeTable } from './edgeTable.js';

/** What {@link addCapsuleEdge} takes besides the particles and the radius. */
export interface CapsuleEdgeOptions {
  /**
   * The end attached to the torso (`a` or `b`). When the edge ends up with its
   * ends on both sides of a wall, the other end is projected back to this end's
   * side (the paper's cheat for fast limbs). `protectFromTunnelling` with a
   * `torsoParticle` sets it for a ragdoll's edges.
   */
  anchor?: number;
  /** The limb's length, kept when the wall cheat folds it; default the particles' current distance. */
  length?: number;
}

/** Per body with a torso: stick hops from the torso for each of its particles. */
interface TorsoRecord {
  first: number;
  count: number;
  hops: Int32Array;
}

/**
 * The capsule edges of one world, projected once per relaxation pass (it is a
 * user constraint of the world, so it runs after the sticks).
 */
export class EdgeSystem implements Constraint, WorldFeature {
  /** Capsule rows held, for `world.constraintCount`. */
  get constraintCount(): number {
    return this.table.count;
  }
  /** @param registry the world's, which issues the ids of its rows. */
  constructor(private readonly registry: Registry) {}

  readonly table = new EdgeTable();
  /** Changes whenever a row is added or removed (the body-contact stage re-lists its features then). */
  version = 0;
  private rows = new Map<number, number>();
  private torsos: TorsoRecord[] = [];
  /** Pushes an edge out of a contact, with the segment query it reads. */
  private readonly push = new EdgePush();
  private readonly query = this.push.query;
  /** Stretch contacts held while a mesh's triangles are seen: per plane its normal, offset and the stretch's ends (see collide). */
  private readonly planes = new Float64Array(PLANES * 6);
  /** The candidates (indices into a mesh's candidate list) that gave point contacts, seen again after the stretches. */
  private readonly points = new Int32Array(64);
  private cast = makeLineCast();
  private contact = makeContact(false);

  add(world: World, idA: number, idB: number, radius: number, options: CapsuleEdgeOptions): number {
    const a = world.checkParticle(idA, 'addCapsuleEdge: a');
    const b = world.checkParticle(idB, 'addCapsuleEdge: b');
    if (a === b) throw new RangeError(`addCapsuleEdge: a and b must differ, both are particle ${idA}`);
    checkNumber(radius, 'addCapsuleEdge: radius', 0);
    const anchor = options.anchor === idA ? a : options.anchor === idB ? b : options.anchor;
    if (anchor !== undefined && anchor !== a && anchor !== b) throw new RangeError(`addCapsuleEdge: anchor must be a (${idA}) or b (${idB}), got ${String(anchor)}`);
    const pa = world.getPosition(idA);
    const pb = world.getPosition(idB);
    const length = checkNumber(options.length ?? Math.hypot(pb[0] - pa[0], pb[1] - pa[1], pb[2] - pa[2]), 'addCapsuleEdge: length', 0);
    const id = this.registry.issue(this);
    const row = this.table.add(id, a, b, radius, length, anchor ?? -1, anchor !== undefined);
    this.rows.set(id, row);
    this.version++;
    for (const torso of this.torsos) this.deriveAnchor(row, torso);
    return id;
  }

  /** The largest radius (m) of the capsule edges that end at the particle in `slot`, or 0. */
  largestRadiusAt(slot: number): number {
    const t = this.table;
    let largest = 0;
    for (let row = 0; row < t.count; row++) if ((t.a[row] === slot || t.b[row] === slot) && t.radius[row]! > largest) largest = t.radius[row]!;
    return largest;
  }

  /** Radius (m) of capsule edge `id`. */
  radiusOf(id: number): number {
    const row = this.rows.get(id);
    if (row === undefined) throw new RangeError(`radiusOf: no capsule edge with id ${String(id)}`);
    return this.table.radius[row]!;
  }

  /** Sets the radius (m) of capsule edge `id` (see {@link setCapsuleEdgeRadius}). */
  setRadius(id: number, radius: number): void {
    const row = this.rows.get(id);
    if (row === undefined) throw new RangeError(`setCapsuleEdgeRadius: no capsule edge with id ${String(id)}`);
    this.table.radius[row] = checkNumber(radius, 'setCapsuleEdgeRadius: radius', 0);
  }

  remove(id: number): void {
    const row = this.rows.get(id);
    if (row === undefined) throw new RangeError(`remove: no capsule edge with id ${String(id)}`);
    this.rows.delete(id);
    this.registry.release(id);
    const moved = this.table.removeRow(row);
    if (moved >= 0) this.rows.set(moved, row);
    this.version++;
  }

  /** Removes every edge with an end in `[first, end)` (a removed particle's or body's), before the slots can be reused; a torso there is forgotten. */
  particlesRemoved(_world: World, first: number, end: number): void {
    const t = this.table;
    for (let row = t.count - 1; row >= 0; row--) {
      const a = t.a[row]!;
      const b = t.b[row]!;
      if ((a >= first && a < end) || (b >= first && b < end)) this.remove(t.ids[row]!);
    }
    for (let k = this.torsos.length - 1; k >= 0; k--) if (this.torsos[k]!.first >= first && this.torsos[k]!.first < end) this.torsos.splice(k, 1);
  }

  /** Anchors the edges inside a body at the end fewer sticks away from its torso. */
  setTorso(first: number, count: number, hops: Int32Array): void {
    this.clearTorso(first);
    const torso = { first, count, hops };
    this.torsos.push(torso);
    for (let row = 0; row < this.table.count; row++) this.deriveAnchor(row, torso);
  }

  /** Forgets the torso of the body starting at `first` and the anchors it set. */
  clearTorso(first: number): void {
    const i = this.torsos.findIndex((t) => t.first === first);
    if (i < 0) return;
    const torso = this.torsos[i]!;
    this.torsos.splice(i, 1);
    const t = this.table;
    for (let row = 0; row < t.count; row++) {
      if (t.explicitAnchor[row] === 0 && inRange(t.a[row]!, torso) && inRange(t.b[row]!, torso)) t.anchor[row] = -1;
    }
  }

  project(world: World): void {
    for (let row = 0; row < this.table.count; row++) this.projectRow(world, row);
  }

  /** One pass over `rows[0..count)` only (a body's own capsules, for its extra passes: see `OwnPasses`). */
  projectRows(world: World, rows: Int32Array, count: number): void {
    for (let i = 0; i < count; i++) this.projectRow(world, rows[i]!);
  }

  private projectRow(world: World, row: number): void {
    const t = this.table;
    const particles = world.particles;
    const colliders = world.colliders;
    const a = t.a[row]!;
    const b = t.b[row]!;
    if (!(collides(particles, a) || collides(particles, b)) || !alive(particles, a) || !alive(particles, b)) return;
    const anchor = t.anchor[row]!;
    if (anchor >= 0) {
      const other = anchor === a ? b : a;
      this.cast[Cast.User] = Math.max(t.radius[row]!, particles.radius[other]!);
      this.cast[Cast.User + 1] = t.length[row]!;
      if (collides(particles, other)) projectToAnchorSide(particles, colliders, anchor, other, this.cast, this.contact);
    }
    for (let c = 0; c < colliders.length; c++) this.collide(particles, row, colliders[c]!);
  }

  /** One edge against one collider. */
  private collide(particles: ParticleStore, row: number, c: Collider): void {
    const q = this.query;
    const a = this.table.a[row]!;
    const b = this.table.b[row]!;
    this.load(particles, row);
    if (c instanceof TriangleMeshCollider) {
      const r = q[6]!;
      const box = c.bvh.queryBox;
      for (let k = 0; k < 3; k++) {
        box[k] = (q[k]! < q[3 + k]! ? q[k]! : q[3 + k]!) - r;
        box[3 + k] = (q[k]! > q[3 + k]! ? q[k]! : q[3 + k]!) + r;
      }
      const n = c.bvh.query(c.candidates);
      // Stretches over faces first, then the point contacts (rims, a segment's
      // end dipping into a face) as the segment lies after them. The stretches
      // over coplanar triangles (the two of a quad tread) are one contact, whose
      // ends are the outermost of theirs: the depth along the segment is linear,
      // so holding those two out holds the rest. Each triangle's stretch on its
      // own, the first lifted an end the second then pivoted about, and the step
      // nose's rim pushed before the tread did the same; the body lying there
      // chattered as with one point.
      const planes = this.planes;
      const points = this.points;
      let held = 0;
      let pointCount = 0;
      for (let i = 0; i < n; i++) {
        this.load(particles, row);
        const t = c.candidates[i]!;
        if (!segmentVsTriangle(c, t, q)) continue;
        if (q[Seg.Stretch] !== 1) {
          // Seen again below, after the stretches; past the list's room all candidates are.
          if (pointCount < points.length) points[pointCount] = i;
          pointCount++;
          continue;
        }
        const v0 = c.indices[t * 3]! * 3;
        const offset = q[8]! * c.vertices[v0]! + q[9]! * c.vertices[v0 + 1]! + q[10]! * c.vertices[v0 + 2]!;
        let k = 0;
        while (k < held && !samePlane(planes, k * 6, q, offset)) k++;
        if (k < held) {
          if (q[Seg.Lo]! < planes[k * 6 + 4]!) planes[k * 6 + 4] = q[Seg.Lo]!;
          if (q[Seg.Hi]! > planes[k * 6 + 5]!) planes[k * 6 + 5] = q[Seg.Hi]!;
        } else if (held < PLANES) {
          const o = held * 6;
          planes[o] = q[8]!;
          planes[o + 1] = q[9]!;
          planes[o + 2] = q[10]!;
          planes[o + 3] = offset;
          planes[o + 4] = q[Seg.Lo]!;
          planes[o + 5] = q[Seg.Hi]!;
          held++;
        } else this.push.share(particles, a, b, c);
      }
      for (let k = 0; k < held; k++) {
        this.load(particles, row);
        if (this.push.stretchOn(this.planes, k * 6)) this.push.share(particles, a, b, c);
      }
      const all = pointCount > points.length;
      const count = all ? n : pointCount;
      for (let k = 0; k < count; k++) {
        this.load(particles, row);
        if (segmentVsTriangle(c, c.candidates[all ? k : points[k]!]!, q) && q[Seg.Stretch] !== 1) this.push.share(particles, a, b, c);
      }
      return;
    }
    let hit = false;
    if (c instanceof PlaneCollider) hit = segmentVsPlane(c, q);
    else if (c instanceof SphereCollider) hit = segmentVsSphere(c, q);
    else if (c instanceof CapsuleCollider) hit = segmentVsCapsule(c, q);
    else if (c instanceof ObbCollider) hit = segmentVsObb(c, q);
    else if (c instanceof BoxCollider) hit = segmentVsBox(c, q);
    if (hit) this.push.share(particles, a, b, c);
  }

  private load(particles: ParticleStore, row: number): void {
    const q = this.query;
    const pos = particles.position;
    const a = this.table.a[row]! * 3;
    const b = this.table.b[row]! * 3;
    for (let k = 0; k < 3; k++) {
      q[k] = pos[a + k]!;
      q[3 + k] = pos[b + k]!;
    }
    q[6] = this.table.radius[row]!;
    // A level contact touches under the mass centre: t = w_a / (w_a + w_b).
    const wa = particles.inverseMass[this.table.a[row]!]!;
    const wb = particles.inverseMass[this.table.b[row]!]!;
    q[Seg.Prefer] = wa + wb > 0 ? wa / (wa + wb) : 0.5;
    q[Seg.Stretch] = 0;
  }

  private deriveAnchor(row: number, torso: TorsoRecord): void {
    const t = this.table;
    const a = t.a[row]!;
    const b = t.b[row]!;
    if (t.explicitAnchor[row] === 1 || !inRange(a, torso) || !inRange(b, torso)) return;
    const ha = torso.hops[a - torso.first]!;
    const hb = torso.hops[b - torso.first]!;
    // Unreached ends (-1) or a tie (e.g. shoulder to shoulder) give no anchor.
    t.anchor[row] = ha < 0 || hb < 0 || ha === hb ? -1 : ha < hb ? a : b;
  }
}

/** Most face planes whose stretches one edge holds against one mesh at a time; a stretch over a further plane is pushed out on its own. */
const PLANES = 4;

/** True if the plane at `planes[o..o + 4)` is the query's face (normal `q[8..11)`, `offset`), to round-off. */
function samePlane(planes: Float64Array, o: number, q: Float64Array, offset: number): boolean {
  const e = 1e-9;
  return Math.abs(planes[o]! - q[8]!) < e && Math.abs(planes[o + 1]! - q[9]!) < e && Math.abs(planes[o + 2]! - q[10]!) < e && Math.abs(planes[o + 3]! - offset) < e;
}

function inRange(id: number, torso: TorsoRecord): boolean {
  return id >= torso.first && id < torso.first + torso.count;
}

/** The world's capsule edges as a feature of it (see `World.features`). */
export const EDGES: FeatureKind<EdgeSystem> = {
  name: 'capsuleEdges',
  create: (world) => {
    const system = new EdgeSystem(world.registry);
    addBuiltinConstraint(world, 'capsuleEdges', system);
    // Capsule edges collide with other bodies: the body-contact stage starts with the first.
    bodyContacts(world).addCapsuleTests(capsuleTests);
    return system;
  },
};

/** The edge system of `world`, created (and added to its relaxation loop) on first use. */
export function edgeSystem(world: World): EdgeSystem {
  return world.features.of(EDGES);
}

/** The edge system of `world` if it has one (without creating it). */
export function existingEdgeSystem(world: World): EdgeSystem | undefined {
  return world.features.get(EDGES);
}

/**
 * How far the particle in `slot` reaches into colliders: its own radius, or the radius of
 * the widest capsule edge at it (a ragdoll's knee reaches as far as its thigh).
 */
export function collisionReach(world: World, slot: number): number {
  const edges = world.features.get(EDGES);
  const own = world.particles.radius[slot]!;
  return edges === undefined ? own : Math.max(own, edges.largestRadiusAt(slot));
}

/**
 * Makes the stick between particles `a` and `b` a capsule of `radius` (the
 * paper's capped cylinder, section 6) that collides with every static collider:
 * plane, sphere, box, capsule, oriented box and triangle mesh. A penetration
 * between the ends is pushed out with the paper's section 5 weights, shared by
 * inverse mass, with friction at both ends. The edge does not keep a distance
 * itself: add a stick for that. Returns an id that `world.remove` takes.
 * The edge goes when either particle (or its body) is removed.
 *
 * @example
 * ```ts
 * const shin = world.addStick(knee, ankle);
 * addCapsuleEdge(world, knee, ankle, 0.06, { anchor: knee }); // the knee is nearer the torso
 * ```
 */
export function addCapsuleEdge(world: World, a: ParticleId, b: ParticleId, radius: number, options: CapsuleEdgeOptions = {}): ConstraintId {
  return edgeSystem(world).add(world, a, b, radius, options);
}

/** Changes the radius (m) of a capsule edge added by {@link addCapsuleEdge}. */
export function setCapsuleEdgeRadius(world: World, id: number, radius: number): void {
  const system = world.features.get(EDGES);
  if (!system) throw new RangeError(`setCapsuleEdgeRadius: no capsule edge with id ${String(id)}`);
  system.setRadius(id, radius);
}

/** What {@link addBodyCapsuleEdges} returns: the edges' ids, and `remove()` (or `world.remove(edges)`) for all of them. */
export interface CapsuleEdges {
  /** One capsule edge id per stick of the body. */
  readonly ids: readonly ConstraintId[];
  /** Removes every edge still there; the body stays. */
  remove(): void;
}

/** Adds a capsule edge for every stick of `body` (both ends inside it). */
export function addBodyCapsuleEdges(world: World, body: BodyRecord, radius: number): CapsuleEdges {
  const ids: ConstraintId[] = [];
  const sticks = world.sticks;
  // The stick table holds slots; addCapsuleEdge takes ids.
  const first = particleSlot(body.first);
  const end = first + body.count;
  for (let row = 0; row < sticks.count; row++) {
    const a = sticks.a[row]!;
    const b = sticks.b[row]!;
    if (a >= first && a < end && b >= first && b < end) ids.push(addCapsuleEdge(world, world.particleId(a), world.particleId(b), radius));
  }
  return { ids, remove: () => ids.forEach((id) => world.hasConstraint(id) && world.removeConstraint(id)) };
}
