import { Bone, BufferGeometry, Group, InstancedMesh, Matrix4, MeshBasicMaterial, PerspectiveCamera, Quaternion, SphereGeometry, Vector3 } from 'three';
import { createCloth } from '../../src/core/bodies/cloth.js';
import type { Surface } from '../../src/core/bodies/body.js';
import { World } from '../../src/core/world.js';
import { BodyGeometry } from '../../src/three/bodyGeometry.js';
import { BoneDriver } from '../../src/three/boneDriver.js';
import { FrameTrack } from '../../src/three/frameTrack.js';
import { blendFrames, makeFrame, type Frame } from '../../src/three/frames.js';
import { writeCapsuleInstances, writeParticleInstances } from '../../src/three/instances.js';
import { composeInto, writeTransform } from '../../src/three/matrices.js';
import { ColliderWireframes } from '../../src/three/colliderWireframes.js';
import { ParticlePoints, StickLines } from '../../src/three/debugViews.js';
import { computeNormals } from '../../src/three/normals.js';
import { ParticleDrag } from '../../src/three/particleDrag.js';
import { pickParticle } from '../../src/three/pick.js';
import { CURRENT, readPosition, readRange } from '../../src/three/positions.js';
import { TubeGeometry } from '../../src/three/tubeGeometry.js';
import { leastAllocation } from '../support/heap.js';

/** Halfway between the last two steps. */
const HALF = { alpha: 0.5 };

function fallingWorld(): World {
  const world = new World({ sleep: false });
  world.addParticles([{ position: [0, 1, 0] }, { position: [1, 1, 0] }, { position: [1, 2, 0] }]);
  world.advance(1 / 60);
  world.advance(1 / 120);
  return world;
}

describe('read-back (src/three)', () => {
  it('readRange copies a range exactly at alpha 1 and blends it otherwise', () => {
    const world = fallingWorld();
    const out = new Float32Array(9);
    readRange(world, 0, 3, { alpha: 1 }, out);
    expect(out).toEqual(Float32Array.from(world.positions.subarray(0, 9)));
    readRange(world, 1, 1, HALF, out, 3);
    const s = world.stepStartPositions;
    expect(out[4]).toBe(Math.fround(s[4]! + (world.positions[4]! - s[4]!) * 0.5));
  });

  it('readPosition reads a particle in a reused slot by its id, as getInterpolatedPosition does', () => {
    const world = new World({ sleep: false });
    world.removeParticle(world.addParticle({ position: [9, 9, 9] }));
    const id = world.addParticle({ position: [0, 1, 0] });
    // The id carries the slot's generation: indexing the columns by it would read past the particles.
    expect(id).toBeGreaterThan(world.particles.end);
    world.advance(1 / 60);
    world.advance(1 / 120);
    expect(readPosition(world, id, CURRENT, new Vector3()).toArray()).toEqual(world.getPosition(id));
    world.alpha = 0.5;
    expect(readPosition(world, id, HALF, new Vector3()).toArray()).toEqual(world.getInterpolatedPosition(id));
  });

  it('computeNormals gives counter-clockwise triangles the normal facing the viewer', () => {
    const positions = [0, 0, 0, 1, 0, 0, 0, 1, 0];
    const normals = new Float32Array(9);
    computeNormals(positions, [0, 1, 2], 3, normals, 3);
    expect(Array.from(normals)).toEqual([0, 0, 1, 0, 0, 1, 0, 0, 1]);
  });

  it('BodyGeometry follows a tearing surface and reuses its arrays', () => {
    const world = new World({ sleep: false });
    const cloth = createCloth(world, { width: 3, height: 3, corner: [0, 1, 0] });
    const view = new BodyGeometry({ first: cloth.first, count: cloth.count, surface: cloth.surface, uvs: cloth.uvs });
    view.update(world, { alpha: 1 });
    const position = view.geometry.getAttribute('position');
    const index = view.geometry.getIndex()!;
    expect(view.geometry.drawRange.count).toBe(8 * 3);
    expect(view.geometry.getAttribute('uv').array).toEqual(cloth.uvs);
    // A tear drops the last triangle and rewires another; the draw range and indices follow.
    const surface: Surface = cloth.surface;
    surface.triangleCount = 7;
    surface.triangles[0] = cloth.first + 8;
    world.step();
    view.update(world, { alpha: 1 });
    expect(view.geometry.drawRange.count).toBe(7 * 3);
    expect(view.geometry.getIndex()!.array[0]).toBe(8);
    expect(view.geometry.getAttribute('position')).toBe(position);
    expect(view.geometry.getIndex()).toBe(index);
  });

  it('the per-frame read-back allocates nothing', () => {
    const world = new World({ sleep: false });
    world.addCollider({ type: 'plane', normal: [0, 1, 0], offset: 0 });
    world.addCollider({ type: 'sphere', position: [0, 1, 0], radius: 0.5 });
    const cloth = createCloth(world, { width: 8, height: 8, corner: [0, 1, 0] });
    world.advance(1 / 30);
    const view = new BodyGeometry({ first: cloth.first, count: cloth.count, surface: cloth.surface });
    const tube = new TubeGeometry({ first: cloth.first, count: 8, radius: 0.01 });
    const balls = new InstancedMesh(new SphereGeometry(1), new MeshBasicMaterial(), cloth.count);
    const cylinders = new InstancedMesh(new BufferGeometry(), new MeshBasicMaterial(), 4);
    const caps = new InstancedMesh(new BufferGeometry(), new MeshBasicMaterial(), 8);
    const limbs = [0, 1, 2, 3].map((i) => ({ from: cloth.first + i, to: cloth.first + i + 8, radius: 0.02 }));
    const points = new ParticlePoints();
    const lines = new StickLines();
    const wires = new ColliderWireframes();
    const group = new Group();
    // As a rigid body's reader does: copy a transform into the frame's arrays.
    const track = new FrameTrack((out) => {
      const p = world.positions;
      for (let k = 0; k < 3; k++) out.position[k] = p[cloth.first * 3 + k]!;
    });
    track.capture();
    const bone = new Bone();
    new Group().add(bone);
    const driver = new BoneDriver([{ bone, frame: 0 }]);
    const frames = [makeFrame()];
    driver.bind(frames);
    const v = new Vector3();
    const frame = () => {
      view.update(world, HALF);
      tube.update(world, HALF);
      writeParticleInstances(balls, world, cloth.first, cloth.count, HALF);
      writeCapsuleInstances(cylinders, caps, world, limbs, HALF);
      points.update(world, HALF);
      lines.update(world, HALF);
      wires.update(world);
      const drawn = track.sample(HALF);
      writeTransform(group, drawn.position, drawn.quaternion);
      readPosition(world, cloth.first, HALF, v);
      driver.update(frames);
    };
    // Warm up until V8 has optimised everything (unoptimised code boxes every double), then take the
    // smallest growth over several rounds: compilation adds noise, a real allocation does not go away.
    for (let i = 0; i < 20_000; i++) frame();
    // Any object per frame (a Vector3 is 56 bytes, a small array 32) would be over 320 kB.
    expect(
      leastAllocation(() => {
        for (let i = 0; i < 10_000; i++) frame();
      }),
    ).toBeLessThan(16 * 1024);
  }, 30_000);

  it('TubeGeometry wraps a chain with outward-facing rings', () => {
    const world = new World({ sleep: false });
    const first = world.addParticles([{ position: [0, 0, 0] }, { position: [1, 0, 0] }, { position: [2, 1, 0] }]);
    const tube = new TubeGeometry({ first, count: 3, radius: 0.1, radialSegments: 8 });
    tube.update(world, { alpha: 1 });
    const p = tube.geometry.getAttribute('position');
    const n = tube.geometry.getAttribute('normal');
    const index = tube.geometry.getIndex()!;
    const centre = (v: number) => new Vector3(...world.getPosition(first + Math.floor(v / 8)));
    for (let v = 0; v < p.count; v++) {
      const out = new Vector3().fromBufferAttribute(p, v).sub(centre(v));
      expect(out.length()).toBeCloseTo(0.1, 6);
      expect(new Vector3().fromBufferAttribute(n, v).dot(out.normalize())).toBeCloseTo(1, 6);
    }
    for (let t = 0; t < index.count; t += 3) {
      const [a, b, c] = [index.getX(t), index.getX(t + 1), index.getX(t + 2)].map((v) => new Vector3().fromBufferAttribute(p, v));
      const face = b!.clone().sub(a!).cross(c!.clone().sub(a!));
      const outward = a!.clone().sub(centre(index.getX(t)));
      expect(face.dot(outward)).toBeGreaterThan(0);
    }
    expect(tube.geometry.boundingSphere!.radius).toBeGreaterThan(1);
  });

  it('composeInto matches Matrix4.compose', () => {
    const q = new Quaternion().setFromAxisAngle(new Vector3(1, 2, 3).normalize(), 0.7);
    const expected = new Matrix4().compose(new Vector3(1, 2, 3), q, new Vector3(2, 3, 4));
    const out = new Float32Array(32);
    composeInto(out, 16, [1, 2, 3, q.x, q.y, q.z, q.w, 2, 3, 4]);
    expected.elements.forEach((v, i) => expect(out[16 + i]).toBeCloseTo(v, 6));
  });

  it("writes particle and capsule instances, with bounds around them, read at the particles' slots", () => {
    const world = new World({ sleep: false });
    // Reused slots: the ids carry the slots' generation, which the columns are not indexed by.
    world.removeParticle(world.addParticle({ position: [9, 9, 9] }));
    const first = world.addParticles([
      { position: [0, 0, 0], radius: 0.1 },
      { position: [0, -1, 0], radius: 0.2 },
      { position: [3, 0, 0], radius: 0.1 },
    ]);
    expect(first).toBeGreaterThanOrEqual(2 ** 20);
    const balls = new InstancedMesh(new SphereGeometry(1), new MeshBasicMaterial(), 3);
    writeParticleInstances(balls, world, first, 3, CURRENT);
    const m = new Matrix4();
    balls.getMatrixAt(1, m);
    expect(new Vector3().setFromMatrixPosition(m).toArray()).toEqual([0, -1, 0]);
    expect(new Vector3().setFromMatrixScale(m).x).toBeCloseTo(0.2, 6);
    expect(balls.boundingSphere!.containsPoint(new Vector3(3, 0, 0))).toBe(true);

    const cylinders = new InstancedMesh(new BufferGeometry(), new MeshBasicMaterial(), 2);
    const caps = new InstancedMesh(new BufferGeometry(), new MeshBasicMaterial(), 4);
    // One limb pointing straight down (the degenerate rotation), one along x.
    writeCapsuleInstances(
      cylinders,
      caps,
      world,
      [
        { from: first, to: first + 1, radius: 0.05 },
        { from: first, to: first + 2, radius: 0.1 },
      ],
      CURRENT,
    );
    for (const [i, a, b] of [
      [0, [0, 0, 0], [0, -1, 0]],
      [1, [0, 0, 0], [3, 0, 0]],
    ] as const) {
      cylinders.getMatrixAt(i, m);
      const top = new Vector3(0, 0.5, 0).applyMatrix4(m);
      const bottom = new Vector3(0, -0.5, 0).applyMatrix4(m);
      expect(bottom.distanceTo(new Vector3(...a))).toBeLessThan(1e-6);
      expect(top.distanceTo(new Vector3(...b))).toBeLessThan(1e-6);
    }
    expect(caps.count).toBe(4);
    expect(cylinders.boundingSphere!.containsPoint(new Vector3(0, -1, 0))).toBe(true);
  });

  it('blends frames along the shorter arc and tracks transforms between steps', () => {
    const a: Frame = { position: [0, 0, 0], quaternion: [0, 0, 0, 1] };
    const half = new Quaternion().setFromAxisAngle(new Vector3(0, 1, 0), 0.2);
    // The same rotation with the opposite sign must not take the long way round.
    const b: Frame = { position: [2, 0, 0], quaternion: [-half.x, -half.y, -half.z, -half.w] };
    const mid = blendFrames(a, b, HALF, makeFrame());
    expect(mid.position).toEqual([1, 0, 0]);
    const angle = 2 * Math.acos(Math.abs(mid.quaternion[3]));
    expect(angle).toBeCloseTo(0.1, 3);

    let x = 0;
    const track = new FrameTrack((out) => {
      out.position[0] = x;
    });
    expect(track.sample(HALF).position[0]).toBe(0);
    track.capture();
    x = 1;
    expect(track.sample({ alpha: 0.25 }).position[0]).toBe(0.25);
    expect(track.sample(CURRENT).position[0]).toBe(1);
  });

  it('pickParticle finds the movable particle under the pointer', () => {
    const world = new World({ sleep: false });
    const near = world.addParticle({ position: [0, 0, 1] });
    const far = world.addParticle({ position: [0, 0, -1] });
    world.addParticle({ position: [1, 0, 0], mass: 0 });
    const camera = new PerspectiveCamera(60, 1, 0.1, 100);
    camera.position.set(0, 0, 5);
    camera.updateMatrixWorld();
    const query = { x: 0, y: 0, width: 400, height: 400, radius: 10 };
    // Both project onto the centre: the one nearer the camera wins.
    expect(pickParticle(world, camera, query)).toBe(near);
    expect(pickParticle(world, camera, { ...query, filter: (id) => id !== near })).toBe(far);
    // The immovable one is scenery.
    const right = new Vector3(1, 0, 0).project(camera);
    expect(pickParticle(world, camera, { ...query, x: right.x, y: right.y })).toBe(-1);
    expect(pickParticle(world, camera, { ...query, x: 0.5, y: 0.5 })).toBe(-1);
  });

  it('pickParticle returns the id of a particle in a reused slot, which the accessors take', () => {
    const world = new World({ sleep: false });
    const old = world.addParticle({ position: [0, 0, 0] });
    world.removeParticle(old);
    const now = world.addParticle({ position: [0, 0, 0] });
    expect(now).not.toBe(old);
    const camera = new PerspectiveCamera(60, 1, 0.1, 100);
    camera.position.set(0, 0, 5);
    const picked = pickParticle(world, camera, { x: 0, y: 0, width: 400, height: 400, radius: 10, filter: (id) => id === now });
    expect(picked).toBe(now);
    expect(world.getPosition(picked)).toEqual([0, 0, 0]);
  });

  it('ParticleDrag throws with the recent pointer velocity, and not after a pause', () => {
    const world = new World({ gravity: [0, 0, 0], sleep: false });
    const id = world.addParticle({ position: [0, 0, 0] });
    const drag = new ParticleDrag(world);
    const facing = new Vector3(0, 0, -1);
    drag.grab(id, facing, 0);
    expect(drag.active).toBe(true);
    for (let i = 1; i <= 4; i++) drag.drag(new Vector3(i * 0.1, 0, 5), facing, i * 0.02);
    expect(drag.release(0.09)).toEqual([5, 0, 0]);
    expect(world.pins.count).toBe(0);
    drag.grab(id, facing, 1);
    drag.drag(new Vector3(1, 0, 5), facing, 1.01);
    // Held still for half a second before letting go.
    expect(drag.release(1.5)).toEqual([0, 0, 0]);
    // A ray pointing away from the plane leaves the pin alone.
    drag.grab(id, facing, 2);
    expect(drag.drag(new Vector3(0, 0, 5), new Vector3(0, 0, 1), 2.1)).toBe(false);
    drag.cancel();
    expect(drag.active).toBe(false);
  });

  it('ParticleDrag walks the pin to the pointer in equal parts over the steps of a frame', () => {
    const world = new World({ gravity: [0, 0, 0], sleep: false });
    const id = world.addParticle({ position: [0, 0, 0] });
    const drag = new ParticleDrag(world);
    const facing = new Vector3(0, 0, -1);
    drag.grab(id, facing, 0);
    const targets: number[] = [];
    world.onAfterStep((w) => targets.push(w.pins.target[0]!));
    drag.drag(new Vector3(0.5, 0, 5), facing, 0.1);
    // A 12 fps frame holds five steps of 1/60 s: the pin goes 0.1 m a step, not 0.5 m at once.
    expect(world.advance(5 / 60)).toBe(5);
    expect(targets.map((x) => Number(x.toFixed(12)))).toEqual([0.1, 0.2, 0.3, 0.4, 0.5]);
    expect(world.getPosition(id)[0]).toBeCloseTo(0.5, 12);
    // The next frame starts from there; a bare step() is a frame of one step.
    drag.drag(new Vector3(1, 0, 5), facing, 0.2);
    world.step();
    expect(targets.at(-1)).toBe(1);
    // Letting go removes the pin and the per-step callback with it.
    drag.release(0.3);
    expect(world.pins.count).toBe(0);
    expect(world.beforeStep).toHaveLength(0);
  });

  it('a pull at 12 fps stretches a chain exactly as the same pull at 60 fps', () => {
    // A free chain along x, its end dragged 0.5 m further along x in 0.5 s.
    const stretchWhileDragging = (fps: number) => {
      // Without tethers: the pinned end would anchor them and they would pull the whole chain along unstretched, leaving no stretch to compare.
      const world = new World({ gravity: [0, 0, 0], sleep: false, tethers: false });
      const links = Array.from({ length: 10 }, (_, k) => world.addParticle({ position: [k * 0.1, 0, 0] }));
      for (let k = 1; k < links.length; k++) world.addStick(links[k - 1]!, links[k]!);
      const end = links.at(-1)!;
      const drag = new ParticleDrag(world);
      const facing = new Vector3(0, 0, -1);
      drag.grab(end, facing, 0);
      let worst = 0;
      world.onAfterStep((w) => {
        const p = w.positions;
        for (let k = 1; k < links.length; k++) {
          const a = links[k - 1]! * 3;
          const b = links[k]! * 3;
          worst = Math.max(worst, Math.hypot(p[a]! - p[b]!, p[a + 1]! - p[b + 1]!, p[a + 2]! - p[b + 2]!) / 0.1 - 1);
        }
      });
      const frames = fps / 2;
      for (let f = 1; f <= frames; f++) {
        drag.drag(new Vector3(0.9 + (0.5 * f) / frames, 0, 5), facing, f / fps);
        world.advance(1 / fps);
      }
      expect(world.getPosition(end)[0]).toBeCloseTo(1.4, 9);
      return worst;
    };
    const smooth = stretchWhileDragging(60);
    // Five steps a frame: the pin takes the same path, a fifth of each pointer move per step.
    const choppy = stretchWhileDragging(12);
    expect(smooth).toBeGreaterThan(0.001);
    expect(choppy).toBeCloseTo(smooth, 9);
  });

  it('BoneDriver keeps each bone at its bind offset from its frame, parents first', () => {
    const hips = new Bone();
    const thigh = new Bone();
    hips.add(thigh);
    hips.position.set(0, 1, 0);
    thigh.position.set(0.1, -0.1, 0);
    const frames: Frame[] = [makeFrame(), makeFrame()];
    frames[0]!.position = [0, 1, 0];
    frames[1]!.position = [0.1, 0.9, 0];
    const driver = new BoneDriver([
      { bone: thigh, frame: 1 },
      { bone: hips, frame: 0 },
    ]);
    driver.bind(frames);
    expect(driver.isBound).toBe(true);
    const turn = new Quaternion().setFromAxisAngle(new Vector3(0, 0, 1), 0.5);
    frames[0]!.position = [1, 1, 0];
    frames[1]!.position = [1.2, 0.7, 0];
    frames[1]!.quaternion = [turn.x, turn.y, turn.z, turn.w];
    driver.update(frames);
    hips.updateMatrixWorld(true);
    expect(new Vector3().setFromMatrixPosition(hips.matrixWorld).toArray()).toEqual([1, 1, 0]);
    const thighWorld = new Vector3().setFromMatrixPosition(thigh.matrixWorld);
    expect(thighWorld.distanceTo(new Vector3(1.2, 0.7, 0))).toBeLessThan(1e-9);
    const q = new Quaternion().setFromRotationMatrix(new Matrix4().extractRotation(thigh.matrixWorld));
    expect(q.angleTo(turn)).toBeLessThan(1e-6);
  });
});
