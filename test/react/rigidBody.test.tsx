import { createRef } from 'react';
import { Euler, Matrix4, type Mesh, Quaternion, Vector3, type Group } from 'three';
import { Ground } from '../../src/react/components/Ground.js';
import { RigidBody } from '../../src/react/components/RigidBody.js';
import type { RigidBodyApi } from '../../src/react/hooks/useRigidBody.js';
import { useBeforeStep } from '../../src/react/hooks/useStepCallbacks.js';
import { blendFrames, makeFrame } from '../../src/three/frames.js';
import { particleSlot } from '../../src/core/ids.js';
import { edgeSystem } from '../../src/core/collision/edges.js';
import { Stick } from '../../src/react/components/Stick.js';
import { expectRenderError, mountWorld } from './helpers.js';
import { World } from '../../src/react/World.js';

function expectMatrixClose(actual: Matrix4, expected: Matrix4, digits = 6): void {
  actual.elements.forEach((value, i) => expect(value).toBeCloseTo(expected.elements[i]!, digits));
}

describe('<RigidBody>', () => {
  it("moves its child meshes with the body's extracted transform", async () => {
    const api = createRef<RigidBodyApi>();
    const crate = createRef<Mesh>();
    const m = await mountWorld(
      <>
        <Ground />
        <RigidBody ref={api} shape="box" size={[0.4, 0.2, 0.3]} position={[0, 1.5, 0]} rotation={[0.3, 0.2, 0.1]} angularVelocity={[0, 3, 1]}>
          <mesh ref={crate} position={[0.1, 0, 0]} />
        </RigidBody>
      </>,
      { interpolate: false },
    );
    const start = api.current!.transform();
    const expectedStart = new Quaternion().setFromEuler(new Euler(0.3, 0.2, 0.1));
    expect(start.quaternion[0]).toBeCloseTo(expectedStart.x, 9);
    expect(start.quaternion[3]).toBeCloseTo(expectedStart.w, 9);

    for (let round = 0; round < 3; round++) {
      await m.frames(20);
      const t = api.current!.transform();
      const group = crate.current!.parent as Group;
      const expected = new Matrix4().compose(new Vector3(...t.position), new Quaternion(...t.quaternion), new Vector3(1, 1, 1));
      expectMatrixClose(group.matrix, expected);
      crate.current!.updateWorldMatrix(true, false);
      // The child's own offset is carried along in the body's frame.
      const child = new Vector3(0.1, 0, 0).applyQuaternion(new Quaternion(...t.quaternion)).add(new Vector3(...t.position));
      const world = new Vector3().setFromMatrixPosition(crate.current!.matrixWorld);
      expect(world.distanceTo(child)).toBeLessThan(1e-6);
    }
    // It fell onto the ground and turned on the way.
    expect(api.current!.transform().position[1]).toBeLessThan(1.5);
    await m.unmount();
    expect(m.world.particleCount).toBe(0);
    expect(m.world.constraintCount).toBe(0);
  });

  it('blends the drawn transform between the last two steps', async () => {
    const api = createRef<RigidBodyApi>();
    const crate = createRef<Mesh>();
    const atStepStart = makeFrame();
    function Recorder() {
      useBeforeStep(() => api.current?.current && api.current.transform(atStepStart));
      return null;
    }
    const m = await mountWorld(
      <>
        <Recorder />
        <RigidBody ref={api} shape="tetrahedron" size={0.5} position={[0, 2, 0]} velocity={[1, 0, 0]} angularVelocity={[2, 1, 0]}>
          <mesh ref={crate} />
        </RigidBody>
      </>,
    );
    await m.frames(13, 1 / 120);
    const alpha = m.store.getState().frame.alpha;
    expect(alpha).toBeCloseTo(0.5, 9);
    const expected = blendFrames(atStepStart, api.current!.transform(), { alpha }, makeFrame());
    const group = crate.current!.parent as Group;
    expect(group.position.x).toBeCloseTo(expected.position[0], 9);
    expect(group.position.y).toBeCloseTo(expected.position[1], 9);
    expect(group.quaternion.w).toBeCloseTo(expected.quaternion[3], 9);
    expect(group.position.y).toBeGreaterThan(api.current!.transform().position[1]);
    await m.unmount();
  });

  it('draws its own convex hull when it has no children, and reports velocities', async () => {
    const api = createRef<RigidBodyApi>();
    const m = await mountWorld(
      <RigidBody
        ref={api}
        shape="convex"
        points={[
          [0, 0, 0],
          [1, 0, 0],
          [0, 1, 0],
          [0, 0, 1],
        ]}
        position={[0, 3, 0]}
        color="red"
      />,
      { interpolate: false },
    );
    const hull = m.renderer.scene.findByType('Mesh').instance as Mesh;
    hull.geometry.computeBoundingBox();
    const size = hull.geometry.boundingBox!.getSize(new Vector3());
    expect([size.x, size.y, size.z].map((v) => Number(v.toFixed(6)))).toEqual([1, 1, 1]);
    await m.frames(30);
    // Free fall for half a second: v = g·t.
    expect(api.current!.linearVelocity()[1]).toBeCloseTo(-9.81 * 0.5, 1);
    expect(Math.hypot(...api.current!.angularVelocity())).toBeLessThan(1e-6);
    await m.unmount();
  });

  it('changes its radius in place, capsule edges included, and rebuilds on collideEdges', async () => {
    const api = createRef<RigidBodyApi>();
    const body = (radius: number, collideEdges?: boolean) => <RigidBody ref={api} shape="box" size={[0.4, 0.4, 0.4]} position={[0, 1, 0]} radius={radius} collideEdges={collideEdges} />;
    const m = await mountWorld(body(0.01), { gravity: [0, 0, 0] });
    const core = api.current!.current!;
    expect(core.capsules).toHaveLength(12);
    await m.frames(3);
    const velocity = api.current!.linearVelocity();
    await m.update(body(0.05));
    // The same body (nothing reset), with the new radius on its particles and its edges.
    expect(api.current!.current).toBe(core);
    expect(m.world.particles.radius[particleSlot(core.first)]).toBe(0.05);
    expect(core.capsules.map((id) => edgeSystem(m.world).radiusOf(id))).toEqual(Array(12).fill(0.05));
    expect(api.current!.linearVelocity()).toEqual(velocity);
    await m.update(body(0.05, false));
    expect(api.current!.current).not.toBe(core);
    expect(api.current!.current!.capsules).toHaveLength(0);
    await m.unmount();
  });

  describe('joined by shared particles', () => {
    // The README's door (1 × 2 m), hung by its edge 0–2 on the edge 1–3 of an immovable post (paper section 6).
    const Door = ({ postKey = 'a', door }: { postKey?: string; door?: React.Ref<RigidBodyApi> }) => (
      <>
        <RigidBody key={postKey} name="post" shape="box" size={[0.1, 2, 0.1]} position={[0, 1, 0]} mass={0} />
        <RigidBody ref={door} name="door" shape="box" size={[1, 2, 0.1]} position={[0.55, 1, 0]} shared={{ 0: 'post.1', 2: 'post.3' }} />
      </>
    );

    it('a shared edge is a hinge: the door turns about it and nothing else', async () => {
      const door = createRef<RigidBodyApi>();
      const m = await mountWorld(<Door door={door} />, { gravity: [0, 0, 0] });
      const api = door.current!;
      const post = m.store.getState().bodies.post!;
      expect(api.particle(0)).toBe(post.first + 1);
      expect(api.particle(2)).toBe(post.first + 3);
      expect(m.world.particleCount).toBe(8 + 6);
      const axis = [m.world.getPosition(post.first + 1), m.world.getPosition(post.first + 3)];
      const far = api.particle(7);
      // Swing the latch side towards +z.
      api.hit(7, [0, 0, 1], 0.01);
      api.hit(5, [0, 0, 1], 0.01);
      await m.frames(30);
      const [x, , z] = m.world.getPosition(far);
      // The far corner (1.05, 2, 0.05) moved on a circle about the vertical hinge at (0.05, ·, -0.05).
      expect(Math.hypot(x - 0.05, z + 0.05)).toBeCloseTo(Math.hypot(1, 0.1), 3);
      expect(z).toBeGreaterThan(0.05);
      // The hinge particles did not move, and "door.0" names the shared particle.
      expect(m.world.getPosition(post.first + 1)).toEqual(axis[0]);
      expect(m.world.getPosition(post.first + 3)).toEqual(axis[1]);
      await m.update(
        <>
          <Door door={door} />
          <Stick a="door.0" b="door.7" />
        </>,
      );
      const stick = m.world.sticks.ids.indexOf(Math.max(...m.world.sticks.ids.subarray(0, m.world.sticks.count)));
      expect([m.world.sticks.a[stick], m.world.sticks.b[stick]]).toEqual([post.first + 1, far]);
      await m.unmount();
      expect(m.world.particleCount).toBe(0);
      expect(m.world.constraintCount).toBe(0);
    });

    it('is rebuilt on the new particles when the post is re-created, and leaves no residue', async () => {
      const door = createRef<RigidBodyApi>();
      const m = await mountWorld(<Door door={door} />);
      const counts = [m.world.particleCount, m.world.constraintCount];
      await m.frames(5);
      await m.update(<Door door={door} postKey="b" />);
      const post = m.store.getState().bodies.post!;
      expect(door.current!.particle(0)).toBe(post.first + 1);
      expect(door.current!.particle(2)).toBe(post.first + 3);
      expect([m.world.particleCount, m.world.constraintCount]).toEqual(counts);
      // Every door vertex is alive and the door still hangs as a hinge.
      for (let k = 0; k < 8; k++) expect(m.world.particles.slotOf(door.current!.particle(k))).toBeGreaterThanOrEqual(0);
      await m.frames(30);
      expect(door.current!.transform().position[1]).toBeCloseTo(1, 2);
      await m.unmount();
      expect(m.world.particleCount).toBe(0);
    });

    it('StrictMode leaves one post and one door, joined', async () => {
      const door = createRef<RigidBodyApi>();
      const m = await mountWorld(<Door door={door} />, {}, true);
      const post = m.store.getState().bodies.post!;
      expect(m.world.particleCount).toBe(8 + 6);
      expect(door.current!.particle(0)).toBe(post.first + 1);
      await m.unmount();
      expect(m.world.particleCount).toBe(0);
      expect(m.world.constraintCount).toBe(0);
    });

    it('names the entry that names no particle', async () => {
      await expectRenderError(
        <World>
          <RigidBody shape="box" shared={{ 0: 'post.1' }} />
        </World>,
        '<RigidBody>: shared[0] names no particle "post.1" in this <World>',
      );
      await expectRenderError(
        <World>
          <RigidBody shape="box" shared={[3]} />
        </World>,
        /<RigidBody>: shared must be an object \{ \[localVertex\]: particle \}, got 3/,
      );
    });
  });
});
