import { useMemo, useState } from 'react';
import { useEffect } from './effects.js';
import { STICK_DEFAULTS } from '../../core/defaults.js';
import { particleSlot } from '../../core/ids.js';
import { checkNumber } from '../../core/math.js';
import type { StickKind } from '../../core/constraints/sticks.js';
import type { StickOptions } from '../../core/world.js';
import type { World } from '../../core/world.js';
import { PropChecks } from '../badProps.js';
import { useSinew } from '../context.js';
import type { ParticleRef } from '../particleRef.js';
import { useAttachment } from './useAttachment.js';
import { useLatest } from './useLatest.js';

/** A stable handle on a stick a component owns; `id` is -1 while it does not exist. */
export interface StickHandle {
  /** Constraint id in the core world. */
  readonly id: number;
  /** Particle ids of the ends (-1 while detached). */
  readonly a: number;
  /** Particle id of the stick's second end (-1 while detached). */
  readonly b: number;
  /** Current distance between the ends. */
  length(): number;
  /** Relative stretch: (length - rest) / rest; 0 while detached. */
  strain(): number;
}

class LiveStick implements StickHandle {
  id = -1;
  a = -1;
  b = -1;
  constructor(private readonly world: World) {}
  length(): number {
    if (this.id < 0) return 0;
    const p = this.world.positions;
    // The columns are indexed by slot; an id carries its slot's generation once the slot is reused.
    const a = particleSlot(this.a) * 3;
    const b = particleSlot(this.b) * 3;
    return Math.hypot(p[b]! - p[a]!, p[b + 1]! - p[a + 1]!, p[b + 2]! - p[a + 2]!);
  }
  strain(): number {
    const row = this.id < 0 ? -1 : this.world.stickRow(this.id);
    if (row < 0) return 0;
    const rest = this.world.sticks.rest[row]!;
    return rest > 0 ? (this.length() - rest) / rest : 0;
  }
}

const KINDS: readonly StickKind[] = ['equal', 'min', 'max'];

/**
 * A distance constraint (the paper's stick) between two particles, given by
 * handle, id or name. Length, compliance, damping, kind and the per-pass
 * stiffness change in place.
 *
 * @example
 * ```tsx
 * function Arm() {
 *   useStick('shoulder', 'elbow', { compliance: 1e-4 }); // a spring of 10 kN/m
 *   useStick('elbow', 'hand', { kind: 'max' }); // a rope: only pulls
 *   return null;
 * }
 * ```
 */
export function useStick(a: ParticleRef, b: ParticleRef, options: StickOptions = {}): StickHandle {
  return useStickAs('useStick()', a, b, options);
}

/** @internal {@link useStick} with errors that name `who`, the component using it. */
export function useStickAs(who: string, a: ParticleRef, b: ParticleRef, options: StickOptions = {}): StickHandle {
  const { world, store } = useSinew(who);
  const checks = new PropChecks(who);
  const length = options.length === undefined ? undefined : checks.run(() => checkNumber(options.length, `${who}: length`, 0));
  const stiffness = checks.run(() => {
    if (checkNumber(options.stiffness ?? STICK_DEFAULTS.stiffness, `${who}: stiffness`, 0, 1) === 0) throw new RangeError(`${who}: stiffness must be in (0, 1], got 0`);
    return options.stiffness ?? STICK_DEFAULTS.stiffness;
  });
  const kind = options.kind ?? STICK_DEFAULTS.kind;
  const compliance = checks.run(() => checkNumber(options.compliance ?? STICK_DEFAULTS.compliance, `${who}: compliance`, 0));
  const damping = checks.run(() => checkNumber(options.damping ?? STICK_DEFAULTS.damping, `${who}: damping`, 0));
  checks.run(() => {
    if (!KINDS.includes(kind)) throw new RangeError(`${who}: kind must be 'equal', 'min' or 'max', got ${String(kind)}`);
  });
  checks.throwIfAny();

  const [handle] = useState(() => new LiveStick(world));
  const latest = useLatest({ length, stiffness, kind, compliance, damping });
  const refs = useMemo(() => [a, b], [a, b]);
  useAttachment(store, who, ['a', 'b'], refs, ([ia, ib]) => {
    if (ia === ib) throw new Error(`${who}: a and b must be different particles, both are particle ${ia}`);
    const id = world.addStick(ia!, ib!, latest.current);
    handle.id = id;
    handle.a = ia!;
    handle.b = ib!;
    return {
      alive: () => world.hasConstraint(id),
      detach: () => {
        world.removeConstraint(id);
        handle.id = handle.a = handle.b = -1;
      },
    };
  });

  useEffect(() => {
    if (handle.id >= 0 && world.hasConstraint(handle.id)) world.setStick(handle.id, { length, stiffness, kind, compliance, damping });
  }, [world, handle, length, stiffness, kind, compliance, damping]);

  return handle;
}
