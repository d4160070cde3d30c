import { createRef } from 'react';
import { Euler, Quaternion } from 'three';
import type { ObbCollider } from '../../src/core/colliders/obb.js';
import type { SphereCollider as CoreSphere } from '../../src/core/colliders/sphere.js';
import { toRotation, type EulerOrder, type Quat } from '../../src/core/quaternion.js';
import { BoxCollider } from '../../src/react/components/BoxCollider.js';
import { Cloth } from '../../src/react/components/Cloth.js';
import { Plant } from '../../src/react/components/Plant.js';
import { Ragdoll } from '../../src/react/components/Ragdoll.js';
import { RigidBody } from '../../src/react/components/RigidBody.js';
import { SoftBody } from '../../src/react/components/SoftBody.js';
import { SphereCollider } from '../../src/react/components/SphereCollider.js';
import type { ColliderHandle } from '../../src/react/hooks/useCollider.js';
import { useRigidBody, type RigidBodyApi } from '../../src/react/hooks/useRigidBody.js';
import type { SoftBodyApi } from '../../src/react/hooks/useSoftBody.js';
import { World } from '../../src/react/World.js';
import { expectRenderError, mountWorld } from './helpers.js';

// Issue 15, part 6, in React: the same `position` and `rotation` as the core,
// a rotation in any of its forms (three.js objects included) giving the same
// pose, the old names still working, and bad input named.

/** The same rotation up to the double cover. */
function expectSameRotation(actual: readonly number[], expected: readonly number[], digits = 9): void {
  const sign = Math.sign(actual[0]! * expected[0]! + actual[1]! * expected[1]! + actual[2]! * expected[2]! + actual[3]! * expected[3]!) || 1;
  actual.forEach((c, i) => expect(c, `component ${i}`).toBeCloseTo(expected[i]! * sign, digits));
}

const EULER = [0.4, -0.7, 1.2] as const;
const THREE_Q = new Quaternion().setFromEuler(new Euler(...EULER));
const Q: Quat = [THREE_Q.x, THREE_Q.y, THREE_Q.z, THREE_Q.w];

describe('toRotation against three.js', () => {
  it("gives three.js's quaternion for Euler angles in every order, and takes its Euler and Quaternion objects", () => {
    for (const order of ['XYZ', 'YXZ', 'ZXY', 'ZYX', 'YZX', 'XZY'] as EulerOrder[]) {
      const euler = new Euler(...EULER, order);
      const q = new Quaternion().setFromEuler(euler);
      expectSameRotation(toRotation(euler, 'test'), [q.x, q.y, q.z, q.w]);
      expectSameRotation(toRotation(q, 'test'), [q.x, q.y, q.z, q.w]);
    }
    expectSameRotation(toRotation(EULER, 'test'), Q);
    expect(() => toRotation(new Euler(Number.NaN, 0, 0), '<RigidBody>: rotation')).toThrow("<RigidBody>: rotation must be finite Euler angles in radians, got { x: NaN, y: 0, z: 0, order: 'XYZ' }");
  });
});

describe('rotation in React', () => {
  it('<RigidBody> and useRigidBody give the same pose for every form', async () => {
    const forms = {
      eulerTuple: { rotation: EULER },
      quatTuple: { rotation: Q },
      threeEuler: { rotation: new Euler(...EULER) },
      threeQuaternion: { rotation: THREE_Q.clone() },
    };
    const refs = Object.fromEntries(Object.keys(forms).map((k) => [k, createRef<RigidBodyApi>()]));
    const hooked = createRef<RigidBodyApi>();
    function Hooked() {
      const api = useRigidBody({ shape: 'box', size: 0.3, position: [0, 5, -2], rotation: new Euler(...EULER) });
      (hooked as { current: RigidBodyApi | null }).current = api;
      return null;
    }
    const m = await mountWorld(
      <>
        {Object.entries(forms).map(([k, props], i) => (
          <RigidBody key={k} ref={refs[k]} shape="box" size={0.3} position={[i, 5, 0]} {...props} />
        ))}
        <Hooked />
      </>,
      { paused: true },
    );
    for (const k of Object.keys(forms)) {
      const t = refs[k]!.current!.transform();
      expectSameRotation(t.quaternion, Q);
      expect(t.position[1], k).toBeCloseTo(5, 9);
    }
    expectSameRotation(hooked.current!.transform().quaternion, Q);
    expect(await m.unmount()).toEqual([]);
  });

  it('<Ragdoll> turns the same for Euler angles, a quaternion and a three.js Euler', async () => {
    const m = await mountWorld(
      <>
        <Ragdoll name="a" feet={[0, 0, 0]} rotation={[0, Math.PI / 2, 0]} />
        <Ragdoll name="b" feet={[0, 0, 3]} rotation={[0, Math.SQRT1_2, 0, Math.SQRT1_2]} />
        <Ragdoll name="c" feet={[0, 0, 6]} rotation={new Euler(0, Math.PI / 2, 0)} />
      </>,
      { paused: true },
    );
    const a = m.position('a.leftHand');
    const b = m.position('b.leftHand');
    const c = m.position('c.leftHand');
    for (let k = 0; k < 3; k++) {
      expect(b[k]! - (k === 2 ? 3 : 0)).toBeCloseTo(a[k]!, 9);
      expect(c[k]! - (k === 2 ? 6 : 0)).toBeCloseTo(a[k]!, 9);
    }
    expect(a[2]).toBeLessThan(-0.3); // the left hand, at +x unturned, points to -z
    expect(await m.unmount()).toEqual([]);
  });

  it('<BoxCollider> takes every form of rotation, all the same box', async () => {
    const handles = [createRef<ColliderHandle>(), createRef<ColliderHandle>(), createRef<ColliderHandle>(), createRef<ColliderHandle>()];
    const m = await mountWorld(
      <>
        <BoxCollider ref={handles[0]} position={[1, 2, 3]} size={1} rotation={EULER} />
        <BoxCollider ref={handles[1]} position={[1, 2, 3]} size={1} rotation={Q} />
        <BoxCollider ref={handles[2]} position={[1, 2, 3]} size={1} rotation={new Euler(...EULER)} />
        <BoxCollider ref={handles[3]} position={[1, 2, 3]} size={1} rotation={THREE_Q} />
      </>,
      { paused: true },
    );
    const [first, ...rest] = handles.map((h) => h.current!.collider as ObbCollider);
    expect(first!.center).toEqual([1, 2, 3]);
    for (const other of rest) Array.from(other.axes).forEach((v, i) => expect(v).toBeCloseTo(first!.axes[i]!, 12));
    expect(await m.unmount()).toEqual([]);
  });

  it('a bad rotation is an error naming the component and the value', async () => {
    await expectRenderError(
      <World>
        <RigidBody shape="box" rotation={[1, 2] as never} />
      </World>,
      '<RigidBody>: rotation must be a quaternion [x, y, z, w] or Euler angles [x, y, z] in radians (or a three.js Quaternion or Euler), got [1, 2] (2 components)',
    );
    await expectRenderError(
      <World>
        <BoxCollider rotation={[0, 0, 0, Number.NaN]} />
      </World>,
      '<BoxCollider>: rotation must be finite numbers, got [0, 0, 0, NaN]',
    );
    await expectRenderError(
      <World>
        <BoxCollider rotation={new Euler(0, Infinity, 0)} />
      </World>,
      "<BoxCollider>: rotation must be finite Euler angles in radians, got { x: 0, y: Infinity, z: 0, order: 'XYZ' }",
    );
  });
});

describe('placement in React', () => {
  it('<Cloth corner> is particle (0, 0), the top-left corner', async () => {
    const m = await mountWorld(
      <>
        <Cloth name="a" width={4} height={3} spacing={0.5} corner={[1, 2, 3]} />
      </>,
      { paused: true },
    );
    expect(m.position('a.topLeft')).toEqual([1, 2, 3]);
    expect(m.position('a.bottomRight')).toEqual([2.5, 1, 3]);
    expect(await m.unmount()).toEqual([]);
  });

  it('<Cloth pin> names every edge and corner: the named particles hold, the rest fall', async () => {
    // Lying flat, so that a cloth hung from any edge swings down about it.
    const m = await mountWorld(
      <>
        <Cloth name="r" width={4} height={3} spacing={0.2} corner={[0, 2, 0]} orientation="horizontal" pin="right" />
        <Cloth name="c" width={4} height={3} spacing={0.2} corner={[2, 2, 0]} orientation="horizontal" pin={['bottom-left', 'top-right']} />
      </>,
    );
    const start = { r: [m.position('r.topRight'), m.position('r.bottomRight'), m.position('r.topLeft')], c: [m.position('c.bottomLeft'), m.position('c.topRight'), m.position('c.topLeft')] };
    await m.frames(20);
    expect(m.position('r.topRight')).toEqual(start.r[0]);
    expect(m.position('r.bottomRight')).toEqual(start.r[1]);
    expect(m.position('r.topLeft')[1]).toBeLessThan(start.r[2]![1] - 0.01);
    expect(m.position('c.bottomLeft')).toEqual(start.c[0]);
    expect(m.position('c.topRight')).toEqual(start.c[1]);
    expect(m.position('c.topLeft')[1]).toBeLessThan(start.c[2]![1] - 0.01);
    expect(await m.unmount()).toEqual([]);
  });

  it('<SoftBody position> is its centre, <Plant root> its foot, <SphereCollider position> its centre', async () => {
    const jelly = createRef<SoftBodyApi>();
    const ball = createRef<ColliderHandle>();
    const m = await mountWorld(
      <>
        <SoftBody ref={jelly} shape="box" position={[1, 2, 3]} size={0.5} />
        <Plant name="grass" root={[-1, 0, 2]} segments={3} fold={0} />
        <SphereCollider ref={ball} position={[4, 1, 0]} radius={0.5} />
      </>,
      { paused: true },
    );
    const a = jelly.current!.current!;
    const centre = [0, 0, 0];
    for (let i = 0; i < a.count; i++) {
      const p = m.position(a.first + i);
      for (let k = 0; k < 3; k++) centre[k]! += p[k]! / a.count;
    }
    centre.forEach((c, k) => expect(c).toBeCloseTo([1, 2, 3][k]!, 9));
    // The foot's left edge, midrib and right edge straddle the root.
    const foot = [0, 1, 2].map((i) => m.position(`grass.${i}`));
    for (let k = 0; k < 3; k++) expect((foot[0]![k]! + foot[1]![k]! + foot[2]![k]!) / 3).toBeCloseTo([-1, 0, 2][k]!, 9);
    expect((ball.current!.collider as CoreSphere).center).toEqual([4, 1, 0]);
    expect(await m.unmount()).toEqual([]);
  });
});
