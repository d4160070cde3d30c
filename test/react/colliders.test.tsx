import { createRef } from 'react';
import { ParticleCollisions } from '../../src/react/components/ParticleCollisions.js';
import { Mesh, type Group } from 'three';
import { BoxCollider as CoreBox } from '../../src/core/colliders/box.js';
import { CapsuleCollider as CoreCapsule } from '../../src/core/colliders/capsule.js';
import { ObbCollider } from '../../src/core/colliders/obb.js';
import { PlaneCollider } from '../../src/core/colliders/plane.js';
import { SphereCollider as CoreSphere } from '../../src/core/colliders/sphere.js';
import { TriangleMeshCollider } from '../../src/core/colliders/triangleMesh.js';
import { BoxCollider } from '../../src/react/components/BoxCollider.js';
import { CapsuleCollider } from '../../src/react/components/CapsuleCollider.js';
import { Ground } from '../../src/react/components/Ground.js';
import { MeshCollider } from '../../src/react/components/MeshCollider.js';
import { Particle } from '../../src/react/components/Particle.js';
import { SphereCollider } from '../../src/react/components/SphereCollider.js';
import type { ParticleHandle } from '../../src/react/hooks/useParticle.js';
import { World } from '../../src/react/World.js';
import { expectRenderError, mountWorld } from './helpers.js';

describe('collider components', () => {
  it('add the right core colliders, stop particles, and go on unmount', async () => {
    const onGround = createRef<ParticleHandle>();
    const onBall = createRef<ParticleHandle>();
    const onBar = createRef<ParticleHandle>();
    const marker = createRef<Group>();
    const m = await mountWorld(
      <>
        <Ground height={0.5} friction={0.7}>
          <group ref={marker} />
        </Ground>
        <SphereCollider position={[3, 1, 0]} radius={0.5} />
        <BoxCollider position={[6, 1, 0]} size={[1, 1, 1]} />
        <BoxCollider position={[9, 1, 0]} size={[2, 0.2, 2]} rotation={[0, 0, 0.2]} />
        <CapsuleCollider a={[12, 1, -1]} b={[12, 1, 1]} radius={0.2} />
        <Particle ref={onGround} position={[0, 2, 0]} radius={0.05} />
        <Particle ref={onBall} position={[3, 3, 0]} radius={0.05} />
        <Particle ref={onBar} position={[12, 3, 0]} radius={0.05} />
      </>,
    );
    const kinds = m.world.colliders.map((c) => c.constructor);
    expect(kinds).toEqual([PlaneCollider, CoreSphere, CoreBox, ObbCollider, CoreCapsule]);
    expect(m.world.colliders[0]!.friction).toBe(0.7);
    expect(marker.current!.parent!.position.y).toBe(0.5);
    await m.frames(90);
    expect(onGround.current!.position()[1]).toBeCloseTo(0.55, 3);
    expect(onBall.current!.position()[1]).toBeCloseTo(1.55, 3);
    expect(onBar.current!.position()[1]).toBeCloseTo(1.25, 3);
    await m.update(null);
    expect(m.world.colliders).toHaveLength(0);
    await m.unmount();
  });

  it('replace a collider when its props change, without touching the particles', async () => {
    const p = createRef<ParticleHandle>();
    const scene = (radius: number) => (
      <>
        <SphereCollider radius={radius} />
        <Particle ref={p} position={[0, 3, 0]} />
      </>
    );
    const m = await mountWorld(scene(0.5));
    await m.frames(10);
    const id = p.current!.id;
    const position = p.current!.position();
    await m.update(scene(1));
    expect(m.world.colliders).toHaveLength(1);
    expect((m.world.colliders[0] as CoreSphere).radius).toBe(1);
    expect(p.current!.id).toBe(id);
    expect(p.current!.position()).toEqual(position);
    await m.unmount();
  });

  it('<MeshCollider> turns its child meshes into world-space triangles', async () => {
    const p = createRef<ParticleHandle>();
    const m = await mountWorld(
      <>
        <MeshCollider friction={0.5}>
          <group position={[0, 1, 0]}>
            <mesh rotation-x={-Math.PI / 2}>
              <planeGeometry args={[4, 4]} />
            </mesh>
          </group>
        </MeshCollider>
        <Particle ref={p} position={[0.3, 2, 0.2]} radius={0.02} />
      </>,
    );
    const collider = m.world.colliders[0] as TriangleMeshCollider;
    expect(collider).toBeInstanceOf(TriangleMeshCollider);
    expect(collider.triangleCount).toBe(2);
    expect(collider.friction).toBe(0.5);
    for (let i = 1; i < collider.vertices.length; i += 3) expect(collider.vertices[i]).toBeCloseTo(1, 12);
    // The plane drawn is the plane collided with: the particle comes to rest on it.
    expect(m.renderer.scene.findAllByType('Mesh')[0]!.instance).toBeInstanceOf(Mesh);
    await m.frames(60);
    expect(p.current!.position()[1]).toBeCloseTo(1.02, 3);
    await m.unmount();
    expect(m.world.colliders).toHaveLength(0);
  });

  it('bounce with the restitution of the collider or the particle, whichever is larger, changed live', async () => {
    const bounce = async (ground: number, particle: number) => {
      const handle = createRef<ParticleHandle>();
      const scene = (g: number, p: number) => (
        <>
          <Ground restitution={g} />
          <Particle ref={handle} position={[0, 1, 0]} restitution={p} />
        </>
      );
      const m = await mountWorld(scene(0, 0), { sleep: false });
      await m.update(scene(ground, particle));
      let landed = false;
      let peak = 0;
      for (let frame = 0; frame < 90; frame++) {
        await m.frames(1);
        if (handle.current!.velocity()[1] > 0) landed = true;
        if (landed) peak = Math.max(peak, handle.current!.position()[1]);
      }
      await m.unmount();
      return peak;
    };
    // e² · 1 m, within 10%.
    expect(await bounce(0.8, 0)).toBeGreaterThan(0.58);
    expect(await bounce(0.8, 0)).toBeLessThan(0.7);
    expect(await bounce(0, 0.8)).toBeCloseTo(await bounce(0.8, 0), 9);
    expect(await bounce(0, 0)).toBeLessThan(1e-3);
  });

  it('reject bad props naming the component and the prop', async () => {
    await expectRenderError(
      <World>
        <SphereCollider radius={-1} />
      </World>,
      '<SphereCollider>: radius must be a finite number in [0, Infinity], got -1',
    );
    await expectRenderError(
      <World>
        <BoxCollider size={[1, -1, 1]} />
      </World>,
      '<BoxCollider>: size must be >= 0, got [1, -1, 1]',
    );
    await expectRenderError(
      <World>
        <BoxCollider inside rotation={[0, 1, 0]} />
      </World>,
      '<BoxCollider>: inside works only for an unrotated box',
    );
    await expectRenderError(<Ground />, '<Ground> must be inside a <World>');
    await expectRenderError(
      <World>
        <Ground restitution={1.2} />
      </World>,
      '<Ground>: restitution must be a finite number in [0, 1], got 1.2',
    );
    await expectRenderError(
      <World>
        <CapsuleCollider a={[0, 0, 0]} b={[1, 0, 0]} radius={Number.NaN} />
      </World>,
      '<CapsuleCollider>: radius must be a finite number',
    );
  });
});

describe('<ParticleCollisions>', () => {
  it('makes two particles of different bodies keep apart while mounted, and stops when unmounted', async () => {
    const m = await mountWorld(
      <>
        <ParticleCollisions />
        <Particle name="a" position={[0, 0, 0]} radius={0.1} />
        <Particle name="b" position={[0.05, 0, 0]} radius={0.1} />
      </>,
      { gravity: [0, 0, 0] },
    );
    await m.frames(5);
    const live = Array.from({ length: m.world.particles.end }, (_, i) => i).filter((i) => m.world.particles.isAlive(i));
    expect(live).toHaveLength(2);
    const gap = () => Math.abs(m.world.positions[live[1]! * 3]! - m.world.positions[live[0]! * 3]!);
    // Projection pushes the overlap (0.15 m) apart at once; Verlet turns that into velocity, so they fly apart.
    expect(gap()).toBeGreaterThanOrEqual(0.2);
    expect(m.world.constraintCount).toBe(1);
    await m.update(
      <>
        <Particle name="a" position={[0, 0, 0]} radius={0.1} />
        <Particle name="b" position={[0.05, 0, 0]} radius={0.1} />
      </>,
    );
    expect(m.world.constraintCount).toBe(0);
    await m.unmount();
  });
});
