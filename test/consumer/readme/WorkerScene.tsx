import { Canvas } from '@react-three/fiber';
import { useContext, useEffect, useRef, type RefObject } from 'react';
import { Cloth, Particle, SinewContext, World, type ParticleHandle } from 'sinew-physics';
import { physicsWorker } from 'sinew-physics/worker';

/** What worker.mjs reads from the page between frames. */
export interface WorkerProbe {
  /** The transport the `<World worker>`'s remote world picked ('shared' or 'transfer'). */
  transport: string;
  /** The page's `crossOriginIsolated`. */
  isolated: boolean;
  /** Steps of the latest frame read back from the worker. */
  stepCount: number;
  /** The falling particle's position at that step; `from` is where it started at rest. */
  position: number[];
  from: number[];
  /** Frames read back so far. */
  framesRead: number;
}

declare global {
  interface Window {
    /** Reads the probe, once the scene has mounted. */
    sinewWorker?: () => WorkerProbe;
    /** What <World onError> received, as `name: message`. */
    sinewReported: string[];
  }
}
window.sinewReported = [];

const worker = physicsWorker();
const from: [number, number, number] = [1, 2, 0];

/** Puts the probe on the window: the remote world's transport, and the particle as read back. */
function Probe({ ball }: { ball: RefObject<ParticleHandle | null> }) {
  const sinew = useContext(SinewContext);
  useEffect(() => {
    const remote = sinew?.worker?.remote;
    if (!sinew || !remote) throw new Error('WorkerScene: the <World> has no worker');
    const { world } = sinew;
    window.sinewWorker = () => ({
      transport: remote.transport,
      isolated: globalThis.crossOriginIsolated,
      stepCount: world.stepCount,
      position: ball.current ? [...ball.current.position()] : [],
      from,
      framesRead: remote.stats.framesRead,
    });
  }, [sinew, ball]);
  return null;
}

/** The README's worker example as an app: a pinned cloth, and a particle falling freely beside it. */
export default function App() {
  const ball = useRef<ParticleHandle>(null);
  return (
    <Canvas camera={{ position: [0, 1.5, 4] }}>
      <color attach="background" args={['#1d2026']} />
      <ambientLight intensity={0.5} />
      <directionalLight position={[2, 3, 2]} intensity={2} />
      <World worker={worker} substeps={10} onError={(error) => window.sinewReported.push(`${error.name}: ${error.message}`)}>
        <Cloth width={8} height={8} spacing={0.1} corner={[-1, 2, 0]} pin="top" />
        <Particle ref={ball} position={from}>
          <mesh>
            <sphereGeometry args={[0.05]} />
            <meshStandardMaterial color="orange" />
          </mesh>
        </Particle>
        <Probe ball={ball} />
      </World>
    </Canvas>
  );
}
