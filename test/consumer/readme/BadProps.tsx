import { Canvas } from '@react-three/fiber';
import { Cloth, Ground, World } from 'sinew-physics';

declare global {
  interface Window {
    /** What <World onError> received, read by drive.mjs. */
    sinewReported: string[];
  }
}
window.sinewReported = [];

/** A cloth with a bad prop in a <World> that handles errors: reported once, never thrown at the page. */
export default function App() {
  return (
    <Canvas camera={{ position: [0, 1.5, 4] }}>
      <World onError={(error) => window.sinewReported.push(error.message)}>
        <Ground />
        <Cloth name="bad" width={-3} height={4} />
      </World>
    </Canvas>
  );
}
