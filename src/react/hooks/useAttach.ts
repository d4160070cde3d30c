import { useFrame } from '@react-three/fiber';
import { useContext, useMemo, useState, type RefObject } from 'react';
import { Quaternion, Vector3, type Object3D } from 'three';
import { BodyAttachment } from '../../core/constraints/bodyAttachment.js';
import type { ParticleId } from '../../core/ids.js';
import { ATTACHMENT_DEFAULTS } from '../../core/defaults.js';
import { checkCompliance, checkDamping } from '../../core/materials.js';
import type { Vec3, Vec3Like } from '../../core/math.js';
import { Attachment, checkBreakForce } from '../../core/motion/attachment.js';
import { PropChecks } from '../badProps.js';
import { useSinew } from '../context.js';
import { ComponentErrorContext } from '../guarded.js';
import type { ParticleRef } from '../particleRef.js';
import { STEP_PRIORITY } from '../World.js';
import { useAttachment } from './useAttachment.js';
import { useLatest } from './useLatest.js';
import { makeOn } from '../../worker/builders.js';
import type { WorkerLink } from '../../worker/link.js';

/**
 * What particles can be attached to: a three.js object (or a ref holding one),
 * which drives them one-way, or the name of a sinew body (`"crate"`), which they
 * are tied to two-way (see `BodyAttachment`).
 */
export type AttachTarget = RefObject<Object3D | null> | Object3D | string;

/** Options of {@link useAttach}; read when the particles are attached. */
export interface UseAttachOptions {
  /**
   * Where each particle holds in the object's local frame (m): one point per
   * particle, or one for all. Default: where each particle is when attached.
   * Ignored for a body (the particles tie where they are).
   */
  offsets?: readonly Vec3Like[] | Vec3Like;
  /** Compliance in m/N: each particle hangs on a zero-length spring of k = 1/compliance. Default 0 (rigid). */
  compliance?: number;
  /** Constraint damping in N·s/m beside the spring (objects only). Default 0. */
  damping?: number;
  /** A particle lets go once its hold carries more than this force (N). Default Infinity (never). */
  breakForce?: number;
  /** Called when a particle lets go under `breakForce`, with the force it carried (N). */
  onBreak?: (particle: ParticleId, force: number) => void;
}

/** A stable handle on an attachment a component owns. */
export interface AttachHandle {
  /** The core attachment: an `Attachment` to an object, a `BodyAttachment` to a body; null while detached. */
  readonly current: Attachment | BodyAttachment | null;
  /** True while particle number `i` (in the order given) is held. */
  holds(i: number): boolean;
  /** The force (N) particle number `i`'s hold carried in the latest substep (0 for a rigid hold to an object, see `BREAKABLE_COMPLIANCE`). */
  force(i: number): number;
}

class LiveAttach implements AttachHandle {
  current: Attachment | BodyAttachment | null = null;
  /** True once the object went away and the particles were let go (reported once). */
  orphaned = false;
  holds(i: number): boolean {
    const a = this.current;
    if (a === null) return false;
    return a instanceof Attachment ? a.holds(i) : a.holding[i] === 1;
  }
  force(i: number): number {
    return this.current?.force(i) ?? 0;
  }
}

/**
 * Attaches particles (handles, ids or names: `"cape.0"`, `"rope.start"`) to a
 * moving three.js object at offsets in its local frame, or two-way to a sinew
 * body. Before every frame's steps (at `STEP_PRIORITY - 1`) it reads the
 * object's world matrix and hands the pose to the world, which spreads the move
 * over the frame's substeps. Move the object before that (in a `useFrame` of
 * lower priority, or in React state) and the particles follow in the same frame;
 * moved later, they follow one frame behind.
 *
 * Unmounting lets the particles go. An object that unmounts first (the ref
 * turns null) also lets them go, and is reported once to `<World onError>`: to
 * part without the report, unmount the attachment with the object.
 *
 * @example
 * ```tsx
 * function Caped() {
 *   const body = useRef<Mesh>(null);
 *   useAttach(body, ['cape.0', 'cape.9'], { breakForce: 50 });
 *   return <mesh ref={body}><boxGeometry /></mesh>;
 * }
 * ```
 */
export function useAttach(to: AttachTarget, particles: readonly ParticleRef[], options: UseAttachOptions = {}): AttachHandle {
  return useAttachAs('useAttach()', to, particles, options);
}

/** @internal {@link useAttach} with errors that name `who`, the component using it. */
export function useAttachAs(who: string, to: AttachTarget, particles: readonly ParticleRef[], options: UseAttachOptions = {}): AttachHandle {
  const { world, store, worker } = useSinew(who);
  const sink = useContext(ComponentErrorContext);
  const checks = new PropChecks(who);
  checks.run(() => {
    if (!Array.isArray(particles) || particles.length === 0) throw new TypeError(`${who}: particles must be a non-empty array of particle handles, ids or names, got ${String(particles)}`);
  });
  checks.run(() => {
    if (typeof to !== 'string' && (typeof to !== 'object' || to === null || !('current' in to || 'matrixWorld' in to)))
      throw new TypeError(`${who}: to must be a ref to a three.js object, an object, or a body name, got ${String(to)}`);
  });
  checks.run(() => checkCompliance(options.compliance ?? ATTACHMENT_DEFAULTS.compliance, `${who}: compliance`));
  checks.run(() => checkDamping(options.damping ?? ATTACHMENT_DEFAULTS.damping, `${who}: damping`));
  checks.run(() => checkBreakForce(options.breakForce, who));
  checks.throwIfAny();
  const [handle] = useState(() => new LiveAttach());
  const latest = useLatest({ to, options });
  // One key per list of the same references: an inline array keeps the attachment.
  const key = JSON.stringify(particles.map((p) => (typeof p === 'object' ? `#${p.id}` : p)));
  // eslint-disable-next-line react-hooks/exhaustive-deps -- the key stands for the list
  const refs = useMemo(() => [...particles], [key]);
  const names = useMemo(() => refs.map((_, i) => `particles[${i}]`), [refs]);
  const [pose] = useState(() => ({ position: new Vector3(), quaternion: new Quaternion(), scale: new Vector3() }));

  useAttachment(store, who, names, refs, (ids) => {
    const { to: target, options: o } = latest.current;
    const onBreak = (particle: ParticleId, force: number) => latest.current.options.onBreak?.(particle, force);
    // A worker cannot call back into this thread: its breaks come back as events (see WorkerLink.onBreak).
    const common = { compliance: o.compliance, breakForce: o.breakForce, onBreak: worker === null ? onBreak : undefined };
    let made: Attachment | BodyAttachment;
    if (typeof target === 'string') {
      made = makeOn(world, BodyAttachment, world, ids, bodyParticles(store.getState().bodies, target, who), common);
    } else {
      const object = objectOf(target);
      if (object === null) throw new Error(`${who}: to is a ref that holds no object: give it to a mounted object (<mesh ref={ref}>)`);
      readPose(object, pose);
      const at = sendable(pose, worker);
      made = makeOn(world, Attachment, world, ids, { ...common, damping: o.damping, offsets: o.offsets, position: at.position, quaternion: at.quaternion, scale: at.scale });
    }
    handle.current = made;
    const unheard = worker?.onBreak(made, (particle) => onBreak(particle, NaN));
    handle.orphaned = false;
    return {
      alive: () => !made.isRemoved,
      detach: () => {
        unheard?.();
        made.remove();
        if (handle.current === made) handle.current = null;
      },
    };
  });

  useFrame(() => {
    const current = handle.current;
    if (!(current instanceof Attachment) || current.isRemoved) return;
    const object = objectOf(latest.current.to);
    if (object === null) {
      // The object unmounted before its attachment: nothing to follow, so let go (holding a pose nothing shows would hang the cloth from thin air).
      current.remove();
      handle.current = null;
      if (!handle.orphaned) {
        handle.orphaned = true;
        const error = new Error(`${who}: the object it was attached to unmounted, so the particles were let go; unmount the attachment with its object to part without this report`);
        if (sink) sink.report(error, who);
        else console.warn(error.message);
      }
      return;
    }
    readPose(object, pose);
    const at = sendable(pose, worker);
    current.setPose(at.position, at.quaternion, at.scale);
  }, STEP_PRIORITY - 1);

  return handle;
}

/** Plain arrays of a pose, written in place, for a worker's world (three.js objects cannot be sent). */
const plainPoses = new WeakMap<object, { position: Vec3; quaternion: [number, number, number, number]; scale: Vec3 }>();

/** `pose` as a world can take it: itself on the main thread, copied into plain arrays for a worker. */
function sendable(pose: { position: Vector3; quaternion: Quaternion; scale: Vector3 }, worker: WorkerLink | null) {
  if (worker === null) return pose;
  let plain = plainPoses.get(pose);
  if (plain === undefined) plainPoses.set(pose, (plain = { position: [0, 0, 0], quaternion: [0, 0, 0, 1], scale: [1, 1, 1] }));
  pose.position.toArray(plain.position);
  pose.quaternion.toArray(plain.quaternion);
  pose.scale.toArray(plain.scale);
  return plain;
}

/** The object a target names now: null for a ref without one. */
function objectOf(to: AttachTarget): Object3D | null {
  if (typeof to === 'string') return null;
  return 'matrixWorld' in to ? to : (to.current ?? null);
}

/** The object's world pose, read from its matrix brought up to date (the renderer updates it only when drawing). */
function readPose(object: Object3D, out: { position: Vector3; quaternion: Quaternion; scale: Vector3 }): void {
  object.updateWorldMatrix(true, false);
  object.matrixWorld.decompose(out.position, out.quaternion, out.scale);
}

/** Every particle of the named body, the anchors of a two-way tie. */
function bodyParticles(bodies: Record<string, { first: number; count: number }>, name: string, who: string): number[] {
  const body = Object.hasOwn(bodies, name) ? bodies[name] : undefined;
  if (!body || body.first < 0) throw new Error(`${who}: to names no body "${name}" in this <World>`);
  return Array.from({ length: body.count }, (_, k) => body.first + k);
}
