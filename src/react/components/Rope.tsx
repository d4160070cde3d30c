import { useFrame } from '@react-three/fiber';
import { useImperativeHandle, useRef, type ReactNode, type Ref } from 'react';
import { useLayoutEffect } from '../hooks/effects.js';
import type { InstancedMesh, Mesh } from 'three';
import { checkNumber } from '../../core/math.js';
import { writeParticleInstances } from '../../three/instances.js';
import { TubeGeometry } from '../../three/tubeGeometry.js';
import { useSinew } from '../context.js';
import { useBodyView } from '../hooks/useBodyView.js';
import { useRopeAs, type RopeApi, type UseRopeOptions } from '../hooks/useRope.js';
import { guarded } from '../guarded.js';

/** Props of {@link Rope}: the options of `createRope` (see {@link useRope}), plus how to draw it. */
export interface RopeProps extends UseRopeOptions {
  /** `'tube'` (default): a smooth tube through the particles. `'beads'`: a ball per particle, like a chain. */
  display?: 'tube' | 'beads';
  /** Radius of the drawn tube or beads (m); default the particles' `radius`, or 1 cm. */
  thickness?: number;
  /** Vertices around the tube, read when the tube is built. Default 8. */
  radialSegments?: number;
  /** Colour of the default material. */
  color?: string;
  /** A material to use instead of the default standard material. */
  children?: ReactNode;
  /** Passed to the tube or bead mesh. */
  castShadow?: boolean;
  /** Receives the rope's handle. */
  ref?: Ref<RopeApi>;
}

/**
 * A rope or chain, drawn as a tube through its particles (rebuilt in place
 * every frame) or as one instanced ball per particle. Pin its ends with
 * `pinStart` / `pinEnd`, or give it a `name` and use
 * `<Pin particle="name.end" target={...} />`. Changing `display` or
 * `thickness` changes only the drawing, never the simulation.
 *
 * @example
 * ```tsx
 * <Rope name="rope" from={[-1, 2, 0]} to={[1, 2, 0]} segments={24} length={2.6} kind="max" pinStart pinEnd thickness={0.02} />
 * <Rope from={[0, 3, 0]} to={[0, 2, 0]} segments={12} pinStart display="beads" thickness={0.04} />
 * ```
 */
export const Rope = guarded('<Rope>', function Rope({ display = 'tube', thickness, radialSegments = 8, color = '#c8a165', children, castShadow, ref, ...options }: RopeProps) {
  const api = useRopeAs('<Rope>', options);
  useImperativeHandle(ref, () => api, [api]);
  const radius = checkNumber(thickness ?? (options.radius || 0.01), '<Rope>: thickness', Number.MIN_VALUE);
  const look = { api, radius, castShadow, material: children ?? <meshStandardMaterial color={color} /> };
  if (display === 'beads') {
    // A bad `segments` is reported by the builder with a proper message; draw one bead meanwhile.
    const count = Number.isInteger(options.segments) && options.segments >= 1 ? options.segments + 1 : 1;
    return <Beads {...look} count={count} />;
  }
  if (display !== 'tube') throw new RangeError(`<Rope>: display must be 'tube' or 'beads', got ${JSON.stringify(display)}`);
  return <Tube {...look} radialSegments={radialSegments} />;
});

interface LookProps {
  api: RopeApi;
  radius: number;
  castShadow: boolean | undefined;
  material: ReactNode;
}

function Tube({ api, radius, castShadow, material, radialSegments }: LookProps & { radialSegments: number }) {
  const { world, frame } = useSinew('<Rope>');
  const mesh = useRef<Mesh>(null);
  const view = useBodyView(api, mesh, world, frame, (r) => new TubeGeometry({ first: r.first, count: r.count, radius, radialSegments }));
  // The tube's radius is a plain field: a new thickness needs no new geometry.
  useLayoutEffect(() => {
    if (view.current instanceof TubeGeometry) view.current.radius = radius;
  }, [view, radius]);
  return (
    <mesh ref={mesh} castShadow={castShadow}>
      {material}
    </mesh>
  );
}

function Beads({ api, radius, castShadow, material, count }: LookProps & { count: number }) {
  const { world, frame } = useSinew('<Rope>');
  const mesh = useRef<InstancedMesh>(null);
  useFrame(() => {
    // Scale 1: the bead geometry already has the rope's thickness.
    if (mesh.current && api.current) writeParticleInstances(mesh.current, world, api.first, api.count, frame, 1);
  });
  return (
    <instancedMesh ref={mesh} args={[undefined, undefined, count]} castShadow={castShadow}>
      <sphereGeometry args={[radius, 12, 8]} />
      {material}
    </instancedMesh>
  );
}
