import { describe, expect, it } from 'vitest';
import { SelfContactList } from '../../src/core/collision/selfContactList.js';
import { SelfContactSearch } from '../../src/core/collision/selfContactSearch.js';
import { stickNeighbours } from '../../src/core/collision/stickNeighbours.js';
import {
  addBodyCapsuleEdges,
  addCapsuleEdge,
  addCollisionTriangle,
  enableParticleCollisions,
  enableSelfCollision,
  particleSlot,
  protectFromTunnelling,
  World,
  type Vec3,
} from '../../src/core/index.js';
import { leastAllocation } from '../support/heap.js';
import { staircase } from './collisionScenes.js';
import { layers, randomThrows } from './layerThrows.js';

const enum Launch {
  Cube,
  FastCube,
  Arm,
  Cloth,
  Loose,
}

/**
 * Puts the k-th particle of a group (starting at `first`) back at its start
 * with its launch velocity, writing the arrays directly: the world's setters
 * check their input and allocate, and only integers cross this call.
 */
function relaunch(world: World, what: Launch, first: number, k: number): void {
  let x: number;
  let y: number;
  let z: number;
  let vx = 0;
  let vy = 0;
  let vz = 0;
  if (what === Launch.Cube || what === Launch.FastCube) {
    x = ((k & 1) - 0.5) * 0.2 + 1;
    y = ((k >> 1) & 1) * 0.2 + 1;
    z = ((k >> 2) & 1) * 0.2 - 0.1;
    vx = what === Launch.FastCube ? 3000 : 150;
    vz = 2;
  } else if (what === Launch.Arm) {
    x = 1.95 + 0.25 * k;
    y = 1;
    z = 0.5;
  } else if (what === Launch.Cloth) {
    x = (k % 6) * 0.1 - 0.25;
    y = 1.2;
    z = Math.floor(k / 6) * 0.1 + 3.75;
    vy = -1;
  } else {
    x = 0.2 + (k % 8) * 0.2;
    y = 2 + Math.floor(k / 8) * 0.1;
    z = -4 + (k % 5) * 0.1;
    vx = (k % 3) - 1;
  }
  const p = (first + k) * 3;
  const h = world.timeStepValue / world.substeps;
  const pos = world.particles.position;
  const prev = world.particles.previous;
  pos[p] = x;
  pos[p + 1] = y;
  pos[p + 2] = z;
  prev[p] = x - vx * h;
  prev[p + 1] = y - vy * h;
  prev[p + 2] = z - vz * h;
}

/**
 * Every collision feature at once: capsule, oriented box, mesh staircase, sphere,
 * box and plane colliders; a cube with capsule edges, collision faces and the
 * swept test, fired at a thin wall again and again; an arm with a torso put
 * through the wall again and again (the wall cheat); a cloth with
 * self-collision (edge–edge contact too) and faces dropped on a sphere; loose particles colliding with
 * each other on the stairs.
 */
function busyScene() {
  const world = new World();
  world.addCollider({ type: 'plane', normal: [0, 1, 0], offset: 0 });
  world.addCollider({ type: 'obb', position: [2.01, 1, 0], halfExtents: [0.01, 1, 1], rotation: [0, 0, 0, 1] });
  world.addCollider({ type: 'capsule', a: [-1, 0.3, 2], b: [1, 0.3, 2], radius: 0.1 });
  world.addCollider({ type: 'sphere', position: [0, 0.5, 4], radius: 0.4 });
  world.addCollider({ type: 'box', min: [3, 0, 3], max: [3.5, 0.3, 3.5] });
  const stairs = staircase(5, 0.4, 0.2, 2).shape(0.8);
  world.addCollider({ ...stairs, vertices: stairs.vertices.map((v, i) => (i % 3 === 2 ? v - 4 : v)) });

  const corners = Array.from({ length: 8 }, (_, k) => ({ position: [((k & 1) - 0.5) * 0.2 + 1, ((k >> 1) & 1) * 0.2 + 1, ((k >> 2) & 1) * 0.2 - 0.1] as Vec3, radius: 0.01 }));
  const cube = world.addParticles(corners);
  for (let i = 0; i < 8; i++) for (let j = i + 1; j < 8; j++) world.addStick(cube + i, cube + j);
  const cubeBody = world.addBody(cube, 8, { kind: 'cube' });
  addBodyCapsuleEdges(world, cubeBody, 0.01);
  for (const [a, b, c] of [
    [0, 1, 3],
    [0, 3, 2],
    [4, 6, 7],
    [4, 7, 5],
    [0, 4, 5],
    [0, 5, 1],
  ])
    addCollisionTriangle(world, cube + a!, cube + b!, cube + c!);
  protectFromTunnelling(world, cubeBody);

  const arm = world.addParticles([0, 1, 2].map((k) => ({ position: [1.95 + 0.25 * k, 1, 0.5] as Vec3, mass: k === 0 ? 5 : 1 })));
  world.addStick(arm, arm + 1);
  world.addStick(arm + 1, arm + 2);
  const armBody = world.addBody(arm, 3, { kind: 'arm' });
  addCapsuleEdge(world, arm, arm + 1, 0.03);
  addCapsuleEdge(world, arm + 1, arm + 2, 0.03);
  protectFromTunnelling(world, armBody, { torsoParticle: arm });

  const n = 6;
  const surface: number[] = [];
  const cloth = world.addParticles(Array.from({ length: n * n }, (_, k) => ({ position: [(k % n) * 0.1 - 0.25, 1.2, Math.floor(k / n) * 0.1 + 3.75] as Vec3 })));
  for (let j = 0; j < n; j++) {
    for (let i = 0; i < n; i++) {
      const p = cloth + j * n + i;
      if (i + 1 < n) world.addStick(p, p + 1);
      if (j + 1 < n) world.addStick(p, p + n);
      if (i + 1 < n && j + 1 < n) {
        addCollisionTriangle(world, p, p + 1, p + n + 1);
        addCollisionTriangle(world, p, p + n + 1, p + n);
        surface.push(p, p + 1, p + n + 1, p, p + n + 1, p + n);
      }
    }
  }
  const clothBody = world.addBody(cloth, n * n, { kind: 'cloth' });
  // Its triangles as a surface too, so that self-collision lists particle–triangle pairs.
  clothBody.surface = { triangles: Uint32Array.from(surface), triangleCount: surface.length / 3 };
  enableSelfCollision(world, clothBody, { thickness: 0.05, edges: true });

  const loose = world.addParticles(Array.from({ length: 40 }, (_, k) => ({ position: [0.2 + (k % 8) * 0.2, 2 + Math.floor(k / 8) * 0.1, -4 + (k % 5) * 0.1] as Vec3, radius: 0.04 })));
  enableParticleCollisions(world);

  // Relaunches everything now and then from inside the step, allocation-free.
  let tick = 0;
  world.addForce({
    apply(w) {
      tick++;
      if (tick % 90 === 0) {
        for (let k = 0; k < 8; k++) relaunch(w, tick % 180 === 0 ? Launch.FastCube : Launch.Cube, cube, k);
        for (let k = 0; k < 3; k++) relaunch(w, Launch.Arm, arm, k);
      }
      if (tick % 240 === 0) {
        for (let k = 0; k < n * n; k++) relaunch(w, Launch.Cloth, cloth, k);
        for (let k = 0; k < 40; k++) relaunch(w, Launch.Loose, loose, k);
      }
    },
  });
  return world;
}

describe('the collision features in the step loop', () => {
  it('allocate nothing: 4,000 steps with every feature on leave the heap flat', () => {
    const world = busyScene();
    const run = (steps: number) => {
      for (let i = 0; i < steps; i++) world.step();
    };
    // Warm up the same call sites: the first calls allocate JIT feedback and code, not garbage.
    run(3000);
    // 4,000 steps at even 16 bytes each would allocate 64 kB.
    expect(leastAllocation(() => run(4000))).toBeLessThan(16 * 1024);
    // The scene stayed sane: nothing escaped through the floor or flew off.
    for (let i = 0; i < world.particleCount; i++) {
      const [x, y, z] = world.getPosition(i);
      expect(y).toBeGreaterThan(-1e-6);
      expect(Math.hypot(x, z)).toBeLessThan(50);
    }
  }, 300_000);

  it('allocate nothing where a self-colliding layer lies on another: 1,000 steps leave the heap flat', () => {
    // Throw 84 of seed 1234 at 25 mm (layerThrows.ts): the free layer rests on the lower one, and
    // every pass pushes its particle–triangle contacts. The contact's
    // weights clamped in a helper the compiler did not inline boxed three doubles a push
    // (measured: 3.5 MB over 300 steps).
    const { world } = layers(randomThrows(1234, 100)[84]!, 0.025, 'js', false);
    for (let s = 0; s < 2000; s++) world.step();
    expect(
      leastAllocation(() => {
        for (let s = 0; s < 1000; s++) world.step();
      }),
    ).toBeLessThan(16 * 1024);
  }, 60_000);

  it('allocate nothing in a self-collision listing of a layer hanging on another: 500 listings leave the heap flat', () => {
    // Throw 5 of seed 1234 at 25 mm, after 200 steps: its two layers listed again and again, as a
    // step lists them. The block of cells about each triangle, worked out by calls that took
    // doubles where the compiler did not inline them, boxed twelve doubles a triangle (measured in
    // steps: 33 MB over 300).
    const { world } = layers(randomThrows(1234, 100)[5]!, 0.025, 'js', false);
    for (let s = 0; s < 200; s++) world.step();
    const body = world.bodies.find((b) => b?.alive)!;
    const first = particleSlot(body.first);
    const { joinedStart, joined } = stickNeighbours(world, body);
    const list = new SelfContactList(first, body.count);
    const search = new SelfContactSearch(first, body.count, joinedStart, joined);
    const surface = body.surface!;
    const limits = Float64Array.of(0.025, 0.025);
    const listAll = (times: number) => {
      for (let r = 0; r < times; r++) {
        list.findStrays(world.particles, true, true);
        list.begin(world.particles, surface.triangleCount, limits);
        search.search(list, world.particles, surface.triangles, surface.triangleCount);
      }
    };
    listAll(2000);
    expect(list.hitCount).toBeGreaterThan(0);
    expect(leastAllocation(() => listAll(500))).toBeLessThan(16 * 1024);
  });
});
