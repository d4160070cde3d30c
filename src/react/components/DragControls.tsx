import { useThree } from '@react-three/fiber';
import { useState } from 'react';
import { useEffect } from '../hooks/effects.js';
import { particleSlot } from '../../core/ids.js';
import { Raycaster, Vector2, Vector3 } from 'three';
import { checkNumber, type Vec3 } from '../../core/math.js';
import { ParticleFlag } from '../../core/particles.js';
import { ParticleDrag } from '../../three/particleDrag.js';
import { pickParticle } from '../../three/pick.js';
import { useSinew } from '../context.js';
import { useLatest } from '../hooks/useLatest.js';
import { guarded } from '../guarded.js';

/** Camera controls as far as dragging needs them: drei's `OrbitControls` (and most others) have `enabled`. */
export interface ToggleableControls {
  /** Whether the controls respond to the pointer; switched off while dragging. */
  enabled: boolean;
}

/** Props of {@link DragControls}. */
export interface DragControlsProps {
  /** Default true; turning it off lets go of a particle being dragged. */
  enabled?: boolean;
  /** How near the pointer (in pixels) a particle's edge must be to be grabbed. Default 24. */
  radius?: number;
  /** Only particles passing this can be grabbed (by default every movable particle that is not pinned). */
  filter?: (particle: number) => boolean;
  /**
   * Let pinned particles be grabbed too (a cloth's pinned corner, a particle an
   * `<IKHandle>` holds). Default false: they belong to whoever pinned them, and
   * a press on an IK gizmo must not also grab the particle under it.
   */
  grabPinned?: boolean;
  /**
   * Camera controls to switch off while dragging, besides keeping the press
   * from every other listener on the canvas (which already stops drei's
   * `<OrbitControls>`, `makeDefault` or not). Default R3F's default controls
   * (those with `makeDefault`); give controls that listen elsewhere, e.g. on
   * the document.
   */
  controls?: ToggleableControls | null;
  /** Element to listen on. Default the element R3F listens on (the canvas's wrapper). */
  domElement?: HTMLElement;
  /** Called when a particle is grabbed. */
  onGrab?: (particle: number) => void;
  /** Called when it is let go, with the velocity it was thrown with (m/s). */
  onRelease?: (particle: number, velocity: Readonly<Vec3>) => void;
}

/**
 * Press on any simulated thing and drag it: the particle nearest the pointer
 * is pinned to the pointer on a plane through it facing the camera (the Hitman
 * "drag the corpse by the hand"), and released with the pointer's velocity, so
 * a flick throws it. Camera controls stop while dragging, whichever they are
 * and `makeDefault` or not: the listener runs in the capture phase, before
 * theirs, and keeps a press that grabs something from them (and from R3F's own
 * pointer events: a drag is not a click). The pin stays
 * on the free side of static colliders (see `PinGlide`): pulled into the floor,
 * a body lies on it, and let go it does not spring out.
 *
 * @example
 * ```tsx
 * <Canvas>
 *   <OrbitControls makeDefault />
 *   <World>
 *     <Ragdoll />
 *     <DragControls />
 *   </World>
 * </Canvas>
 * ```
 */
export const DragControls = guarded('<DragControls>', function DragControls(props: DragControlsProps) {
  const { world } = useSinew('<DragControls>');
  const get = useThree((state) => state.get);
  const [drag] = useState(() => new ParticleDrag(world));
  if (props.radius !== undefined) checkNumber(props.radius, '<DragControls>: radius', 0);
  const latest = useLatest(props);
  const { domElement } = props;
  // Re-subscribing on a change runs the clean-up below, which lets go of a held particle.
  const enabled = props.enabled !== false;

  useEffect(() => {
    const state = get();
    // `events.connected` is the element R3F listens on, or false before it connects (and in tests).
    const element: HTMLElement = domElement ?? ((state.events.connected as HTMLElement | false | undefined) || state.gl.domElement);
    const events: EventTarget = element.ownerDocument ?? element;
    const ndc = new Vector2();
    const raycaster = new Raycaster();
    const facing = new Vector3();
    let pointer = -1;
    let paused: ToggleableControls | null = null;
    let wasEnabled = true;

    const toNdc = (e: PointerEvent) => {
      const rect = element.getBoundingClientRect();
      ndc.set(((e.clientX - rect.left) / rect.width) * 2 - 1, -((e.clientY - rect.top) / rect.height) * 2 + 1);
      return rect;
    };
    const finish = () => {
      events.removeEventListener('pointermove', onMove as EventListener);
      events.removeEventListener('pointerup', onUp as EventListener);
      events.removeEventListener('pointercancel', onUp as EventListener);
      if (paused) paused.enabled = wasEnabled;
      paused = null;
      pointer = -1;
    };
    const onDown = (e: PointerEvent) => {
      const o = latest.current;
      if (!enabled || pointer >= 0 || (e.pointerType === 'mouse' && e.button !== 0)) return;
      const rect = toNdc(e);
      const { camera, controls } = get();
      const flags = world.particles.flags;
      const filter = (id: number) => (o.grabPinned || (flags[particleSlot(id)]! & ParticleFlag.Pinned) === 0) && (!o.filter || o.filter(id));
      const id = pickParticle(world, camera, { x: ndc.x, y: ndc.y, width: rect.width, height: rect.height, radius: o.radius ?? 24, filter });
      if (id < 0) return;
      camera.getWorldDirection(facing);
      drag.grab(id, facing, e.timeStamp / 1000);
      pointer = e.pointerId;
      // The press is the drag's alone: camera controls listening on this element or the canvas inside it
      // (drei's <OrbitControls> with or without makeDefault, TrackballControls, CameraControls...) never see
      // it, so they do not start orbiting. This listener runs first: it captures, on the element they listen on or an ancestor.
      e.stopImmediatePropagation();
      // Controls known by reference are switched off as well, for those that listen elsewhere (the document).
      paused = o.controls === undefined ? ((controls as ToggleableControls | null) ?? null) : o.controls;
      if (paused) {
        wasEnabled = paused.enabled;
        paused.enabled = false;
      }
      events.addEventListener('pointermove', onMove as EventListener);
      events.addEventListener('pointerup', onUp as EventListener);
      events.addEventListener('pointercancel', onUp as EventListener);
      o.onGrab?.(id);
    };
    const onMove = (e: PointerEvent) => {
      if (e.pointerId !== pointer) return;
      toNdc(e);
      raycaster.setFromCamera(ndc, get().camera);
      drag.drag(raycaster.ray.origin, raycaster.ray.direction, e.timeStamp / 1000);
    };
    const onUp = (e: PointerEvent) => {
      if (e.pointerId !== pointer) return;
      const id = drag.particle;
      if (e.type === 'pointercancel') drag.cancel();
      else drag.release(e.timeStamp / 1000);
      finish();
      if (id >= 0) latest.current.onRelease?.(id, drag.releaseVelocity);
    };

    element.addEventListener('pointerdown', onDown as EventListener, { capture: true });
    return () => {
      element.removeEventListener('pointerdown', onDown as EventListener, { capture: true });
      if (pointer >= 0) {
        drag.cancel();
        finish();
      }
    };
  }, [world, get, drag, latest, domElement, enabled]);

  return null;
});
