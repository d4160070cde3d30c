import { useThree } from '@react-three/fiber';
import { useEffect } from 'react';
import { GridHelper, type Mesh, Vector3, type Camera, type PlaneGeometry } from 'three';
import { DragControls } from '../../src/react/components/DragControls.js';
import { Ground } from '../../src/react/components/Ground.js';
import { Particle } from '../../src/react/components/Particle.js';
import { RigidBody } from '../../src/react/components/RigidBody.js';
import { mountWorld } from './helpers.js';

// What a scene looks like and does with nothing but defaults: <Ground /> draws a
// floor, and <DragControls /> keeps a grabbing press from whatever camera controls listen.

describe('<Ground>', () => {
  it('draws a floor at its height by default, nothing with visible={false}, and its children instead of the floor', async () => {
    const m = await mountWorld(<Ground height={-0.5} />);
    const [floor, ...others] = m.renderer.scene.findAllByType('Mesh').map((n) => n.instance as Mesh);
    expect(others).toHaveLength(0);
    const plane = floor!.geometry as PlaneGeometry;
    expect([plane.parameters.width, plane.parameters.height]).toEqual([40, 40]);
    // Flat (its normal points up) and at the collider's height.
    const up = new Vector3(0, 0, 1).applyQuaternion(floor!.getWorldQuaternion(floor!.quaternion.clone()));
    expect(up.y).toBeCloseTo(1, 12);
    floor!.updateWorldMatrix(true, false);
    expect(floor!.getWorldPosition(new Vector3()).y).toBe(-0.5);
    expect(m.renderer.scene.findAllByType('GridHelper').map((n) => n.instance)).toEqual([expect.any(GridHelper)]);

    await m.update(<Ground height={-0.5} visible={false} />);
    expect(m.renderer.scene.findAllByType('Mesh')).toHaveLength(0);
    expect(m.world.colliders).toHaveLength(1); // still solid

    await m.update(
      <Ground height={-0.5}>
        <mesh name="mine" />
      </Ground>,
    );
    expect(m.renderer.scene.findAllByType('Mesh').map((n) => n.instance.name)).toEqual(['mine']);
    expect(await m.unmount()).toEqual([]);
  });
});

describe('<RigidBody density>', () => {
  it('weighs its volume times its density, and weighs anew when the density changes', async () => {
    const crate = (density: number) => <RigidBody name="crate" shape="box" size={[0.5, 0.4, 0.3]} position={[0, 1, 0]} density={density} />;
    const m = await mountWorld(crate(500));
    const mass = () => Array.from({ length: 8 }, (_, i) => m.world.getMass(m.particle(`crate.${i}`))).reduce((a, b) => a + b, 0);
    expect(mass()).toBeCloseTo(500 * 0.06, 9);
    await m.update(crate(1000));
    expect(mass()).toBeCloseTo(1000 * 0.06, 9);
    expect(await m.unmount()).toEqual([]);
  });
});

/** A stand-in for the canvas's wrapper: an event target with a size, as DragControls needs. */
class FakeElement extends EventTarget {
  readonly ownerDocument = new EventTarget();
  getBoundingClientRect() {
    return { left: 0, top: 0, width: 1280, height: 800 };
  }
}

function press(type: string, x: number, y: number): Event {
  const event = new Event(type);
  Object.defineProperties(event, { clientX: { value: x }, clientY: { value: y }, pointerId: { value: 1 }, button: { value: 0 }, pointerType: { value: 'mouse' }, timeStamp: { value: 0 } });
  return event;
}

function CameraProbe({ into }: { into: { camera?: Camera } }) {
  const camera = useThree((s) => s.camera);
  useEffect(() => void (into.camera = camera), [camera, into]);
  return null;
}

describe('<DragControls> and camera controls that are not R3F defaults', () => {
  it('keeps a press that grabs a particle from other pointerdown listeners, and lets every other press through', async () => {
    const element = new FakeElement();
    const probe: { camera?: Camera } = {};
    const m = await mountWorld(
      <>
        <CameraProbe into={probe} />
        <Particle name="ball" position={[0, 0, 0]} radius={0.05} />
        <DragControls domElement={element as unknown as HTMLElement} />
      </>,
      { gravity: [0, 0, 0] },
    );
    // Controls that R3F does not know of (drei's <OrbitControls> without makeDefault) listening on the same element.
    // Added after DragControls', as in a browser theirs run after a capturing listener on the same element or an ancestor.
    const orbits: string[] = [];
    element.addEventListener('pointerdown', () => orbits.push('pointerdown'));

    element.dispatchEvent(press('pointerdown', 5, 5)); // far from the ball: the controls orbit
    expect(orbits).toEqual(['pointerdown']);
    element.ownerDocument.dispatchEvent(press('pointerup', 5, 5));

    const ball = new Vector3(0, 0, 0).project(probe.camera!);
    element.dispatchEvent(press('pointerdown', ((ball.x + 1) / 2) * 1280, ((1 - ball.y) / 2) * 800));
    expect(m.world.pins.count).toBe(1); // grabbed
    expect(orbits).toEqual(['pointerdown']); // and the controls never saw the press
    element.ownerDocument.dispatchEvent(press('pointerup', 0, 0));
    expect(m.world.pins.count).toBe(0);
    expect(await m.unmount()).toEqual([]);
  });
});
