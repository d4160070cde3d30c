import * as source from '../../src/core/index.js';
import type { Vec3, WorldOptions } from '../../src/core/index.js';
import type { Engine } from './engine.js';

type World = InstanceType<Engine['World']>;

/** A staircase mesh rising along +x (`steps` treads of depth `depth` and rise `rise`, `width` wide), with a landing at y = 0. */
export function staircaseMesh(steps: number, depth: number, rise: number, width: number) {
  const vertices: number[] = [];
  const indices: number[] = [];
  // A quad a-b-c-d wound counter-clockwise seen from the free side.
  const quad = (a: Vec3, b: Vec3, c: Vec3, d: Vec3) => {
    const base = vertices.length / 3;
    vertices.push(...a, ...b, ...c, ...d);
    indices.push(base, base + 1, base + 2, base, base + 2, base + 3);
  };
  const z0 = -width / 2;
  const z1 = width / 2;
  quad([-4, 0, z1], [depth, 0, z1], [depth, 0, z0], [-4, 0, z0]);
  for (let k = 1; k <= steps; k++) {
    const x0 = k * depth;
    const x1 = (k + 1) * depth;
    quad([x0, k * rise, z1], [x1, k * rise, z1], [x1, k * rise, z0], [x0, k * rise, z0]);
    quad([x0, (k - 1) * rise, z1], [x0, k * rise, z1], [x0, k * rise, z0], [x0, (k - 1) * rise, z0]);
  }
  return { type: 'mesh' as const, vertices, indices };
}

/**
 * The issue's `frame` scenario with the default world settings: a 64×64 cloth
 * hanging from its top corners over a triangle-mesh staircase, and four ragdolls
 * dropped onto the stairs. `core` as in `clothWorkload`.
 */
export function frameScene(options: WorldOptions = {}, core: Engine = source): World {
  const world = new core.World(options);
  world.addCollider(staircaseMesh(10, 0.3, 0.18, 3));
  core.createCloth(world, { width: 64, height: 64, spacing: 0.05, corner: [-1.6, 4.5, 0.8], pin: 'top-corners', radius: 0.01 });
  for (let k = 0; k < 4; k++) core.createRagdoll(world, { feet: [0.4 + k * 0.6, 1.2 + k * 0.2, -0.6 + (k % 2) * 1.2], height: 1.7, pose: k % 2 === 0 ? 'standing' : 'T' });
  return world;
}

/** `count` boxes in a grid on a ground plane (spaced apart so that nothing touches). */
export function restingBoxes(count: number, options: WorldOptions = {}, core: Engine = source): World {
  const world = new core.World(options);
  world.addCollider({ type: 'plane', normal: [0, 1, 0], offset: 0 });
  for (let k = 0; k < count; k++) core.createBox(world, { size: 0.3, position: [(k % 10) * 0.6, 0.16, Math.floor(k / 10) * 0.6], radius: 0.01 });
  return world;
}
