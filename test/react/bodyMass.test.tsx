import { createRef, type ReactElement, type RefObject } from 'react';
import { Cloth, Plant, Ragdoll, RigidBody, Rope, SoftBody, type BodyHandle, type CoreBody } from 'sinew-physics';
import type { World as CoreWorld } from 'sinew-physics/core';
import { mountWorld } from './helpers.js';

// The `mass` prop is the whole body's on every body component, as in the core builders.

function sum(world: CoreWorld, body: BodyHandle<CoreBody>): number {
  let m = 0;
  for (let i = body.first; i < body.first + body.count; i++) m += world.getMass(i);
  return m;
}

type Scene = (ref: RefObject<BodyHandle<CoreBody> | null>, mass: number) => ReactElement;

const scenes: Record<string, Scene> = {
  '<Cloth>': (ref, mass) => <Cloth ref={ref as never} width={5} height={4} corner={[0, 2, 0]} pin="top" mass={mass} />,
  '<Rope>': (ref, mass) => <Rope ref={ref as never} from={[0, 2, 0]} to={[1, 2, 0]} segments={6} pinStart mass={mass} />,
  '<Plant>': (ref, mass) => <Plant ref={ref as never} segments={4} mass={mass} />,
  '<SoftBody>': (ref, mass) => <SoftBody ref={ref as never} shape="box" size={0.4} resolution={2} position={[0, 1, 0]} mass={mass} />,
  '<RigidBody>': (ref, mass) => <RigidBody ref={ref as never} shape="box" size={0.3} position={[0, 1, 0]} mass={mass} />,
  '<Ragdoll>': (ref, mass) => <Ragdoll ref={ref as never} mass={mass} />,
};

describe('the mass prop is the whole body’s', () => {
  for (const [name, scene] of Object.entries(scenes)) {
    it(`${name}: the particles' masses add up to mass, and a new mass is spread again`, async () => {
      const ref = createRef<BodyHandle<CoreBody>>();
      const m = await mountWorld(scene(ref, 3.7), { paused: true });
      expect(sum(m.world, ref.current!)).toBeCloseTo(3.7, 9);
      await m.update(scene(ref, 0.4));
      expect(sum(m.world, ref.current!)).toBeCloseTo(0.4, 9);
      expect(await m.unmount()).toEqual([]);
    });
  }

  it('<Cloth particleMass> is each particle’s', async () => {
    const ref = createRef<BodyHandle<CoreBody>>();
    const m = await mountWorld(<Cloth ref={ref as never} width={5} height={4} particleMass={0.25} />, { paused: true });
    expect(m.world.getMass(ref.current!.first)).toBe(0.25);
    expect(sum(m.world, ref.current!)).toBeCloseTo(0.25 * 20, 9);
    expect(await m.unmount()).toEqual([]);
  });
});
