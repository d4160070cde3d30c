// Shared pieces of the teaching stories (target practice, integrators, solver
// trade-off): camera framing, overlay panel styles and small number formatters.
import { useFrame, useThree } from '@react-three/fiber';
import { useEffect, useState, type CSSProperties, type ReactNode, type RefObject } from 'react';
import { Vector3, type PerspectiveCamera } from 'three';

/** Something with a `target` and `update()`, as drei's OrbitControls (the Scene's default controls). */
interface TargetControls {
  target: { set(x: number, y: number, z: number): unknown };
  update(): unknown;
}

/** Props of {@link FrameRegion}. */
export interface FrameRegionProps {
  /** Centre of the region to show (in the plane z = `z`). */
  center: readonly [number, number];
  /** Half the width and half the height of the region (m). */
  halfWidth: number;
  halfHeight: number;
  /** Depth of the region's plane. Default 0. */
  z?: number;
  /** Extra room around the region, as a share of it. Default 0.08. */
  margin?: number;
}

/**
 * Puts the camera in front of a rectangle of the plane z = `z` so the whole
 * rectangle shows at the canvas's aspect, and points the orbit controls at its
 * centre. Re-frames when the region or the canvas size changes.
 */
export function FrameRegion({ center, halfWidth, halfHeight, z = 0, margin = 0.08 }: FrameRegionProps) {
  const camera = useThree((state) => state.camera) as PerspectiveCamera;
  const controls = useThree((state) => state.controls) as unknown as TargetControls | null;
  const width = useThree((state) => state.size.width);
  const height = useThree((state) => state.size.height);
  const [cx, cy] = center;
  useEffect(() => {
    const tan = Math.tan(((camera.fov ?? 50) * Math.PI) / 360);
    const aspect = width / Math.max(1, height);
    const distance = Math.max(halfHeight / tan, halfWidth / (tan * aspect)) * (1 + margin);
    camera.position.set(cx, cy, z + distance);
    camera.near = Math.max(0.01, distance / 100);
    camera.far = distance * 10;
    camera.lookAt(cx, cy, z);
    camera.updateProjectionMatrix();
    if (controls) {
      controls.target.set(cx, cy, z);
      controls.update();
    }
  }, [camera, controls, width, height, cx, cy, z, halfWidth, halfHeight, margin]);
  return null;
}

/** The dark translucent box the teaching stories put their numbers in. */
export const panelStyle: CSSProperties = {
  background: 'rgba(14, 17, 23, 0.82)',
  border: '1px solid rgba(255, 255, 255, 0.08)',
  borderRadius: 6,
  padding: '8px 10px',
  font: '12px/1.45 system-ui, sans-serif',
  color: '#e8e8e8',
  pointerEvents: 'none',
};

/** A small coloured square, the legend of a curve. */
export function Swatch({ color }: { color: string }) {
  return <span style={{ display: 'inline-block', width: 10, height: 10, borderRadius: 2, background: color, marginRight: 6, verticalAlign: 'middle' }} />;
}

/** Degrees with one decimal, as the slides print them. */
export function degrees(radians: number): string {
  return `${((radians * 180) / Math.PI).toFixed(1)}°`;
}

/** A length in m, cm or mm, whichever reads best. */
export function length(m: number): string {
  const a = Math.abs(m);
  if (a >= 1) return `${m.toFixed(2)} m`;
  if (a >= 0.01) return `${(m * 100).toFixed(1)} cm`;
  return `${(m * 1000).toFixed(2)} mm`;
}

/** Props of {@link PlaceLabels}. */
export interface PlaceLabelsProps {
  /** HTML elements in a {@link LabelLayer}, by index. */
  elements: RefObject<(HTMLElement | null)[]>;
  /** World position of each element's anchor, by the same index. */
  positions: readonly (readonly [number, number, number])[];
}

/**
 * Keeps HTML labels over points of the scene: every frame projects each position
 * with the camera and moves its element there (only when it moved a pixel, so a
 * still camera writes nothing). Use inside the `<Canvas>`, with the elements in a
 * {@link LabelLayer} over the same canvas.
 */
export function PlaceLabels({ elements, positions }: PlaceLabelsProps) {
  const camera = useThree((state) => state.camera);
  const size = useThree((state) => state.size);
  const [scratch] = useState(() => ({ v: new Vector3(), last: [] as number[] }));
  useFrame(() => {
    const list = elements.current;
    if (!list) return;
    const { v, last } = scratch;
    for (let i = 0; i < positions.length; i++) {
      const element = list[i];
      const p = positions[i];
      if (!element || !p) continue;
      v.set(p[0], p[1], p[2]).project(camera);
      const hidden = v.z > 1 || v.z < -1;
      const x = hidden ? -9999 : Math.round(((v.x + 1) / 2) * size.width);
      const y = hidden ? -9999 : Math.round(((1 - v.y) / 2) * size.height);
      if (last[i * 2] === x && last[i * 2 + 1] === y) continue;
      last[i * 2] = x;
      last[i * 2 + 1] = y;
      element.style.left = `${x}px`;
      element.style.top = `${y}px`;
    }
  });
  return null;
}

/** A layer over the canvas for labels placed by {@link PlaceLabels}; its children should be absolutely positioned. */
export function LabelLayer({ children }: { children: ReactNode }) {
  return <div style={{ position: 'absolute', inset: 0, overflow: 'hidden', pointerEvents: 'none' }}>{children}</div>;
}

/** Style of one label: anchored at its centre (`anchor: 'center'`) or its left middle. */
export function labelStyle(color: string, anchor: 'center' | 'left' | 'top-left' = 'center'): CSSProperties {
  const translate = anchor === 'center' ? 'translate(-50%, -50%)' : anchor === 'left' ? 'translate(0, -50%)' : 'none';
  return { position: 'absolute', left: -9999, top: -9999, transform: translate, color, font: 'bold 13px system-ui, sans-serif', whiteSpace: 'nowrap', textShadow: '0 0 3px #000, 0 0 2px #000' };
}
