import { createRef } from 'react';
import type { BufferGeometry, Mesh } from 'three';
import { createCloth } from '../../src/core/bodies/cloth.js';
import { faceSystem } from '../../src/core/collision/faces.js';
import { particleSlot } from '../../src/core/ids.js';
import { World as CoreWorld } from '../../src/core/world.js';
import { Cloth } from '../../src/react/components/Cloth.js';
import { Pin } from '../../src/react/components/Pin.js';
import { SphereCollider } from '../../src/react/components/SphereCollider.js';
import type { ClothApi } from '../../src/react/hooks/useCloth.js';
import { EffectLog, mountWorld, type Mounted } from './helpers.js';
import { leastRetained } from '../support/heap.js';

const W = 8;
const H = 6;

function clothMesh(m: Mounted): Mesh {
  return m.renderer.scene.findByType('Mesh').instance as Mesh;
}

function positionsOf(geometry: BufferGeometry): Float32Array {
  return geometry.getAttribute('position').array as Float32Array;
}

describe('<Cloth>', () => {
  it('sags under gravity, and its geometry holds exactly the core positions', async () => {
    const cloth = createRef<ClothApi>();
    const m = await mountWorld(<Cloth ref={cloth} width={W} height={H} spacing={0.1} corner={[0, 2, 0]} orientation="horizontal" pin="corners" structural={{ stiffness: 0.5 }} />, {
      interpolate: false,
    });
    const api = cloth.current!;
    const middle = api.particleAt(W / 2, H / 2);
    await m.frames(45);
    // Held at its corners, the middle sags.
    expect(m.world.getPosition(middle)[1]).toBeLessThan(2 - 0.02);
    expect(m.world.getPosition(api.particleAt(0, 0))).toEqual([0, 2, 0]);

    const array = positionsOf(clothMesh(m).geometry);
    expect(array).toHaveLength(W * H * 3);
    const core = m.world.positions.subarray(api.first * 3, (api.first + api.count) * 3);
    expect(array).toEqual(Float32Array.from(core));
    await m.unmount();
  });

  it('draws positions blended between the last two steps when interpolating', async () => {
    const cloth = createRef<ClothApi>();
    const m = await mountWorld(<Cloth ref={cloth} width={W} height={H} corner={[0, 2, 0]} pin="top-corners" />);
    await m.frames(21, 1 / 120);
    const alpha = m.store.getState().frame.alpha;
    expect(alpha).toBeCloseTo(0.5, 9);
    const { first, count } = cloth.current!;
    const expected = new Float32Array(count * 3);
    for (let i = 0; i < count * 3; i++) {
      const s = m.world.stepStartPositions[first * 3 + i]!;
      expected[i] = s + (m.world.positions[first * 3 + i]! - s) * alpha;
    }
    expect(positionsOf(clothMesh(m).geometry)).toEqual(expected);
    await m.unmount();
  });

  it('keeps bounds around the moving cloth and normals of unit length', async () => {
    const m = await mountWorld(<Cloth width={W} height={H} corner={[0, 2, 0]} pin="left" />, { interpolate: false });
    await m.frames(30);
    const geometry = clothMesh(m).geometry;
    const sphere = geometry.boundingSphere!;
    const array = positionsOf(geometry);
    for (let i = 0; i < array.length; i += 3) {
      const d = Math.hypot(array[i]! - sphere.center.x, array[i + 1]! - sphere.center.y, array[i + 2]! - sphere.center.z);
      expect(d).toBeLessThanOrEqual(sphere.radius + 1e-5);
    }
    const normals = geometry.getAttribute('normal').array as Float32Array;
    for (let i = 0; i < normals.length; i += 3) expect(Math.hypot(normals[i]!, normals[i + 1]!, normals[i + 2]!)).toBeCloseTo(1, 5);
    expect(geometry.getIndex()!.count).toBeGreaterThanOrEqual(geometry.drawRange.count);
    expect(geometry.drawRange.count).toBe((W - 1) * (H - 1) * 6);
    await m.unmount();
  });

  // StrictMode mounts it twice: the cloth then sits in reused slots, its ids carrying a generation.
  it.each([false, true])('changes stiffness, pins, mass, radius and friction in place without resetting (StrictMode: %s)', async (strict) => {
    const cloth = createRef<ClothApi>();
    const scene = (stiffness: number, pin: 'top' | 'top-corners', mass: number, iterations?: number) => (
      <Cloth
        ref={cloth}
        width={W}
        height={H}
        corner={[0, 2, 0]}
        pin={pin}
        particleMass={mass}
        radius={mass / 100}
        friction={mass / 10}
        iterations={iterations}
        structural={{ stiffness }}
        shear={{ stiffness }}
      />
    );
    const m = await mountWorld(scene(1, 'top', 1), {}, strict);
    await m.frames(20);
    const core = cloth.current!.current!;
    expect(core.first >= 2 ** 20).toBe(strict);
    // The columns are indexed by slot.
    const first = particleSlot(core.first);
    const positions = Float64Array.from(m.world.positions.subarray(first * 3, (first + core.count) * 3));
    const sticks = m.world.sticks.count;
    expect(m.world.pins.count).toBe(W);

    await m.update(scene(0.4, 'top-corners', 2, 3));
    // The same core cloth, untouched positions, same sticks; fewer pins, new stiffness and mass.
    expect(cloth.current!.current).toBe(core);
    expect(Float64Array.from(m.world.positions.subarray(first * 3, (first + core.count) * 3))).toEqual(positions);
    expect(m.world.sticks.count).toBe(sticks);
    expect(m.world.pins.count).toBe(2);
    for (let row = 0; row < m.world.sticks.count; row++) expect(m.world.sticks.stiffness[row]).toBe(0.4);
    expect(m.world.getMass(core.particle(3, 3))).toBe(2);
    expect(m.world.particles.radius[particleSlot(core.particle(3, 3))]).toBe(0.02);
    expect(m.world.particles.friction[particleSlot(core.particle(3, 3))]).toBe(0.2);
    expect(core.body.iterations).toBe(3);
    expect(m.world.stepCount).toBe(20);
    await m.frames(20);
    // Released from the top edge but for the corners, the middle of the top row drops.
    expect(m.world.getPosition(core.particle(W / 2, 0))[1]).toBeLessThan(2);
    expect(m.world.getPosition(core.particle(0, 0))).toEqual([0, 2, 0]);
    await m.unmount();
  });

  it('re-builds on a structural prop and follows the new body in the geometry', async () => {
    const cloth = createRef<ClothApi>();
    const m = await mountWorld(<Cloth ref={cloth} width={W} height={H} corner={[0, 2, 0]} />, { interpolate: false });
    const old = cloth.current!.current;
    await m.update(<Cloth ref={cloth} width={4} height={3} corner={[0, 2, 0]} />, { interpolate: false });
    expect(cloth.current!.current).not.toBe(old);
    expect(m.world.particleCount).toBe(12);
    await m.frames(2);
    expect(positionsOf(clothMesh(m).geometry)).toHaveLength(12 * 3);
    await m.unmount();
  });

  it('tears, and the drawn triangles follow the surface', async () => {
    const cloth = createRef<ClothApi>();
    // The top row is pinned and the bottom corner yanked 2 m down: the cloth cannot stretch that far, so it tears.
    const m = await mountWorld(
      <>
        <Cloth ref={cloth} name="flag" width={10} height={10} spacing={0.05} corner={[0, 2, 0]} pin="top" tearStrain={0.2} />
        <Pin particle="flag.end" target={[0.45, -0.5, 0]} />
      </>,
    );
    const full = (10 - 1) * (10 - 1) * 2;
    await m.frames(30);
    const core = cloth.current!.current!;
    expect(core.torn).toBeGreaterThan(0);
    expect(core.surface.triangleCount).toBeLessThan(full);
    const geometry = clothMesh(m).geometry;
    expect(geometry.drawRange.count).toBe(core.surface.triangleCount * 3);
    const index = geometry.getIndex()!.array;
    for (let i = 0; i < core.surface.triangleCount * 3; i++) expect(index[i]).toBe(core.surface.triangles[i]! - core.first);
    await m.unmount();
  });

  it('solid and torn: the collision triangles follow the torn surface, and switching leaves nothing behind', async () => {
    const cloth = createRef<ClothApi>();
    const scene = (solid: boolean) => (
      <>
        <Cloth ref={cloth} name="flag" width={10} height={10} spacing={0.05} corner={[0, 2, 0]} pin="top" tearStrain={0.2} solid={solid} />
        <Pin particle="flag.end" target={[0.45, -0.5, 0]} />
      </>
    );
    const m = await mountWorld(scene(true));
    await m.frames(30);
    const core = cloth.current!.current!;
    expect(core.torn).toBeGreaterThan(0);
    expect(faceSystem(m.world).constraintCount).toBe(core.surface.triangleCount);
    for (let i = 0; i < 5; i++) {
      await m.update(scene(false));
      await m.update(scene(true));
    }
    expect(faceSystem(m.world).constraintCount).toBe(core.surface.triangleCount);
    // One clean-up for the body's triangles, however often they were switched: the tearing's own and the faces'.
    expect(core.body.onRemove.length).toBeLessThanOrEqual(4);
    await m.unmount();
    expect(faceSystem(m.world).constraintCount).toBe(0);
  });

  it('solid: a small ball cannot slip between its particles, and it changes in place', async () => {
    const cloth = createRef<ClothApi>();
    // A sheet of 0.25 m cells pinned at its corners, a 3 cm ball poking up through the middle cell.
    const scene = (solid: boolean) => (
      <>
        <SphereCollider position={[0, 1.29, 0]} radius={0.03} />
        <Cloth ref={cloth} width={4} height={4} spacing={0.25} corner={[-0.375, 1.3, -0.375]} orientation="horizontal" pin="corners" structural={{ stiffness: 0.5 }} solid={solid} />
      </>
    );
    // Without long-range attachments: the sheet's rigid shear sticks would tether it taut between its corners,
    // and what this checks is the ball slipping through a cell of a soft sheet.
    const m = await mountWorld(scene(true), { damping: 1, tethers: false });
    const core = cloth.current!.current;
    const cellCorner = () => m.world.getPosition(cloth.current!.particleAt(1, 1))[1];
    await m.frames(120);
    // The ball holds the middle cell up: its corners sit above the ball's centre.
    expect(cellCorner()).toBeGreaterThan(1.3);
    await m.update(scene(false));
    expect(cloth.current!.current).toBe(core);
    await m.frames(120);
    // Only the particles collide now: the ball slips through the cell and the sheet sags past it.
    expect(cellCorner()).toBeLessThan(1.29);
    await m.unmount();
    expect(m.world.constraintCount).toBe(0);
  });

  it('surfaceContacts: other bodies meet its triangles by default, and it changes in place', async () => {
    const cloth = createRef<ClothApi>();
    const scene = (surfaceContacts?: boolean) => <Cloth ref={cloth} width={4} height={4} spacing={0.25} corner={[0, 2, 0]} surfaceContacts={surfaceContacts} />;
    const m = await mountWorld(scene(), {});
    const core = cloth.current!.current!;
    expect(core.body.collideAs).toBe('surface');
    await m.update(scene(false));
    expect(cloth.current!.current).toBe(core);
    expect(core.body.collideAs).toBeUndefined();
    await m.update(scene(true));
    expect(core.body.collideAs).toBe('surface');
    await m.unmount();
  });

  it('leaves no duplicates under StrictMode and nothing after unmount', async () => {
    const reference = new CoreWorld();
    createCloth(reference, { width: W, height: H, shear: false, bend: { stiffness: 0.5 } });
    const log: string[] = [];
    const m = await mountWorld(
      <>
        <EffectLog log={log} />
        <Cloth name="flag" width={W} height={H} shear={false} bend={{ stiffness: 0.5 }} pin="corners" />
      </>,
      {},
      true,
    );
    expect(log).toEqual(['mount', 'unmount', 'mount']);
    expect(m.world.particleCount).toBe(reference.particleCount);
    expect(m.world.sticks.count).toBe(reference.sticks.count);
    expect(m.world.pins.count).toBe(4);
    expect(m.world.bodies.filter((b) => b.alive)).toHaveLength(1);
    expect(m.store.getState().bodies.flag).toBeDefined();
    await m.frames(10);
    await m.unmount();
    expect(m.world.particleCount).toBe(0);
    expect(m.world.constraintCount).toBe(0);
    expect(m.world.bodies.filter((b) => b.alive)).toHaveLength(0);
    expect(m.store.getState().bodies.flag).toBeUndefined();
  });

  it('mounted and unmounted 500 times leaves zero counts and a flat heap', async () => {
    const m = await mountWorld(null);
    const cycle = async () => {
      await m.update(<Cloth width={W} height={H} corner={[0, 2, 0]} pin="top" />);
      await m.frames(1);
      await m.update(null);
    };
    for (let i = 0; i < 100; i++) await cycle();
    const kept = await leastRetained(async () => {
      for (let i = 0; i < 200; i++) await cycle();
    }, 2);
    expect(m.world.particleCount).toBe(0);
    expect(m.world.constraintCount).toBe(0);
    expect(m.world.forces).toHaveLength(0);
    expect(m.world.beforeStep.length + m.world.afterStep.length).toBe(0);
    // A leak of one cloth (48 particles, ~200 constraints, a geometry) per cycle would be several MB over 200 cycles.
    expect(kept).toBeLessThan(1024 * 1024);
    await m.unmount();
  }, 60_000);
});
