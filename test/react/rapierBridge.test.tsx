import { BallCollider, CuboidCollider, Physics, RigidBody, type RapierRigidBody } from '@react-three/rapier';
import { act, createRef } from 'react';
import type { Mesh } from 'three';
import { describe, expect, it, vi } from 'vitest';
import { Cloth, Rope } from '../../src/index.js';
import { energy } from '../../src/testing/index.js';
import { RapierBridge, type RapierBridgeHandle } from '../../src/rapier/index.js';
import { mountWorld } from './helpers.js';

// <RapierBridge> inside a real @react-three/rapier <Physics> under the R3F test renderer
// (Node, no WebGL): Physics loads Rapier's WebAssembly itself; the test waits for it.

async function physicsReady(scene: Awaited<ReturnType<typeof mountWorld>>, body: { current: RapierRigidBody | null }) {
  for (let i = 0; i < 200 && !body.current; i++) {
    await act(async () => {
      await new Promise((resolve) => setTimeout(resolve, 10));
    });
  }
  expect(body.current).not.toBeNull();
  await scene.frames(3);
}

describe('<RapierBridge>', () => {
  it('a hammock in <World> catches a <RigidBody> ball of <Physics>, and nothing is left after unmounting', async () => {
    const ball = createRef<RapierRigidBody>();
    const bridge = createRef<RapierBridgeHandle>();
    const scene = await mountWorld(
      <Physics paused timeStep="vary">
        <RapierBridge ref={bridge} />
        <Cloth name="hammock" width={16} height={16} spacing={0.08} orientation="horizontal" corner={[-0.6, 1, -0.6]} pin="corners" radius={0.02} mass={0.5} />
        <RigidBody ref={ball} colliders={false} position={[0, 1.6, 0]} linearDamping={2} angularDamping={2}>
          <BallCollider args={[0.15]} mass={1} />
          <mesh>
            <sphereGeometry args={[0.15]} />
          </mesh>
        </RigidBody>
      </Physics>,
      { sleep: false },
    );
    await physicsReady(scene, ball);
    expect(bridge.current?.mirrored).toBe(1);
    expect(ball.current!.mass()).toBeCloseTo(1, 3);
    const y0 = ball.current!.translation().y;
    await scene.seconds(6);
    const y = ball.current!.translation().y;
    // Caught (it fell, and lies on the cloth 1 m up, not through it), and at rest: the cloth, pinned at its rest
    // size and held so by the long-range attachments, gives 8 cm under it (measured: 1.089 m, 0.38 m below its start).
    expect(y).toBeLessThan(y0 - 0.3);
    expect(y).toBeGreaterThan(0.8);
    const v = ball.current!.linvel();
    expect(Math.hypot(v.x, v.y, v.z)).toBeLessThan(0.02);
    // The mesh follows the body (drawn where Rapier's step put it, before sinew's yield: under a millimetre at rest).
    const mesh = scene.renderer.scene.findAllByType('Mesh').find((m) => (m.instance as Mesh).geometry.type === 'SphereGeometry')!;
    const world = mesh.instance.getWorldPosition(mesh.instance.position.clone());
    expect(Math.abs(world.y - y)).toBeLessThan(0.005);
    expect(await scene.unmount()).toEqual([]);
  });

  it('a ball placed above a hammock adds no energy to it in the first step', async () => {
    const ball = createRef<RapierRigidBody>();
    const scene = await mountWorld(
      <Physics paused timeStep="vary">
        <RapierBridge />
        <Cloth name="hammock" width={16} height={16} spacing={0.08} orientation="horizontal" corner={[-0.6, 1, -0.6]} pin="corners" radius={0.02} mass={0.5} />
        <RigidBody ref={ball} colliders={false} position={[0, 1.6, 0]}>
          <BallCollider args={[0.15]} mass={1} />
        </RigidBody>
      </Physics>,
      { sleep: false },
    );
    for (let i = 0; i < 200 && !ball.current; i++) {
      await act(async () => {
        await new Promise((resolve) => setTimeout(resolve, 10));
      });
    }
    // No step yet: @react-three/rapier placed the body after making its collider, whose own pose
    // Rapier leaves at the origin until its first step.
    expect(ball.current!.translation().y).toBeCloseTo(1.6, 6);
    expect(ball.current!.collider(0).translation().y).toBe(0);
    const start = energy(scene, 'hammock').total;
    await scene.frames(1);
    // Gravity alone: the cloth loses 1.2 mJ to its own relaxation (measured; swept from the origin, it gained
    // 42 mJ and was thrown 12 cm above its pins, and the ball was flung down at 3.1 m/s).
    expect(energy(scene, 'hammock').total).toBeLessThanOrEqual(start);
    expect(ball.current!.linvel().y).toBeCloseTo(-9.81 / 60, 4);
    expect(await scene.unmount()).toEqual([]);
  });

  it('a rope ties to a Rapier crate through the ref, and lifts it', async () => {
    const crate = createRef<RapierRigidBody>();
    const bridge = createRef<RapierBridgeHandle>();
    const scene = await mountWorld(
      <Physics paused timeStep="vary">
        <RapierBridge ref={bridge} />
        <Rope name="line" from={[0, 2, 0]} to={[0, 1, 0]} segments={10} mass={0.1} />
        <RigidBody ref={crate} colliders={false} position={[0, 0.85, 0]}>
          <CuboidCollider args={[0.15, 0.15, 0.15]} mass={2} />
          <mesh>
            <boxGeometry args={[0.3, 0.3, 0.3]} />
          </mesh>
        </RigidBody>
      </Physics>,
      { sleep: false },
    );
    await physicsReady(scene, crate);
    const pin = scene.world.addPin(scene.particle('line.start'));
    const tie = bridge.current!.attach(scene.particle('line.end') as never, crate.current!, { anchor: [0, 0.15, 0] });
    await scene.seconds(1);
    expect(crate.current!.mass()).toBeCloseTo(2, 3);
    const hung = crate.current!.translation().y;
    expect(hung).toBeGreaterThan(0.6);
    // Pull the rope's top 1 m up over a second: the crate comes along.
    const top = scene.world.getPosition(scene.particle('line.start'));
    for (let i = 1; i <= 60; i++) {
      scene.world.setPinTarget(pin, [top[0], top[1] + i / 60, top[2]]);
      await scene.frames(1);
    }
    await scene.seconds(1);
    expect(crate.current!.translation().y - hung).toBeGreaterThan(0.8);
    tie.remove();
    scene.world.remove(pin);
    expect(await scene.unmount()).toEqual([]);
  });

  it('reports a <Physics> that steps itself', async () => {
    // React logs the error its boundary caught as well; the test reads it from onError.
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const errors: string[] = [];
    const scene = await mountWorld(
      <Physics timeStep="vary">
        <RapierBridge />
      </Physics>,
      { onError: (error) => errors.push(error.message) },
    );
    for (let i = 0; i < 100 && errors.length === 0; i++) {
      await act(async () => {
        await new Promise((resolve) => setTimeout(resolve, 10));
      });
    }
    expect(errors).toEqual([expect.stringContaining('<RapierBridge>: give <Physics> the props paused timeStep="vary"')]);
    expect(await scene.unmount()).toEqual([]);
    quiet.mockRestore();
  });
});
