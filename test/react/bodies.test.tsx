import { createRef } from 'react';
import { Bone, InstancedMesh, Matrix4, Quaternion, Vector3, type Mesh } from 'three';
import { particleSlot } from '../../src/core/ids.js';
import type { LimitFriction } from '../../src/core/bodies/limitFriction.js';
import { Ground } from '../../src/react/components/Ground.js';
import { Pin } from '../../src/react/components/Pin.js';
import { Plant } from '../../src/react/components/Plant.js';
import { Ragdoll } from '../../src/react/components/Ragdoll.js';
import { Rope } from '../../src/react/components/Rope.js';
import { SoftBody } from '../../src/react/components/SoftBody.js';
import type { PlantApi } from '../../src/react/hooks/usePlant.js';
import type { RagdollApi } from '../../src/react/hooks/useRagdoll.js';
import type { RopeApi } from '../../src/react/hooks/useRope.js';
import type { SoftBodyApi } from '../../src/react/hooks/useSoftBody.js';
import { World } from '../../src/react/World.js';
import { expectRenderError, mountWorld, type Mounted } from './helpers.js';

function instancedMeshes(m: Mounted): InstancedMesh[] {
  return m.renderer.scene.findAll((n) => n.instance instanceof InstancedMesh).map((n) => n.instance as InstancedMesh);
}

function meshes(m: Mounted): Mesh[] {
  return m.renderer.scene.findAllByType('Mesh').map((n) => n.instance as Mesh);
}

describe('body components', () => {
  it('<Rope> draws a tube around its particles and toggles end pins in place', async () => {
    const rope = createRef<RopeApi>();
    const scene = (pinEnd: boolean) => <Rope ref={rope} from={[0, 2, 0]} to={[1, 2, 0]} segments={10} pinStart pinEnd={pinEnd} thickness={0.02} radialSegments={6} />;
    const m = await mountWorld(scene(true), { interpolate: false });
    const core = rope.current!.current!;
    expect(m.world.pins.count).toBe(2);
    await m.frames(30);
    const geometry = meshes(m)[0]!.geometry;
    const array = geometry.getAttribute('position').array as Float32Array;
    expect(array).toHaveLength(11 * 6 * 3);
    // Each ring of 6 vertices is centred on its particle, 2 cm out.
    for (let i = 0; i < 11; i++) {
      const centre = new Vector3();
      for (let j = 0; j < 6; j++) centre.add(new Vector3().fromArray(array, (i * 6 + j) * 3));
      centre.divideScalar(6);
      const p = new Vector3(...m.world.getPosition(core.first + i));
      expect(centre.distanceTo(p)).toBeLessThan(1e-5);
      expect(new Vector3().fromArray(array, i * 6 * 3).distanceTo(p)).toBeCloseTo(0.02, 5);
    }
    await m.update(scene(false));
    expect(rope.current!.current).toBe(core);
    expect(m.world.pins.count).toBe(1);
    await m.frames(30);
    expect(m.world.getPosition(core.last)[1]).toBeLessThan(1.9);

    // Drawn as beads instead: the same rope, one instance per particle.
    await m.update(<Rope ref={rope} from={[0, 2, 0]} to={[1, 2, 0]} segments={10} pinStart display="beads" thickness={0.03} />);
    expect(rope.current!.current).toBe(core);
    await m.frames(1);
    const beads = instancedMeshes(m)[0]!;
    expect(beads.count).toBe(11);
    const matrix = new Matrix4();
    beads.getMatrixAt(10, matrix);
    expect(new Vector3().setFromMatrixPosition(matrix).distanceTo(new Vector3(...m.world.getPosition(core.last)))).toBeLessThan(1e-5);
    await m.unmount();
    expect(m.world.constraintCount).toBe(0);
  });

  it('<SoftBody> draws its surface from the core and changes stiffness and pressure in place', async () => {
    const jelly = createRef<SoftBodyApi>();
    const scene = (stiffness: number, pressure: number) => (
      <>
        <Ground visible={false} />
        <SoftBody ref={jelly} shape="box" position={[0, 1, 0]} size={0.5} resolution={2} stiffness={stiffness} pressure={pressure} />
      </>
    );
    const m = await mountWorld(scene(0.3, 1), { interpolate: false });
    await m.frames(40);
    const core = jelly.current!.current!;
    const array = meshes(m)[0]!.geometry.getAttribute('position').array as Float32Array;
    expect(array).toEqual(Float32Array.from(m.world.positions.subarray(core.first * 3, (core.first + core.count) * 3)));
    expect(jelly.current!.volume() / core.restVolume).toBeGreaterThan(0.8);
    await m.update(scene(0.1, 0.5));
    expect(jelly.current!.current).toBe(core);
    expect(core.volumeConstraint.pressure).toBe(0.5);
    expect(m.world.sticks.stiffness[m.world.stickRow(core.sticks[0]!)]).toBe(0.1);
    await m.unmount();
    expect(m.world.particleCount).toBe(0);
    expect(m.world.constraintCount).toBe(0);
  });

  it('<Plant> is drawn from the core, moves when hit, and changes stiffness in place', async () => {
    const plant = createRef<PlantApi>();
    const scene = (stiffness: number) => <Plant ref={plant} root={[0, 0, 0]} height={0.6} segments={6} stiffness={stiffness} />;
    const m = await mountWorld(scene(0.5), { interpolate: false });
    const tip = plant.current!.current!.particle(1, 6);
    const start = new Vector3(...m.world.getPosition(tip));
    plant.current!.hit(tip - plant.current!.first, [1, 0, 0], 0.05);
    await m.frames(10);
    // Measured: 1.7 cm (3 cm without long-range attachments, with its rigid strip stretching under one pass).
    expect(new Vector3(...m.world.getPosition(tip)).distanceTo(start)).toBeGreaterThan(0.01);
    // The foot is rooted.
    expect(m.world.getPosition(plant.current!.first)[1]).toBe(0);
    const array = meshes(m)[0]!.geometry.getAttribute('position').array as Float32Array;
    expect(array[(tip - plant.current!.first) * 3]).toBe(Math.fround(m.world.positions[tip * 3]!));
    await m.update(scene(0.9));
    const core = plant.current!.current!;
    expect(m.world.sticks.stiffness[m.world.stickRow(core.supports[0]!)]).toBe(0.9);
    await m.unmount();
  });

  it('<Ragdoll> draws a capsule per limb and names its parts', async () => {
    const doll = createRef<RagdollApi>();
    const m = await mountWorld(
      <>
        <Ground />
        <Ragdoll ref={doll} name="doll" feet={[0, 0.3, 0]} pose="T" />
        <Pin particle="doll.leftHand" />
      </>,
      { interpolate: false },
    );
    const core = doll.current!.current!;
    expect(m.world.pins.count).toBe(1);
    expect(m.world.pins.particle[0]).toBe(particleSlot(core.part('leftHand')));
    doll.current!.hit('chest', [0, 0, -1], 0.02);
    await m.frames(30);
    const [cylinders, caps] = instancedMeshes(m);
    expect(cylinders!.count).toBe(core.limbs.length);
    expect(caps!.count).toBe(core.limbs.length * 2);
    core.limbs.forEach((limb, i) => {
      const matrix = new Matrix4();
      cylinders!.getMatrixAt(i, matrix);
      const position = new Vector3();
      const scale = new Vector3();
      matrix.decompose(position, new Quaternion(), scale);
      const a = new Vector3(...m.world.getPosition(limb.from));
      const b = new Vector3(...m.world.getPosition(limb.to));
      expect(position.distanceTo(a.clone().add(b).multiplyScalar(0.5))).toBeLessThan(1e-5);
      expect(scale.y).toBeCloseTo(a.distanceTo(b), 5);
      expect(scale.x).toBeCloseTo(limb.radius, 6);
    });
    await m.unmount();
    expect(m.world.particleCount).toBe(0);
    expect(m.world.sticks.count + m.world.pins.count).toBe(0);
  });

  it('<Ragdoll limitFriction ownPasses> rebuild the ragdoll when they change, in StrictMode, leaving one of each stage', async () => {
    const scene = (limitFriction: number, ownPasses: number) => <Ragdoll name="doll" feet={[0, 0.3, 0]} limitFriction={limitFriction} ownPasses={ownPasses} />;
    const m = await mountWorld(scene(0, 16), { interpolate: false }, true);
    const stages = () => m.world.substepStages.map((s) => s.constructor.name).sort();
    expect(stages()).toEqual(['OwnPasses']);
    await m.update(scene(0.8, 0));
    expect(stages()).toEqual(['LimitFriction']);
    expect((m.world.substepStages[0] as LimitFriction).coefficient).toBe(0.8);
    await m.frames(10);
    expect(m.world.particleCount).toBe(16);
    await m.unmount();
    expect(m.world.substepStages).toHaveLength(0);
  });

  it("<Ragdoll bones> drives a model's bones through the limb frames", async () => {
    const doll = createRef<RagdollApi>();
    const root = new Bone();
    root.name = 'Hips';
    const thigh = new Bone();
    thigh.name = 'LeftUpLeg';
    root.add(thigh);
    thigh.position.set(0.1, -0.05, 0);
    const m = await mountWorld(
      <>
        <Ground />
        <Ragdoll ref={doll} feet={[0, 0.5, 0]} bones={{ lowerSpine: 'Hips', leftThigh: 'LeftUpLeg' }}>
          <primitive object={root} />
        </Ragdoll>
      </>,
      { interpolate: false },
    );
    expect(instancedMeshes(m)).toHaveLength(0);
    const core = doll.current!.current!;
    const thighIndex = core.limbs.findIndex((l) => l.name === 'leftThigh');
    const frameMatrix = (i: number) => {
      const f = core.updateFrames()[i]!;
      return new Matrix4().compose(new Vector3(...f.position), new Quaternion(...f.quaternion), new Vector3(1, 1, 1));
    };
    thigh.updateWorldMatrix(true, false);
    const offset = frameMatrix(thighIndex).invert().multiply(thigh.matrixWorld.clone());
    doll.current!.hit('pelvis', [1, 0, 0], 0.03);
    await m.frames(40);
    thigh.updateWorldMatrix(true, false);
    const expected = frameMatrix(thighIndex).multiply(offset);
    thigh.matrixWorld.elements.forEach((v, i) => expect(v).toBeCloseTo(expected.elements[i]!, 5));
    expect(new Vector3().setFromMatrixPosition(thigh.matrixWorld).x).toBeGreaterThan(0.1);
    await m.unmount();
  });

  it('1,000 remounts of a body inside one <World> leave nothing behind', async () => {
    const m = await mountWorld(<Rope key={0} name="r" from={[0, 2, 0]} to={[1, 2, 0]} segments={8} />);
    await m.frames(1);
    const particles = m.world.particleCount;
    const constraints = m.world.constraintCount;
    for (let i = 1; i <= 1000; i++) await m.update(<Rope key={i} name="r" from={[0, 2, 0]} to={[1, 2, 0]} segments={8} />);
    await m.frames(1);
    // Measured before: one dead body record per remount, walked by every step.
    expect(m.world.bodies.length).toBeLessThanOrEqual(2);
    expect(m.world.bodies.filter((b) => b.alive)).toHaveLength(1);
    expect(m.world.particleCount).toBe(particles);
    expect(m.world.constraintCount).toBe(constraints);
    expect(m.world.particles.end).toBeLessThanOrEqual(2 * particles);
    await m.update(null);
    expect(m.world.particleCount).toBe(0);
    expect(m.world.constraintCount).toBe(0);
    expect(Object.keys(m.store.getState().bodies)).toEqual([]);
    await m.unmount();
  });

  it('reject bad props naming the component and the prop', async () => {
    await expectRenderError(
      <World>
        <Rope from={[0, 0, 0]} to={[1, 0, 0]} segments={-3} />
      </World>,
      '<Rope>: segments must be an integer >= 1, got -3',
    );
    await expectRenderError(
      <World>
        <SoftBody stiffness={0} />
      </World>,
      '<SoftBody>: stiffness must be in (0, 1], got 0',
    );
    await expectRenderError(
      <World>
        <Ragdoll height={-1} />
      </World>,
      '<Ragdoll>: height must be a finite number > 0, got -1',
    );
    await expectRenderError(
      <World>
        <Ragdoll bones={{ leftThigh: 'Nope' }}>
          <group />
        </Ragdoll>
      </World>,
      '<Ragdoll>: bones.leftThigh names no object "Nope" among the children',
    );
    await expectRenderError(<Rope from={[0, 0, 0]} to={[1, 0, 0]} segments={3} />, '<Rope> must be inside a <World>');
  });
});
