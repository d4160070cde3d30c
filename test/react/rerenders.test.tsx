import { Profiler, type ReactNode } from 'react';
import { Attractor } from '../../src/react/components/Attractor.js';
import { BoxCollider } from '../../src/react/components/BoxCollider.js';
import { CapsuleCollider } from '../../src/react/components/CapsuleCollider.js';
import { Cloth } from '../../src/react/components/Cloth.js';
import { Debug } from '../../src/react/components/Debug.js';
import { DragControls } from '../../src/react/components/DragControls.js';
import { Gravity } from '../../src/react/components/Gravity.js';
import { Ground } from '../../src/react/components/Ground.js';
import { IKHandle } from '../../src/react/components/IKHandle.js';
import { MeshCollider } from '../../src/react/components/MeshCollider.js';
import { Particle } from '../../src/react/components/Particle.js';
import { Pin } from '../../src/react/components/Pin.js';
import { Plant } from '../../src/react/components/Plant.js';
import { Ragdoll } from '../../src/react/components/Ragdoll.js';
import { RigidBody } from '../../src/react/components/RigidBody.js';
import { Rope } from '../../src/react/components/Rope.js';
import { SoftBody } from '../../src/react/components/SoftBody.js';
import { SphereCollider } from '../../src/react/components/SphereCollider.js';
import { Stick } from '../../src/react/components/Stick.js';
import { Wind } from '../../src/react/components/Wind.js';
import { useCloth } from '../../src/react/hooks/useCloth.js';
import { useParticle } from '../../src/react/hooks/useParticle.js';
import { useAfterStep, useBeforeStep } from '../../src/react/hooks/useStepCallbacks.js';
import { mountWorld } from './helpers.js';

describe('a running scene', () => {
  it('re-renders no React component over 300 frames', async () => {
    const renders = new Map<string, number>();
    const count = (name: string) => renders.set(name, (renders.get(name) ?? 0) + 1);
    let commits = 0;

    /** Counts its own renders; its children are whatever component is under test. */
    function Counted({ name, children }: { name: string; children: ReactNode }) {
      count(name);
      return <>{children}</>;
    }
    function HookUser() {
      count('hooks');
      const p = useParticle({ position: [5, 1, 0], radius: 0.05 });
      useCloth({ width: 4, height: 4, corner: [5, 2, 0], pin: 'top' });
      useBeforeStep(() => p.id);
      useAfterStep(() => p.id);
      return null;
    }

    const m = await mountWorld(
      <Profiler id="scene" onRender={() => commits++}>
        <Counted name="ground">
          <Ground />
        </Counted>
        <Counted name="cloth">
          <Cloth name="flag" width={10} height={8} corner={[-1, 2, 0]} pin="top" />
        </Counted>
        <Counted name="rope">
          <Rope name="rope" from={[0, 2, 1]} to={[1, 2, 1]} segments={8} pinStart />
        </Counted>
        <Counted name="soft">
          <SoftBody position={[2, 1, 0]} size={0.4} resolution={1} />
        </Counted>
        <Counted name="plant">
          <Plant root={[3, 0, 0]} />
        </Counted>
        <Counted name="rigid">
          <RigidBody shape="box" size={0.3} position={[-2, 1, 0]}>
            <mesh />
          </RigidBody>
        </Counted>
        <Counted name="ragdoll">
          <Ragdoll name="doll" feet={[4, 0.1, 0]} />
        </Counted>
        <Counted name="particles">
          <Particle name="a" position={[0, 3, 3]} />
          <Particle name="b" position={[0.5, 3, 3]}>
            <mesh />
          </Particle>
          <Stick a="a" b="b" />
          <Pin particle="a" />
        </Counted>
        <Counted name="colliders">
          <BoxCollider position={[0, -0.5, 5]} size={1} />
          <SphereCollider position={[0, 0.5, 6]} radius={0.3} />
          <CapsuleCollider a={[0, 0, 7]} b={[1, 0, 7]} radius={0.1} />
          <MeshCollider>
            <mesh position={[0, -1, -5]}>
              <boxGeometry />
            </mesh>
          </MeshCollider>
        </Counted>
        <Counted name="forces">
          <Wind velocity={[0, 0, 2]} gust={0.3} />
          <Attractor position={[0, 1, 0]} strength={0.5} radius={1} />
          <Gravity value={[0, -9, 0]} />
        </Counted>
        <Counted name="interaction">
          <DragControls />
          <IKHandle particle="doll.leftHand" />
          <Debug />
        </Counted>
        <HookUser />
      </Profiler>,
    );
    await m.frames(2);
    const rendersBefore = new Map(renders);
    const commitsBefore = commits;
    expect(rendersBefore.size).toBe(12);
    // The profiler saw the mount, so it would see any later commit.
    expect(commitsBefore).toBeGreaterThan(0);

    await m.frames(300);
    expect(m.world.stepCount).toBeGreaterThanOrEqual(300);
    expect(renders).toEqual(rendersBefore);
    expect(commits).toBe(commitsBefore);
    await m.unmount();
    expect(m.world.particleCount).toBe(0);
  });
});
