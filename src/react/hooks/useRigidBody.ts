import { createBox, createConvex, createTetrahedron, type BoxOptions, type ConvexOptions, type RigidBody, type TetrahedronOptions } from '../../core/bodies/rigid.js';
import type { Vec3 } from '../../core/math.js';
import { makeFrame, type Frame } from '../../three/frames.js';
import { BodyHandle, useBody } from './useBody.js';
import { useLiveParticles } from './useLiveParticles.js';

/**
 * Options of {@link useRigidBody}: a `shape` and that builder's options
 * (`rotation` is a quaternion `[x, y, z, w]`, as in the core). `'box'` is
 * `createBox`, `'tetrahedron'` the paper's tetrahedron, `'convex'` any point set.
 */
export type UseRigidBodyOptions =
  | ({ shape?: 'box'; name?: string } & Omit<BoxOptions, 'shared'>)
  | ({ shape: 'tetrahedron'; name?: string } & Omit<TetrahedronOptions, 'shared'>)
  | ({ shape: 'convex'; name?: string } & Omit<ConvexOptions, 'shared'>);

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
  const shape = options.shape ?? 'box';
  const key = JSON.stringify([shape, options.mass, 'size' in options ? options.size : undefined, 'points' in options ? options.points : undefined, 'masses' in options ? options.masses : undefined, 'edges' in options ? options.edges : undefined]);
  const builder = shape === 'box' ? 'createBox' : shape === 'tetrahedron' ? 'createTetrahedron' : shape === 'convex' ? 'createConvex' : undefined;
  if (!builder) throw new RangeError(`${who}: shape must be 'box', 'tetrahedron' or 'convex', got ${JSON.stringify(shape)}`);
  const api = useBody<RigidBody, RigidBodyApi>(
    {
      who,
      builder,
      key,
      name: options.name,
      create: (w) => (options.shape === 'tetrahedron' ? createTetrahedron(w, options) : options.shape === 'convex' ? createConvex(w, options) : createBox(w, options as BoxOptions)),
    },
    (w) => new RigidBodyApi(w),
  );
  // Mass is structural here: the read-back weights its vertices by it.
  useLiveParticles(api, who, { radius: options.radius, friction: options.friction, iterations: options.iterations });
  return api;
}
