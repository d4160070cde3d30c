import { useFrame, type ThreeEvent } from '@react-three/fiber';
import { useMemo, useRef } from 'react';
import { AnimationMixer } from 'three';
import { CharacterRagdoll, dualQuaternionSkinning, Ground, World, type AnimatedRagdoll } from 'sinew-physics';
import { createTestHumanoid, createWalkClip } from 'sinew-physics/testing';

/** A character walking in place until a click shoots it where the pointer hits. */
export function ShotWalker({ onReady }: { onReady?: (character: AnimatedRagdoll | null) => void }) {
  // Any skinned model works (a GLTF's scene); this one is made in code, with Mixamo's bone names.
  const humanoid = useMemo(() => {
    const h = createTestHumanoid();
    dualQuaternionSkinning(h.mesh);
    return h;
  }, []);
  const mixer = useMemo(() => {
    const m = new AnimationMixer(humanoid.mesh);
    m.clipAction(createWalkClip()).play();
    return m;
  }, [humanoid]);
  useFrame((_, delta) => mixer.update(delta));
  const character = useRef<AnimatedRagdoll | null>(null);
  const shoot = (e: ThreeEvent<PointerEvent>) => character.current?.hit(e.point.y > 1.1 ? 'chest' : 'pelvis', e.ray.direction, 0.012);
  return (
    <World>
      <Ground />
      <CharacterRagdoll
        ref={(c) => {
          character.current = c;
          onReady?.(c);
        }}
      >
        <primitive object={humanoid.root} onPointerDown={shoot} />
      </CharacterRagdoll>
    </World>
  );
}
