import { useImperativeHandle, useRef, type ReactNode, type Ref } from 'react';
import { DoubleSide, type Mesh } from 'three';
import { BodyGeometry } from '../../three/bodyGeometry.js';
import { useSinew } from '../context.js';
import { useBodyView } from '../hooks/useBodyView.js';
import { useClothAs, type ClothApi, type UseClothOptions } from '../hooks/useCloth.js';
import { guarded } from '../guarded.js';

/** Props of {@link Cloth}: the options of `createCloth` (see {@link useCloth}), plus how to draw it. */
export interface ClothProps extends UseClothOptions {
  /** Colour of the default material. */
  color?: string;
  /** A material (or anything a `<mesh>` takes) to use instead of the default double-sided standard material. */
  children?: ReactNode;
  /** Passed to the mesh. */
  castShadow?: boolean;
  /** Passed to the mesh. */
  receiveShadow?: boolean;
  /** Receives the cloth's handle. */
  ref?: Ref<ClothApi>;
}

/**
 * A simulated cloth drawn as a mesh whose vertices are its particles: each
 * frame the positions are copied into the geometry in place, triangles follow
 * tears, and normals and bounds are recomputed. No React re-render per frame.
 *
 * @example
 * ```tsx
 * <World>
 *   <Cloth width={24} height={16} spacing={0.06} corner={[-0.7, 2, 0]} pin="top-corners" structural={{ stiffness: 0.9 }}>
 *     <meshStandardMaterial color="tomato" side={DoubleSide} />
 *   </Cloth>
 * </World>
 * ```
 */
export const Cloth = guarded('<Cloth>', function Cloth({ color = '#d0d6e0', children, castShadow, receiveShadow, ref, ...options }: ClothProps) {
  const api = useClothAs('<Cloth>', options);
  const { world, frame } = useSinew('<Cloth>');
  useImperativeHandle(ref, () => api, [api]);
  const mesh = useRef<Mesh>(null);
  useBodyView(api, mesh, world, frame, (c) => new BodyGeometry({ first: c.first, count: c.count, surface: c.surface, uvs: c.uvs }));
  return (
    <mesh ref={mesh} castShadow={castShadow} receiveShadow={receiveShadow}>
      {children ?? <meshStandardMaterial color={color} side={DoubleSide} />}
    </mesh>
  );
});
