import { OrbitControls } from '@react-three/drei';
import { Canvas } from '@react-three/fiber';
import { Cloth, DragControls, Ground, Rope, World } from 'sinew-physics';

/** A curtain and a rope over a floor: drag either with the mouse, orbit around them. */
export function App() {
  return (
    <Canvas camera={{ position: [0, 1.5, 4] }}>
      <ambientLight intensity={0.8} />
      <directionalLight position={[3, 6, 2]} />
      <OrbitControls makeDefault />
      <World>
        <Ground />
        <Cloth name="curtain" width={20} height={20} spacing={0.05} corner={[-1, 1.8, 0]} pin="top-corners" />
        <Rope name="rope" from={[0.5, 2, 0]} to={[1.5, 2, 0]} segments={12} pinStart />
        <DragControls />
      </World>
    </Canvas>
  );
}
