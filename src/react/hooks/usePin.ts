import { useEffect, useMemo, useState } from 'react';
import type { Vec3, Vec3Like } from '../../core/math.js';
import type { World } from '../../core/world.js';
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
 * pin in place; unmounting releases the particle.
 *
 * @example
 * ```tsx
 * function Puppeteer({ hand }: { hand: [number, number, number] }) {
 *   usePin('doll.rightHand', hand); // the hand follows the prop
 *   return null;
 * }
 * ```
 */
export function usePin(particle: ParticleRef, target?: Vec3Like): PinHandle {
  return usePinAs('usePin()', particle, target);
}

/** @internal {@link usePin} with errors that name `who`, the component using it. */
export function usePinAs(who: string, particle: ParticleRef, target?: Vec3Like): PinHandle {
  const { world, store } = useSinew(who);
  const stableTarget = useStableVec3(target, `${who}: target`);
  const [handle] = useState(() => new LivePin(world));
  const latest = useLatest(stableTarget);
  const refs = useMemo(() => [particle], [particle]);
  useAttachment(store, who, ['particle'], refs, ([id]) => {
    const pin = world.addPin(id!, latest.current);
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

  return handle;
}
