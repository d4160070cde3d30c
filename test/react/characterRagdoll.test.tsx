import { useFrame } from '@react-three/fiber';
import ReactThreeTestRenderer from '@react-three/test-renderer';
import { readFileSync } from 'node:fs';
import { createRef, useMemo } from 'react';
import { AnimationMixer, Vector3 } from 'three';
import { describe, expect, it } from 'vitest';
import { CharacterRagdoll } from '../../src/react/components/CharacterRagdoll.js';
import { Ground } from '../../src/react/components/Ground.js';
import { World } from '../../src/react/World.js';
import type { RagdollPart } from '../../src/core/bodies/ragdollSkeleton.js';
import type { AnimatedRagdoll } from '../../src/three/animatedRagdoll.js';
import { createTestHumanoid, createWalkClip, type TestHumanoid } from 'sinew-physics/testing';
import { expectRenderError, mountWorld } from './helpers.js';
import { ShotWalker } from './readme/ShotWalker.js';
import { doc } from '../support/readme.js';

// Issue 12 in React: <CharacterRagdoll> around an animated model.

/** The test humanoid walking in place, its mixer run by the scene. */
function Walker({ humanoid, character, strength, active }: { humanoid: TestHumanoid; character?: React.Ref<AnimatedRagdoll | null>; strength?: number; active?: boolean }) {
  const mixer = useMemo(() => {
    const m = new AnimationMixer(humanoid.mesh);
    m.clipAction(createWalkClip()).play();
    return m;
  }, [humanoid]);
  useFrame((_, delta) => mixer.update(delta));
  return (
    <>
      <Ground />
      <CharacterRagdoll ref={character} strength={strength} active={active}>
        <primitive object={humanoid.root} />
      </CharacterRagdoll>
    </>
  );
}

describe('<CharacterRagdoll>', () => {
  for (const strict of [false, true]) {
    it(`follows the animation, falls when hit, and poses the bones${strict ? ' (StrictMode)' : ''}`, async () => {
      const humanoid = createTestHumanoid();
      const character = createRef<AnimatedRagdoll>();
      const m = await mountWorld(<Walker humanoid={humanoid} character={character} />, {}, strict);
      await m.frames(20);
      expect(character.current).not.toBeNull();
      // One ragdoll: 16 particles.
      expect(m.world.particleCount).toBe(16);
      const hand = () => new Vector3().setFromMatrixPosition(humanoid.skeleton.bones.find((b) => b.name === 'mixamorigLeftHand')!.matrixWorld);
      const head = character.current!.ragdoll.part('head');
      const standing = m.position(head)[1];
      expect(standing).toBeGreaterThan(1.6);
      character.current!.hit('chest', [0, 0, -1], 0.01);
      await m.seconds(3);
      expect(character.current!.active).toBe(true);
      // Lying on the ground.
      expect(m.position(head)[1]).toBeLessThan(0.4);
      expect(m.position(head)[1]).toBeGreaterThan(0);
      // The bones lie with the ragdoll: the hand bone is at its particle, up to how far the forearm's stick
      // stretches under the fall (the forearm bone is carried by the elbow particle and keeps its length; measured
      // 0.7 cm, 1.4 cm while the bones were placed by their parents; test/react/ragdollBones.test.tsx checks every part).
      expect(hand().distanceTo(new Vector3(...m.position(character.current!.ragdoll.part('leftHand'))))).toBeLessThan(0.03);
      await m.unmount();
    });
  }

  it('gets up when active turns false', async () => {
    const humanoid = createTestHumanoid();
    const character = createRef<AnimatedRagdoll>();
    const m = await mountWorld(<Walker humanoid={humanoid} character={character} active />);
    await m.seconds(2);
    expect(m.position(character.current!.ragdoll.part('head'))[1]).toBeLessThan(0.5);
    expect(m.position(character.current!.ragdoll.part('head'))[1]).toBeGreaterThan(0);
    await m.update(<Walker humanoid={humanoid} character={character} active={false} />);
    await m.seconds(1.5);
    expect(character.current!.active).toBe(false);
    expect(m.position(character.current!.ragdoll.part('head'))[1]).toBeGreaterThan(1.6);
    await m.unmount();
  });

  it('mounted and unmounted 1,000 times leaves nothing behind', async () => {
    const humanoid = createTestHumanoid();
    const m = await mountWorld(<Walker key={0} humanoid={humanoid} />);
    await m.frames(1);
    const particles = m.world.particleCount;
    const constraints = m.world.constraintCount;
    const callbacks = m.world.beforeStep.length + m.world.afterStep.length;
    for (let i = 1; i <= 1000; i++) await m.update(<Walker key={i} humanoid={humanoid} />);
    await m.frames(1);
    expect(m.world.particleCount).toBe(particles);
    expect(m.world.constraintCount).toBe(constraints);
    expect(m.world.pins.count).toBe(16);
    expect(m.world.beforeStep.length + m.world.afterStep.length).toBe(callbacks);
    expect(m.world.bodies.filter((b) => b.alive)).toHaveLength(1);
    await m.update(null);
    expect(m.world.particleCount).toBe(0);
    expect(m.world.constraintCount).toBe(0);
    expect(m.world.pins.count).toBe(0);
    expect(humanoid.skeleton.bones.every((b) => b.matrixAutoUpdate)).toBe(true);
    await m.unmount();
  }, 60_000);

  it('names bad input: a name map naming no bone, a skeleton without legs, a strength outside [0, 1]', async () => {
    const humanoid = createTestHumanoid();
    await expectRenderError(
      <World>
        <CharacterRagdoll names={{ leftHand: 'LeftPaw' }}>
          <primitive object={humanoid.root} />
        </CharacterRagdoll>
      </World>,
      'fitRagdoll: names.leftHand names no bone "LeftPaw" in the skeleton',
    );
    await expectRenderError(
      <World>
        <CharacterRagdoll>
          <primitive object={createTestHumanoid({ withoutLegs: true }).root} />
        </CharacterRagdoll>
      </World>,
      /fitRagdoll: the skeleton lacks leftHip \(bone mixamorigLeftUpLeg\)/,
    );
    await expectRenderError(
      <World>
        <CharacterRagdoll strength={2}>
          <primitive object={createTestHumanoid().root} />
        </CharacterRagdoll>
      </World>,
      'AnimatedRagdoll: strength must be a number in [0, 1], got 2',
    );
  });
});

describe('the example of <CharacterRagdoll> in docs/characters.md', () => {
  const source = readFileSync(new URL('./readme/ShotWalker.tsx', import.meta.url), 'utf8');

  it('is printed in docs/characters.md exactly as it is tested', () => {
    expect(doc('characters.md')).toContain(source.trim());
  });

  it('runs: the walker walks, and shot in the chest from the front it lies on its back', async () => {
    let character: AnimatedRagdoll | null = null;
    const renderer = await ReactThreeTestRenderer.create(<ShotWalker onReady={(c) => (character = c)} />);
    await renderer.advanceFrames(30, 1 / 60);
    expect(character).not.toBeNull();
    const doll = character! as AnimatedRagdoll;
    const at = (p: RagdollPart) => new Vector3(...doll.world.getPosition(doll.ragdoll.part(p)));
    expect(at('head').y).toBeGreaterThan(1.6);
    // The click: the primitive's pointer handler, with a point on the chest and a ray from the front.
    const primitive = renderer.scene.findAll((n) => n.props.onPointerDown !== undefined)[0]!;
    await renderer.fireEvent(primitive, 'onPointerDown', { point: new Vector3(0, 1.3, 0.1), ray: { direction: new Vector3(0, 0, -1) } });
    await renderer.advanceFrames(180, 1 / 60);
    expect(doll.active).toBe(true);
    expect(at('head').y).toBeLessThan(0.4);
    const front = at('leftShoulder')
      .sub(at('rightShoulder'))
      .cross(at('neck').sub(at('chest')))
      .normalize();
    expect(front.y, 'on its back').toBeGreaterThan(0.6);
    await renderer.unmount();
  });
});
