import { useAnimations } from '@react-three/drei';
import { useMemo } from 'react';
import { Vector3 } from 'three';
import { describe, expect, it } from 'vitest';
import { CharacterRagdoll } from '../../src/react/components/CharacterRagdoll.js';
import type { AnimatedRagdoll } from '../../src/three/animatedRagdoll.js';
import { createTestHumanoid, createWalkClip, type TestHumanoid } from 'sinew-physics/testing';
import { mountWorld } from './helpers.js';

// Issue 12: the character's animation may come from drei's useAnimations (as a GLTF's
// clips usually do), not only from a mixer the app runs itself.

function DreiWalker({ humanoid, onCharacter }: { humanoid: TestHumanoid; onCharacter: (c: AnimatedRagdoll | null) => void }) {
  const clips = useMemo(() => [createWalkClip()], []);
  const { actions } = useAnimations(clips, humanoid.mesh);
  // drei creates the actions on its first render; play the walk once they exist.
  useMemo(() => Object.values(actions)[0]?.play(), [actions]);
  return (
    <CharacterRagdoll ref={onCharacter}>
      <primitive object={humanoid.root} />
    </CharacterRagdoll>
  );
}

describe('<CharacterRagdoll> with drei useAnimations', () => {
  it('follows the clip drei plays: the hand particle swings with the hand bone, one frame behind at most', async () => {
    const humanoid = createTestHumanoid();
    let character: AnimatedRagdoll | null = null;
    const m = await mountWorld(<DreiWalker humanoid={humanoid} onCharacter={(c) => (character = c)} />);
    await m.frames(10);
    expect(character).not.toBeNull();
    const doll = character! as AnimatedRagdoll;
    const handBone = humanoid.skeleton.bones.find((b) => b.name === 'mixamorigLeftHand')!;
    const bone = new Vector3();
    let lowest = Infinity;
    let highest = -Infinity;
    let farthest = 0;
    for (let i = 0; i < 66; i++) {
      await m.frames(1);
      const p = new Vector3(...m.position(doll.ragdoll.part('leftHand')));
      // The mixer has moved the bones since the character read them: their world pose now.
      handBone.updateWorldMatrix(true, false);
      bone.setFromMatrixPosition(handBone.matrixWorld);
      lowest = Math.min(lowest, p.z);
      highest = Math.max(highest, p.z);
      farthest = Math.max(farthest, p.distanceTo(bone));
    }
    // Measured: the hand swings 0.44 m fore and aft over a stride, at most 2.6 cm from its bone's
    // pose now (drei updates the mixer at priority 0, after the world has stepped: the ragdoll follows
    // the pose one frame later).
    expect(highest - lowest).toBeGreaterThan(0.2);
    expect(farthest).toBeLessThan(0.05);
    expect(doll.active).toBe(false);
    await m.unmount();
  });
});
