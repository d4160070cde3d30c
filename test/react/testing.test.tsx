import { useFrame } from '@react-three/fiber';
import { useLayoutEffect, useMemo } from 'react';
import { describe, expect, it, vi } from 'vitest';
import type { Force } from '../../src/core/forces/force.js';
import { Ground, Particle, RigidBody, Ragdoll, Rope, useForce, usePin, useRope, useWorld, particleSlot } from 'sinew-physics';
import {
  cleanup,
  energy,
  expectAsleep,
  expectAtRest,
  expectEnergyNotGrowing,
  expectFinite,
  expectStickLength,
  isAsleep,
  leftovers,
  mountHook,
  mountWorld,
  nonFiniteParticles,
} from 'sinew-physics/testing';
import { EffectLog } from './helpers.js';

// sinew-physics/testing, the harness users test their own scenes with (and these tests use through helpers.tsx).

describe('mountWorld', () => {
  it('runs nothing until asked, then whole frames of the given delta', async () => {
    const scene = await mountWorld(<Particle name="ball" position={[0, 10, 0]} />);
    expect(scene.world.stepCount).toBe(0);
    await scene.frames(3);
    expect(scene.world.stepCount).toBe(3);
    await scene.frames(4, 1 / 120); // two frames per 1/60 s step
    expect(scene.world.stepCount).toBe(5);
    await scene.unmount();
  });

  it('simulates seconds of world time exactly, whatever the time scale', async () => {
    const scene = await mountWorld(<Particle name="ball" position={[0, 10, 0]} />, { damping: 0, timeScale: 0.25 });
    await scene.seconds(1);
    expect(scene.world.stepCount).toBe(60);
    expect(scene.world.time).toBeCloseTo(1, 12);
    // Verlet is exact under constant acceleration: y = y0 - g t² / 2 after a whole second.
    expect(scene.position('ball')[1]).toBeCloseTo(10 - 9.81 / 2, 9);
    expect(scene.velocity('ball')[1]).toBeCloseTo(-9.81 * (1 - 1 / 1200), 9); // the mean over the last substep, h = 1/600 s
    await scene.update(<Particle name="ball" position={[0, 10, 0]} />, { damping: 0, timeStep: 1 / 100 });
    await scene.seconds(0.5);
    expect(scene.world.stepCount).toBe(110);
    await scene.unmount();
  });

  it('runs useFrame callbacks in priority order with a clock that moves by delta', async () => {
    const seen: string[] = [];
    function Watcher() {
      const world = useWorld();
      useFrame(({ clock }, delta) => void seen.push(`after ${world.stepCount} steps: t=${clock.elapsedTime.toFixed(3)} delta=${delta.toFixed(3)}`));
      useFrame(() => void seen.push(`before: ${world.stepCount} steps`), -100);
      return null;
    }
    const scene = await mountWorld(<Watcher />);
    await scene.frames(2, 0.02);
    expect(seen).toEqual(['before: 0 steps', 'after 1 steps: t=0.020 delta=0.020', 'before: 1 steps', 'after 2 steps: t=0.040 delta=0.020']);
    await scene.unmount();
  });

  it('rejects frames() with the error a useFrame callback threw', async () => {
    function Broken() {
      useFrame(() => {
        throw new Error('the sign fell off');
      });
      return null;
    }
    const scene = await mountWorld(<Broken />);
    await expect(scene.frames(1)).rejects.toThrow('the sign fell off');
    await scene.unmount();
  });

  it('mounts under StrictMode: effects run twice and nothing is registered twice', async () => {
    const log: string[] = [];
    const scene = await mountWorld(
      <>
        <EffectLog log={log} />
        <Rope name="rope" from={[0, 2, 0]} to={[1, 2, 0]} segments={6} pinStart />
      </>,
      { strict: true },
    );
    expect(log).toEqual(['mount', 'unmount', 'mount']);
    expect(scene.world.particleCount).toBe(7);
    expect(scene.world.sticks.count).toBe(6);
    expect(scene.world.pins.count).toBe(1);
    expect(await scene.unmount()).toEqual([]);
  });

  it('reads particles of named bodies: "rope.end", "doll.leftHand"', async () => {
    const scene = await mountWorld(
      <>
        <Ground />
        <Rope name="rope" from={[0, 2, 0]} to={[1, 2, 0]} segments={4} pinStart />
        <Ragdoll name="doll" feet={[3, 0, 0]} />
      </>,
    );
    expect(scene.particle('rope.end')).toBe(scene.particle('rope.0') + 4);
    expect(scene.position('rope.end')).toEqual([1, 2, 0]);
    const left = scene.position('doll.leftHand');
    const right = scene.position('doll.rightHand');
    expect(left[0]).not.toBe(right[0]); // two different particles, either side of the body
    expect(Math.abs((left[0] + right[0]) / 2 - 3)).toBeLessThan(0.1);
    await scene.seconds(0.5);
    expect(scene.position('rope.end')[1]).toBeLessThan(2); // it swings down
    expect(scene.position('rope.start')).toEqual([0, 2, 0]); // pinned
    await scene.unmount();
  });

  it('names what is missing when a reference names nothing', async () => {
    const scene = await mountWorld(
      <>
        <Particle name="hand" position={[0, 1, 0]} />
        <Ragdoll name="doll" />
      </>,
    );
    expect(() => scene.position('foot')).toThrow('position: no particle named "foot" in this <World>; named particles: hand; named bodies: doll (ragdoll)');
    expect(() => scene.velocity('doll.leftHnd')).toThrow(/velocity: body "doll" \(a ragdoll of \d+ particles\) has no particle "leftHnd"/);
    expect(() => scene.particle(999)).toThrow('particle: no live particle with id 999 in this <World>');
    await scene.unmount();
    const empty = await mountWorld(null);
    expect(() => empty.position('hand')).toThrow('nothing in it has a name');
    await empty.unmount();
  });

  it('refuses to step, re-render or read an unmounted world, and to step a paused one by seconds', async () => {
    const scene = await mountWorld(<Particle name="ball" position={[0, 1, 0]} />, { paused: true });
    await expect(scene.seconds(1)).rejects.toThrow('seconds: the <World> is paused, so no world time passes');
    await scene.frames(10); // frames of a paused world run, and step nothing
    expect(scene.world.stepCount).toBe(0);
    await expect(scene.frames(1.5)).rejects.toThrow('frames: count must be an integer >= 0, got 1.5');
    await expect(scene.frames(1, 0)).rejects.toThrow('frames: delta must be a number of seconds > 0, got 0');
    expect(scene.mounted).toBe(true);
    await scene.unmount();
    expect(scene.mounted).toBe(false);
    await expect(scene.frames(1)).rejects.toThrow('frames: this <World> was unmounted (by unmount() or cleanup()); mount a new one with mountWorld()');
    await expect(scene.seconds(1)).rejects.toThrow('seconds: this <World> was unmounted');
    await expect(scene.update(null)).rejects.toThrow('update: this <World> was unmounted');
    expect(() => scene.position('ball')).toThrow('position: this <World> was unmounted');
    await expect(scene.unmount()).rejects.toThrow('unmount: this <World> was unmounted');
  });
});

describe('mounting errors', () => {
  it('rejects with the error of a component that fails to mount, and of bad options', async () => {
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => undefined); // React reports it too
    try {
      await expect(mountWorld(<Rope from={[0, 0, 0]} to={[1, 0, 0]} segments={-3} />)).rejects.toThrow('<Rope>: segments must be an integer >= 1, got -3');
      await expect(mountWorld(null, { strict: 'yes' as unknown as boolean })).rejects.toThrow('mountWorld: strict must be true or false, got yes');
      await expect(mountWorld(null, { substeps: 0 })).rejects.toThrow('<World>: substeps must be an integer >= 1, got 0');
      await expect(mountHook(undefined as unknown as () => void)).rejects.toThrow('mountHook: hook must be a function that calls hooks, got undefined');
    } finally {
      quiet.mockRestore();
    }
  });
});

describe('leftovers', () => {
  it('lists what a component forgot to remove, and nothing for one that cleans up', async () => {
    function Leaky() {
      const world = useWorld();
      useLayoutEffect(() => {
        world.addParticle({ position: [0, 1, 0] });
        world.onBeforeStep(() => undefined);
        world.addCollider({ type: 'sphere', position: [0, 0, 0], radius: 1 });
      }, [world]);
      return null;
    }
    const leaky = await mountWorld(<Leaky />);
    expect(await leaky.unmount()).toEqual(['1 particle (ids 0)', '1 collider', '1 before-step callback']);

    const tidy = await mountWorld(
      <>
        <Ground />
        <Rope name="rope" from={[0, 2, 0]} to={[1, 2, 0]} segments={4} pinStart />
        <RigidBody name="crate" shape="box" size={[0.4, 0.4, 0.4]} position={[0, 1, 0]} />
      </>,
    );
    // The box's 12 edges collide as capsules; <RigidBody> records its transform before every step.
    expect(tidy.leftovers()).toEqual([
      '13 particles (ids 0, 1, 2, 3, 4, …)',
      '32 sticks',
      '1 pin',
      '12 other constraints (collision, angle or user constraints)',
      '1 collider',
      '1 before-step callback',
      '2 bodies (rope, box)',
      'the body name "rope"',
      'the body name "crate"',
    ]);
    await tidy.update(null); // the components unmount, the <World> stays
    expect(leftovers(tidy)).toEqual([]);
    expect(await tidy.unmount()).toEqual([]);
  });
});

describe('mountHook', () => {
  it('returns what the hook returned, renders it again with new props, and steps its world', async () => {
    const hook = await mountHook((segments: number) => useRope({ name: 'rope', from: [0, 2, 0], to: [1, 2, 0], segments, pinStart: true }), { initialProps: 4, gravity: [0, -1, 0] });
    expect(hook.result.current.count).toBe(5);
    expect(hook.world.gravity).toEqual([0, -1, 0]);
    await hook.rerender(8);
    expect(hook.result.current.count).toBe(9); // rebuilt with 8 segments
    expect(hook.world.particleCount).toBe(9);
    await hook.seconds(0.5);
    expect(hook.position('rope.end')[1]).toBeLessThan(2);
    expect(await hook.unmount()).toEqual([]);
  });

  it('renders a scene beside the hook, for hooks that name its particles', async () => {
    const hook = await mountHook((y: number) => usePin('rope.end', [1, y, 0]), {
      initialProps: 2,
      scene: <Rope name="rope" from={[0, 2, 0]} to={[1, 2, 0]} segments={5} pinStart />,
    });
    expect(hook.result.current.particle).toBe(hook.particle('rope.end'));
    await hook.rerender(1.6);
    await hook.seconds(0.25);
    expect(hook.position('rope.end')[1]).toBeCloseTo(1.6, 6);
    await hook.update(<Rope name="rope" from={[0, 2, 0]} to={[1, 2, 0]} segments={5} pinStart pinEnd />);
    expect(hook.result.current.particle).toBe(hook.particle('rope.end')); // the hook stayed mounted
    expect(await hook.unmount()).toEqual([]);
  });
});

describe('cleanup', () => {
  it('unmounts every world still mounted', async () => {
    const a = await mountWorld(<Particle position={[0, 1, 0]} />);
    const b = await mountHook(() => useWorld());
    await a.unmount();
    await cleanup();
    expect([a.mounted, b.mounted]).toEqual([false, false]);
    expect(b.world.particleCount).toBe(0);
  });
});

describe('physical facts', () => {
  it('expectAtRest passes for a ball lying on the ground and names a falling one', async () => {
    const scene = await mountWorld(
      <>
        <Ground />
        <Particle name="resting" position={[0, 0.1, 0]} radius={0.1} />
        <Particle name="falling" position={[1, 50, 0]} />
      </>,
    );
    await scene.seconds(1);
    expect(expectAtRest(scene, 'resting')).toBeLessThan(0.01);
    expect(() => expectAtRest(scene, 'falling')).toThrow(/expectAtRest: "falling" moves at 9\.8\d* m\/s, not below 0\.01 m\/s/);
    expect(() => expectAtRest(scene, 'falling', { speed: 20 })).not.toThrow();
    await scene.unmount();
  });

  it('expectAtRest names a body\'s particle as the test named it, or by its part name ("rope.end", "doll.leftHand")', async () => {
    const scene = await mountWorld(
      <>
        <Rope name="rope" from={[0, 2, 0]} to={[1, 2, 0]} segments={4} pinStart />
        <Ragdoll name="doll" feet={[3, 3, 0]} />
      </>,
    );
    await scene.seconds(0.3);
    // Swinging down from the horizontal and falling: the exact message, its speed printed to three digits.
    const message = (name: string, ref: string) => {
      const v = scene.velocity(ref);
      const three = (n: number) => String(Number(n.toPrecision(3)));
      return `expectAtRest: "${name}" moves at ${three(Math.hypot(...v))} m/s, not below 0.01 m/s (velocity [${v.map(three).join(', ')}])`;
    };
    expect(() => expectAtRest(scene, 'rope.end')).toThrow(new Error(message('rope.end', 'rope.end')));
    expect(() => expectAtRest(scene, 'rope.4')).toThrow(new Error(message('rope.4', 'rope.end')));
    // An id or a handle: named as ParticleRef names it, a part name before an index.
    expect(() => expectAtRest(scene, scene.particle('rope.end'))).toThrow(new Error(message('rope.end', 'rope.end')));
    expect(() => expectAtRest(scene, { id: scene.particle('rope.2') })).toThrow(new Error(message('rope.2', 'rope.2')));
    expect(() => expectAtRest(scene, scene.particle('doll.leftHand'))).toThrow(new Error(message('doll.leftHand', 'doll.leftHand')));
    await scene.unmount();
  });

  it("expectStickLength compares with the stick's rest length or a given length", async () => {
    const scene = await mountWorld(<Rope name="rope" from={[0, 2, 0]} to={[1, 2, 0]} segments={4} pinStart />);
    await scene.seconds(1);
    expect(expectStickLength(scene, 'rope.0', 'rope.1')).toBeCloseTo(0.25, 2);
    expect(() => expectStickLength(scene, 'rope.0', 'rope.1', { length: 0.3 })).toThrow(/expectStickLength: "rope.0"–"rope.1" is 0\.25\d* m long, -1\d\.\d+% off the length 0\.3 m \(allowed 1%\)/);
    expect(() => expectStickLength(scene, 'rope.0', 'rope.2')).toThrow('expectStickLength: no stick joins "rope.0"–"rope.2"; pass { length }');
    // Stretch the first link by 10 cm behind the solver's back.
    const end = scene.particle('rope.1');
    scene.world.particles.position[end * 3] = 0.35;
    expect(() => expectStickLength(scene, 'rope.0', 'rope.1')).toThrow(/% off its rest length 0\.25 m/);
    await scene.unmount();
  });

  it('expectAsleep passes for a crate settled on the ground, and says why one is awake', async () => {
    const crate = <RigidBody name="crate" shape="box" size={[0.4, 0.4, 0.4]} position={[0, 0.3, 0]} />;
    const scene = await mountWorld(
      <>
        <Ground />
        {crate}
      </>,
    );
    expect(isAsleep(scene, 'crate')).toBe(false);
    expect(() => expectAsleep(scene, 'crate')).toThrow(/expectAsleep: body "crate" \(a box\) is awake; its fastest particle moves at/);
    await scene.seconds(3);
    expectAsleep(scene, 'crate');
    expect(isAsleep(scene, 'crate.0')).toBe(true);
    await scene.unmount();

    const sleepless = await mountWorld(
      <>
        <Ground />
        {crate}
      </>,
      { sleep: false },
    );
    await sleepless.seconds(3);
    expect(() => expectAsleep(sleepless, 'crate')).toThrow('expectAsleep: body "crate" (a box) is awake: sleeping is off in this <World>');
    await sleepless.unmount();
  });

  it('expectFinite names the particles a NaN reached', async () => {
    const scene = await mountWorld(<Rope name="rope" from={[0, 2, 0]} to={[1, 2, 0]} segments={3} pinStart />);
    await scene.seconds(0.1);
    expectFinite(scene);
    scene.world.particles.position[particleSlot(scene.particle('rope.end')) * 3 + 1] = Number.NaN;
    expect(nonFiniteParticles(scene)).toEqual([scene.particle('rope.end')]);
    expect(() => expectFinite(scene)).toThrow(/^expectFinite: 1 of 4 particles hold NaN or Infinity: "rope\.end" at \[0\.9\d+, NaN, 0\]$/);
    await scene.seconds(0.1); // the sticks spread it up the rope
    expect(nonFiniteParticles(scene).length).toBeGreaterThan(1);
    await scene.unmount();
  });

  it('energy is conserved by a swinging rope and grows under a pumping force, which expectEnergyNotGrowing catches', async () => {
    const rope = <Rope name="rope" from={[0, 2, 0]} to={[1, 2, 0]} segments={8} pinStart particleMass={1} />;
    const scene = await mountWorld(rope, { damping: 0 });
    const start = energy(scene);
    // 9 particles of 1 kg, less the pinned one: 8 kg at 2 m.
    expect(start.potential).toBeCloseTo(8 * 9.81 * 2, 2);
    expect(start.kinetic).toBeLessThan(1e-3); // at rest: ½·8 kg·(g·h/2)², the first substep's fall counted at its middle
    const totals = await expectEnergyNotGrowing(scene, { seconds: 1 });
    expect(totals).toHaveLength(61);
    expect(scene.position('rope.end')[0]).toBeLessThan(0); // it swung through to the other side of its pin
    expect(Math.min(...totals)).toBeGreaterThan(start.total * 0.95); // and, with no damping, loses little (the limp chain's projections absorb a few %)
    await scene.unmount();

    function Pump() {
      // Pushes every particle along its own velocity: energy in every step.
      const force = useMemo<Force>(
        () => ({
          apply(world) {
            for (let slot = 0; slot < world.particles.end; slot++) {
              if (!world.particles.isAlive(slot)) continue;
              // The loop walks slots; the accessors take ids.
              const id = world.particleId(slot);
              world.applyForce(id, world.getVelocity(id).map((v) => 2 * v) as [number, number, number]);
            }
          },
        }),
        [],
      );
      useForce(force);
      return null;
    }
    const pumped = await mountWorld(
      <>
        {rope}
        <Pump />
      </>,
      { damping: 0 },
    );
    await expect(expectEnergyNotGrowing(pumped, { seconds: 2 })).rejects.toThrow(
      /expectEnergyNotGrowing: the energy rose from 157 J to \d+(\.\d+)? J \(\+\d+(\.\d+)? J\) after [\d.]+ s, more than the 1\.57 J allowed \(tolerance 0\.01\)/,
    );
    await pumped.unmount();
  });

  it("expectEnergyNotGrowing gives a body's movable mass dropped 1 m as room when it starts near zero energy, in reused slots too", async () => {
    // Level with y = 0 and at rest: no energy to take the tolerance of, so the room is 1% of 8 kg dropped 1 m.
    // StrictMode mounts the rope twice: its particles take reused slots, their ids a generation.
    const scene = await mountWorld(<Rope name="rope" from={[0, 0, 0]} to={[1, 0, 0]} segments={8} pinStart particleMass={1} />, { damping: 0, strict: true });
    expect(scene.particle('rope.0')).toBeGreaterThanOrEqual(2 ** 20);
    // A push every step along the velocity: energy in.
    scene.world.onAfterStep((world) => {
      const end = scene.particle('rope.end');
      world.setVelocity(end, world.getVelocity(end).map((v) => 1.5 * v) as [number, number, number]);
    });
    await expect(expectEnergyNotGrowing(scene, { seconds: 1, body: 'rope' })).rejects.toThrow(/more than the 0\.785 J allowed \(tolerance 0\.01\)/);
    await scene.unmount();
  });
});
