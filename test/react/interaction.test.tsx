import { useThree } from '@react-three/fiber';
import { createRef, useEffect } from 'react';
import { particleSlot } from '../../src/core/ids.js';
import { type BufferGeometry, Group, LineSegments, Points, Ray, Vector3, type Camera } from 'three';
import { Debug, formatStats } from '../../src/react/components/Debug.js';
import { DragControls } from '../../src/react/components/DragControls.js';
import { Ground } from '../../src/react/components/Ground.js';
import { IKHandle } from '../../src/react/components/IKHandle.js';
import { Particle } from '../../src/react/components/Particle.js';
import { Pin } from '../../src/react/components/Pin.js';
import { Ragdoll } from '../../src/react/components/Ragdoll.js';
import { resolveParticle } from '../../src/react/particleRef.js';
import { SphereCollider } from '../../src/react/components/SphereCollider.js';
import { Stick } from '../../src/react/components/Stick.js';
import type { ParticleHandle } from '../../src/react/hooks/useParticle.js';
import { World } from '../../src/react/World.js';
import { expectRenderError, mountWorld, type Mounted } from './helpers.js';

/** A stand-in for the canvas's wrapper: an event target with a size, as DragControls needs. */
class FakeElement extends EventTarget {
  readonly ownerDocument = new EventTarget();
  getBoundingClientRect() {
    return { left: 0, top: 0, width: 1280, height: 800 };
  }
}

function pointer(type: string, x: number, y: number, time: number): Event {
  const event = new Event(type);
  Object.defineProperties(event, {
    clientX: { value: x },
    clientY: { value: y },
    pointerId: { value: 1 },
    button: { value: 0 },
    pointerType: { value: 'mouse' },
    timeStamp: { value: time },
  });
  return event;
}

/** Where world point `p` appears on the 1280 × 800 test canvas. */
function screen(camera: Camera, p: [number, number, number]): [number, number] {
  const v = new Vector3(...p).project(camera);
  return [((v.x + 1) / 2) * 1280, ((1 - v.y) / 2) * 800];
}

/** Makes `controls` R3F's default controls, as drei's `<OrbitControls makeDefault />` does. */
function DefaultControls({ controls }: { controls: { enabled: boolean } }) {
  const set = useThree((s) => s.set);
  useEffect(() => set({ controls: controls as never }), [set, controls]);
  return null;
}

/** Hands out R3F's default camera. */
function CameraProbe({ into }: { into: { camera?: Camera } }) {
  const camera = useThree((s) => s.camera);
  useEffect(() => void (into.camera = camera), [camera, into]);
  return null;
}

describe('<DragControls>', () => {
  it('grabs the particle under the pointer, drags it on a camera-facing plane and throws it', async () => {
    const element = new FakeElement();
    const controls = { enabled: true };
    const probe: { camera?: Camera } = {};
    const held = createRef<ParticleHandle>();
    const grabbed: number[] = [];
    const released: [number, number[]][] = [];
    const m: Mounted = await mountWorld(
      <>
        <DefaultControls controls={controls} />
        <CameraProbe into={probe} />
        <Particle ref={held} position={[0.5, 0, 0]} radius={0.05} />
        <Particle position={[-2, 1, 0]} radius={0.05} />
        <Particle position={[0, 0, 0]} mass={0} />
        <DragControls domElement={element as unknown as HTMLElement} onGrab={(id) => grabbed.push(id)} onRelease={(id, v) => released.push([id, [...v]])} />
      </>,
      { gravity: [0, 0, 0], interpolate: false },
    );
    const cam = probe.camera!;

    // A press far from every particle passes through: the controls keep orbiting.
    element.dispatchEvent(pointer('pointerdown', 5, 5, 0));
    expect(grabbed).toEqual([]);
    expect(controls.enabled).toBe(true);

    const [x0, y0] = screen(cam, [0.52, 0.01, 0]);
    element.dispatchEvent(pointer('pointerdown', x0, y0, 1000));
    expect(grabbed).toEqual([held.current!.id]);
    expect(controls.enabled).toBe(false);
    expect(m.world.pins.count).toBe(1);

    // Drag in small moves over 50 ms, the last to (1, 0.5, 0): 10 m/s along x and 10 m/s along y.
    for (let i = 1; i <= 5; i++) {
      const [x, y] = screen(cam, [0.5 + 0.1 * i, 0.1 * i, 0]);
      element.ownerDocument.dispatchEvent(pointer('pointermove', x, y, 1000 + 10 * i));
    }
    await m.frames(2);
    const p = held.current!.position();
    expect(p[0]).toBeCloseTo(1, 6);
    expect(p[1]).toBeCloseTo(0.5, 6);
    expect(p[2]).toBeCloseTo(0, 6);

    element.ownerDocument.dispatchEvent(pointer('pointerup', 0, 0, 1055));
    expect(controls.enabled).toBe(true);
    expect(m.world.pins.count).toBe(0);
    expect(released).toHaveLength(1);
    expect(released[0]![0]).toBe(held.current!.id);
    expect(released[0]![1][0]).toBeCloseTo(10, 4);
    expect(released[0]![1][1]).toBeCloseTo(10, 4);
    await m.frames(6);
    // Thrown: it flies on with the pointer's velocity.
    expect(held.current!.velocity()[0]).toBeCloseTo(10, 4);
    expect(held.current!.position()[0]).toBeCloseTo(1 + 10 * (6 / 60), 6);
    await m.unmount();
  });

  it('ignores immovable and pinned particles unless asked, and stops listening when unmounted', async () => {
    const element = new FakeElement();
    const grabbed: number[] = [];
    const scene = (grabPinned: boolean) => (
      <>
        <Particle position={[0, 0, 0]} mass={0} />
        <Particle name="held" position={[0, 1, 0]} />
        <Pin particle="held" />
        <DragControls domElement={element as unknown as HTMLElement} grabPinned={grabPinned} onGrab={(id) => grabbed.push(id)} />
      </>
    );
    const m = await mountWorld(scene(false), { gravity: [0, 0, 0] });
    const probe: { camera?: Camera } = {};
    element.dispatchEvent(pointer('pointerdown', 640, 400, 0));
    expect(grabbed).toEqual([]);
    await m.update(
      <>
        {scene(false)}
        <CameraProbe into={probe} />
      </>,
    );
    const [x, y] = screen(probe.camera!, [0, 1, 0]);
    element.dispatchEvent(pointer('pointerdown', x, y, 0));
    expect(grabbed).toEqual([]);
    await m.update(scene(true));
    element.dispatchEvent(pointer('pointerdown', x, y, 0));
    // The remounts reused the particle's slot: its id carries the slot's generation.
    const held = m.particle('held');
    expect(grabbed).toEqual([held]);
    element.ownerDocument.dispatchEvent(pointer('pointerup', x, y, 10));
    expect(m.world.pins.count).toBe(1);
    // Unmounted: a press on a free particle does nothing.
    await m.update(<Particle position={[0, 1, 0]} />);
    element.dispatchEvent(pointer('pointerdown', x, y, 20));
    expect(grabbed).toEqual([held]);
    expect(m.world.pins.count).toBe(0);
    await m.unmount();
  });

  it('holds what it drags on the free side of the floor: a ragdoll pulled into the ground and let go is slower than the pointer', async () => {
    const element = new FakeElement();
    const probe: { camera?: Camera } = {};
    const held: number[] = [];
    const m = await mountWorld(
      <>
        <CameraProbe into={probe} />
        <Ground />
        <Ragdoll name="doll" feet={[0, 0, 0]} />
        <DragControls domElement={element as unknown as HTMLElement} onGrab={(id) => held.push(id)} />
      </>,
      { interpolate: false },
    );
    await m.frames(180);
    const w = m.world;
    const chest = resolveParticle(m.store.getState(), 'doll.chest')!;
    const start = w.getPosition(chest);
    const cam = probe.camera!;
    element.dispatchEvent(pointer('pointerdown', ...screen(cam, start), 0));
    expect(held).toHaveLength(1);
    const grabbed = held[0]!;
    // Down at 1 m/s for one second, to 1 m under the floor, then held there for half a second.
    let lowest = Infinity;
    for (let frame = 1; frame <= 90; frame++) {
      const depth = Math.min(frame, 60) / 60;
      element.ownerDocument.dispatchEvent(pointer('pointermove', ...screen(cam, [start[0], start[1] - depth, start[2]]), frame * 16.7));
      await m.frames(1);
      lowest = Math.min(lowest, w.getPosition(grabbed)[1] - w.particles.radius[grabbed]!);
    }
    element.ownerDocument.dispatchEvent(pointer('pointerup', ...screen(cam, [start[0], start[1] - 1, start[2]]), 91 * 16.7));
    let fastest = 0;
    for (let frame = 0; frame < 120; frame++) {
      await m.frames(1);
      for (let i = 0; i < w.particles.end; i++) if (w.particles.inverseMass[i]! > 0) fastest = Math.max(fastest, Math.hypot(...w.getVelocity(i)));
    }
    // The README scene used to send the doll up at 54–142 m/s from here.
    expect(lowest).toBeGreaterThan(-1e-6);
    expect(fastest).toBeLessThan(1);
    await m.unmount();
  });

  it('rejects a bad pick radius, naming it', async () => {
    await expectRenderError(
      <World>
        <DragControls radius={-5} />
      </World>,
      '<DragControls>: radius must be a finite number in [0, Infinity], got -5',
    );
  });

  it('lets go of a held particle when switched off, and hands the controls back', async () => {
    const element = new FakeElement();
    const controls = { enabled: true };
    const probe: { camera?: Camera } = {};
    const scene = (enabled: boolean) => (
      <>
        <DefaultControls controls={controls} />
        <CameraProbe into={probe} />
        <Particle position={[0, 1, 0]} radius={0.05} />
        <DragControls domElement={element as unknown as HTMLElement} enabled={enabled} />
      </>
    );
    const m = await mountWorld(scene(true), { gravity: [0, 0, 0] });
    const [x, y] = screen(probe.camera!, [0, 1, 0]);
    element.dispatchEvent(pointer('pointerdown', x, y, 0));
    expect([m.world.pins.count, controls.enabled]).toEqual([1, false]);
    await m.update(scene(false));
    expect([m.world.pins.count, controls.enabled]).toEqual([0, true]);
    // Off: a press grabs nothing.
    element.dispatchEvent(pointer('pointerdown', x, y, 10));
    expect(m.world.pins.count).toBe(0);
    await m.unmount();
  });
});

describe('<IKHandle>', () => {
  it('pins its particle where it is and moves the pin when the gizmo is dragged', async () => {
    const hand = createRef<ParticleHandle>();
    const targets: number[][] = [];
    const m = await mountWorld(
      <>
        <Particle name="shoulder" position={[0, 2, 0]} mass={0} />
        <Particle ref={hand} name="hand" position={[0.5, 2, 0]} />
        <Stick a="shoulder" b="hand" />
        <IKHandle particle="hand" onDrag={(p) => targets.push([...p])} />
      </>,
      { interpolate: false },
    );
    await m.frames(1);
    expect(m.world.pins.count).toBe(1);
    expect(m.world.pins.particle[0]).toBe(particleSlot(hand.current!.id));
    // The gizmo sits on the particle.
    const gizmo = m.renderer.scene.findAll((n) => n.instance instanceof Group && (n.instance as Group).matrixAutoUpdate === false && n.props.matrix !== undefined)[0]!.instance as Group;
    // As the renderer does before drawing.
    (m.renderer.scene.instance as unknown as Group).updateMatrixWorld();
    expect(new Vector3().setFromMatrixPosition(gizmo.matrixWorld).toArray()).toEqual([0.5, 2, 0]);
    await m.frames(20);
    // Held: it does not fall.
    expect(hand.current!.position()).toEqual([0.5, 2, 0]);

    // Drag the x arrow by 0.3 m, as drei's PivotControls receives it from R3F's pointer events.
    const arrow = m.renderer.scene.findAll((n) => typeof n.props.onPointerDown === 'function')[0]!;
    const target = { setPointerCapture: () => undefined, releasePointerCapture: () => undefined };
    await m.renderer.fireEvent(arrow, 'onPointerDown', { point: new Vector3(0.5, 2, 0), pointerId: 1, target });
    await m.renderer.fireEvent(arrow, 'onPointerMove', { ray: new Ray(new Vector3(0.8, 2, 5), new Vector3(0, 0, -1)), pointerId: 1, target });
    await m.renderer.fireEvent(arrow, 'onPointerUp', { pointerId: 1, target });
    expect(targets).toHaveLength(1);
    expect(targets[0]![0]).toBeCloseTo(0.8, 9);
    // At 12 fps the next frame holds five steps: the pin glides there 6 cm a step.
    const glided: number[] = [];
    const recording = m.world.onAfterStep((w) => glided.push(Number(w.pins.target[0]!.toFixed(9))));
    await m.frames(1, 5 / 60);
    m.world.remove(recording);
    expect(glided).toEqual([0.56, 0.62, 0.68, 0.74, 0.8]);
    await m.frames(5);
    // The stick from the fixed shoulder is 0.5 long, so the pinned hand wins and the stick stretches.
    expect(hand.current!.position()[0]).toBeCloseTo(0.8, 9);
    await m.update(null);
    expect(m.world.pins.count).toBe(0);
    await m.unmount();
  });
});

describe('<Debug>', () => {
  it('draws particles, sticks by strain and collider wireframes without re-rendering', async () => {
    const m = await mountWorld(
      <>
        <Ground visible={false} /* its grid would be one more coloured LineSegments */ />
        <SphereCollider position={[0, 1, 0]} radius={0.5} />
        <Particle name="a" position={[0, 3, 0]} mass={0} />
        <Particle name="b" position={[1, 3, 0]} />
        <Particle name="c" position={[2, 3, 0]} />
        <Stick a="a" b="b" />
        <Stick a="b" b="c" length={0.5} stiffness={0.01} />
        <Debug strainScale={0.05} />
      </>,
      { interpolate: false, gravity: [0, 0, 0] },
    );
    await m.frames(1);
    const points = m.renderer.scene.findAll((n) => n.instance instanceof Points)[0]!.instance as Points;
    const lines = m.renderer.scene.findAll((n) => n.instance instanceof LineSegments && (n.instance as LineSegments).geometry.getAttribute('color') !== undefined)[0]!
      .instance as LineSegments<BufferGeometry>;
    expect(points.geometry.drawRange.count).toBe(3);
    expect(lines.geometry.drawRange.count).toBe(4);
    const colors = lines.geometry.getAttribute('color').array as Float32Array;
    // Stick 0 at rest is green; stick 1 is stretched to twice its length: red.
    expect(colors[1]!).toBeGreaterThan(colors[0]!);
    expect(colors[6]!).toBeGreaterThan(colors[7]!);
    const wires = m.renderer.scene.findAll((n) => n.instance instanceof Group && (n.instance as Group).children.length === 2 && (n.instance as Group).children.every((c) => c instanceof LineSegments));
    expect(wires).toHaveLength(1);
    const [plane, sphere] = (wires[0]!.instance as Group).children as [LineSegments, LineSegments];
    expect(plane.position.toArray()).toEqual([0, 0, 0]);
    expect(sphere.position.toArray()).toEqual([0, 1, 0]);
    expect(sphere.scale.x).toBe(0.5);
    expect(formatStats(m.world, m.store.getState().frame)).toMatch(/^particles 3 · constraints 2 · colliders 2 · \d+\.\d\d ms\/step$/);
    await m.unmount();
  });
});
