// Three.js plot panels for the Integrators story: a framed rectangle in the
// z = 0 plane with the closed form drawn faint and numerical runs traced step
// by step, clipped to the frame. Built once per change of the controls; each
// frame only moves draw ranges and markers.
import { useFrame } from '@react-three/fiber';
import { useEffect, useMemo } from 'react';
import * as THREE from 'three';
import type { Vec3 } from '../../src/core/math.js';
import type { ScenarioSpec } from './teachingIntegrators.js';

/** A rectangle of the z = 0 plane (world units). */
export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** One numerical run to trace in a panel. */
export interface Curve {
  /** Plot coordinates (u, v) after each step, step 0 first. */
  plot: Float32Array;
  steps: number;
  dt: number;
  color: string;
}

/** Props of {@link PlotPanel}. */
export interface PlotPanelProps {
  spec: ScenarioSpec;
  curves: readonly Curve[];
  rect: Rect;
  /** World units per screen pixel, for pixel-sized markers. */
  pixel: number;
  /** Simulated seconds per real second of the tracing. */
  playback: number;
}

/** Seconds the finished traces stay on screen before they start again. */
const HOLD = 1.2;
const EXACT_SAMPLES = 480;

/** Maps plot coordinates into a rect, keeping the scene's aspect when asked. */
function mapping(spec: ScenarioSpec, rect: Rect) {
  const [u0, u1, v0, v1] = spec.window;
  let su = rect.width / (u1 - u0);
  let sv = rect.height / (v1 - v0);
  if (spec.equalAspect) su = sv = Math.min(su, sv);
  const cx = rect.x + rect.width / 2;
  const cy = rect.y + rect.height / 2;
  const uc = (u0 + u1) / 2;
  const vc = (v0 + v1) / 2;
  return { x: (u: number) => cx + (u - uc) * su, y: (v: number) => cy + (v - vc) * sv };
}

/** The four planes that keep drawing inside `rect`. */
function clipPlanes(rect: Rect): THREE.Plane[] {
  return [
    new THREE.Plane(new THREE.Vector3(1, 0, 0), -rect.x),
    new THREE.Plane(new THREE.Vector3(-1, 0, 0), rect.x + rect.width),
    new THREE.Plane(new THREE.Vector3(0, 1, 0), -rect.y),
    new THREE.Plane(new THREE.Vector3(0, -1, 0), rect.y + rect.height),
  ];
}

/**
 * One panel: a dark frame with zero axes, the closed form (faint white), and each
 * curve traced in its colour up to the current time, with a dot per step and a
 * marker at the newest step; a white ring marks where the exact solution is then.
 */
export function PlotPanel({ spec, curves, rect, pixel, playback }: PlotPanelProps) {
  const built = useMemo(() => {
    const map = mapping(spec, rect);
    const clipping = clipPlanes(rect);
    const group = new THREE.Group();
    const disposables: { dispose(): void }[] = [];
    const own = <T extends { dispose(): void }>(thing: T) => {
      disposables.push(thing);
      return thing;
    };

    const backing = new THREE.Mesh(own(new THREE.PlaneGeometry(rect.width, rect.height)), own(new THREE.MeshBasicMaterial({ color: '#1f242d' })));
    backing.position.set(rect.x + rect.width / 2, rect.y + rect.height / 2, -0.01);
    group.add(backing);

    const frame = own(
      new THREE.BufferGeometry().setFromPoints([
        new THREE.Vector3(rect.x, rect.y, 0),
        new THREE.Vector3(rect.x + rect.width, rect.y, 0),
        new THREE.Vector3(rect.x + rect.width, rect.y + rect.height, 0),
        new THREE.Vector3(rect.x, rect.y + rect.height, 0),
      ]),
    );
    group.add(new THREE.LineLoop(frame, own(new THREE.LineBasicMaterial({ color: '#4a5260' }))));

    // Zero axes where the window holds them.
    const [u0, u1, v0, v1] = spec.window;
    const axes: THREE.Vector3[] = [];
    if (v0 < 0 && v1 > 0) axes.push(new THREE.Vector3(rect.x, map.y(0), 0), new THREE.Vector3(rect.x + rect.width, map.y(0), 0));
    if (u0 < 0 && u1 > 0) axes.push(new THREE.Vector3(map.x(0), rect.y, 0), new THREE.Vector3(map.x(0), rect.y + rect.height, 0));
    if (v0 === 0) axes.push(new THREE.Vector3(rect.x, map.y(0), 0), new THREE.Vector3(rect.x + rect.width, map.y(0), 0));
    if (axes.length > 0) group.add(new THREE.LineSegments(own(new THREE.BufferGeometry().setFromPoints(axes)), own(new THREE.LineBasicMaterial({ color: '#363c47', clippingPlanes: clipping }))));

    // The closed form, sampled finely.
    const exact = new Float32Array((EXACT_SAMPLES + 1) * 3);
    const p: Vec3 = [0, 0, 0];
    for (let i = 0; i <= EXACT_SAMPLES; i++) {
      const t = (spec.duration * i) / EXACT_SAMPLES;
      spec.exact(t, p);
      exact[i * 3] = map.x(spec.plotU(p, t));
      exact[i * 3 + 1] = map.y(spec.plotV(p, t));
    }
    const exactGeometry = own(new THREE.BufferGeometry());
    exactGeometry.setAttribute('position', new THREE.BufferAttribute(exact, 3));
    group.add(new THREE.Line(exactGeometry, own(new THREE.LineBasicMaterial({ color: '#ffffff', transparent: true, opacity: 0.45, clippingPlanes: clipping }))));

    const ringGeometry = own(new THREE.RingGeometry(4 * pixel, 6 * pixel, 20));
    const dotGeometry = own(new THREE.CircleGeometry(4.5 * pixel, 16));
    const exactMarker = new THREE.Mesh(ringGeometry, own(new THREE.MeshBasicMaterial({ color: '#ffffff', clippingPlanes: clipping })));
    exactMarker.position.z = 0.02;
    group.add(exactMarker);

    const traces = curves.map((curve) => {
      const positions = new Float32Array((curve.steps + 1) * 3);
      for (let n = 0; n <= curve.steps; n++) {
        positions[n * 3] = map.x(curve.plot[n * 2]!);
        positions[n * 3 + 1] = map.y(curve.plot[n * 2 + 1]!);
        positions[n * 3 + 2] = 0.01;
      }
      const geometry = own(new THREE.BufferGeometry());
      geometry.setAttribute('position', new THREE.BufferAttribute(positions, 3));
      const line = new THREE.Line(geometry, own(new THREE.LineBasicMaterial({ color: curve.color, clippingPlanes: clipping })));
      const dots = new THREE.Points(geometry, own(new THREE.PointsMaterial({ color: curve.color, size: 3.5, sizeAttenuation: false, clippingPlanes: clipping })));
      const marker = new THREE.Mesh(dotGeometry, own(new THREE.MeshBasicMaterial({ color: curve.color, clippingPlanes: clipping })));
      marker.position.z = 0.03;
      line.frustumCulled = dots.frustumCulled = false;
      group.add(line, dots, marker);
      return { curve, positions, geometry, marker };
    });
    // Where the exact solution is at each step of the first curve, for the ring (nothing computed per frame).
    const first = curves[0];
    const exactAtSteps = new Float32Array(first ? (first.steps + 1) * 2 : 0);
    if (first) {
      for (let n = 0; n <= first.steps; n++) {
        const t = n * first.dt;
        spec.exact(t, p);
        exactAtSteps[n * 2] = map.x(spec.plotU(p, t));
        exactAtSteps[n * 2 + 1] = map.y(spec.plotV(p, t));
      }
    }
    return { group, disposables, traces, exactMarker, exactAtSteps };
  }, [spec, curves, rect, pixel]);

  useEffect(
    () => () => {
      for (const thing of built.disposables) thing.dispose();
    },
    [built],
  );

  useFrame(({ clock }) => {
    const { traces, exactMarker, exactAtSteps } = built;
    const cycle = spec.duration + HOLD;
    const time = Math.min(spec.duration, (clock.elapsedTime * playback) % cycle);
    for (let i = 0; i < traces.length; i++) {
      const trace = traces[i]!;
      const k = Math.min(trace.curve.steps, Math.floor(time / trace.curve.dt + 1e-9));
      trace.geometry.setDrawRange(0, k + 1);
      trace.marker.position.x = trace.positions[k * 3]!;
      trace.marker.position.y = trace.positions[k * 3 + 1]!;
      // The ring: the exact solution at the time of the first curve's newest step.
      if (i === 0) {
        exactMarker.position.x = exactAtSteps[k * 2]!;
        exactMarker.position.y = exactAtSteps[k * 2 + 1]!;
      }
    }
  });

  return <primitive object={built.group} />;
}
