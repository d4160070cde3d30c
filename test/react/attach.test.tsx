import { useFrame } from '@react-three/fiber';
import { useRef, useState, type RefObject } from 'react';
import type { Mesh } from 'three';
import { describe, expect, it, vi } from 'vitest';
import { Attach } from '../../src/react/components/Attach.js';
import { Cloth } from '../../src/react/components/Cloth.js';
import { RigidBody } from '../../src/react/components/RigidBody.js';
import { Rope } from '../../src/react/components/Rope.js';
import { useAttach } from '../../src/react/hooks/useAttach.js';
import { STEP_PRIORITY } from '../../src/react/World.js';
import { mountWorld } from './helpers.js';

const TOP_ROW = Array.from({ length: 8 }, (_, i) => `cape.${i}`);

/** A box moving along x at `speed` m/s, moved before the world steps; a cape hangs from its top, attached along its top row. */
function CapedBox({ speed, box }: { speed: number; box?: RefObject<Mesh | null> }) {
  const own = useRef<Mesh>(null);
  const ref = box ?? own;
  useFrame((_, delta) => {
    if (ref.current) ref.current.position.x += speed * delta;
  }, STEP_PRIORITY - 2);
  return (
    <>
      <mesh ref={ref} position={[0, 1.5, 0]}>
        <boxGeometry args={[0.4, 0.1, 0.1]} />
      </mesh>
      <Cloth name="cape" width={8} height={6} spacing={0.05} corner={[-0.175, 1.5, 0]} />
      <Attach to={ref} particles={TOP_ROW} />
    </>
  );
}

describe('<Attach> and useAttach(): particles on a moving three.js object', () => {
  for (const strict of [false, true]) {
    it(`keeps a cape's top row on a box moving at 3 m/s, within 1 cm, and leaves nothing after unmounting${strict ? ' (StrictMode)' : ''}`, async () => {
      const box: RefObject<Mesh | null> = { current: null };
      const scene = await mountWorld(<CapedBox speed={3} box={box} />, { sleep: false }, strict);
      const local = TOP_ROW.map((name) => scene.position(name)).map(([x, y, z]) => [x, y - 1.5, z]);
      expect(scene.world.pins.count).toBe(8);
      let worst = 0;
      for (let frame = 0; frame < 60; frame++) {
        await scene.frames(1);
        const x = box.current!.position.x;
        TOP_ROW.forEach((name, k) => {
          const [px, py, pz] = scene.position(name);
          worst = Math.max(worst, Math.hypot(px - (x + local[k]![0]!), py - (1.5 + local[k]![1]!), pz - local[k]![2]!));
        });
      }
      expect(box.current!.position.x).toBeCloseTo(3, 6);
      // Moved before the step, the box is followed in the same frame: measured 1e-15 m.
      expect(worst).toBeLessThan(0.01);
      expect(await scene.unmount()).toEqual([]);
    });
  }

  it('lets go when the object unmounts first, and reports it once to onError', async () => {
    const reported: string[] = [];
    const onError = (error: Error, who: string) => void reported.push(`${who} ${error.message}`);
    function Scene({ withBox }: { withBox: boolean }) {
      const box = useRef<Mesh>(null);
      return (
        <>
          {withBox && <mesh ref={box} position={[0, 1.5, 0]} />}
          <Cloth name="cape" width={8} height={6} spacing={0.05} corner={[-0.175, 1.5, 0]} />
          <Attach to={box} particles={TOP_ROW} />
        </>
      );
    }
    const scene = await mountWorld(<Scene withBox />, { onError, sleep: false });
    await scene.frames(10);
    expect(scene.world.pins.count).toBe(8);
    await scene.update(<Scene withBox={false} />, { onError, sleep: false });
    await scene.frames(30);
    expect(scene.world.pins.count).toBe(0);
    expect(reported).toEqual(['<Attach> <Attach>: the object it was attached to unmounted, so the particles were let go; unmount the attachment with its object to part without this report']);
    // Let go, the cape falls.
    expect(scene.position('cape.0')[1]).toBeLessThan(1.3);
    expect(await scene.unmount()).toEqual([]);
  });

  it('reports a ref without an object, an unknown particle and a bad prop, naming them', async () => {
    const reported: string[] = [];
    const onError = (error: Error) => void reported.push(error.message);
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const empty = { current: null };
      const scene = await mountWorld(
        [
          <Cloth key="c" name="cape" width={8} height={6} spacing={0.05} corner={[0, 1.5, 0]} />,
          <Attach key="a" to={empty} particles={['cape.0']} />,
          <Attach key="b" to={empty} particles={['cape.nose']} />,
          <Attach key="d" to={empty} particles={['cape.1']} compliance={-1} />,
          <Attach key="e" to="nobody" particles={['cape.2']} />,
        ],
        { onError },
      );
      // Bad props are found while rendering, the rest when attaching.
      expect(reported).toEqual([
        '<Attach>: compliance must be a finite number in [0, Infinity], got -1',
        '<Attach>: to is a ref that holds no object: give it to a mounted object (<mesh ref={ref}>)',
        '<Attach>: particles[0] names no particle "cape.nose" in this <World>',
        '<Attach>: to names no body "nobody" in this <World>',
      ]);
      expect(scene.world.pins.count).toBe(0);
      expect(await scene.unmount()).toEqual([]);
    } finally {
      logged.mockRestore();
    }
  });

  it('ties a rope two-way to a rigid body named in `to`: the box carries the rope, and the rope pulls the box', async () => {
    // Zero gravity, the box at rest and the rope thrown sideways at 1 m/s: tied two-way, the rope drags
    // the box along and the pair keeps the rope's momentum; a one-way hold would leave the box still.
    const scene = await mountWorld(
      [
        <RigidBody key="box" name="crate" shape="box" size={0.3} position={[0, 2, 0]} mass={0.5} />,
        <Rope key="rope" name="rope" from={[0, 1.85, 0]} to={[0, 0.85, 0]} segments={10} />,
        <Attach key="tie" to="crate" particles={['rope.start']} />,
      ],
      { sleep: false, gravity: [0, 0, 0] },
    );
    const world = scene.world;
    const rope = world.bodies.find((b) => b?.kind === 'rope')!;
    const box = world.bodies.find((b) => b && b.kind !== 'rope')!;
    const momentum = (first: number, count: number) => {
      let p = 0;
      for (let i = first; i < first + count; i++) p += world.getMass(i) * world.getVelocity(i)[0];
      return p;
    };
    for (let i = rope.first; i < rope.first + rope.count; i++) world.setVelocity(i, [1, 0, 0]);
    const given = momentum(rope.first, rope.count);
    await scene.seconds(1);
    const boxMass = Array.from({ length: box.count }, (_, k) => world.getMass(box.first + k)).reduce((a, b) => a + b, 0);
    const boxSpeed = momentum(box.first, box.count) / boxMass;
    expect(boxSpeed).toBeGreaterThan(0.05);
    expect(momentum(box.first, box.count) + momentum(rope.first, rope.count)).toBeCloseTo(given, 6);
    expect(await scene.unmount()).toEqual([]);
  });

  it('useAttach() returns a handle that reports holds and forces, and breaks over breakForce', async () => {
    let handle: ReturnType<typeof useAttach> | null = null;
    const broken: number[] = [];
    function Hook() {
      const [anchor] = useState(() => ({ current: null as Mesh | null }));
      handle = useAttach(anchor, ['rope.start'], { breakForce: 10, onBreak: (_p, f) => broken.push(f) });
      return <mesh ref={(m) => void (anchor.current = m)} position={[0, 2, 0]} />;
    }
    const scene = await mountWorld([<Rope key="rope" name="rope" from={[0, 2, 0]} to={[0, 1, 0]} segments={8} particleMass={0.05} />, <Hook key="hook" />], { sleep: false, damping: 2 });
    await scene.seconds(2);
    // 9 particles × 0.05 kg × 9.81 N/kg = 4.41 N hang from it; a load set on
    // at once pulls up to twice its weight at first (a spring's step response), still under the 10 N it may carry.
    expect(handle!.holds(0)).toBe(true);
    expect(handle!.force(0)).toBeCloseTo(4.41, 1);
    expect(broken).toHaveLength(0);
    // A 1 kg load at the end: 14.2 N.
    scene.world.setMass(scene.particle('rope.end'), 1);
    await scene.seconds(1);
    expect(broken).toHaveLength(1);
    expect(broken[0]).toBeGreaterThan(10);
    expect(handle!.holds(0)).toBe(false);
    expect(await scene.unmount()).toEqual([]);
  });
});
