import { describe, expect, it } from 'vitest';
import { World, type Quat, type Vec3 } from '../../src/core/index.js';

// The projection's geometry in one step: no limit on how fast a particle found inside may come out.
const still = { gravity: [0, 0, 0], substeps: 1, iterations: 1, maxPushOutSpeed: Infinity } as const;

/** Nearest point of segment ab to p. */
function nearestOnSegment(p: Vec3, a: Vec3, b: Vec3): Vec3 {
  const d = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
  const len2 = d[0]! ** 2 + d[1]! ** 2 + d[2]! ** 2;
  const t = Math.max(0, Math.min(1, ((p[0] - a[0]) * d[0]! + (p[1] - a[1]) * d[1]! + (p[2] - a[2]) * d[2]!) / len2));
  return [a[0] + t * d[0]!, a[1] + t * d[1]!, a[2] + t * d[2]!];
}

const distance = (p: Vec3, q: Vec3) => Math.hypot(p[0] - q[0], p[1] - q[1], p[2] - q[2]);

/** The rotation matrix of a unit quaternion [x, y, z, w], as columns (local axes in world space). */
function axesOf([x, y, z, w]: readonly number[]): Vec3[] {
  return [
    [1 - 2 * (y! * y! + z! * z!), 2 * (x! * y! + z! * w!), 2 * (x! * z! - y! * w!)],
    [2 * (x! * y! - z! * w!), 1 - 2 * (x! * x! + z! * z!), 2 * (y! * z! + x! * w!)],
    [2 * (x! * z! + y! * w!), 2 * (y! * z! - x! * w!), 1 - 2 * (x! * x! + y! * y!)],
  ];
}

describe('capsule collider', () => {
  it('projects points to its surface plus their radius, straight away from the nearest axis point', () => {
    const a: Vec3 = [-1, 0.5, 0.2];
    const b: Vec3 = [1, 1.5, -0.3];
    const R = 0.4;
    const world = new World(still);
    world.addCollider({ type: 'capsule', a, b, radius: R });
    // Inside the body, inside each cap, and near the surface; radii 0 to 0.1.
    const starts: Vec3[] = [
      [0, 1.1, 0],
      [0.3, 1.2, 0.1],
      [-1.2, 0.4, 0.2],
      [1.1, 1.7, -0.2],
      [0.5, 0.9, -0.4],
    ];
    const ids = starts.map((p, k) => world.addParticle({ position: p, radius: 0.025 * k }));
    const outside = world.addParticle({ position: [0, 3, 0], radius: 0.1 });
    world.step();
    starts.forEach((p, k) => {
      const r = 0.025 * k;
      const q = nearestOnSegment(p, a, b);
      const x = world.getPosition(ids[k]!);
      expect(distance(x, nearestOnSegment(x, a, b))).toBeCloseTo(R + r, 12);
      // Radial: the new position is q + (p - q)·(R + r)/|p - q|.
      const s = (R + r) / distance(p, q);
      for (let c = 0; c < 3; c++) expect(x[c]!).toBeCloseTo(q[c]! + (p[c]! - q[c]!) * s, 12);
    });
    expect(world.getPosition(outside)).toEqual([0, 3, 0]);
  });

  it('a particle dropped on a horizontal bar comes to rest on top at height R + r', () => {
    const world = new World();
    world.addCollider({ type: 'capsule', a: [-1, 0, 0], b: [1, 0, 0], radius: 0.3 });
    const id = world.addParticle({ position: [0.2, 2, 0], radius: 0.05 });
    for (let i = 0; i < 180; i++) world.step();
    const [x, y, z] = world.getPosition(id);
    expect(x).toBeCloseTo(0.2, 9);
    expect(z).toBeCloseTo(0, 9);
    expect(y).toBeCloseTo(0.35, 9);
    expect(Math.hypot(...world.getVelocity(id))).toBeLessThan(1e-6);
  });

  it('rejects bad shapes with the function, argument and value named', () => {
    const world = new World();
    expect(() => world.addCollider({ type: 'capsule', a: [0, 0, 0], b: [1, 0, 0], radius: -1 })).toThrow('capsule collider: radius must be a finite number in [0, Infinity], got -1');
    expect(() => world.addCollider({ type: 'capsule', a: [0, NaN, 0], b: [1, 0, 0], radius: 1 })).toThrow('capsule collider: a must be finite numbers, got [0, NaN, 0]');
  });
});

describe('oriented box collider', () => {
  const q: Quat = [0, 0, Math.sin(Math.PI / 8), Math.cos(Math.PI / 8)]; // 45° about z
  const center: Vec3 = [1, 2, 0.5];
  const half: Vec3 = [0.5, 0.2, 0.3];
  const axes = axesOf(q);
  const toWorld = (l: Vec3): Vec3 => [0, 1, 2].map((k) => center[k]! + l[0] * axes[0]![k]! + l[1] * axes[1]![k]! + l[2] * axes[2]![k]!) as Vec3;
  const toLocal = (p: Vec3): Vec3 => axes.map((ax) => (p[0] - center[0]) * ax[0]! + (p[1] - center[1]) * ax[1]! + (p[2] - center[2]) * ax[2]!) as Vec3;

  it('pushes a point inside out through its nearest face, to the face plus its radius', () => {
    const world = new World(still);
    world.addCollider({ type: 'obb', position: center, halfExtents: half, rotation: q });
    const r = 0.05;
    // Local starts: nearest face +y, -x, +z.
    const cases: [Vec3, number, number][] = [
      [[0.1, 0.15, 0], 1, 0.2 + r],
      [[-0.45, 0, 0.1], 0, -0.5 - r],
      [[0.2, -0.05, 0.28], 2, 0.3 + r],
    ];
    const ids = cases.map(([l]) => world.addParticle({ position: toWorld(l), radius: r }));
    world.step();
    cases.forEach(([l, axis, value], k) => {
      const after = toLocal(world.getPosition(ids[k]!));
      for (let c = 0; c < 3; c++) expect(after[c]!).toBeCloseTo(c === axis ? value : l[c]!, 12);
    });
  });

  it('rounds edges and corners: a point near a corner ends exactly its radius from it', () => {
    const world = new World(still);
    world.addCollider({ type: 'obb', position: center, halfExtents: half, rotation: q });
    const r = 0.1;
    const corner: Vec3 = [0.5, 0.2, 0.3];
    const start: Vec3 = [0.53, 0.24, 0.32]; // outside the core box, within r of the corner
    const id = world.addParticle({ position: toWorld(start), radius: r });
    // Diagonally off an edge (x and y out, z inside): pushed to distance r from the edge.
    const edgeStart: Vec3 = [-0.55, 0.25, 0];
    const edge = world.addParticle({ position: toWorld(edgeStart), radius: r });
    world.step();
    const after = toLocal(world.getPosition(id));
    expect(distance(after, corner)).toBeCloseTo(r, 12);
    // Along the ray from the corner through the start point.
    const dir = start.map((s, k) => s - corner[k]!);
    const along = after.map((s, k) => s - corner[k]!);
    for (let c = 0; c < 3; c++) expect(along[c]! / r).toBeCloseTo(dir[c]! / Math.hypot(...dir), 12);
    const e = toLocal(world.getPosition(edge));
    expect(Math.hypot(e[0] + 0.5, e[1] - 0.2)).toBeCloseTo(r, 12);
    expect(e[2]).toBeCloseTo(0, 12);
  });

  it('a particle slides down a tilted board with acceleration g(sin θ − μ cos θ) and rests on it when tan θ < μ', () => {
    const theta = (25 * Math.PI) / 180;
    const quaternion: Quat = [0, 0, Math.sin(theta / 2), Math.cos(theta / 2)];
    const board = { type: 'obb', position: [0, 0, 0], halfExtents: [20, 0.05, 1], rotation: quaternion } as const;
    const [, up] = axesOf(quaternion);
    const downhill: Vec3 = [-Math.cos(theta), -Math.sin(theta), 0];
    const start: Vec3 = [up![0]! * 0.05, up![1]! * 0.05, 0];
    for (const mu of [0.2, 0.3]) {
      const world = new World();
      world.addCollider({ ...board, friction: 1 });
      const id = world.addParticle({ position: start, friction: mu });
      const seconds = 1;
      for (let i = 0; i < 60 * seconds; i++) world.step();
      const p = world.getPosition(id);
      const travelled = (p[0] - start[0]) * downhill[0] + (p[1] - start[1]) * downhill[1];
      const expected = 0.5 * 9.81 * (Math.sin(theta) - mu * Math.cos(theta)) * seconds ** 2;
      expect(Math.abs(travelled - expected) / expected).toBeLessThan(0.05);
      // It stays on the surface: local height = half thickness.
      expect((p[0] - 0) * up![0]! + (p[1] - 0) * up![1]!).toBeCloseTo(0.05, 6);
    }
    // tan 25° = 0.466 < 0.6: friction holds it. The foundation's friction resets the
    // velocity each substep but keeps that substep's own downhill move g·h²·sin θ,
    // so it creeps at most g·h·sin θ (7 mm/s at h = 1/600 s) instead of accelerating.
    const sticky = new World();
    sticky.addCollider(board);
    const id = sticky.addParticle({ position: start, friction: 0.6 });
    for (let i = 0; i < 120; i++) sticky.step();
    const creep = 9.81 * sticky.substep * Math.sin(theta);
    expect(distance(sticky.getPosition(id), start)).toBeLessThan(2 * creep * 1.01);
    expect(Math.hypot(...sticky.getVelocity(id))).toBeLessThan(creep * 1.01);
  });

  it('rejects bad shapes with the function, argument and value named', () => {
    const world = new World();
    expect(() => world.addCollider({ type: 'obb', position: [0, 0, 0], halfExtents: [1, -1, 1] })).toThrow('obb collider: halfExtents must be >= 0, got [1, -1, 1]');
    expect(() => world.addCollider({ type: 'obb', position: [0, 0, 0], halfExtents: [1, 1, 1], rotation: [0, 0, 0, 0] })).toThrow('obb collider: rotation must not be [0, 0, 0, 0]');
    expect(() => world.addCollider({ type: 'obb', position: [0, 0, 0], halfExtents: [1, 1, 1], friction: -2 })).toThrow('obb collider: friction must be a finite number in [0, Infinity], got -2');
  });
});
