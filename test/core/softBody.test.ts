import { describe, expect, it } from 'vitest';
import { VolumeConstraint, World, boxMesh, createSoftBody, enclosedVolume, meshEdges, sphereMesh, type SoftBodyOptions } from '../../src/core/index.js';

/** Vertical extent of a body's particles. */
const heightOf = (world: World, first: number, count: number) => {
  let low = Infinity;
  let high = -Infinity;
  for (let i = first; i < first + count; i++) {
    low = Math.min(low, world.positions[i * 3 + 1]!);
    high = Math.max(high, world.positions[i * 3 + 1]!);
  }
  return high - low;
};

/**
 * Drops a soft body of size 0.5 from 1 m (centre) onto the floor and watches it for
 * five seconds: the least volume and height it reaches, relative to rest, and where
 * they end.
 */
function drop(options: SoftBodyOptions) {
  const world = new World({ damping: 0.5 });
  world.addCollider({ type: 'plane', normal: [0, 1, 0], offset: 0 });
  const body = createSoftBody(world, { position: [0, 1, 0], size: 0.5, ...options });
  const restHeight = heightOf(world, body.first, body.count);
  let leastVolume = 1;
  let leastHeight = 1;
  for (let step = 0; step < 300; step++) {
    world.step();
    leastVolume = Math.min(leastVolume, body.volume() / body.restVolume);
    leastHeight = Math.min(leastHeight, heightOf(world, body.first, body.count) / restHeight);
  }
  return { leastVolume, leastHeight, volume: body.volume() / body.restVolume, height: heightOf(world, body.first, body.count) / restHeight };
}

describe('soft body meshes', () => {
  it('box: closed, outward, shared vertices, volume = product of the edge lengths', () => {
    const { vertices, faces } = boxMesh([1, 2, 3], 3);
    expect(vertices.length / 3).toBe(4 ** 3 - 2 ** 3);
    expect(faces.length / 3).toBe(6 * 9 * 2);
    const { edges } = meshEdges(faces, vertices.length / 3, 'test');
    // Euler: V - E + F = 2 for a closed surface of genus 0.
    expect(vertices.length / 3 - edges.length / 2 + faces.length / 3).toBe(2);
    expect(enclosedVolume(vertices, faces)).toBeCloseTo(6, 12);
  });

  it('sphere: icosphere vertices on the radius, inscribed volume just under 4/3·π·r³', () => {
    for (const [subdivisions, vertexCount] of [
      [0, 12],
      [2, 162],
      [3, 642],
    ] as const) {
      const { vertices, faces } = sphereMesh(0.5, subdivisions);
      expect(vertices.length / 3).toBe(vertexCount);
      for (let v = 0; v < vertices.length; v += 3) expect(Math.hypot(vertices[v]!, vertices[v + 1]!, vertices[v + 2]!)).toBeCloseTo(0.5, 12);
      const { edges } = meshEdges(faces, vertexCount, 'test');
      expect(vertexCount - edges.length / 2 + faces.length / 3).toBe(2);
      const ratio = enclosedVolume(vertices, faces) / ((4 / 3) * Math.PI * 0.125);
      expect(ratio).toBeLessThan(1);
      if (subdivisions === 3) expect(ratio).toBeGreaterThan(0.99);
      // The icosahedron inscribed in a sphere: V = 5/12 (3 + √5) a³ with a = 4R / √(10 + 2√5).
      if (subdivisions === 0) expect(ratio).toBeCloseTo(((5 / 12) * (3 + Math.sqrt(5)) * (4 / Math.sqrt(10 + 2 * Math.sqrt(5))) ** 3) / ((4 / 3) * Math.PI), 12);
    }
  });

  it('meshEdges rejects open and inconsistently wound meshes', () => {
    const open = new Uint32Array([0, 1, 2, 0, 2, 3, 0, 3, 1]);
    expect(() => meshEdges(open, 4, 'f')).toThrow('f: the mesh must be closed, but edge 1–2 belongs to one triangle only');
    const flipped = new Uint32Array([0, 1, 2, 0, 2, 3, 0, 3, 1, 1, 2, 3]);
    expect(() => meshEdges(flipped, 4, 'f')).toThrow('f: faces must be consistently wound, but edge 1→2 is used twice in the same direction');
  });
});

describe('VolumeConstraint', () => {
  it('restores the volume without moving the centre of mass', () => {
    const world = new World({ gravity: [0, 0, 0] });
    const { vertices, faces } = sphereMesh(1, 1);
    const first = world.addParticles(
      Array.from({ length: vertices.length / 3 }, (_, v) => ({ position: [vertices[v * 3]!, vertices[v * 3 + 1]!, vertices[v * 3 + 2]!] as [number, number, number], mass: 1 + (v % 3) })),
    );
    const count = vertices.length / 3;
    const triangles = faces.map((i) => first + i);
    const volume = new VolumeConstraint(world, triangles, first, count);
    // Squash it to half its height: volume halves.
    for (let i = first; i < first + count; i++) world.positions[i * 3 + 1] = world.positions[i * 3 + 1]! * 0.5;
    const centre = () => {
      const c = [0, 0, 0];
      let m = 0;
      for (let i = first; i < first + count; i++) {
        const mass = world.getMass(i);
        m += mass;
        for (let k = 0; k < 3; k++) c[k] = c[k]! + mass * world.positions[i * 3 + k]!;
      }
      return c.map((v) => v / m);
    };
    const before = centre();
    expect(volume.volume(world) / volume.restVolume).toBeCloseTo(0.5, 12);
    volume.project(world);
    // One projection of a cubic constraint, linearised, takes it most of the way
    // (measured: from 50% short to 12.4% off); repeated ones converge.
    const once = volume.volume(world) / volume.restVolume;
    expect(Math.abs(1 - once)).toBeLessThan(0.15);
    for (let pass = 0; pass < 20; pass++) volume.project(world);
    expect(volume.volume(world) / volume.restVolume).toBeCloseTo(1, 9);
    // Mass-weighted moves along gradients that sum to zero change no momentum.
    centre().forEach((c, k) => expect(c).toBeCloseTo(before[k]!, 12));
  });

  it('with pressure p repairs about that share of the error per pass, and targets inflation · rest volume', () => {
    const world = new World({ gravity: [0, 0, 0] });
    const { vertices, faces } = boxMesh([1, 1, 1], 2);
    const count = vertices.length / 3;
    const first = world.addParticles(Array.from({ length: count }, (_, v) => ({ position: [vertices[v * 3]!, vertices[v * 3 + 1]!, vertices[v * 3 + 2]!] as [number, number, number] })));
    const volume = new VolumeConstraint(
      world,
      faces.map((i) => first + i),
      first,
      count,
      { pressure: 0.25, inflation: 1.01 },
    );
    volume.project(world);
    // Error -0.01 m³; a quarter of it repaired (to first order in the small error).
    expect(volume.volume(world)).toBeCloseTo(1 + 0.0025, 5);
  });
});

describe('createSoftBody', () => {
  it('builds the named shapes with the surface exposed for rendering', () => {
    const world = new World();
    const box = createSoftBody(world, { shape: 'box', position: [1, 2, 3], size: [1, 0.5, 2], resolution: 2 });
    expect(box.count).toBe(26);
    expect(box.restVolume).toBeCloseTo(1, 12);
    expect(box.surface.triangleCount).toBe(48);
    expect(box.body.surface).toBe(box.surface);
    expect(Math.min(...box.surface.triangles)).toBe(box.first);
    const ball = createSoftBody(world, { shape: 'sphere', size: 1, resolution: 1 });
    expect(ball.count).toBe(42);
    // Sticks: each edge and one across each edge; plus the pressure constraint.
    expect(ball.body.constraints).toHaveLength(2 * 120 + 1);
  });

  it('accepts any closed mesh, as point lists or flat arrays', () => {
    const world = new World();
    const octahedron = {
      vertices: [
        [1, 0, 0],
        [-1, 0, 0],
        [0, 1, 0],
        [0, -1, 0],
        [0, 0, 1],
        [0, 0, -1],
      ] as [number, number, number][],
      faces: [0, 2, 4, 2, 1, 4, 1, 3, 4, 3, 0, 4, 2, 0, 5, 1, 2, 5, 3, 1, 5, 0, 3, 5],
    };
    const body = createSoftBody(world, { shape: octahedron, position: [0, 5, 0] });
    // Octahedron of "radius" 1: volume 4/3.
    expect(body.restVolume).toBeCloseTo(4 / 3, 12);
    expect(world.getPosition(body.first + 2)).toEqual([0, 6, 0]);
    const inward = { vertices: octahedron.vertices.flat(), faces: octahedron.faces.map((_, i, f) => f[i - (i % 3) + 2 - (i % 3)]!) };
    const before = world.particleCount;
    expect(() => createSoftBody(world, { shape: inward })).toThrow(/createSoftBody: shape must enclose a positive volume .*got -1.33/);
    expect(() => createSoftBody(world, { shape: { vertices: octahedron.vertices, faces: octahedron.faces.slice(3) } })).toThrow(/createSoftBody: shape: the mesh must be closed/);
    expect(() => createSoftBody(world, { shape: { vertices: octahedron.vertices, faces: [0, 2, 9, ...octahedron.faces.slice(3)] } })).toThrow(
      'createSoftBody: shape.faces[0] uses vertex 9, but there are only 6',
    );
    expect(world.particleCount).toBe(before);
  });

  it('a ball dropped on the floor squashes on impact and recovers its rest volume', () => {
    const ball = drop({ shape: 'sphere' });
    // Measured: 66% of its height at the deepest squash; at rest 88% tall (its own
    // weight flattens it) with 99.97% of its volume.
    expect(ball.leastHeight).toBeLessThan(0.8);
    expect(ball.height).toBeGreaterThan(ball.leastHeight + 0.15);
    expect(Math.abs(ball.volume - 1)).toBeLessThan(0.02);
  });

  it('a jelly cube squashes on impact and recovers its shape and volume', () => {
    const cube = drop({ shape: 'box', stiffness: 0.02, resolution: 4 });
    // Measured: 80% of its height at the deepest squash, 98% at rest, volume 99.98%.
    expect(cube.leastHeight).toBeLessThan(0.9);
    expect(cube.height).toBeGreaterThan(0.95);
    expect(Math.abs(cube.volume - 1)).toBeLessThan(0.02);
  });

  it('squashes less with higher pressure, and less with higher stiffness', () => {
    const byPressure = [0.05, 0.3, 1].map((pressure) => drop({ shape: 'sphere', stiffness: 0.05, pressure }).leastVolume);
    // Measured least volume 88.4%, 97.8%, 99.8%.
    expect(byPressure[0]).toBeLessThan(byPressure[1]!);
    expect(byPressure[1]).toBeLessThan(byPressure[2]!);
    expect(byPressure[0]).toBeLessThan(0.95);
    const byStiffness = [0.05, 0.3, 1].map((stiffness) => drop({ shape: 'sphere', stiffness }).leastHeight);
    // Measured least height 58%, 76%, 85% of the rest height.
    expect(byStiffness[0]).toBeLessThan(byStiffness[1]! - 0.05);
    expect(byStiffness[1]).toBeLessThan(byStiffness[2]! - 0.05);
  });

  it('inflates to inflation · rest volume', () => {
    const world = new World({ gravity: [0, 0, 0] });
    const ball = createSoftBody(world, { shape: 'sphere', resolution: 1, inflation: 1.2, stiffness: 0.02 });
    for (let step = 0; step < 120; step++) world.step();
    expect(ball.volume() / ball.restVolume).toBeCloseTo(1.2, 2);
  });

  it('is removed whole, pressure constraint included', () => {
    const world = new World();
    const ball = createSoftBody(world, { resolution: 1 });
    ball.remove();
    expect(world.particleCount).toBe(0);
    expect(world.constraintCount).toBe(0);
    expect(world.constraints).toHaveLength(0);
  });

  it('rejects bad input, naming the argument and the value', () => {
    const world = new World();
    expect(() => createSoftBody(world, { shape: 'cone' as 'box' })).toThrow(`createSoftBody: shape must be 'box', 'sphere' or { vertices, faces }, got "cone"`);
    expect(() => createSoftBody(world, { shape: 'box', resolution: 0 })).toThrow('createSoftBody: resolution must be an integer >= 1, got 0');
    expect(() => createSoftBody(world, { shape: 'sphere', size: [1, 1, 1] })).toThrow('createSoftBody: size of a sphere must be its diameter (a number), got [1,1,1]');
    expect(() => createSoftBody(world, { stiffness: 0 })).toThrow('createSoftBody: stiffness must be in (0, 1], got 0');
    expect(() => createSoftBody(world, { pressure: 2 })).toThrow('createSoftBody: pressure must be a finite number in [0, 1], got 2');
    expect(world.particleCount).toBe(0);
  });
});
