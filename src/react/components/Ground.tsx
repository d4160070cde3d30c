import { useImperativeHandle, useMemo, type ReactNode, type Ref } from 'react';
import { COLLIDER_DEFAULTS } from '../../core/defaults.js';
import { checkNumber } from '../../core/math.js';
import { useColliderAs, type ColliderHandle } from '../hooks/useCollider.js';
import { PropChecks } from '../badProps.js';
import { guarded } from '../guarded.js';

/** Props of {@link Ground}. */
export interface GroundProps {
  /** Height of the floor (m). Default 0. */
  height?: number;
  /** Surface friction μ (a contact's μ is particle friction × this). Default 1. */
  friction?: number;
  /** Bounciness in [0, 1]: a contact bounces with the larger of this and the particle's restitution. Default 0. */
  restitution?: number;
  /** Draw the floor. Default true; `false` keeps it solid but draws nothing (to draw your own elsewhere). */
  visible?: boolean;
  /** Colour of the default floor. Default `'#7a808a'`, a mid grey that a dark or a light background both set off. */
  color?: string;
  /** Side of the default floor's square, in m (the collider itself is infinite). Default 40. */
  size?: number;
  /** Whether the default floor receives shadows. Default true. */
  receiveShadow?: boolean;
  /** Drawn at the floor's height instead of the default floor, e.g. your own plane mesh rotated flat. */
  children?: ReactNode;
  /** Receives the collider handle: the core collider id and the collider (null while it does not exist). */
  ref?: Ref<ColliderHandle>;
}

/**
 * An infinite horizontal floor: everything below `height` is solid. It draws a
 * square floor (`size` m, with a grid every metre) at that height, so bodies do
 * not lie in a void; `children` draw something else instead, and
 * `visible={false}` draws nothing.
 *
 * @example
 * ```tsx
 * <Ground />
 * <Ground height={-1} color="#556b2f" size={10} />
 * <Ground friction={0.8}>
 *   <mesh rotation-x={-Math.PI / 2}><planeGeometry args={[10, 10]} /><meshStandardMaterial /></mesh>
 * </Ground>
 * ```
 */
export const Ground = guarded(
  '<Ground>',
  function Ground({
    height = 0,
    friction = COLLIDER_DEFAULTS.friction,
    restitution = COLLIDER_DEFAULTS.restitution,
    visible = true,
    color = '#7a808a',
    size = 40,
    receiveShadow = true,
    children,
    ref,
  }: GroundProps) {
    const checks = new PropChecks('<Ground>');
    checks.run(() => checkNumber(height, '<Ground>: height'));
    checks.run(() => checkNumber(friction, '<Ground>: friction', 0));
    checks.run(() => checkNumber(restitution, '<Ground>: restitution', 0, 1));
    checks.run(() => {
      if (checkNumber(size, '<Ground>: size', 0) === 0) throw new RangeError('<Ground>: size must be > 0, got 0');
    });
    checks.run(() => {
      if (typeof visible !== 'boolean') throw new TypeError(`<Ground>: visible must be true or false, got ${String(visible)}`);
    });
    checks.throwIfAny();
    const shape = useMemo(() => ({ type: 'plane', normal: [0, 1, 0], offset: height, friction, restitution }) as const, [height, friction, restitution]);
    const handle = useColliderAs('<Ground>', shape);
    useImperativeHandle(ref, () => handle, [handle]);
    if (!visible) return null;
    return <group position={[0, height, 0]}>{children ?? <DefaultFloor color={color} size={size} receiveShadow={receiveShadow} />}</group>;
  },
);

/** A flat square with a 1 m grid a hair above it (so the lines do not flicker in and out of the plane). */
function DefaultFloor({ color, size, receiveShadow }: { color: string; size: number; receiveShadow: boolean }) {
  const cells = Math.max(1, Math.round(size));
  return (
    <>
      <mesh rotation-x={-Math.PI / 2} receiveShadow={receiveShadow}>
        <planeGeometry args={[size, size]} />
        <meshStandardMaterial color={color} roughness={0.95} />
      </mesh>
      <gridHelper args={[size, cells, '#5f656e', '#6c727b']} position={[0, 0.002, 0]} />
    </>
  );
}
