import { useFrame } from '@react-three/fiber';
import { useRef } from 'react';
import type { Mesh } from 'three';
import { Attach, Cloth, RigidBody, Rope, STEP_PRIORITY } from 'sinew-physics';

export function CapedBox() {
  const box = useRef<Mesh>(null);
  // Move the object before the world steps: the cape follows in the same frame.
  useFrame((_, delta) => {
    if (box.current) box.current.position.x += 3 * delta;
  }, STEP_PRIORITY - 2);
  return (
    <>
      <mesh ref={box} position={[0, 1.5, 0]}>
        <boxGeometry args={[0.5, 0.1, 0.1]} />
      </mesh>
      <Cloth name="cape" width={10} height={8} spacing={0.05} corner={[-0.225, 1.5, 0]} />
      {/* The top row holds where it is, in the box's frame; a pull over 20 N tears a particle off. */}
      <Attach to={box} particles={[...Array(10).keys()].map((i) => `cape.${i}`)} breakForce={20} />

      <RigidBody name="crate" shape="box" size={0.3} position={[2, 2, 0]} mass={0.5} />
      <Rope name="line" from={[2, 1.85, 0]} to={[2, 0.85, 0]} segments={10} mass={2} />
      {/* Two-way: the 2 kg rope pulls the 0.5 kg crate down, the crate holds the rope up. */}
      <Attach to="crate" particles={['line.start']} />
    </>
  );
}
