import { useFrame } from '@react-three/fiber';
import { createRef, useRef, type ReactNode } from 'react';
import type { Group } from 'three';
import { KinematicCollider } from '../../src/core/colliders/kinematic.js';
import { BoxCollider } from '../../src/react/components/BoxCollider.js';
import { CapsuleCollider } from '../../src/react/components/CapsuleCollider.js';
import { Particle } from '../../src/react/components/Particle.js';
import { SphereCollider } from '../../src/react/components/SphereCollider.js';
import type { ParticleHandle } from '../../src/react/hooks/useParticle.js';
import { mountWorld } from './helpers.js';

// Issue 14, part 1: collider components with `follow` move with the Object3D
// they are placed in, as kinematic colliders.

/** A group that slides along +x at `speed` m/s from `start`, moved in an ordinary useFrame (after the world's step). */
function Slider({ speed, start = [0, 0, 0], turn = 0, children }: { speed: number; start?: [number, number, number]; turn?: number; children: ReactNode }) {
  const group = useRef<Group>(null);
  useFrame((state) => {
    const g = group.current!;
    g.position.set(start[0] + speed * state.clock.elapsedTime, start[1], start[2]);
    g.rotation.set(0, turn, 0);
  });
  return (
    <group ref={group} position={start} rotation={[0, turn, 0]}>
      {children}
    </group>
  );
}

describe('collider components with follow', () => {
  for (const strict of [false, true]) {
    it(`a box platform placed in a moving group carries a particle along at its speed, and unmounting leaves nothing${strict ? ' (StrictMode)' : ''}`, async () => {
      const rider = createRef<ParticleHandle>();
      const m = await mountWorld(
        <>
          <Slider speed={1}>
            <BoxCollider follow position={[0, -0.05, 0]} size={[2, 0.1, 2]} />
          </Slider>
          <Particle ref={rider} position={[0, 0.05, 0]} radius={0.05} />
        </>,
        {},
        strict,
      );
      expect(m.world.colliders).toHaveLength(1);
      expect(m.world.colliders[0]).toBeInstanceOf(KinematicCollider);
      await m.frames(90);
      const v = rider.current!.velocity();
      expect(v[0]).toBeGreaterThan(0.95);
      expect(v[0]).toBeLessThan(1.05);
      expect(rider.current!.position()[1]).toBeCloseTo(0.05, 2);
      await m.update(null);
      expect(m.world.colliders).toHaveLength(0);
      expect(m.world.kinematicColliders).toHaveLength(0);
      expect(m.world.substepStages).toHaveLength(0);
      await m.unmount();
    });
  }

  it('sphere and capsule follow the world pose of their parent, turned and offset, from the first frame', async () => {
    const m = await mountWorld(
      <Slider speed={0} start={[2, 1, 0]} turn={Math.PI / 2}>
        <group position={[1, 0, 0]}>
          <SphereCollider follow radius={0.2} />
          <CapsuleCollider follow a={[0, 0, 0]} b={[1, 0, 0]} radius={0.1} />
        </group>
      </Slider>,
    );
    // Placed at once (teleported), before any step: the group's (1, 0, 0) turned 90° about y is (0, 0, -1).
    const [sphere, capsule] = m.world.kinematicColliders;
    const q = [0, Math.sin(Math.PI / 4), 0, Math.cos(Math.PI / 4)];
    for (const c of [sphere!, capsule!]) {
      expect([...c.endPose.slice(0, 3)].map((x) => +x.toFixed(6))).toEqual([2, 1, -1]);
      for (let k = 0; k < 4; k++) expect(c.endPose[3 + k]).toBeCloseTo(q[k]!, 6);
    }
    await m.frames(10);
    expect(capsule!.velocity[0]).toBeCloseTo(0, 9);
    // A particle dropped onto the capsule, which runs from (2, 1, -1) to (2, 1, -2), comes to rest on it.
    const drop = createRef<ParticleHandle>();
    await m.update(
      <>
        <Slider speed={0} start={[2, 1, 0]} turn={Math.PI / 2}>
          <group position={[1, 0, 0]}>
            <CapsuleCollider follow a={[0, 0, 0]} b={[1, 0, 0]} radius={0.1} />
          </group>
        </Slider>
        <Particle ref={drop} position={[2, 1.5, -1.5]} radius={0.05} />
      </>,
    );
    await m.frames(90);
    const p = drop.current!.position();
    expect(p[1]).toBeCloseTo(1.15, 2);
    expect(p[2]).toBeCloseTo(-1.5, 2);
    await m.unmount();
  });
});
