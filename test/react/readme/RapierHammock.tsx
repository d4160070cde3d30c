import { BallCollider, Physics, RigidBody } from '@react-three/rapier';
import { Cloth } from 'sinew-physics';
import { RapierBridge } from 'sinew-physics/rapier';

/** A sinew hammock catching a Rapier ball: put it inside <World>, in a <Canvas>. */
export function RapierHammock() {
  return (
    // paused: sinew's clock steps Rapier; "vary": by sinew's timeStep, once per sinew step.
    <Physics paused timeStep="vary">
      <RapierBridge />
      <Cloth name="hammock" width={16} height={16} spacing={0.08} orientation="horizontal" corner={[-0.6, 1, -0.6]} pin="corners" radius={0.02} mass={0.5} />
      <RigidBody colliders={false} position={[0, 2, 0]} linearDamping={2} angularDamping={2}>
        <BallCollider args={[0.15]} mass={1} />
        <mesh name="ball">
          <sphereGeometry args={[0.15]} />
          <meshStandardMaterial color="orange" />
        </mesh>
      </RigidBody>
    </Physics>
  );
}
