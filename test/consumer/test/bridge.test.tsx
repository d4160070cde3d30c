import { Box3, type Mesh } from 'three';
import { expectAtRest, expectFinite, expectStickLength, mountWorld } from 'sinew-physics/testing';
import { describe, expect, it } from 'vitest';
import { RopeBridge } from '../src/RopeBridge.js';

describe('<RopeBridge>', () => {
  it('sags into a symmetric curve, its ends tied and no link stretched', async () => {
    const scene = await mountWorld(<RopeBridge from={[-1.5, 2, 0]} to={[1.5, 2, 0]} />, { damping: 2, strict: true });
    expect(scene.world.particleCount).toBe(17); // StrictMode mounted it twice, it is there once
    await scene.seconds(10);
    expectFinite(scene);
    expectAtRest(scene, 'bridge.8');
    expect(scene.position('bridge.start')).toEqual([-1.5, 2, 0]);
    expect(scene.position('bridge.end')).toEqual([1.5, 2, 0]);
    const [x, y] = scene.position('bridge.8');
    expect(x).toBeCloseTo(0, 3);
    // A 3.6 m rope over a 3 m span: a parabola of that length sags sqrt(3·3·0.6/8) = 0.82 m.
    expect(2 - y).toBeGreaterThan(0.7);
    expect(2 - y).toBeLessThan(0.95);
    for (let i = 0; i < 16; i++) expectStickLength(scene, `bridge.${i}`, `bridge.${i + 1}`, { tolerance: 0.005 });
    await scene.unmount();
  });

  it('draws its tube where the rope hangs', async () => {
    const scene = await mountWorld(<RopeBridge from={[-1.5, 2, 0]} to={[1.5, 2, 0]} />, { damping: 1 });
    await scene.seconds(6);
    const tube = scene.renderer.scene.findByType('Mesh').instance as unknown as Mesh;
    const box = new Box3().setFromBufferAttribute(tube.geometry.getAttribute('position') as never);
    expect(box.min.y).toBeCloseTo(scene.position('bridge.8')[1] - 0.03, 1); // the lowest link, less the tube's radius
    expect(box.max.x).toBeCloseTo(1.5, 1);
    await scene.unmount();
  });

  it('leaves nothing behind when it is taken down', async () => {
    const scene = await mountWorld(<RopeBridge from={[-1.5, 2, 0]} to={[1.5, 2, 0]} />);
    await scene.update(null);
    expect(scene.leftovers()).toEqual([]);
    expect(await scene.unmount()).toEqual([]);
  });
});
