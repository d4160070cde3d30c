import { useFrame } from '@react-three/fiber';
import { useCallback, useImperativeHandle, useMemo, useRef, type ReactNode, type Ref } from 'react';
import { useLayoutEffect } from '../hooks/effects.js';
import { useStepStart } from '../hooks/useStepStart.js';
import type { Group, InstancedMesh } from 'three';
import type { Ragdoll as CoreRagdoll } from '../../core/bodies/ragdoll.js';
import { limbSpecs, type RagdollLimbName } from '../../core/bodies/ragdollSkeleton.js';
import { BoneDriver } from '../../three/boneDriver.js';
import { blendFrames, copyFrame, makeFrame, type Frame } from '../../three/frames.js';
import { writeCapsuleInstances } from '../../three/instances.js';
import { useSinew } from '../context.js';
import { useRagdollAs, type RagdollApi, type UseRagdollOptions } from '../hooks/useRagdoll.js';
import { guarded } from '../guarded.js';

/** Props of {@link Ragdoll}: the options of `createRagdoll` (see {@link useRagdoll}), plus how to draw it. */
export interface RagdollProps extends UseRagdollOptions {
  /** Colour of the capsules. */
  color?: string;
  /** Draw the limbs as capsules. Default true without `bones`, false with them. (`capsules` is the core option: whether limbs collide as capsules.) */
  drawCapsules?: boolean;
  /**
   * Limb name → name of a bone (any object) among the children, e.g.
   * `{ leftThigh: 'mixamorigLeftUpLeg' }`. Those bones then follow their limbs.
   * The model must stand in the ragdoll's initial pose when it mounts: that is
   * when each bone's offset from its limb is measured.
   */
  bones?: Partial<Record<RagdollLimbName, string>>;
  /** Drawn as they are; with `bones`, a skinned model whose skeleton the ragdoll drives. */
  children?: ReactNode;
  /** Passed to the capsule meshes (when they are drawn). */
  castShadow?: boolean;
  /** Receives the ragdoll's handle. */
  ref?: Ref<RagdollApi>;
}

const LIMBS = limbSpecs.length;

/**
 * A ragdoll drawn as capsules (two instanced meshes, written in place every
 * frame) or driving a character's bones through its limb frames. Grab it with
 * `<DragControls>`, pose it with `<IKHandle particle="doll.leftHand" />`.
 *
 * @example
 * ```tsx
 * <Ragdoll name="doll" feet={[0, 0.1, 0]} pose="T" color="#e8c4a0" />
 * <IKHandle particle="doll.rightHand" />
 *
 * // driving a rigged model instead:
 * <Ragdoll bones={{ leftThigh: 'LeftUpLeg', leftShin: 'LeftLeg', head: 'Head' }}>
 *   <primitive object={gltf.scene} />
 * </Ragdoll>
 * ```
 */
export const Ragdoll = guarded('<Ragdoll>', function Ragdoll({ color = '#e0c0a0', drawCapsules, bones, children, castShadow, ref, ...options }: RagdollProps) {
  const api = useRagdollAs('<Ragdoll>', options);
  const { world, frame } = useSinew('<Ragdoll>');
  useImperativeHandle(ref, () => api, [api]);
  const cylinders = useRef<InstancedMesh>(null);
  const caps = useRef<InstancedMesh>(null);
  const model = useRef<Group>(null);
  const showCapsules = drawCapsules ?? !bones;

  const bonesKey = bones ? JSON.stringify(bones) : undefined;
  const driver = useRef<BoneDriver | null>(null);
  useLayoutEffect(() => {
    const ragdoll = api.current;
    if (!bonesKey || !ragdoll || !model.current) {
      driver.current = null;
      return;
    }
    const mapping = JSON.parse(bonesKey) as Record<string, string>;
    const driven = Object.entries(mapping).map(([limb, boneName]) => {
      const index = ragdoll.limbs.findIndex((l) => l.name === limb);
      if (index < 0) throw new RangeError(`<Ragdoll>: bones names no limb "${limb}" (limbs: ${ragdoll.limbs.map((l) => l.name).join(', ')})`);
      const bone = model.current!.getObjectByName(boneName);
      if (!bone) throw new RangeError(`<Ragdoll>: bones.${limb} names no object "${boneName}" among the children`);
      return { bone, frame: index };
    });
    const next = new BoneDriver(driven);
    next.bind(ragdoll.updateFrames());
    driver.current = next;
    // Bound once per mapping: a later re-creation of the ragdoll starts in the same pose, so the offsets hold.
  }, [api, bonesKey]);

  // Limb frames at the start of the latest step, for interpolated bones.
  const start = useMemo<Frame[]>(() => Array.from({ length: LIMBS }, makeFrame), []);
  const drawn = useMemo<Frame[]>(() => Array.from({ length: LIMBS }, makeFrame), []);
  const captured = useRef<CoreRagdoll | null>(null);
  const capture = useCallback(() => {
    const ragdoll = api.current;
    if (!ragdoll || !driver.current) return;
    const frames = ragdoll.updateFrames();
    for (let i = 0; i < frames.length; i++) copyFrame(frames[i]!, start[i]!);
    captured.current = ragdoll;
  }, [api, start]);
  useStepStart('<Ragdoll>', capture);

  useFrame(() => {
    const ragdoll = api.current;
    if (!ragdoll) return;
    if (showCapsules && cylinders.current && caps.current) writeCapsuleInstances(cylinders.current, caps.current, world, ragdoll.limbs, frame);
    if (driver.current) {
      const frames = ragdoll.updateFrames();
      const fresh = captured.current === ragdoll;
      for (let i = 0; i < frames.length; i++) {
        if (fresh) blendFrames(start[i]!, frames[i]!, frame, drawn[i]!);
        else copyFrame(frames[i]!, drawn[i]!);
      }
      driver.current.update(drawn);
    }
  });

  return (
    <>
      {showCapsules && (
        <>
          <instancedMesh ref={cylinders} args={[undefined, undefined, LIMBS]} castShadow={castShadow}>
            <cylinderGeometry args={[1, 1, 1, 12]} />
            <meshStandardMaterial color={color} />
          </instancedMesh>
          <instancedMesh ref={caps} args={[undefined, undefined, LIMBS * 2]} castShadow={castShadow}>
            <sphereGeometry args={[1, 12, 8]} />
            <meshStandardMaterial color={color} />
          </instancedMesh>
        </>
      )}
      {children !== undefined && <group ref={model}>{children}</group>}
    </>
  );
});
