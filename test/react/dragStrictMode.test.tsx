import { Vector3 } from 'three';
import { describe, expect, it } from 'vitest';
import { Cloth, Rope } from 'sinew-physics';
import { mountWorld } from 'sinew-physics/testing';
import { ParticleDrag } from '../../src/three/particleDrag.js';

/**
 * StrictMode mounts every body twice: the second mount's particles take the
 * slots the first one freed, their ids a generation on. A drag must hold them
 * as it holds a body mounted once, to the bit.
 */
async function dragRun(scene: 'rope' | 'cloth', strict: boolean) {
  const body =
    scene === 'rope' ? <Rope name="body" from={[0, 1.9, 0]} to={[0, 1.9, 0.9]} segments={12} pinStart /> : <Cloth name="body" width={8} height={8} spacing={0.1} corner={[0, 2, 0]} pin="top" />;
  const mounted = await mountWorld(body, { strict });
  await mounted.frames(20);
  const end = mounted.particle('body.end');
  const drag = new ParticleDrag(mounted.world);
  const facing = new Vector3(0, 0, -1);
  drag.grab(end, facing, 0);
  const start = mounted.position('body.end');
  for (let f = 1; f <= 30; f++) {
    drag.drag(new Vector3(start[0] + f * 0.03, start[1], start[2]), facing, f / 60);
    await mounted.frames(1);
  }
  drag.release(31 / 60);
  await mounted.frames(10);
  const first = mounted.particle('body.0');
  const positions = Array.from({ length: end - first + 1 }, (_, k) => mounted.world.getPosition(first + k)).flat();
  const id = end;
  await mounted.unmount();
  return { id, positions };
}

describe('a drag under StrictMode', () => {
  for (const scene of ['rope', 'cloth'] as const)
    it(`moves a ${scene} mounted twice (reused slots, ids a generation on) bit for bit as one mounted once`, async () => {
      const once = await dragRun(scene, false);
      const twice = await dragRun(scene, true);
      expect(twice.id).not.toBe(once.id);
      expect(twice.positions.length).toBe(once.positions.length);
      for (let i = 0; i < once.positions.length; i++) expect(Object.is(twice.positions[i], once.positions[i]), `coordinate ${i}`).toBe(true);
    });
});
