import { useFrame, useThree } from '@react-three/fiber';
import { useRef, useState } from 'react';
import { useEffect, useLayoutEffect } from '../hooks/effects.js';
import type { World } from '../../core/world.js';
import { ColliderWireframes } from '../../three/colliderWireframes.js';
import { ParticlePoints, StickLines } from '../../three/debugViews.js';
import { useSinew } from '../context.js';
import type { FrameInfo } from '../store.js';
import { guarded } from '../guarded.js';

/** Props of {@link Debug}. */
export interface DebugProps {
  /** Particles as points (pinned and immovable ones red). Default true. */
  particles?: boolean;
  /** Sticks as lines coloured by strain. Default true. */
  sticks?: boolean;
  /** Colliders as wireframes. Default true. */
  colliders?: boolean;
  /** A small text panel over the canvas: counts and milliseconds per step. Default true. */
  stats?: boolean;
  /** Point size in pixels. Default 6. */
  pointSize?: number;
  /** Strain at which a stick is drawn fully red (stretched) or blue (compressed). Default 0.05. */
  strainScale?: number;
}

/** Seconds between stats panel updates: a readable rate, and no string building per frame. */
const PANEL_INTERVAL = 0.25;

/**
 * Shows what the solver sees: every particle as a point, every stick as a line
 * coloured by strain (green at rest, red stretched, blue compressed), colliders
 * as wireframes, and a stats panel. Everything is written in place each frame;
 * nothing re-renders.
 *
 * @example
 * ```tsx
 * <World>
 *   <Cloth width={20} height={20} pin="top-corners" />
 *   {debug && <Debug strainScale={0.02} />}
 * </World>
 * ```
 */
export const Debug = guarded('<Debug>', function Debug({ particles = true, sticks = true, colliders = true, stats = true, pointSize = 6, strainScale = 0.05 }: DebugProps) {
  const { world, frame } = useSinew('<Debug>');
  const [views] = useState(() => ({ points: new ParticlePoints(pointSize), lines: new StickLines(strainScale), wires: new ColliderWireframes() }));
  useEffect(
    () => () => {
      views.points.dispose();
      views.lines.dispose();
      views.wires.dispose();
    },
    [views],
  );
  useLayoutEffect(() => {
    views.points.object.material.size = pointSize;
    views.lines.strainScale = strainScale;
  }, [views, pointSize, strainScale]);

  const panel = useStatsPanel(stats);
  const sincePanel = useRef(PANEL_INTERVAL);
  useFrame((_, delta) => {
    if (particles) views.points.update(world, frame);
    if (sticks) views.lines.update(world, frame);
    if (colliders) views.wires.update(world);
    sincePanel.current += delta;
    if (panel.current && sincePanel.current >= PANEL_INTERVAL) {
      sincePanel.current = 0;
      panel.current.textContent = formatStats(world, frame);
    }
  });

  return (
    <>
      <primitive object={views.points.object} visible={particles} />
      <primitive object={views.lines.object} visible={sticks} />
      <primitive object={views.wires.object} visible={colliders} />
    </>
  );
});

/**
 * One line of numbers about the world, as the stats panel shows it.
 *
 * @example
 * ```ts
 * formatStats(world, store.getState().frame); // "particles 48 · constraints 190 · colliders 1 · 0.21 ms/step"
 * ```
 */
export function formatStats(world: World, frame: FrameInfo): string {
  return `particles ${world.particleCount} · constraints ${world.constraintCount} · colliders ${world.colliders.length} · ${frame.msPerStep.toFixed(2)} ms/step`;
}

/** A text element over the canvas (absent where there is no DOM, as in tests). */
function useStatsPanel(enabled: boolean) {
  const gl = useThree((state) => state.gl);
  const events = useThree((state) => state.events);
  const panel = useRef<HTMLElement | null>(null);
  useEffect(() => {
    const host = (events.connected as HTMLElement | false | undefined) || gl.domElement.parentElement;
    if (!enabled || !host || typeof document === 'undefined') return undefined;
    const div = document.createElement('div');
    Object.assign(div.style, {
      position: 'absolute',
      top: '8px',
      left: '8px',
      padding: '4px 8px',
      font: '12px/1.4 ui-monospace, monospace',
      color: '#e8f0ff',
      background: 'rgba(10, 14, 20, 0.7)',
      borderRadius: '4px',
      pointerEvents: 'none',
      zIndex: '10',
    });
    host.appendChild(div);
    panel.current = div;
    return () => {
      div.remove();
      panel.current = null;
    };
  }, [enabled, gl, events]);
  return panel;
}
