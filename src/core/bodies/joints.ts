import type { World, StickOptions } from '../world.js';
import type { BodyRecord } from './body.js';

/**
 * Vertices a new body takes over from existing particles instead of allocating
 * them: `{ [localVertexIndex]: particleId }`. Bodies that share one particle are
 * joined by a ball joint, two by a hinge (paper section 6, "Articulated Bodies").
 */
export type SharedVertices = { readonly [localVertex: number]: number };

/** A body whose vertices can be joined to: anything with particle ids and a body record (rigid bodies, ragdolls). */
export interface Jointable {
  /** Particle id of each local vertex. */
  readonly vertices: readonly number[];
  /** The body's record in the world. */
  readonly body: BodyRecord;
}

/**
 * A ball joint: the new body's vertex `toVertex` is `from`'s vertex `fromVertex`,
 * the same particle, so the bodies turn freely about it.
 *
 * @example
 * ```ts
 * const upper = createBox(world, { size: [0.2, 1, 0.2], position: [0, 1.5, 0] });
 * // vertex 0 of the lower box is vertex 2 of the upper one (its bottom corner)
 * const lower = createBox(world, { size: [0.2, 1, 0.2], position: [0, 0.5, 0], shared: ballJoint(upper, 0, 2) });
 * ```
 */
export function ballJoint(from: Pick<Jointable, 'vertices'>, fromVertex: number, toVertex: number): SharedVertices {
  return { [checkLocal(toVertex, 'ballJoint: toVertex')]: vertexOf(from, fromVertex, 'ballJoint: fromVertex') };
}

/**
 * A hinge: the new body takes over two of `from`'s particles, so it can only turn
 * about the line through them. `fromVertices[k]` becomes the new body's vertex `toVertices[k]`.
 *
 * @example
 * ```ts
 * const frame = createBox(world, { size: [0.1, 2, 0.1], position: [0, 1, 0], mass: 0 });
 * // the door's edge x = -0.5 (its vertices 0 and 2) hangs on the frame's edge x = +0.05 (vertices 1 and 3)
 * const door = createBox(world, { size: [1, 2, 0.1], position: [0.55, 1, 0], shared: hinge(frame, [1, 3], [0, 2]) });
 * ```
 */
export function hinge(from: Pick<Jointable, 'vertices'>, fromVertices: readonly [number, number], toVertices: readonly [number, number]): SharedVertices {
  if (!Array.isArray(fromVertices) || fromVertices.length !== 2) throw new TypeError(`hinge: fromVertices must be two local vertex indices, got ${String(fromVertices)}`);
  if (!Array.isArray(toVertices) || toVertices.length !== 2) throw new TypeError(`hinge: toVertices must be two local vertex indices, got ${String(toVertices)}`);
  const a = vertexOf(from, fromVertices[0], 'hinge: fromVertices[0]');
  const b = vertexOf(from, fromVertices[1], 'hinge: fromVertices[1]');
  if (a === b) throw new RangeError(`hinge: fromVertices must name two different particles, both are particle ${a}`);
  const ta = checkLocal(toVertices[0], 'hinge: toVertices[0]');
  const tb = checkLocal(toVertices[1], 'hinge: toVertices[1]');
  if (ta === tb) throw new RangeError(`hinge: toVertices must differ, both are ${ta}`);
  return { [ta]: a, [tb]: b };
}

/** One end of a {@link stickJoint}: a body and one of its local vertices. */
export interface JointEnd {
  /** The body to join (a rigid body, a ragdoll). */
  body: Jointable;
  /** Index of the vertex in the body's local vertex list (`vertices`). */
  vertex: number;
}

/**
 * Joins two bodies by a stick between a vertex of each (paper section 6: "connect
 * two rigid bodies by a stick constraint"). The stick is registered with both
 * bodies, so removing either takes it along. Returns the stick's constraint id.
 */
export function stickJoint(world: World, a: JointEnd, b: JointEnd, options: StickOptions = {}): number {
  const pa = vertexOf(a.body, a.vertex, 'stickJoint: a.vertex');
  const pb = vertexOf(b.body, b.vertex, 'stickJoint: b.vertex');
  const id = world.addStick(pa, pb, options);
  a.body.body.constraints.push(id);
  if (b.body.body !== a.body.body) b.body.body.constraints.push(id);
  return id;
}

function vertexOf(body: Pick<Jointable, 'vertices'>, vertex: number, what: string): number {
  const id = Number.isInteger(vertex) ? body.vertices[vertex] : undefined;
  if (id === undefined) throw new RangeError(`${what} must be a local vertex index in [0, ${body.vertices.length}), got ${String(vertex)}`);
  return id;
}

function checkLocal(vertex: number, what: string): number {
  if (!Number.isInteger(vertex) || vertex < 0) throw new RangeError(`${what} must be a local vertex index (an integer >= 0), got ${String(vertex)}`);
  return vertex;
}
