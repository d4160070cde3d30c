import { useFrame } from '@react-three/fiber';
import { useState, type RefObject } from 'react';
import { useLayoutEffect } from './effects.js';
import { Quaternion, Vector3, type Object3D } from 'three';
import type { World } from '../../core/world.js';
import { useSinew } from '../context.js';
import { STEP_PRIORITY } from '../World.js';
import type { ColliderHandle } from './useCollider.js';

/** Scratch for reading a world matrix without allocating per frame. */
class PoseReader {
  readonly position = new Vector3();
  readonly quaternion = new Quaternion();
  readonly scale = new Vector3();
  readonly at: [number, number, number] = [0, 0, 0];
  readonly turn: [number, number, number, number] = [0, 0, 0, 1];

  /** Moves kinematic collider `id` to `anchor`'s world pose (its scale is not followed). */
  place(world: World, id: number, anchor: Object3D, teleport: boolean): void {
    // Parents animated earlier this frame have not had their world matrices updated yet.
    anchor.updateWorldMatrix(true, false);
    anchor.matrixWorld.decompose(this.position, this.quaternion, this.scale);
    this.position.toArray(this.at);
    this.quaternion.toArray(this.turn);
    world.setColliderPose(id, this.at, this.turn, teleport ? TELEPORT : undefined);
  }
}

const TELEPORT = { teleport: true } as const;

/**
 * @internal Makes a collider component's kinematic collider follow `anchor`, an
 * Object3D it renders inside whatever moves it: placed there when it mounts (or
 * its shape changes), then moved to the anchor's world pose every frame just
 * before the world steps (`STEP_PRIORITY - 1`), which the step spreads over its
 * substeps as velocity. Does nothing while `follow` is false.
 */
export function useFollow(who: string, handle: ColliderHandle, anchor: RefObject<Object3D | null>, follow: boolean, shape: unknown): void {
  const { world } = useSinew(who);
  const [reader] = useState(() => new PoseReader());
  useLayoutEffect(() => {
    if (follow && anchor.current && handle.id >= 0) reader.place(world, handle.id, anchor.current, true);
  }, [world, handle, anchor, follow, shape, reader]);
  useFrame(() => {
    if (follow && anchor.current && handle.id >= 0) reader.place(world, handle.id, anchor.current, false);
  }, STEP_PRIORITY - 1);
}
