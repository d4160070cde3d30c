import { OrbitControls } from '@react-three/drei';
import { Canvas } from '@react-three/fiber';
import { Cloth, DragControls, Ground, Pin, Rope, World } from 'sinew-physics';

// Seven hooks on a rail, 0.18 m apart and in and out by turns: the curtain, 1.44 m wide, hangs in folds.
const hooks = [0, 4, 8, 12, 16, 20, 24];

/** A curtain on a rail and a rope beside it, over a floor: drag either with the mouse, orbit around them. */
export default function App() {
  return (
    <Canvas shadows camera={{ position: [0.25, 1.1, 2], fov: 55 }}>
      <color attach="background" args={['#1d2026']} />
      <hemisphereLight args={['#ffffff', '#404550', 1.2]} />
      <directionalLight position={[-3, 2.5, 1.5]} intensity={3} castShadow />
      <OrbitControls makeDefault target={[0.1, 1.05, 0]} />
      <World>
        <Ground />
        <Cloth name="curtain" width={25} height={31} spacing={0.06} corner={[-0.72, 2, 0]} color="#b8423c" castShadow />
        {hooks.map((i, k) => (
          <Pin key={i} particle={`curtain.${i}`} target={[-0.54 + k * 0.18, 2, k % 2 ? 0.05 : -0.05]} />
        ))}
        <Rope name="rope" from={[0.75, 1.9, 0]} to={[0.75, 1.9, 0.9]} segments={12} pinStart />
        <DragControls />
      </World>
    </Canvas>
  );
}
