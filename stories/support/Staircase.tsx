import { MeshCollider } from 'sinew-physics';

/** The size of a {@link Staircase}: `steps` rises of `rise` (m), each step `run` deep and `width` wide, a landing `landing` deep at the top. */
export interface StaircaseProps {
  steps: number;
  rise: number;
  run: number;
  width: number;
  landing: number;
  /** x of the landing's edge, where the steps start down toward +x. Default 0. */
  topX?: number;
}

/**
 * A landing `steps` rises up with a flight of steps down toward +x from
 * `topX`: boxes made one static triangle collider by `<MeshCollider>`.
 *
 * @example
 * ```tsx
 * <Staircase steps={6} rise={0.18} run={0.3} width={2.4} landing={1.4} />
 * ```
 */
export function Staircase({ steps, rise, run, width, landing, topX = 0 }: StaircaseProps) {
  const top = steps * rise;
  return (
    <MeshCollider friction={0.9}>
      <mesh position={[topX - landing / 2, top / 2, 0]} castShadow receiveShadow>
        <boxGeometry args={[landing, top, width]} />
        <meshStandardMaterial color="#5a6580" roughness={0.8} />
      </mesh>
      {Array.from({ length: steps - 1 }, (_, i) => {
        const height = (steps - 1 - i) * rise;
        return (
          <mesh key={i} position={[topX + (i + 0.5) * run, height / 2, 0]} castShadow receiveShadow>
            <boxGeometry args={[run, height, width]} />
            <meshStandardMaterial color={i % 2 ? '#5a6580' : '#64708c'} roughness={0.8} />
          </mesh>
        );
      })}
    </MeshCollider>
  );
}
