import { OrbitControls } from '@react-three/drei';
import { Canvas } from '@react-three/fiber';
import type { ReactNode } from 'react';

/** Props of {@link Scene}. */
export interface SceneProps {
  /** Camera position, default `[0, 2, 6]`. */
  camera?: [number, number, number];
  /** Point the camera orbits around, default `[0, 1, 0]`. */
  target?: [number, number, number];
  /** Field of view in degrees, default 50. */
  fov?: number;
  /** HTML drawn over the canvas (buttons, readouts). */
  overlay?: ReactNode;
  children?: ReactNode;
}

/**
 * The common stage of every story: a full-size canvas with a dark background,
 * soft light and orbit controls (`makeDefault`, so `<DragControls>` can pause them).
 */
export function Scene({ camera = [0, 2, 6], target = [0, 1, 0], fov = 50, overlay, children }: SceneProps) {
  return (
    <div style={{ position: 'relative', width: '100%', height: '100vh', minHeight: 480, background: '#15171c' }}>
      <Canvas shadows camera={{ position: camera, fov }}>
        <color attach="background" args={['#15171c']} />
        <hemisphereLight args={['#dfe8ff', '#2a2620', 0.9]} />
        <directionalLight position={[4, 8, 3]} intensity={1.6} castShadow />
        <OrbitControls makeDefault target={target} />
        {children}
      </Canvas>
      {overlay && <div style={overlayStyle}>{overlay}</div>}
    </div>
  );
}

const overlayStyle = {
  position: 'absolute',
  top: 12,
  left: 12,
  display: 'flex',
  gap: 8,
  alignItems: 'center',
  font: '13px system-ui, sans-serif',
  color: '#e8e8e8',
} as const;
