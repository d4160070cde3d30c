import { Cloth } from '../../src/react/components/Cloth.js';
import { Pin } from '../../src/react/components/Pin.js';
import { Ragdoll } from '../../src/react/components/Ragdoll.js';
import { Rope } from '../../src/react/components/Rope.js';
import { Stick } from '../../src/react/components/Stick.js';
import type { TypedParticleRef } from '../../src/react/particleRef.js';
import { mountWorld } from './helpers.js';

// Names of body parts are checked at compile time (`npx tsc --noEmit` runs over
// this file in CI): each @ts-expect-error below is a misspelt part that must not
// type-check, and tsc fails if one ever does. At run time the same names are
// what the components reject.

describe('typed particle names', () => {
  it('accept the parts bodies have, and reject misspelt ones at compile time as at run time', async () => {
    const reported: string[] = [];
    const bodies = [<Ragdoll key="doll" name="doll" feet={[0, 1, 0]} />, <Rope key="rope" name="rope" from={[0, 3, 0]} to={[1, 3, 0]} segments={4} />];
    const good = [<Pin key="hand" particle="doll.leftHand" />, <Pin key="end" particle="rope.end" />, <Stick key="stick" a="rope.2" b="doll.head" />];
    const m = await mountWorld([...bodies, ...good], { onError: (error) => void reported.push(error.message) });
    expect(reported).toEqual([]);
    expect(m.world.pins.count).toBe(2);

    const bad = [
      // @ts-expect-error -- "lefthand": ragdoll parts are camelCase
      <Pin key="hand" particle="doll.lefthand" />,
      // @ts-expect-error -- "ned" is no part of anything
      <Stick key="stick" a="rope.2" b="rope.ned" />,
    ];
    await m.update([...bodies, ...bad], { onError: (error) => void reported.push(error.message) });
    expect(reported).toEqual(['<Pin>: particle names no particle "doll.lefthand" in this <World>', '<Stick>: b names no particle "rope.ned" in this <World>']);
    expect(await m.unmount()).toEqual([]);
  });

  it("names a cloth's corners, by the edges `pin` names", async () => {
    const flag = <Cloth key="flag" name="flag" width={5} height={4} spacing={0.1} corner={[0, 2, 0]} />;
    const m = await mountWorld([flag, <Pin key="a" particle="flag.topRight" />, <Pin key="b" particle="flag.bottomLeft" />]);
    expect(m.position('flag.topLeft')).toEqual([0, 2, 0]);
    expect(m.position('flag.topRight')).toEqual([0.4, 2, 0]);
    expect(m.position('flag.bottomRight')[0]).toBeCloseTo(0.4, 12);
    expect(m.position('flag.bottomRight')[1]).toBeCloseTo(1.7, 12);
    expect(m.world.pins.count).toBe(2);
    // @ts-expect-error -- corners are camelCase
    expect(<Pin particle="flag.top-right" />).toBeTruthy();
    expect(await m.unmount()).toEqual([]);
  });

  it('leave names held in a string unchecked until mount, and type a component of your own', () => {
    const fromData: string = 'doll.lefthand';
    const refs: TypedParticleRef[] = [fromData, 3, { id: 4 }];
    expect(refs).toHaveLength(3);
    function Leash<N extends string>({ to }: { to: TypedParticleRef<N> }) {
      return <Pin particle={to} target={[0, 1, 0]} />;
    }
    expect(<Leash to="doll.rightFoot" />).toBeTruthy();
    // @ts-expect-error -- "rightfoot"
    expect(<Leash to="doll.rightfoot" />).toBeTruthy();
  });
});
