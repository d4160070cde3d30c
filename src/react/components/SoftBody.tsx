import { useImperativeHandle, useRef, type ReactNode, type Ref } from 'react';
import type { Mesh } from 'three';
import { BodyGeometry } from '../../three/bodyGeometry.js';
import { useSinew } from '../context.js';
import { useBodyView } from '../hooks/useBodyView.js';
import { useSoftBodyAs, type SoftBodyApi, type UseSoftBodyOptions } from '../hooks/useSoftBody.js';
import { guarded } from '../guarded.js';

/** Props of {@link SoftBody}: the options of `createSoftBody` (see {@link useSoftBody}), plus how to draw it. */
export interface SoftBodyProps extends UseSoftBodyOptions {
  /** Colour of the default material. */
  color?: string;
  /** A material to use instead of the default standard material. */
  children?: ReactNode;
  /** Passed to the mesh. */
  castShadow?: boolean;
  /** Passed to the mesh. */
  receiveShadow?: boolean;
  /** Receives the body's handle. */
  ref?: Ref<SoftBodyApi>;
}

/**
 * A squashy body (soft sticks plus a volume constraint) drawn as a mesh of its
 * surface, read back in place every frame.
 *
 * @example
 * ```tsx
 * <SoftBody shape="sphere" position={[0, 1.5, 0]} size={0.6} stiffness={0.2} pressure={1} color="limegreen" />
 * ```
 */
export const SoftBody = guarded('<SoftBody>', function SoftBody({ color = '#7bd389', children, castShadow, receiveShadow, ref, ...options }: SoftBodyProps) {
  const api = useSoftBodyAs('<SoftBody>', options);
  const { world, frame } = useSinew('<SoftBody>');
  useImperativeHandle(ref, () => api, [api]);
  const mesh = useRef<Mesh>(null);
  useBodyView(api, mesh, world, frame, (b) => new BodyGeometry({ first: b.first, count: b.count, surface: b.surface }));
  return (
    <mesh ref={mesh} castShadow={castShadow} receiveShadow={receiveShadow}>
      {children ?? <meshStandardMaterial color={color} />}
    </mesh>
  );
});
