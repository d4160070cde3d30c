import { useMemo, useState } from 'react';
import { useEffect } from './effects.js';
import { PIN_DEFAULTS } from '../../core/defaults.js';
import { checkCompliance, checkDamping } from '../../core/materials.js';
import { toVec3, type Vec3, type Vec3Like } from '../../core/math.js';
import type { PinOptions, World } from '../../core/world.js';
import { PropChecks } from '../badProps.js';
import { useSinew } from '../context.js';
import type { ParticleRef } from '../particleRef.js';
import { useAttachment } from './useAttachment.js';
import { useLatest } from './useLatest.js';
import { useStableVec3 } from './useStableVec3.js';

/** A stable handle on a pin a component owns; `id` is -1 while it does not exist. */
export interface PinHandle {
  /** Constraint id in the core world. */
  readonly id: number;
  /** The pinned particle's id (-1 while detached). */
  readonly particle: number;
  /** Moves the target; the particle follows inside the next relaxation passes (inverse kinematics). */
  setTarget(target: Vec3Like): void;
  /** The current target, written into `out` when given. */
  target(out?: Vec3): Vec3;
}

class LivePin implements PinHandle {
  id = -1;
  particle = -1;
  constructor(private readonly world: World) {}
  setTarget(target: Vec3Like): void {
    if (this.id >= 0) this.world.setPinTarget(this.id, target);
  }
  target(out: Vec3 = [0, 0, 0]): Vec3 {
    const row = this.id < 0 ? -1 : this.world.pinRow(this.id);
    if (row < 0) return out;
    const t = this.world.pins.target;
    out[0] = t[row * 3]!;
    out[1] = t[row * 3 + 1]!;
    out[2] = t[row * 3 + 2]!;
    return out;
  }
}

/**
 * Pins a particle (handle, id or name) at `target`, or where it is when no
 * target is given: the paper's inverse kinematics. Changing `target` moves the
 * pin in place; unmounting releases the particle. With `options.compliance`
 * (m/N) the pin is a spring of k = 1/compliance instead (see `world.addPin`);
 * `compliance` and `damping` change in place.
 *
 * @example
 * ```tsx
 * function Puppeteer({ hand }: { hand: [number, number, number] }) {
 *   usePin('doll.rightHand', hand); // the hand follows the prop
 *   usePin('doll.leftHand', [0, 2, 0], { compliance: 0.01, damping: 2 }); // held by a soft spring
 *   return null;
 * }
 * ```
 */
export function usePin(particle: ParticleRef, target?: Vec3Like, options: PinOptions = {}): PinHandle {
  return usePinAs('usePin()', particle, target, options);
}

/** @internal {@link usePin} with errors that name `who`, the component using it. */
export function usePinAs(who: string, particle: ParticleRef, target?: Vec3Like, options: PinOptions = {}): PinHandle {
  const { world, store } = useSinew(who);
  const checks = new PropChecks(who);
  // Every bad prop in one error; the target is checked again (without throwing now) by useStableVec3.
  checks.run(() => target === undefined || toVec3(target, `${who}: target`));
  const compliance = checks.run(() => checkCompliance(options.compliance ?? PIN_DEFAULTS.compliance, `${who}: compliance`));
  const damping = checks.run(() => checkDamping(options.damping ?? PIN_DEFAULTS.damping, `${who}: damping`));
  checks.throwIfAny();
  const stableTarget = useStableVec3(target, `${who}: target`);
  const [handle] = useState(() => new LivePin(world));
  const latest = useLatest({ target: stableTarget, compliance, damping });
  const refs = useMemo(() => [particle], [particle]);
  useAttachment(store, who, ['particle'], refs, ([id]) => {
    const { target: at, compliance: alpha, damping: c } = latest.current;
    const pin = world.addPin(id!, at, { compliance: alpha, damping: c });
    handle.id = pin;
    handle.particle = id!;
    return {
      alive: () => world.hasConstraint(pin),
      detach: () => {
        world.removeConstraint(pin);
        handle.id = handle.particle = -1;
      },
    };
  });

  useEffect(() => {
    if (stableTarget && handle.id >= 0 && world.hasConstraint(handle.id)) world.setPinTarget(handle.id, stableTarget);
  }, [world, handle, stableTarget]);

  useEffect(() => {
    if (handle.id >= 0 && world.hasConstraint(handle.id)) world.setPin(handle.id, { compliance, damping });
  }, [world, handle, compliance, damping]);

  return handle;
}
