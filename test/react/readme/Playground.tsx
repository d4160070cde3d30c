import { OrbitControls } from '@react-three/drei';
import { Canvas } from '@react-three/fiber';
import { Cloth, DragControls, Ground, Ragdoll, Wind, World } from 'sinew-physics';

/** A flag in the wind and a ragdoll to throw around: grab anything with the mouse. */
export function Playground() {
  return (
    <World>
      <Ground />
      <Cloth name="flag" width={24} height={16} spacing={0.08} corner={[-1, 2.6, 0]} pin="left" />
      <Wind velocity={[4, 0, 1]} gust={0.4} />
      <Ragdoll name="doll" feet={[1.5, 0.5, 0]} />
      <DragControls />
    </World>
  );
}

export function App() {
  return (
    <Canvas camera={{ position: [0, 1.5, 5] }}>
      <ambientLight intensity={0.8} />
      <directionalLight position={[3, 6, 2]} />
      <OrbitControls makeDefault />
      <Playground />
    </Canvas>
  );
}
