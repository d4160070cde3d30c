import { useState } from 'react';
import { useEffect, useLayoutEffect } from './effects.js';
import type { SharedVertices } from '../../core/bodies/joints.js';
import { createBox, createConvex, createTetrahedron, type BoxOptions, type ConvexOptions, type RigidBody, type TetrahedronOptions } from '../../core/bodies/rigid.js';
import { checkNumber, type Vec3 } from '../../core/math.js';
import { makeFrame, type Frame } from '../../three/frames.js';
import { useSinew } from '../context.js';
import { requireParticle, resolveParticle, type ParticleRef } from '../particleRef.js';
import { subscribeRegistry, type WorldState } from '../store.js';
import { BodyHandle, useBody } from './useBody.js';
import { useLatest } from './useLatest.js';
import { useLiveParticles } from './useLiveParticles.js';
import { buildOn } from '../../worker/builders.js';

const NOTHING_SHARED: SharedParticles = {};

/**
 * Vertices a rigid body takes over from particles that already exist, joining it
 * to them (paper section 6): `{ [localVertex]: particle }`, each particle a handle,
 * id or name. One shared particle is a ball joint, two a hinge:
 * `{ 0: 'post.1', 2: 'post.3' }` hangs a box's edge 0–2 on the post's edge 1–3.
 */
export type SharedParticles = { readonly [localVertex: number]: ParticleRef };

/** What every shape takes besides its builder's options. */
interface Common {
  /** Registers the body, so `"name.3"` names its vertex 3 (shared vertices included). */
  name?: string;
  /**
   * Vertices taken over from existing particles (see {@link SharedParticles}).
   * The particles must exist when the body is built (a body named here must
   * come before this one in the tree); when one is re-created, so is this body.
   * They must outlive it: unmount the joined body first (an error names the
   * entry whose particle is gone).
   */
  shared?: SharedParticles;
}

/**
 * Options of {@link useRigidBody}: a `shape` and that builder's options
 * (`position` is where the local origin goes, a box's centre; `rotation` a
 * quaternion `[x, y, z, w]` or Euler angles `[x, y, z]` in radians, as in the
 * core and `<RigidBody>`; a three.js `Quaternion` or `Euler` works too). `'box'` is
 * `createBox`, `'tetrahedron'` the paper's tetrahedron, `'convex'` any point set.
 */
export type UseRigidBodyOptions =
  ({ shape?: 'box' } & Common & Omit<BoxOptions, 'shared'>) | ({ shape: 'tetrahedron' } & Common & Omit<TetrahedronOptions, 'shared'>) | ({ shape: 'convex' } & Common & Omit<ConvexOptions, 'shared'>);

/** A stable handle on a rigid body; `current` is the core `RigidBody` while it exists..
 *
 * @example
 * ```ts
 * const { position, quaternion } = crate.transform(frame); // frame = makeFrame(), reused
 * ```
 */
export class RigidBodyApi extends BodyHandle<RigidBody> {
  /** Where the body's local origin is and how it is turned, now (put a mesh there). Written into `out` when given. */
  transform(out: Frame = makeFrame()): Frame {
    const t = this.body().update();
    for (let k = 0; k < 3; k++) out.position[k] = t.origin[k]!;
    for (let k = 0; k < 4; k++) out.quaternion[k] = t.quaternion[k]!;
    return out;
  }
  /** Velocity of the centre of mass (m/s). */
  linearVelocity(out: Vec3 = [0, 0, 0]): Vec3 {
    const v = this.body().update().velocity;
    out[0] = v[0];
    out[1] = v[1];
    out[2] = v[2];
    return out;
  }
  /** Particle id of local vertex `index` (a shared vertex is the particle it shares). */
  override particle(index: number): number {
    const vertices = this.body().vertices;
    if (!Number.isInteger(index) || index < 0 || index >= vertices.length) throw new RangeError(`RigidBodyApi.particle: index must be an integer in [0, ${vertices.length - 1}], got ${index}`);
    return vertices[index]!;
  }
  /** Angular velocity about the centre of mass (rad/s). */
  angularVelocity(out: Vec3 = [0, 0, 0]): Vec3 {
    const w = this.body().update().angularVelocity;
    out[0] = w[0];
    out[1] = w[1];
    out[2] = w[2];
    return out;
  }
  private body(): RigidBody {
    if (!this.current) throw new Error('RigidBodyApi: the body does not exist (its component is not mounted)');
    return this.current;
  }
}

/**
 * A rigid body made of particles and sticks (paper section 5). The shape, its
 * size or points and its mass build it; the initial `position`, `rotation`,
 * `velocity` and `angularVelocity` are read once; radius, friction and
 * iterations change in place.
 *
 * @example
 * ```tsx
 * function Crate() {
 *   const crate = useRigidBody({ shape: 'box', size: [1, 0.5, 0.5], position: [0, 3, 0], mass: 8 });
 *   const mesh = useRef<Mesh>(null);
 *   const frame = useMemo(makeFrame, []);
 *   useFrame(() => mesh.current && writeTransform(mesh.current, crate.transform(frame).position, frame.quaternion));
 *   return <mesh ref={mesh}><boxGeometry args={[1, 0.5, 0.5]} /></mesh>;
 * }
 * ```
 */
export function useRigidBody(options: UseRigidBodyOptions): RigidBodyApi {
  return useRigidBodyAs('useRigidBody()', options);
}

/** @internal {@link useRigidBody} with errors that name `who`, the component using it. */
export function useRigidBodyAs(who: string, options: UseRigidBodyOptions): RigidBodyApi {
  if (!options || typeof options !== 'object') throw new TypeError(`${who}: options must be an object, got ${String(options)}`);
  const { store } = useSinew(who);
  const shape = options.shape ?? 'box';
  const sharedKey = sharedRefsKey(options.shared, who);
  // Bumped when a shared particle is re-created elsewhere: this body is rebuilt on it.
  const [rejoins, setRejoins] = useState(0);
  const key = JSON.stringify([
    shape,
    options.mass,
    options.density,
    'size' in options ? options.size : undefined,
    'points' in options ? options.points : undefined,
    'masses' in options ? options.masses : undefined,
    'edges' in options ? options.edges : undefined,
    options.collideEdges,
    sharedKey,
    rejoins,
  ]);
  const builder = shape === 'box' ? 'createBox' : shape === 'tetrahedron' ? 'createTetrahedron' : shape === 'convex' ? 'createConvex' : undefined;
  if (!builder) throw new RangeError(`${who}: shape must be 'box', 'tetrahedron' or 'convex', got ${JSON.stringify(shape)}`);
  const api = useBody<RigidBody, RigidBodyApi>(
    {
      who,
      builder,
      key,
      name: options.name,
      create: (w) => {
        const built = { ...options, shared: requireShared(store.getState(), options.shared, who) };
        return built.shape === 'tetrahedron' ? buildOn(w, createTetrahedron, w, built) : built.shape === 'convex' ? buildOn(w, createConvex, w, built) : buildOn(w, createBox, w, built as BoxOptions);
      },
      resolve: (body, part) => (/^\d+$/.test(part) ? body.vertices[Number(part)] : undefined),
    },
    (w) => new RigidBodyApi(w),
  );
  // A body that shares particles follows them: when their owner is rebuilt (or StrictMode
  // re-runs its effects) the particles get new ids, and this body is rebuilt on those.
  const hasShared = sharedKey !== '';
  const latestShared = useLatest(options.shared ?? NOTHING_SHARED);
  useEffect(() => {
    if (!hasShared) return undefined;
    const check = (state: WorldState) => {
      const body = api.current;
      if (!body) return;
      const shared = latestShared.current;
      for (const local in shared) {
        if (resolveParticle(state, shared[local]!) !== body.vertices[Number(local)]) {
          setRejoins((n) => n + 1);
          return;
        }
      }
    };
    check(store.getState());
    return subscribeRegistry(store, check);
  }, [store, api, hasShared, latestShared]);
  // Mass is structural here: the read-back weights its vertices by it.
  useLiveParticles(api, who, { friction: options.friction, restitution: options.restitution, iterations: options.iterations, collisionGroups: options.collisionGroups });
  // The radius lives in the capsule edges too.
  const { radius } = options;
  useLayoutEffect(() => {
    if (radius !== undefined) api.current?.setRadius(checkNumber(radius, `${who}: radius`, 0));
  }, [api, who, radius]);
  return api;
}

/** The `shared` option serialised for the body's key; '' when there is none. */
function sharedRefsKey(shared: SharedParticles | undefined, who: string): string {
  if (shared === undefined) return '';
  if (shared === null || typeof shared !== 'object' || Array.isArray(shared)) throw new TypeError(`${who}: shared must be an object { [localVertex]: particle }, got ${String(shared)}`);
  const entries = Object.entries(shared).map(([local, ref]) => [local, typeof ref === 'object' && ref !== null ? { id: ref.id } : ref]);
  return entries.length === 0 ? '' : JSON.stringify(entries);
}

/** The `shared` option with every particle resolved to its id, or an error naming the entry. */
function requireShared(state: WorldState, shared: SharedParticles | undefined, who: string): SharedVertices | undefined {
  if (shared === undefined) return undefined;
  const ids: Record<number, number> = {};
  for (const [local, ref] of Object.entries(shared)) ids[Number(local)] = requireParticle(state, ref, who, `shared[${local}]`);
  return ids;
}
