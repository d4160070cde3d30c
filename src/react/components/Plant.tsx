import { useImperativeHandle, useRef, type ReactNode, type Ref } from 'react';
import { DoubleSide, type Mesh } from 'three';
import { BodyGeometry } from '../../three/bodyGeometry.js';
import { useSinew } from '../context.js';
import { useBodyView } from '../hooks/useBodyView.js';
import { usePlantAs, type PlantApi, type UsePlantOptions } from '../hooks/usePlant.js';
import { guarded } from '../guarded.js';

/** Props of {@link Plant}: the options of `createPlant` (see {@link usePlant}), plus how to draw it. */
export interface PlantProps extends UsePlantOptions {
  /** Colour of the default material. */
  color?: string;
  /** A material to use instead of the default double-sided standard material. */
  children?: ReactNode;
  /** Passed to the mesh. */
  castShadow?: boolean;
  /** Receives the plant's handle. */
  ref?: Ref<PlantApi>;
}

/**
 * A blade of grass or a leaf that bends and springs back (paper section 4),
 * drawn as a double-sided strip read back every frame.
 *
 * @example
 * ```tsx
 * {Array.from({ length: 20 }, (_, i) => (
 *   <Plant key={i} root={[i * 0.1 - 1, 0, 0]} height={0.5} width={0.04} tipWidth={0.005} />
 * ))}
 * ```
 */
export const Plant = guarded('<Plant>', function Plant({ color = '#5aa845', children, castShadow, ref, ...options }: PlantProps) {
  const api = usePlantAs('<Plant>', options);
  const { world, frame } = useSinew('<Plant>');
  useImperativeHandle(ref, () => api, [api]);
  const mesh = useRef<Mesh>(null);
  useBodyView(api, mesh, world, frame, (p) => new BodyGeometry({ first: p.first, count: p.count, surface: p.surface, uvs: p.uvs }));
  return (
    <mesh ref={mesh} castShadow={castShadow}>
      {children ?? <meshStandardMaterial color={color} side={DoubleSide} />}
    </mesh>
  );
});
