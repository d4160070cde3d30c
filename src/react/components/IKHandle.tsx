import { PivotControls } from '@react-three/drei';
import { useFrame } from '@react-three/fiber';
import { useCallback, useMemo, useRef, type ReactNode } from 'react';
import { useEffect } from '../hooks/effects.js';
import { Matrix4, Vector3, type Group } from 'three';
import type { Vec3 } from '../../core/math.js';
import type { World } from '../../core/world.js';
import { BodyDrag } from '../../core/motion/bodyDrag.js';
import { useSinew } from '../context.js';
import { usePinAs } from '../hooks/usePin.js';
import { useLatest } from '../hooks/useLatest.js';
import type { TypedParticleRef } from '../particleRef.js';
import { guarded } from '../guarded.js';
import { makeOn } from '../../worker/builders.js';

/** Props of {@link IKHandle}. */
export interface IKHandleProps<N extends string = string> {
  /** The particle to pose: a handle, id or name (`"doll.rightHand"`); a literal name's part is checked at compile time. */
  particle: TypedParticleRef<N>;
  /** Size of the gizmo. Default 0.25. */
  scale?: number;
  /** Keep the gizmo the same size on screen (then `scale` is in pixels). Default false. */
  fixed?: boolean;
  /** Draw the gizmo through other objects. Default true. */
  alwaysOnTop?: boolean;
  /** False removes the handle and lets the particle go. Default true. */
  enabled?: boolean;
  /** Called while dragging, with the new target (a reused tuple). */
  onDrag?: (position: Readonly<Vec3>) => void;
  /** Drawn at the handle; default a small sphere. */
  children?: ReactNode;
}

/**
 * A draggable gizmo (drei's `PivotControls`) that pins a particle to its
 * position: inverse kinematics by pinning, as in the paper, so a user poses an
 * arm or a ragdoll by hand. It appears where the particle is; dragging its
 * arrows or planes moves the pin, spread over the steps of each frame, so a
 * fast move at a low frame rate does not yank the limb, and kept on the free
 * side of static colliders: a hand posed into a wall stays on its surface.
 * Orbit controls pause while it is dragged.
 *
 * While its gizmo is dragged, a particle of a body is held as a drag holds it
 * (a `BodyDrag`): by a spring whose force limit comes from the body's mass and
 * sticks, its target within the body's reach of its pins, and the body given
 * at least four passes, so a ragdoll's hand pulled 3 m past its reach keeps
 * every bone within 2% (the body follows, or the hand lags). Let go, it pins
 * the particle rigidly where it came to rest, so the other handles of a posed
 * body stay exactly where they are. A particle of no body is pinned rigidly.
 *
 * @example
 * ```tsx
 * <Ragdoll name="doll" pose="T" />
 * <IKHandle particle="doll.leftHand" />
 * <IKHandle particle="doll.rightFoot" scale={0.2} />
 * ```
 */
export const IKHandle = guarded('<IKHandle>', function IKHandle<N extends string>({ enabled = true, ...props }: IKHandleProps<N>) {
  return enabled ? <ActiveIKHandle {...props} /> : null;
});

/** How slow (m/s) a released handle's particle must be, its target still, before the handle pins it rigidly where it is. */
const SETTLED_SPEED = 0.01;

// Guarded too: its own render checks the props, and `guarded` tries a component's own render only.
const ActiveIKHandle = guarded('<IKHandle>', function ActiveIKHandle({ particle, scale = 0.25, fixed = false, alwaysOnTop = true, onDrag, children }: Omit<IKHandleProps, 'enabled'>) {
  const pin = usePinAs('<IKHandle>', particle);
  const { world, worker } = useSinew('<IKHandle>');
  // One hold per pin: the pin is re-made when its particle is.
  const hold = useRef<BodyDrag | null>(null);
  // Cancels the per-step check that pins a released handle's particle rigidly once its spring has brought it in.
  const settling = useRef<(() => void) | undefined>(undefined);
  useEffect(
    () => () => {
      hold.current?.end();
      hold.current = null;
    },
    [],
  );
  const matrix = useMemo(() => new Matrix4(), []);
  const gizmo = useRef<Group>(null);
  const placedFor = useRef(-1);
  const scratch = useMemo(() => ({ target: [0, 0, 0] as Vec3, vector: new Vector3(), inverse: new Matrix4() }), []);
  const latestOnDrag = useLatest(onDrag);

  // When the pin appears (or is re-made), the gizmo jumps to it; after that the gizmo leads and the pin follows.
  useFrame(() => {
    if (pin.id === placedFor.current || pin.id < 0) return;
    placedFor.current = pin.id;
    pin.target(scratch.target);
    const parent = gizmo.current?.parent;
    scratch.vector.set(scratch.target[0], scratch.target[1], scratch.target[2]);
    if (parent) {
      parent.updateWorldMatrix(true, false);
      scratch.vector.applyMatrix4(scratch.inverse.copy(parent.matrixWorld).invert());
    }
    matrix.makeTranslation(scratch.vector.x, scratch.vector.y, scratch.vector.z);
    if (gizmo.current) gizmo.current.matrixWorldNeedsUpdate = true;
  });

  const handleDrag = useCallback(
    (_local: Matrix4, _deltaLocal: Matrix4, worldMatrix: Matrix4) => {
      scratch.vector.setFromMatrixPosition(worldMatrix);
      scratch.target[0] = scratch.vector.x;
      scratch.target[1] = scratch.vector.y;
      scratch.target[2] = scratch.vector.z;
      // No pin (its particle went away): nothing to drag.
      if (pin.id < 0 || world.pinRow(pin.id) < 0) return;
      settling.current?.();
      settling.current = undefined;
      let held = hold.current;
      if (held?.pin !== pin.id || held.world !== world) {
        held?.end();
        held = hold.current = makeOn(world, BodyDrag, world, pin.id);
      }
      held.to(scratch.target);
      latestOnDrag.current?.(scratch.target);
    },
    [pin, world, scratch, latestOnDrag],
  );

  // Let go, the spring brings the particle onto the gizmo (within the body's reach), and then the handle pins
  // it there rigidly (the paper's IK by pinning): held still, a pose asks nothing of a spring, and a posed
  // body's other handles stay exactly where they are.
  const handleDragEnd = useCallback(() => {
    settling.current?.();
    const id = pin.id;
    const last: Vec3 = [NaN, NaN, NaN];
    // Reads `r`, changes `w`: in a <World worker> the check runs once per frame that brought steps, reading the
    // shadow (the latest finished step) and sending its changes, which apply at the start of the next step.
    const check = (r: World, w: World) => {
      const row = r.pinRow(id);
      if (row >= 0) {
        const p = r.particles.position;
        const t = r.pins.target;
        const i = r.pins.particle[row]! * 3;
        const k = row * 3;
        // The glide still walks the target over the frame's steps, or the spring has not brought the particle in.
        const still = t[k] === last[0] && t[k + 1] === last[1] && t[k + 2] === last[2];
        last[0] = t[k]!;
        last[1] = t[k + 1]!;
        last[2] = t[k + 2]!;
        const q = r.particles.previous;
        const moving = Math.hypot(p[i]! - q[i]!, p[i + 1]! - q[i + 1]!, p[i + 2]! - q[i + 2]!) / r.substep;
        if (!still || moving > SETTLED_SPEED) return;
        if (!r.pins.isRigid(row)) {
          // Pinned where the spring brought it to rest: a hand short of an unreachable gizmo stays short, and the gizmo comes to it.
          w.setPin(id, { compliance: 0, damping: 0, maxForce: Infinity });
          w.setPinTarget(id, [p[i]!, p[i + 1]!, p[i + 2]!]);
          placedFor.current = -1;
        }
      }
      hold.current?.end();
      hold.current = null;
      settling.current?.();
      settling.current = undefined;
    };
    if (worker !== null) {
      settling.current = worker.afterFrame(() => check(worker.remote.shadow, world));
      return;
    }
    const settle = world.onAfterStep((w) => check(w, w));
    settling.current = () => world.remove(settle);
  }, [pin, world, worker]);
  useEffect(
    () => () => {
      settling.current?.();
      settling.current = undefined;
    },
    [world],
  );

  return (
    <PivotControls ref={gizmo} matrix={matrix} scale={scale} fixed={fixed} depthTest={!alwaysOnTop} disableRotations disableScaling onDrag={handleDrag} onDragEnd={handleDragEnd}>
      {children ?? (
        <mesh renderOrder={500}>
          <sphereGeometry args={[scale * 0.12, 16, 12]} />
          <meshBasicMaterial color="#ffd040" depthTest={!alwaysOnTop} />
        </mesh>
      )}
    </PivotControls>
  );
});
