import { useRapier } from '@react-three/rapier';
import { useContext, useImperativeHandle, useState, type Ref } from 'react';
import { useEffect } from '../react/hooks/effects.js';
// sinew's hooks through the sinew entry, as bridge.ts reaches the engine (see there why).
import { SinewContext, useWorld } from '../index.js';
import { ComponentErrorContext, guarded } from '../react/guarded.js';
import { bridgeRapier, type RapierBridge as RapierBridgeHandle } from './bridge.js';
import type { RapierColliderLike, RapierWorldLike } from './rapierTypes.js';

/** Props of {@link RapierBridge}. */
export interface RapierBridgeProps {
  /**
   * Told once about each Rapier collider whose shape sinew cannot follow
   * (Cylinder, Cone, HeightField, the rounded shapes…): particles pass through
   * it. Default: `console.warn`.
   */
  onUnsupported?: (message: string, collider: RapierColliderLike) => void;
  /** Receives the bridge once it runs (null after unmounting): `ref.current.attach(particle, rigidBody)` ties particles to Rapier bodies. */
  ref?: Ref<RapierBridgeHandle | null>;
}

/**
 * Puts a sinew `<World>` and a @react-three/rapier `<Physics>` in one scene:
 * Rapier's colliders act as sinew kinematic colliders (balls, cuboids,
 * capsules, convex hulls, trimeshes), dynamic Rapier bodies yield to sinew's
 * contacts and attachments two-way, so a hammock catches a Rapier ball and a
 * rope lifts a Rapier crate. Place it inside both (`<Physics>` outside
 * `<World>`, or the other way round) and give `<Physics>` the props
 * `paused timeStep="vary"`: sinew's clock then steps Rapier, once at the start
 * of every sinew step with sinew's `timeStep` (through @react-three/rapier's
 * own step, which moves its meshes), so the two never drift apart. Unmounting
 * removes everything the bridge added. See `bridgeRapier` for what is coupled how.
 *
 * An error (`<Physics>` not paused, or stepping Rapier at another rate) goes to
 * `<World onError>` and the bridge stops.
 *
 * @example
 * ```tsx
 * <Physics paused timeStep="vary">
 *   <World>
 *     <RapierBridge />
 *     <Cloth name="hammock" width={16} height={16} spacing={0.08} orientation="horizontal" position={[-0.6, 1, -0.6]} pin="corners" />
 *     <RigidBody colliders="ball" position={[0, 2, 0]} linearDamping={2}>
 *       <mesh><sphereGeometry args={[0.15]} /></mesh>
 *     </RigidBody>
 *   </World>
 * </Physics>
 * ```
 */
export const RapierBridge = guarded('<RapierBridge>', function RapierBridge(props: RapierBridgeProps) {
  // First: the combination is refused whatever else is missing.
  if (useContext(SinewContext)?.worker)
    throw new Error(
      "<RapierBridge> cannot run in a <World worker>: the bridge steps Rapier's world, which lives on the main thread, inside sinew's steps, which run in the physics worker. Remove the worker prop from this <World> to use the bridge",
    );
  const rapier = useRapier();
  const world = useWorld();
  const errors = useContext(ComponentErrorContext);
  const [bridge, setBridge] = useState<RapierBridgeHandle | null>(null);
  if (!rapier.isPaused) {
    throw new Error('<RapierBridge>: give <Physics> the props paused timeStep="vary": sinew\'s step steps Rapier, and a <Physics> stepping itself as well would run Rapier twice per frame');
  }
  const { world: rapierWorld, step } = rapier;
  const onUnsupported = props.onUnsupported;
  useEffect(() => {
    let failed = false;
    const handle: { current: RapierBridgeHandle | null } = { current: null };
    const stepRapier = () => {
      if (failed) return;
      const dt = world.timeStepValue;
      step(dt);
      // <Physics timeStep={x}> steps Rapier in whole steps of x whatever it is given: it must be
      // sinew's (Rapier keeps it in float32, hence the tolerance).
      if (Math.abs(rapierWorld.timestep - dt) > 1e-6 * dt) {
        failed = true;
        const error = new Error(
          `<RapierBridge>: <Physics> stepped Rapier by ${rapierWorld.timestep} s for a sinew step of ${dt} s; give <Physics> timeStep="vary" (or timeStep={${dt}}). The bridge stopped.`,
        );
        queueMicrotask(() => handle.current?.remove());
        if (errors) errors.report(error, '<RapierBridge>');
        else console.error(error);
      }
    };
    handle.current = bridgeRapier(rapierWorld as unknown as RapierWorldLike, world, { stepRapier, ...(onUnsupported ? { onUnsupported } : {}) });
    setBridge(handle.current);
    return () => {
      handle.current?.remove();
      setBridge(null);
    };
  }, [rapierWorld, step, world, onUnsupported, errors]);
  useImperativeHandle(props.ref, () => bridge as RapierBridgeHandle, [bridge]);
  return null;
});
