import { describe, expect, it } from 'vitest';
import { Bvh, SeededRandom, TriangleMeshCollider, World, type Vec3 } from '../../src/core/index.js';
import { MeshBuilder, staircase } from './collisionScenes.js';

describe('triangle mesh collider', () => {
  it('the BVH returns exactly the triangles a brute-force scan of their boxes finds', () => {
    const random = new SeededRandom(7);
    const soup: number[] = [];
    for (let t = 0; t < 300; t++) {
      const c = [random.next() * 20 - 10, random.next() * 20 - 10, random.next() * 20 - 10];
      for (let v = 0; v < 3; v++) for (let k = 0; k < 3; k++) soup.push(c[k]! + (random.next() - 0.5) * 2);
    }
    const mesh = new TriangleMeshCollider({ type: 'mesh', vertices: soup, indices: soup.map((_, i) => i).filter((i) => i < soup.length / 3) });
    const boxes: number[][] = [];
    for (let t = 0; t < mesh.triangleCount; t++) {
      const xs = [0, 1, 2].map((v) => soup.slice((t * 3 + v) * 3, (t * 3 + v) * 3 + 3));
      boxes.push([0, 1, 2].map((k) => Math.min(...xs.map((x) => x[k]!))).concat([0, 1, 2].map((k) => Math.max(...xs.map((x) => x[k]!)))));
    }
    const hits = new Int32Array(mesh.triangleCount);
    let total = 0;
    for (let q = 0; q < 500; q++) {
      const size = random.next() * 6;
      const min = [0, 1, 2].map(() => random.next() * 24 - 12);
      const query = [...min, ...min.map((m) => m + size * random.next())];
      mesh.bvh.queryBox.set(query);
      const found = Array.from(hits.subarray(0, mesh.bvh.query(hits))).sort((a, b) => a - b);
      const brute = boxes.flatMap((b, t) => ([0, 1, 2].every((k) => b[k]! <= query[k + 3]! && b[k + 3]! >= query[k]!) ? [t] : []));
      expect(found).toEqual(brute);
      total += brute.length;
    }
    expect(total).toBeGreaterThan(100); // the queries do hit things
    // Any leaf size gives the same answers.
    const flat = new Float64Array(boxes.flat());
    for (const leafSize of [1, 2, 16]) {
      const bvh = new Bvh(flat, leafSize);
      bvh.queryBox.set([-3, -3, -3, 3, 3, 3]);
      const found = Array.from(hits.subarray(0, bvh.query(hits))).sort((a, b) => a - b);
      expect(found).toEqual(boxes.flatMap((b, t) => ([0, 1, 2].every((k) => b[k]! <= 3 && b[k + 3]! >= -3) ? [t] : [])));
    }
  });

  it('particles raining onto a staircase never end up below the surface they are over, and come to rest on the treads', () => {
    const D = 0.4;
    const H = 0.25;
    const steps = 6;
    const world = new World();
    world.addCollider(staircase(steps, D, H, 3).shape(1));
    const random = new SeededRandom(3);
    const height = (x: number) => (x < 0 ? 0 : Math.floor(x / D) * H);
    const ids: number[] = [];
    const radii: number[] = [];
    for (let k = 0; k < 80; k++) {
      const x = -1.8 + random.next() * (steps * D + 1.6);
      const r = k % 2 === 0 ? 0 : 0.03;
      const position: Vec3 = [x, height(x) + r + 0.2 + random.next() * 2, random.next() * 2 - 1];
      ids.push(world.addParticle({ position, velocity: [random.next() * 8 - 4, -random.next() * 6, 0], radius: r, friction: 0.4 }));
      radii.push(r);
    }
    // Least clearance over every particle and step: above the tread it is over, inside the end walls.
    let clearance = Infinity;
    for (let i = 0; i < 360; i++) {
      world.step();
      ids.forEach((id, k) => {
        const [x, y] = world.getPosition(id);
        // Particles resting against a riser sit on its plane: judge them by the lower side.
        clearance = Math.min(clearance, y - height(x - 1e-7) - radii[k]!, x + 2 - radii[k]!, steps * D - radii[k]! - x);
      });
    }
    expect(clearance).toBeGreaterThanOrEqual(-1e-9);
    ids.forEach((id, k) => {
      const [x, y] = world.getPosition(id);
      // Static friction (issue 10) holds a round particle on a step's nose when its contact tilts less than atan μ.
      const nose = Math.round(x / D);
      if (radii[k]! > 0 && nose > 0 && Math.abs(x - nose * D) < radii[k]! && y > height(x - 1e-7) + radii[k]! + 1e-6) expect(Math.hypot(x - nose * D, y - nose * H)).toBeCloseTo(radii[k]!, 6);
      else expect(y).toBeCloseTo(height(x - 1e-7) + radii[k]!, 6);
      expect(Math.hypot(...world.getVelocity(id))).toBeLessThan(1e-3);
    });
  });

  it('a triangle is one-sided and swept: hit from the front at any speed it stops the particle; from behind it lets it through', () => {
    const wall = new MeshBuilder().quad([0, -1, -1], [0, 1, -1], [0, 1, 1], [0, -1, 1], [-1, 0, 0]).shape();
    for (const speed of [5, 500, 50000]) {
      const world = new World({ gravity: [0, 0, 0] });
      world.addCollider(wall);
      const front = world.addParticle({ position: [-0.5, 0.3, 0.2], velocity: [speed, 0, 0], radius: 0.02 });
      const back = world.addParticle({ position: [0.5, -0.3, 0.2], velocity: [-speed, 0, 0], radius: 0.02 });
      for (let i = 0; i < 30; i++) {
        world.step();
        expect(world.getPosition(front)[0]).toBeLessThanOrEqual(-0.02 + 1e-12);
      }
      expect(world.getPosition(front)[0]).toBeCloseTo(-0.02, 10);
      expect(world.getPosition(back)[0]).toBeLessThan(-0.4);
    }
  });

  it('friction on a mesh floor stops a sliding particle after v²/(2μg), within 10%', () => {
    const floor = new MeshBuilder().quad([-50, 0, -5], [50, 0, -5], [50, 0, 5], [-50, 0, 5], [0, 1, 0]).shape(0.5);
    const world = new World();
    world.addCollider(floor);
    const id = world.addParticle({ position: [0, 0, 0], velocity: [6, 0, 0], friction: 0.8 });
    for (let i = 0; i < 300; i++) world.step();
    const expected = 36 / (2 * 0.4 * 9.81);
    expect(Math.abs(world.getPosition(id)[0] - expected) / expected).toBeLessThan(0.1);
    expect(world.getPosition(id)[1]).toBeCloseTo(0, 12);
  });

  it('rejects bad meshes with the function, argument and value named', () => {
    const world = new World();
    expect(() => world.addCollider({ type: 'mesh', vertices: [0, 0, 0, 1, 0, 0, 0, 1, 0], indices: [0, 1, 3] })).toThrow('mesh collider: indices must be integers in [0, 2], got 3 at index 2');
    expect(() => world.addCollider({ type: 'mesh', vertices: [0, 0, 0, 1, 0], indices: [0, 1, 2] })).toThrow('mesh collider: vertices must hold xyz triples, got length 5');
    expect(() => world.addCollider({ type: 'mesh', vertices: [0, 0, 0, 1, 0, 0, 0, Infinity, 0], indices: [0, 1, 2] })).toThrow(
      'mesh collider: vertices must be finite numbers, got Infinity at index 7',
    );
    expect(() => world.addCollider({ type: 'mesh', vertices: [0, 0, 0, 1, 0, 0, 0, 1, 0], indices: [0, 1] })).toThrow('mesh collider: indices must hold three per triangle, got length 2');
  });
});
