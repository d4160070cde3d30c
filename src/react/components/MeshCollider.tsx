import { useImperativeHandle, useRef, useState, type ReactNode, type Ref } from 'react';
import { useLayoutEffect } from '../hooks/effects.js';
import type { Group } from 'three';
import { TriangleMeshCollider } from '../../core/colliders/triangleMesh.js';
import { collectTriangles } from '../../three/collectTriangles.js';
import { COLLIDER_DEFAULTS } from '../../core/defaults.js';
import { checkNumber } from '../../core/math.js';
import type { World } from '../../core/world.js';
import { useSinew } from '../context.js';
import { buildCollider } from '../hooks/buildCollider.js';
import type { ColliderHandle } from '../hooks/useCollider.js';
import { guarded } from '../guarded.js';

/** Props of {@link MeshCollider}. */
export interface MeshColliderProps {
  /** Surface friction μ. Default 1. */
  friction?: number;
  /** Bounciness in [0, 1]: a contact bounces with the larger of this and the particle's restitution. Default 0. */
  restitution?: number;
  /** Meshes to collide with; they are drawn as usual and their triangles (in world space) become one static collider. */
  children: ReactNode;
  /** Receives the collider handle: the core collider id and the collider (null while it does not exist). */
  ref?: Ref<ColliderHandle>;
}

class LiveMeshCollider implements ColliderHandle {
  id = -1;
  constructor(private readonly world: World) {}
  get collider() {
    return this.id < 0 ? null : this.world.getCollider(this.id);
  }
}

/**
 * Turns its child meshes into a static triangle collider (the Hitman
 * environment): after each commit it reads every descendant mesh's triangles,
 * transformed to world space, into one collider with a BVH. Triangles are
 * one-sided: particles collide with the front (counter-clockwise) face.
 * The collider is rebuilt when this component re-renders, not when children
 * move on their own.
 *
 * @example
 * ```tsx
 * <MeshCollider friction={0.8}>
 *   <mesh rotation-x={-Math.PI / 2}><planeGeometry args={[4, 4]} /><meshStandardMaterial /></mesh>
 *   <mesh position={[0, 0.5, 0]}><boxGeometry /><meshStandardMaterial /></mesh>
 * </MeshCollider>
 * ```
 */
export const MeshCollider = guarded('<MeshCollider>', function MeshCollider({ friction = COLLIDER_DEFAULTS.friction, restitution = COLLIDER_DEFAULTS.restitution, children, ref }: MeshColliderProps) {
  const { world, store, worker } = useSinew('<MeshCollider>');
  checkNumber(friction, '<MeshCollider>: friction', 0);
  checkNumber(restitution, '<MeshCollider>: restitution', 0, 1);
  const group = useRef<Group>(null);
  const [handle] = useState(() => new LiveMeshCollider(world));
  useImperativeHandle(ref, () => handle, [handle]);

  // No dependency list: the children may have changed with any render of this component.
  useLayoutEffect(() => {
    const root = group.current;
    if (!root) return undefined;
    root.updateWorldMatrix(true, true);
    const { vertices, indices } = collectTriangles(root);
    if (indices.length === 0) return undefined;
    const shape = { type: 'mesh', vertices, indices, friction, restitution } as const;
    // Only plain data reaches a worker's world: its shadow builds the collider from the shape
    // (once: building it here as well would build the triangles' tree twice).
    const id = buildCollider('<MeshCollider>', () => world.addCollider(worker === null ? new TriangleMeshCollider(shape) : shape));
    handle.id = id;
    store.getState().refreshStats();
    return () => {
      handle.id = -1;
      world.removeCollider(id);
      store.getState().refreshStats();
    };
  });

  return <group ref={group}>{children}</group>;
});
