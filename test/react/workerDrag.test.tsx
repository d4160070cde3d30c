import { useFrame } from '@react-three/fiber';
import { useContext, useMemo, useRef } from 'react';
import { describe, expect, it } from 'vitest';
import { Rope } from '../../src/react/components/Rope.js';
import { SinewContext } from '../../src/react/context.js';
import { STEP_PRIORITY } from '../../src/react/World.js';
import { RELEASE_STEPS } from '../../src/core/motion/bodyDrag.js';
import type { World as CoreWorld } from '../../src/core/world.js';
import { ParticleDrag } from '../../src/three/particleDrag.js';
import { connectInProcess } from '../../src/worker/inProcess.js';
import { physicsWorker } from '../../src/worker/physicsWorker.js';
import { mountWorld } from './helpers.js';

// Issue 30: a drag thrown in a <World worker> limits the body's speed for the release's steps
// (limitBodySpeed, an after-step callback of the world's release limits). The worker runs it;
// the shadow world, which never steps, must not keep it: it would stay registered there
// forever, and the ids the next throw hands out would differ between the two worlds.

/** Cycles of grab, pull, throw and rest, 20 frames each. */
const CYCLES = 8;

/** Grabs the rope's last particle at the start of each cycle, pulls it for 8 frames and throws it. */
function Thrower() {
  const { world, store } = useContext(SinewContext)!;
  const drag = useMemo(() => new ParticleDrag(world), [world]);
  const frame = useRef(0);
  useFrame(() => {
    const f = frame.current++;
    if (f >= CYCLES * 20) return;
    const rope = store.getState().bodies.rope!;
    const time = f / 60;
    const at = f % 20;
    const side = Math.floor(f / 20) % 2 === 0 ? 1 : -1;
    if (at === 0) drag.grab(rope.first + rope.count - 1, { x: 0, y: 0, z: -1 }, time);
    else if (at < 8) drag.drag({ x: 1 + side * 0.1 * at, y: 2 + 0.05 * at, z: 5 }, { x: 0, y: 0, z: -1 }, time);
    else if (at === 8) drag.release(time);
  }, STEP_PRIORITY - 1);
  return null;
}

function positions(world: CoreWorld): string {
  return Buffer.from(world.particles.position.slice(0, world.particles.end * 3).buffer).toString('base64');
}

describe('a drag thrown in a <World worker>', () => {
  it('leaves no step callback on the shadow world after many throws, hands out the same ids, and moves the rope as on the main thread', async () => {
    const scene = (
      <>
        <Rope name="rope" from={[0, 2, 0]} to={[1, 2, 0]} segments={8} pinStart />
        <Thrower />
      </>
    );
    const plain = await mountWorld(scene, { sleep: false });
    const remote = await mountWorld(scene, { sleep: false, worker: physicsWorker({ endpoint: () => connectInProcess().endpoint }) });
    let differs = -1;
    // Every cycle, and the release's steps after the last throw.
    for (let f = 0; f < CYCLES * 20 + RELEASE_STEPS + 2 && differs < 0; f++) {
      await plain.frames(1);
      await remote.frames(1);
      if (positions(plain.world) !== positions(remote.world)) differs = f;
    }
    expect(differs).toBe(-1);
    // The rope was thrown: it moved (a drag that did nothing would prove little).
    expect(Math.abs(plain.world.getVelocity(plain.particle('rope.end'))[1])).toBeGreaterThan(0);
    // The worker's world let its release limits go after their steps; the shadow never had them.
    expect(remote.world.afterStep).toHaveLength(0);
    expect(plain.world.afterStep).toHaveLength(0);
    expect(remote.world.registry.next).toBe(plain.world.registry.next);
    // leftovers() counts step callbacks in a worker's world too.
    expect(await plain.unmount()).toEqual([]);
    expect(await remote.unmount()).toEqual([]);
  });
});
