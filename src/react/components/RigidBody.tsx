import { useFrame } from '@react-three/fiber';
import { useCallback, useImperativeHandle, useMemo, useRef, type ReactNode, type Ref } from 'react';
import { useStepStart } from '../hooks/useStepStart.js';
import { Vector3, type BufferGeometry, type Group, type Mesh } from 'three';
import { ConvexGeometry } from 'three/examples/jsm/geometries/ConvexGeometry.js';
import type { RigidBody as CoreRigidBody } from '../../core/bodies/rigid.js';
import { FrameTrack } from '../../three/frameTrack.js';
import { writeTransform } from '../../three/matrices.js';
import { useSinew } from '../context.js';
import { useBodyView, type BodyView } from '../hooks/useBodyView.js';
import { useRigidBodyAs, type RigidBodyApi, type UseRigidBodyOptions } from '../hooks/useRigidBody.js';
import { guarded } from '../guarded.js';

/**
 * Props of {@link RigidBody}: a shape and its builder's options (see
 * {@link useRigidBody}). `position` is where the body's local origin goes (a
 * box's or tetrahedron's centre); `rotation` takes Euler angles `[x, y, z]` in
 * radians (three.js's 'XYZ' order), a quaternion `[x, y, z, w]`, or a three.js
 * `Euler` or `Quaternion`.
 */
export type RigidBodyProps = UseRigidBodyOptions & {
  /** Colour of the default mesh (drawn when there are no children). */
  color?: string;
  /** Meshes that follow the body; their origin is the body's local origin (a box's centre). */
  children?: ReactNode;
  /** Passed to the default hull mesh (drawn when there are no children). */
  castShadow?: boolean;
  /** Receives the body's handle. */
  ref?: Ref<RigidBodyApi>;
};

/**
 * A rigid body of particles and sticks. Its children (any meshes) follow the
 * transform read back from the particles, interpolated between steps and
 * written straight into the group's matrix; without children it draws its own
 * convex hull.
 *
 * @example
 * ```tsx
 * <RigidBody shape="box" size={[0.4, 0.4, 0.4]} position={[0, 2, 0]} rotation={[0.3, 0, 0.2]} angularVelocity={[0, 4, 0]}>
 *   <mesh><boxGeometry args={[0.4, 0.4, 0.4]} /><meshStandardMaterial color="orange" /></mesh>
 * </RigidBody>
 * // A door whose vertices 0 and 2 are the post's 1 and 3: a hinge.
 * <RigidBody name="post" shape="box" size={[0.1, 2, 0.1]} position={[0, 1, 0]} mass={0} />
 * <RigidBody shape="box" size={[1, 2, 0.1]} position={[0.55, 1, 0]} shared={{ 0: 'post.1', 2: 'post.3' }} />
 * ```
 */
export const RigidBody = guarded('<RigidBody>', function RigidBody({ color = '#e0a040', children, castShadow, ref, ...options }: RigidBodyProps) {
  const api = useRigidBodyAs('<RigidBody>', options as UseRigidBodyOptions);
  const { world, frame } = useSinew('<RigidBody>');
  useImperativeHandle(ref, () => api, [api]);

  const group = useRef<Group>(null);
  const [track] = useMemo(() => [new FrameTrack((out) => api.transform(out))], [api]);
  const tracked = useRef<CoreRigidBody | null>(null);
  const capture = useCallback(() => void (api.current && track.capture()), [api, track]);
  useStepStart('<RigidBody>', capture);
  useFrame(() => {
    if (tracked.current !== api.current) {
      track.reset();
      tracked.current = api.current;
    }
    if (!api.current || !group.current) return;
    const drawn = track.sample(frame);
    writeTransform(group.current, drawn.position, drawn.quaternion);
  });

  const hull = useRef<Mesh>(null);
  useBodyView(api, hull, world, frame, (body) => new HullView(body));

  return (
    <group ref={group}>
      {children ?? (
        <mesh ref={hull} castShadow={castShadow}>
          <meshStandardMaterial color={color} flatShading />
        </mesh>
      )}
    </group>
  );
});

/** The body's own convex hull in its local frame, built from the core's rest shape; drawn when there are no children. */
class HullView implements BodyView {
  readonly geometry: BufferGeometry;
  constructor(body: CoreRigidBody) {
    const { offsets, localCenter } = body.shape;
    const points: Vector3[] = [];
    for (let i = 0; i < offsets.length; i += 3) points.push(new Vector3(offsets[i]! + localCenter[0], offsets[i + 1]! + localCenter[1], offsets[i + 2]! + localCenter[2]));
    this.geometry = new ConvexGeometry(points);
  }
  update(): void {
    // A rigid body's shape never changes; only the group's matrix moves.
  }
  dispose(): void {
    this.geometry.dispose();
  }
}
