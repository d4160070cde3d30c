import { createRef } from 'react';
import { collisionGroups } from '../../src/core/collision/collisionGroups.js';
import { Cloth } from '../../src/react/components/Cloth.js';
import { Ragdoll } from '../../src/react/components/Ragdoll.js';
import { RigidBody } from '../../src/react/components/RigidBody.js';
import { Rope } from '../../src/react/components/Rope.js';
import type { ClothApi } from '../../src/react/hooks/useCloth.js';
import type { RagdollApi } from '../../src/react/hooks/useRagdoll.js';
import type { RigidBodyApi } from '../../src/react/hooks/useRigidBody.js';
import { World } from '../../src/react/World.js';
import { expectRenderError, mountWorld } from './helpers.js';

// Issue 10: bodies collide with each other by default; every body component takes
// `collisionGroups` (Rapier's packed 16-bit memberships and filter) to opt out.

const NET = 1 << 1;
const PLAYER = 1 << 0;

describe('collisions between bodies in React', () => {
  it('a <Ragdoll> dropped onto a <Cloth> hammock is caught; with the groups apart it falls through, and the prop changes in place', async () => {
    const cloth = createRef<ClothApi>();
    const doll = createRef<RagdollApi>();
    const lying: [number, number, number, number] = [-Math.SQRT1_2, 0, 0, Math.SQRT1_2];
    const scene = (groups?: number) => (
      <>
        <Cloth ref={cloth} width={16} height={16} spacing={0.12} corner={[-0.9, 1, -0.9]} orientation="horizontal" pin="corners" mass={4} iterations={15} radius={0.04} collisionGroups={groups} />
        <Ragdoll ref={doll} feet={[0, 1.6, 0.9]} rotation={lying} collisionGroups={collisionGroups(PLAYER)} />
      </>
    );
    const m = await mountWorld(scene());
    const body = cloth.current!.current!.body;
    const chest = () => m.world.getPosition(doll.current!.current!.part('chest'))[1];
    await m.seconds(1.5);
    expect(chest()).toBeGreaterThan(0.3); // caught, the hammock at y = 1 sagging under it
    // The net stops colliding with players: set in place (the same body), and the ragdoll drops through.
    await m.update(scene(collisionGroups(NET, 0xffff & ~PLAYER)));
    expect(cloth.current!.current!.body).toBe(body);
    expect(body.collisionGroups).toBe(collisionGroups(NET, 0xffff & ~PLAYER));
    await m.seconds(1);
    expect(chest()).toBeLessThan(0.2);
    // Without the prop it collides with everything again.
    await m.update(scene());
    expect(body.collisionGroups).toBe(0xffffffff);
    await m.unmount();
  });

  it('<RigidBody> and <Rope> take collisionGroups too; a bad value gets an error that names the component and the value', async () => {
    const box = createRef<RigidBodyApi>();
    const m = await mountWorld(
      <>
        <RigidBody ref={box} shape="box" size={0.4} position={[0, 0.2, 0]} collisionGroups={collisionGroups(4, 2)} />
        <Rope from={[0, 1, 0]} to={[1, 1, 0]} segments={4} collisionGroups={collisionGroups(2, 4)} />
      </>,
    );
    expect(box.current!.current!.body.collisionGroups).toBe(0x0004_0002);
    expect(m.world.bodies.find((b) => b.kind === 'rope')!.collisionGroups).toBe(0x0002_0004);
    await m.unmount();
    await expectRenderError(
      <World>
        <Cloth width={4} height={4} collisionGroups={-1} />
      </World>,
      /<Cloth>: collisionGroups must be .*got -1/,
    );
    await expectRenderError(
      <World>
        <RigidBody shape="box" collisionGroups={2 ** 40} />
      </World>,
      /<RigidBody>: collisionGroups must be .*got 1099511627776/,
    );
    expect(() => collisionGroups(0x1_0000)).toThrow(/memberships must be a 16-bit mask.*got 65536/);
  });
});
