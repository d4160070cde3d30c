import { act } from '@react-three/test-renderer';
import { Particle } from '../../src/react/components/Particle.js';
import { particleSlot } from '../../src/core/ids.js';
import { useMemo } from 'react';
import type { Force } from '../../src/core/forces/force.js';
import type { World as CoreWorld } from '../../src/core/world.js';
import { useCloth } from '../../src/react/hooks/useCloth.js';
import { useCollider } from '../../src/react/hooks/useCollider.js';
import { useExplosion } from '../../src/react/hooks/useExplosion.js';
import { useForce } from '../../src/react/hooks/useForce.js';
import { useParticle } from '../../src/react/hooks/useParticle.js';
import { usePin } from '../../src/react/hooks/usePin.js';
import { usePlant } from '../../src/react/hooks/usePlant.js';
import { useRagdoll } from '../../src/react/hooks/useRagdoll.js';
import { useRigidBody } from '../../src/react/hooks/useRigidBody.js';
import { useRope } from '../../src/react/hooks/useRope.js';
import { useSoftBody } from '../../src/react/hooks/useSoftBody.js';
import { useAfterStep, useBeforeStep } from '../../src/react/hooks/useStepCallbacks.js';
import { useStick } from '../../src/react/hooks/useStick.js';
import { useWorld } from '../../src/react/hooks/useWorld.js';
import { useWorldStore } from '../../src/react/hooks/useWorldStore.js';
import { expectRenderError, mountWorld } from './helpers.js';

describe('hooks', () => {
  it('return handles that stay the same object across renders and re-creations', async () => {
    const seen: unknown[][] = [];
    function Everything({ stiffness, segments }: { stiffness: number; segments: number }) {
      const a = useParticle({ position: [0, 2, 0], name: 'a' });
      const b = useParticle({ position: [1, 2, 0] });
      const stick = useStick(a, b, { stiffness });
      const pin = usePin(a);
      const cloth = useCloth({ width: 4, height: 3, corner: [2, 2, 0], structural: { stiffness } });
      const rope = useRope({ from: [0, 1, 0], to: [1, 1, 0], segments });
      const soft = useSoftBody({ position: [3, 1, 0], size: 0.3, resolution: 0, stiffness });
      const plant = usePlant({ root: [4, 0, 0], stiffness });
      const rigid = useRigidBody({ shape: 'box', size: 0.2, position: [5, 1, 0] });
      const ragdoll = useRagdoll({ feet: [6, 0, 0] });
      const explode = useExplosion();
      const world = useWorld();
      seen.push([a, b, stick, pin, cloth, rope, soft, plant, rigid, ragdoll, explode, world]);
      return null;
    }
    const m = await mountWorld(<Everything stiffness={1} segments={4} />);
    const firstRope = (seen[0]![5] as ReturnType<typeof useRope>).current;
    // A live change (stiffness) and a structural one (segments: the rope is rebuilt).
    await m.update(<Everything stiffness={0.5} segments={6} />);
    expect(seen.length).toBeGreaterThanOrEqual(2);
    const last = seen[seen.length - 1]!;
    seen.forEach((handles) => handles.forEach((h, i) => expect(h).toBe(last[i])));
    const rope = last[5] as ReturnType<typeof useRope>;
    expect(rope.current).not.toBe(firstRope);
    expect(rope.count).toBe(7);
    expect(m.world.sticks.stiffness[m.world.stickRow((last[2] as ReturnType<typeof useStick>).id)]).toBe(0.5);
    await m.unmount();
    expect(m.world.particleCount).toBe(0);
    expect(m.world.sticks.count + m.world.pins.count).toBe(0);
  });

  it('useParticle applies a radius, friction or restitution change to its particle in a reused slot', async () => {
    const ball = (radius: number, friction: number, restitution: number) => <Particle name="ball" position={[0, 1, 0]} radius={radius} friction={friction} restitution={restitution} />;
    // StrictMode mounts it twice: the second particle takes the first one's slot, its id a generation.
    const m = await mountWorld(ball(0.1, 0.5, 0), {}, true);
    const id = m.particle('ball');
    expect(id).toBeGreaterThanOrEqual(2 ** 20);
    await m.update(ball(0.3, 0.2, 0.6));
    const slot = particleSlot(id);
    const p = m.world.particles;
    expect([p.radius[slot], p.friction[slot], p.restitution[slot]]).toEqual([0.3, 0.2, 0.6]);
    await m.unmount();
  });

  it('call step callbacks once per step, always the latest one, until unmount', async () => {
    const calls: string[] = [];
    function Hooks({ tag }: { tag: string }) {
      useBeforeStep((w) => calls.push(`before ${tag} ${w.stepCount}`));
      useAfterStep((w) => calls.push(`after ${tag} ${w.stepCount}`));
      return null;
    }
    const m = await mountWorld(<Hooks tag="x" />);
    await m.frames(2);
    await m.update(<Hooks tag="y" />);
    await m.frames(1);
    expect(calls).toEqual(['before x 0', 'after x 1', 'before x 1', 'after x 2', 'before y 2', 'after y 3']);
    await m.update(null);
    expect(m.world.beforeStep).toHaveLength(0);
    expect(m.world.afterStep).toHaveLength(0);
    await m.unmount();
  });

  it('useExplosion pushes particles away from the centre', async () => {
    let explode: ReturnType<typeof useExplosion> | undefined;
    let handles: ReturnType<typeof useParticle>[] = [];
    function Bomb() {
      explode = useExplosion();
      handles = [useParticle({ position: [1, 0, 0] }), useParticle({ position: [-1, 0, 0] })];
      return null;
    }
    const m = await mountWorld(<Bomb />, { gravity: [0, 0, 0] });
    expect(explode!([0, 0, 0], { strength: 0.01, radius: 2 })).toBe(2);
    await m.frames(10);
    // Pushed strength / d² = 0.01 m within one substep: 0.01 / h m/s outwards, each.
    expect(handles[0]!.velocity()[0]).toBeCloseTo(0.01 / m.world.substep, 9);
    expect(handles[1]!.velocity()[0]).toBeCloseTo(-0.01 / m.world.substep, 9);
    await m.unmount();
  });

  it('useWorldStore re-renders on a selected change, and useForce/useCollider add and remove', async () => {
    const pausedSeen: boolean[] = [];
    const applied: number[] = [];
    function Panel() {
      pausedSeen.push(useWorldStore((s) => s.settings.paused));
      const force = useMemo<Force>(() => ({ apply: (w: CoreWorld) => void applied.push(w.stepCount) }), []);
      useForce(force);
      useCollider(useMemo(() => ({ type: 'sphere', position: [0, 0, 0], radius: 1 }) as const, []));
      return null;
    }
    const m = await mountWorld(
      <>
        <Particle position={[0, 5, 0]} />
        <Panel />
      </>,
    );
    expect(m.world.forces).toHaveLength(1);
    expect(m.world.colliders).toHaveLength(1);
    await m.frames(3);
    // Force generators run every substep (10 per step by default).
    expect(applied).toEqual([0, 1, 2].flatMap((step) => Array<number>(10).fill(step)));
    await act(async () => m.store.getState().pause());
    expect(pausedSeen[pausedSeen.length - 1]).toBe(true);
    const renders = pausedSeen.length;
    await m.frames(30);
    expect(pausedSeen).toHaveLength(renders);
    await m.update(null);
    expect(m.world.forces).toHaveLength(0);
    expect(m.world.colliders).toHaveLength(0);
    await m.unmount();
  });

  it('name themselves in errors outside a <World>', async () => {
    function Lost() {
      useWorld();
      return null;
    }
    function LostCloth() {
      useCloth({ width: 2, height: 2 });
      return null;
    }
    await expectRenderError(<Lost />, 'useWorld() must be inside a <World>');
    await expectRenderError(<LostCloth />, 'useCloth() must be inside a <World>');
  });
});
