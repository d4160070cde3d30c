import { useImperativeHandle, type Ref } from 'react';
import type { ParticleId } from '../../core/ids.js';
import type { Vec3Like } from '../../core/math.js';
import { useAttachAs, type AttachHandle, type AttachTarget } from '../hooks/useAttach.js';
import type { ParticleRef } from '../particleRef.js';
import { guarded } from '../guarded.js';

/** Props of {@link Attach}. */
export interface AttachProps {
  /** What to attach to: a ref to a three.js object (or the object), which drives the particles; or a sinew body's name, tied two-way. */
  to: AttachTarget;
  /** The particles to attach: handles, ids or names (`"cape.0"`, `"rope.start"`, `"doll.leftHand"`). */
  particles: readonly ParticleRef[];
  /** Where each particle holds in the object's local frame (m), one per particle or one for all. Default: where each is when attached. */
  offset?: readonly Vec3Like[] | Vec3Like;
  /** Compliance in m/N: a zero-length spring of k = 1/compliance per particle. Default 0 (rigid). */
  compliance?: number;
  /** Constraint damping in N·s/m beside the spring (objects only). Default 0. */
  damping?: number;
  /** A particle lets go once its hold carries more than this force (N). Default: never. */
  breakForce?: number;
  /** Called when a particle lets go under `breakForce`, with the force it carried (N). */
  onBreak?: (particle: ParticleId, force: number) => void;
  /** Receives the attachment's handle. */
  ref?: Ref<AttachHandle>;
}

/**
 * Attaches particles to a moving three.js object (a cape's top row to a
 * character's shoulders, a rope's end to a car, a cloth corner to a bone),
 * following it every frame with the move spread over the substeps; or, with
 * `to` a body's name, ties them two-way to that sinew body (a heavy rope pulls
 * a light box). The props are read when attaching. Unmounting lets go; an
 * object that unmounts first lets go too and is reported to `<World onError>`.
 * See {@link useAttach}.
 *
 * @example
 * ```tsx
 * const car = useRef<Mesh>(null);
 * <mesh ref={car}><boxGeometry /></mesh>
 * <Rope name="tow" from={[0.5, 0.3, 0]} to={[2.5, 0.3, 0]} segments={20} />
 * <Attach to={car} particles={['tow.start']} breakForce={200} />
 * ```
 */
export const Attach = guarded('<Attach>', function Attach({ to, particles, offset, compliance, damping, breakForce, onBreak, ref }: AttachProps) {
  const handle = useAttachAs('<Attach>', to, particles, { offsets: offset, compliance, damping, breakForce, onBreak });
  useImperativeHandle(ref, () => handle, [handle]);
  return null;
});
