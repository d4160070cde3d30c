// Pointer helpers for play functions: R3F listens to DOM pointer events, so
// dispatching real PointerEvents on the canvas drives <DragControls>, clicks and gizmos.
import { Vector3 } from 'three';
import type { Probe } from './WorldProbe.js';

/** Waits until `window.sinewProbes[name]` is published and its world has particles. */
export async function waitForProbe(name = 'main', timeoutMs = 10_000): Promise<Probe> {
  const start = Date.now();
  for (;;) {
    const probe = window.sinewProbes?.[name];
    if (probe && probe.world.particleCount > 0) return probe;
    if (Date.now() - start > timeoutMs) throw new Error(`no world "${name}" was published (is <WorldProbe /> inside the <World>?)`);
    await sleep(50);
  }
}

/** Canvas-relative pixel coordinates of particle `id` as the probe's camera sees it now. */
export function particleOnScreen(probe: Probe, id: number): [number, number] {
  const [x, y, z] = probe.world.getPosition(id);
  const ndc = new Vector3(x, y, z).project(probe.camera);
  const rect = probe.canvas.getBoundingClientRect();
  return [((ndc.x + 1) / 2) * rect.width, ((1 - ndc.y) / 2) * rect.height];
}

/** Resolves after `ms` milliseconds. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Dispatches a pointer event of `type` at canvas-relative pixel (x, y). */
export function pointer(canvas: HTMLCanvasElement, type: 'pointerdown' | 'pointermove' | 'pointerup' | 'click', x: number, y: number): void {
  const rect = canvas.getBoundingClientRect();
  const init: PointerEventInit = {
    bubbles: true,
    cancelable: true,
    composed: true,
    clientX: rect.left + x,
    clientY: rect.top + y,
    pointerId: 1,
    pointerType: 'mouse',
    isPrimary: true,
    button: 0,
    buttons: type === 'pointerup' || type === 'click' ? 0 : 1,
  };
  const EventType = type === 'click' ? MouseEvent : PointerEvent;
  canvas.dispatchEvent(new EventType(type, init));
}

/** Presses at `from`, moves to `to` in `steps` moves over `ms` milliseconds, and keeps holding. */
export async function dragTo(canvas: HTMLCanvasElement, from: [number, number], to: [number, number], steps = 20, ms = 600): Promise<void> {
  pointer(canvas, 'pointerdown', from[0], from[1]);
  for (let i = 1; i <= steps; i++) {
    await sleep(ms / steps);
    pointer(canvas, 'pointermove', from[0] + ((to[0] - from[0]) * i) / steps, from[1] + ((to[1] - from[1]) * i) / steps);
  }
}
