import { useFrame } from '@react-three/fiber';
import { useImperativeHandle, useRef, useState, type ReactNode, type Ref } from 'react';
import { useEffect, useLayoutEffect } from '../hooks/effects.js';
import type { Group } from 'three';
import { ANIMATED_RAGDOLL_DEFAULTS } from '../../core/defaults.js';
import type { RagdollPart } from '../../core/bodies/ragdollSkeleton.js';
import { AnimatedRagdoll, type RagdollStrength } from '../../three/animatedRagdoll.js';
import { useSinew } from '../context.js';
import { guarded } from '../guarded.js';
import { STEP_PRIORITY } from '../World.js';

/** Props of {@link CharacterRagdoll}. */
export interface CharacterRagdollProps {
  /** The character: a model holding a skeleton (`<primitive object={gltf.scene} />`), animated by a mixer or drei's `useAnimations`. */
  children: ReactNode;
  /** Bone name per ragdoll part for rigs not named like Mixamo's (see `fitRagdoll`). Read when the character mounts. */
  names?: Readonly<Partial<Record<RagdollPart, string>>>;
  /** Physical from the current animated pose while true; back to the animation (over `getUp` seconds) when it turns false. */
  active?: boolean;
  /** How hard each part holds to the animation once active, in [0, 1] (see `CharacterRagdoll.setStrength`). Default 0. */
  strength?: RagdollStrength;
  /** Turn physical when another body strikes it at this speed (m/s) or faster; 0: never. Default 2. Read when the character mounts. */
  strikeSpeed?: number;
  /**
   * Seconds the blend back to the animation takes when `active` turns false:
   * the pose eases from where the body lies to the animation, no part faster
   * than its animated place plus 1.5 × its distance from it / `getUp` (see
   * `AnimatedRagdoll.getUp`). Default 1.
   */
  getUp?: number;
  /** Receives the character's ragdoll handle (null until mounted): `hit`, `activate`, `getUp`, `ragdoll`. */
  ref?: Ref<AnimatedRagdoll | null>;
}

/**
 * An animated character that becomes a ragdoll where it is hit (paper section
 * 7). Its ragdoll is fitted to the skeleton among its children when it mounts,
 * in whatever pose it is in; while inactive, the ragdoll follows the playing
 * animation, and once hit (`ref.current.hit(part, direction, strength)`) or
 * `active`, it falls from that pose with the animation's velocities and poses
 * the bones. Use dual quaternion skinning (`dualQuaternionSkinning(mesh)`) for
 * skin that keeps its volume at folded joints. In a `<World worker>` the
 * animation is sampled here once a frame and sent to the worker, whose steps
 * drive the ragdoll as a main-thread world's would (see docs/worker.md).
 *
 * @example
 * ```tsx
 * const doll = useRef<AnimatedRagdoll>(null);
 * <CharacterRagdoll ref={doll} strength={0.2}>
 *   <primitive object={gltf.scene} />
 * </CharacterRagdoll>
 * // on a shot: doll.current?.hit('chest', ray.direction, 0.01);
 * ```
 */
export const CharacterRagdoll = guarded('<CharacterRagdoll>', function CharacterRagdoll({ children, names, active, strength, getUp = 1, strikeSpeed, ref }: CharacterRagdollProps) {
  strength ??= ANIMATED_RAGDOLL_DEFAULTS.strength;
  const { world } = useSinew('<CharacterRagdoll>');
  const holder = useRef<Group>(null);
  const [character, setCharacter] = useState<AnimatedRagdoll | null>(null);
  useImperativeHandle<AnimatedRagdoll | null, AnimatedRagdoll | null>(ref, () => character, [character]);
  const namesKey = names ? JSON.stringify(names) : '';
  // The strength at mount (later changes go through setStrength below) and the strike speed.
  const initialStrength = useRef(strength);
  const initialStrikeSpeed = useRef(strikeSpeed);

  useLayoutEffect(() => {
    const root = holder.current;
    if (!root) return;
    const next = new AnimatedRagdoll(world, root, {
      names: namesKey ? (JSON.parse(namesKey) as Record<string, string>) : undefined,
      strength: initialStrength.current,
      strikeSpeed: initialStrikeSpeed.current,
    });
    setCharacter(next);
    return () => {
      next.remove();
      setCharacter(null);
    };
  }, [world, namesKey]);

  const strengthKey = typeof strength === 'number' ? strength : JSON.stringify(strength);
  useEffect(() => {
    character?.setStrength(typeof strengthKey === 'number' ? strengthKey : (JSON.parse(strengthKey) as RagdollStrength));
  }, [character, strengthKey]);

  useEffect(() => {
    if (!character || active === undefined) return;
    if (active) character.activate();
    else if (character.active) character.getUp(getUp);
  }, [character, active, getUp]);

  // Read the animated pose before the world steps, pose the bones after.
  useFrame((_, delta) => character?.follow(delta), STEP_PRIORITY - 1);
  useFrame(() => character?.pose());

  return <group ref={holder}>{children}</group>;
});
