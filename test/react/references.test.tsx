import { createRef, useState } from 'react';
import type { Group } from 'three';
import { Particle } from '../../src/react/components/Particle.js';
import { Pin } from '../../src/react/components/Pin.js';
import { Rope } from '../../src/react/components/Rope.js';
import { Stick } from '../../src/react/components/Stick.js';
import { useParticle, type ParticleHandle } from '../../src/react/hooks/useParticle.js';
import type { PinHandle } from '../../src/react/hooks/usePin.js';
import type { StickHandle } from '../../src/react/hooks/useStick.js';
import { World } from '../../src/react/World.js';
import { EffectLog, expectRenderError, mountWorld } from './helpers.js';

function distance(p: readonly number[], q: readonly number[]): number {
  return Math.hypot(p[0]! - q[0]!, p[1]! - q[1]!, p[2]! - q[2]!);
}

describe('<Particle>, <Stick>, <Pin>', () => {
  // StrictMode mounts everything twice: the particles then sit in reused slots, their ids carrying a generation.
  it.each([false, true])('connects particles by name wherever they sit in the tree (StrictMode: %s)', async (strict) => {
    const anchor = createRef<ParticleHandle>();
    const bob = createRef<ParticleHandle>();
    const stick = createRef<StickHandle>();
    const m = await mountWorld(
      <>
        <Stick ref={stick} a="anchor" b="bob" />
        <Particle ref={anchor} name="anchor" position={[0, 2, 0]} />
        <Pin particle="anchor" />
        <Particle ref={bob} name="bob" position={[1, 2, 0]} />
      </>,
      {},
      strict,
    );
    expect(anchor.current!.id >= 2 ** 20).toBe(strict);
    expect(m.world.particleCount).toBe(2);
    expect(m.world.sticks.count).toBe(1);
    expect(m.world.pins.count).toBe(1);
    expect([stick.current!.a, stick.current!.b]).toEqual([anchor.current!.id, bob.current!.id]);
    await m.frames(40);
    // The pendulum swings down: the pin holds the anchor, the stick keeps the length.
    expect(anchor.current!.position()).toEqual([0, 2, 0]);
    expect(bob.current!.position()[1]).toBeLessThan(1.5);
    expect(distance(anchor.current!.position(), bob.current!.position())).toBeCloseTo(1, 3);
    expect(stick.current!.strain()).toBeCloseTo(0, 3);
    const kept = anchor.current!;
    await m.unmount();
    expect(m.world.particleCount).toBe(0);
    expect(m.world.constraintCount).toBe(0);
    expect(kept.id).toBe(-1);
  });

  it('keeps a stick whose ends are given as new { id } objects on every render', async () => {
    const stick = createRef<StickHandle>();
    const m = await mountWorld(null, { gravity: [0, 0, 0] });
    const a = m.world.addParticle({ position: [0, 0, 0] });
    const b = m.world.addParticle({ position: [1, 0, 0] });
    const scene = () => <Stick ref={stick} a={{ id: a }} b={{ id: b }} />;
    await m.update(scene());
    const id = stick.current!.id;
    // Stretch it, then re-render: the same stick stays, with its rest length of 1.
    m.world.setPosition(b, [1.5, 0, 0]);
    await m.update(scene());
    expect(stick.current!.id).toBe(id);
    expect(m.world.sticks.rest[m.world.stickRow(id)]).toBe(1);
    await m.frames(1);
    expect(stick.current!.length()).toBeCloseTo(1, 6);
    await m.update(null);
    expect(m.world.sticks.count).toBe(0);
    await m.unmount();
  });

  it('takes any name, including those of Object.prototype', async () => {
    const stick = createRef<StickHandle>();
    const m = await mountWorld(
      <>
        <Particle name="toString" position={[0, 2, 0]} mass={0} />
        <Particle name="constructor" position={[1, 2, 0]} />
        <Stick ref={stick} a="toString" b="constructor" />
        <Rope name="__proto__" from={[0, 1, 0]} to={[1, 1, 0]} segments={2} />
        <Stick a="__proto__.end" b="constructor" />
      </>,
    );
    expect(m.world.sticks.count).toBe(2 + 2);
    expect(stick.current!.length()).toBeCloseTo(1, 9);
    await m.unmount();
    expect(m.world.particleCount).toBe(0);
  });

  it('takes handles from hooks and "body.part" names', async () => {
    const pin = createRef<PinHandle>();
    function Scene() {
      const weight = useParticle({ position: [1, 1, 0], mass: 2 });
      return (
        <>
          <Rope name="rope" from={[0, 2, 0]} to={[1, 2, 0]} segments={4} />
          <Pin particle="rope.start" />
          <Pin ref={pin} particle="rope.end" target={[1, 2, 0]} />
          <Stick a="rope.2" b={weight} />
        </>
      );
    }
    const m = await mountWorld(<Scene />);
    expect(m.world.particleCount).toBe(6);
    expect(m.world.pins.count).toBe(2);
    // 4 rope segments and the stick to the weight.
    expect(m.world.sticks.count).toBe(5);
    expect(pin.current!.particle).toBe(4);
    await m.frames(20);
    expect(m.world.getPosition(4)).toEqual([1, 2, 0]);
    await m.unmount();
    expect(m.world.constraintCount).toBe(0);
  });

  it('updates props in place: the same particle, stick and pin, changed', async () => {
    const bob = createRef<ParticleHandle>();
    const stick = createRef<StickHandle>();
    const pin = createRef<PinHandle>();
    const scene = (stiffness: number, mass: number, target: [number, number, number]) => (
      <>
        <Particle name="anchor" position={[0, 2, 0]} />
        <Pin ref={pin} particle="anchor" target={target} />
        <Particle ref={bob} name="bob" position={[1, 2, 0]} mass={mass} radius={0.1} />
        <Stick ref={stick} a="anchor" b="bob" stiffness={stiffness} />
      </>
    );
    const m = await mountWorld(scene(1, 1, [0, 2, 0]));
    await m.frames(10);
    const ids = [bob.current!.id, stick.current!.id, pin.current!.id];
    const steps = m.world.stepCount;
    const before = bob.current!.position();

    await m.update(scene(0.5, 3, [0, 2.5, 0]));
    expect([bob.current!.id, stick.current!.id, pin.current!.id]).toEqual(ids);
    expect(m.world.sticks.stiffness[m.world.stickRow(stick.current!.id)]).toBe(0.5);
    expect(m.world.getMass(bob.current!.id)).toBe(3);
    expect(pin.current!.target()).toEqual([0, 2.5, 0]);
    // Not reset: same step count and the bob where it was.
    expect(m.world.stepCount).toBe(steps);
    expect(bob.current!.position()).toEqual(before);
    await m.frames(5);
    expect(m.world.getPosition(pin.current!.particle)).toEqual([0, 2.5, 0]);
    await m.unmount();
  });

  it('re-attaches a stick when a named particle is re-created', async () => {
    const stick = createRef<StickHandle>();
    function Scene({ version }: { version: number }) {
      return (
        <>
          <Particle key={version} name="a" position={[0, 1, 0]} />
          <Particle name="b" position={[1, 1, 0]} />
          <Stick ref={stick} a="a" b="b" />
        </>
      );
    }
    const m = await mountWorld(<Scene version={1} />);
    const first = stick.current!.id;
    await m.update(<Scene version={2} />);
    expect(m.world.particleCount).toBe(2);
    expect(m.world.sticks.count).toBe(1);
    expect(stick.current!.id).not.toBe(first);
    expect(m.world.hasConstraint(stick.current!.id)).toBe(true);
    await m.unmount();
  });

  it('draws its children at the particle, read back every frame', async () => {
    const group = createRef<Group>();
    const handle = createRef<ParticleHandle>();
    const m = await mountWorld(
      <Particle ref={handle} position={[0, 3, 0]}>
        <group ref={group} />
      </Particle>,
      { interpolate: false },
    );
    await m.frames(12);
    const p = handle.current!.position();
    const drawn = group.current!.parent!.position;
    expect([drawn.x, drawn.y, drawn.z]).toEqual(p);
    await m.unmount();
  });

  it('leaves no duplicates under StrictMode', async () => {
    const log: string[] = [];
    const m = await mountWorld(
      <>
        <EffectLog log={log} />
        <Particle name="a" position={[0, 1, 0]} />
        <Particle name="b" position={[1, 1, 0]} />
        <Stick a="a" b="b" />
        <Pin particle="a" />
      </>,
      {},
      true,
    );
    expect(log).toEqual(['mount', 'unmount', 'mount']);
    expect(m.world.particleCount).toBe(2);
    expect(m.world.sticks.count).toBe(1);
    expect(m.world.pins.count).toBe(1);
    await m.frames(5);
    await m.unmount();
    expect(m.world.particleCount).toBe(0);
    expect(m.world.constraintCount).toBe(0);
  });

  it('rejects bad props and references with errors naming the component and prop', async () => {
    await expectRenderError(<Stick a="x" b="y" />, '<Stick> must be inside a <World>');
    await expectRenderError(<Particle position={[0, 0, 0]} />, '<Particle> must be inside a <World>');
    await expectRenderError(
      <World>
        <Particle name="hand" position={[0, 1, 0]} />
        <Stick a="hand" b="elbow" />
      </World>,
      '<Stick>: b names no particle "elbow" in this <World>',
    );
    await expectRenderError(
      <World>
        <Pin particle={42} />
      </World>,
      '<Pin>: particle is particle id 42, which is not alive in this <World>',
    );
    await expectRenderError(
      <World>
        <Particle position={[0, Number.NaN, 0]} />
      </World>,
      '<Particle>: position must be finite numbers, got [0, NaN, 0]',
    );
    await expectRenderError(
      <World>
        <Particle position={[0, 1, 0]} mass={-1} />
      </World>,
      '<Particle>: mass must be >= 0',
    );
    await expectRenderError(
      <World>
        <Particle name="twin" position={[0, 1, 0]} />
        <Particle name="twin" position={[0, 2, 0]} />
      </World>,
      '<Particle>: name "twin" is already used by another particle in this <World>',
    );
    await expectRenderError(
      <World>
        <Particle name="a" position={[0, 1, 0]} />
        <Particle name="b" position={[0, 2, 0]} />
        <Stick a="a" b="b" stiffness={2} />
      </World>,
      '<Stick>: stiffness must be a finite number in [0, 1], got 2',
    );
  });

  it('keeps a hook handle stable across renders', async () => {
    const seen: ParticleHandle[] = [];
    let rerender: () => void = () => undefined;
    function Holder() {
      const [n, setN] = useState(0);
      rerender = () => setN(n + 1);
      seen.push(useParticle({ position: [0, 1, 0], radius: 0.01 * (n + 1) }));
      return null;
    }
    const m = await mountWorld(<Holder />);
    const { act } = await import('@react-three/test-renderer');
    await act(async () => rerender());
    await act(async () => rerender());
    expect(seen.length).toBeGreaterThanOrEqual(3);
    expect(new Set(seen).size).toBe(1);
    expect(m.world.particles.radius[seen[0]!.id]).toBeCloseTo(0.03, 12);
    await m.unmount();
  });
});
