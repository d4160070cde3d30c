import { describe, expect, it } from 'vitest';
import { addCapsuleEdge, addCollisionTriangle, particleSlot, World, type Quat, type Vec3 } from '../../src/core/index.js';
import { MeshBuilder } from './collisionScenes.js';

// The projection's geometry in one step: no limit on how fast a particle found inside may come out.
const still = { gravity: [0, 0, 0], substeps: 1, iterations: 1, maxPushOutSpeed: Infinity } as const;

/** The paper's section 5 move of end i for a penetration point with weights c (inverse masses w): w_i·c_i·Δ / Σ w_j·c_j². */
const share = (c: number[], w: number[], i: number, delta: number) => (w[i]! * c[i]! * delta) / c.reduce((sum, ci, j) => sum + w[j]! * ci * ci, 0);

describe('capsule edges: a stick that penetrates an obstacle between its ends (section 5)', () => {
  it('across a sphere, both ends outside it, the ends move by c_i·λ·Δ with λ = 1/(c1² + c2²), weighted by inverse mass', () => {
    for (const masses of [
      [1, 1],
      [3, 1],
      [1, 0], // b immovable: a alone lifts the point
    ]) {
      const world = new World(still);
      world.addCollider({ type: 'sphere', position: [0, 0, 0], radius: 1 });
      // The stick's nearest point to the centre is x = 0, a quarter of the way: c1 = 0.75, c2 = 0.25 (the paper's figure 4b).
      const a = world.addParticle({ position: [-0.5, 0.9, 0], mass: masses[0]! });
      const b = world.addParticle({ position: [1.5, 0.9, 0], mass: masses[1]! });
      world.addStick(a, b);
      addCapsuleEdge(world, a, b, 0.05);
      world.step();
      const delta = 1 + 0.05 - 0.9;
      const w = masses.map((m) => (m === 0 ? 0 : 1 / m));
      const ya = world.getPosition(a)[1] - 0.9;
      const yb = world.getPosition(b)[1] - 0.9;
      expect(ya).toBeCloseTo(share([0.75, 0.25], w, 0, delta), 12);
      expect(yb).toBeCloseTo(share([0.75, 0.25], w, 1, delta), 12);
      // The penetration point p = 0.75·x1 + 0.25·x2 has moved by exactly Δ: onto the surface plus the radius.
      expect(0.75 * ya + 0.25 * yb).toBeCloseTo(delta, 12);
      expect(world.getPosition(a)[0]).toBe(-0.5);
    }
    // Equal masses: λ = 1/(0.5625 + 0.0625) = 1.6, so x1 += 1.2·Δ and x2 += 0.4·Δ.
    expect(share([0.75, 0.25], [1, 1], 0, 1)).toBeCloseTo(1.2, 12);
    expect(share([0.75, 0.25], [1, 1], 1, 1)).toBeCloseTo(0.4, 12);
  });

  it('across a capsule collider, the contact is the closest point of the two axes and the same weights apply', () => {
    const world = new World(still);
    world.addCollider({ type: 'capsule', a: [0, 0, -2], b: [0, 0, 2], radius: 0.5 });
    // Crossing the bar at a fifth of its length: c1 = 0.8, c2 = 0.2.
    const a = world.addParticle({ position: [-1, 0.45, 0.3] });
    const b = world.addParticle({ position: [4, 0.45, 0.3] });
    addCapsuleEdge(world, a, b, 0.1);
    world.step();
    const delta = 0.5 + 0.1 - 0.45;
    expect(world.getPosition(a)[1] - 0.45).toBeCloseTo(share([0.8, 0.2], [1, 1], 0, delta), 12);
    expect(world.getPosition(b)[1] - 0.45).toBeCloseTo(share([0.8, 0.2], [1, 1], 1, delta), 12);
    expect(world.getPosition(a)[2]).toBeCloseTo(0.3, 12);
  });

  it('a stick lying across a bar slides along it and friction stops it after v²/(2μg); without the edge it falls through', () => {
    const stopping = (particleMu: number) => {
      const world = new World();
      world.addCollider({ type: 'capsule', a: [0, 0, -50], b: [0, 0, 50], radius: 0.1 });
      const a = world.addParticle({ position: [-0.6, 0.12, 0], velocity: [0, 0, 3], friction: particleMu });
      const b = world.addParticle({ position: [0.6, 0.12, 0], velocity: [0, 0, 3], friction: particleMu });
      world.addStick(a, b);
      const edge = addCapsuleEdge(world, a, b, 0.02);
      for (let i = 0; i < 120; i++) world.step();
      const pa = world.getPosition(a);
      const pb = world.getPosition(b);
      return { world, a, b, edge, z: (pa[2] + pb[2]) / 2, y: Math.max(pa[1], pb[1]), yLow: Math.min(pa[1], pb[1]) };
    };
    const mu = 0.5;
    const rough = stopping(mu);
    const expected = 9 / (2 * mu * 9.81);
    expect(Math.abs(rough.z - expected) / expected).toBeLessThan(0.1);
    expect(rough.yLow).toBeCloseTo(0.12, 4); // still lying level on top
    expect(rough.y).toBeCloseTo(0.12, 4);
    expect(Math.abs(rough.world.getVelocity(rough.a)[2])).toBeLessThan(1e-6);
    const ice = stopping(0);
    expect(ice.z).toBeCloseTo(6, 2); // 2 s at 3 m/s, nothing slows it
    // Without the edge the ends, both outside the bar, fall past it.
    rough.world.remove(rough.edge);
    for (let i = 0; i < 60; i++) rough.world.step();
    expect(rough.world.getPosition(rough.a)[1]).toBeLessThan(-1);
  });

  it('a stick dropped flat across an oriented box, longer than the box, lands level on its top and stays (touched under its mass centre)', () => {
    const quaternion: Quat = [0, Math.sin(Math.PI / 12), 0, Math.cos(Math.PI / 12)]; // 30° about y: the top stays level
    for (const masses of [
      [1, 1],
      [1.5, 1],
    ]) {
      const world = new World();
      world.addCollider({ type: 'obb', position: [0, 0, 0], halfExtents: [0.3, 0.2, 0.3], rotation: quaternion });
      const a = world.addParticle({ position: [-0.7, 0.6, 0.1], mass: masses[0]! });
      const b = world.addParticle({ position: [0.8, 0.6, -0.1], mass: masses[1]! });
      world.addStick(a, b);
      addCapsuleEdge(world, a, b, 0.03);
      let lowest = Infinity;
      for (let i = 0; i < 120; i++) {
        world.step();
        lowest = Math.min(lowest, world.getPosition(a)[1], world.getPosition(b)[1]);
      }
      expect(world.getPosition(a)[1]).toBeCloseTo(0.23, 9);
      expect(world.getPosition(b)[1]).toBeCloseTo(0.23, 9);
      expect(lowest).toBeGreaterThan(0.23 - 1e-9);
      expect(Math.hypot(...world.getVelocity(a))).toBeLessThan(1e-6);
    }
  });

  it('a stick falling onto a step nose of a triangle mesh stays out of the step: the nose never comes closer than its radius', () => {
    const stairs = new MeshBuilder()
      .quad([-2, 0, -1], [0.4, 0, -1], [0.4, 0, 1], [-2, 0, 1], [0, 1, 0])
      .quad([0.4, 0, -1], [0.4, 0.25, -1], [0.4, 0.25, 1], [0.4, 0, 1], [-1, 0, 0])
      .quad([0.4, 0.25, -1], [2, 0.25, -1], [2, 0.25, 1], [0.4, 0.25, 1], [0, 1, 0])
      .shape();
    const run = (withEdge: boolean) => {
      const world = new World();
      world.addCollider(stairs);
      const a = world.addParticle({ position: [-0.1, 0.6, 0] });
      const b = world.addParticle({ position: [0.9, 0.6, 0] });
      world.addStick(a, b);
      const r = 0.04;
      if (withEdge) addCapsuleEdge(world, a, b, r);
      // Signed clearance of the nose line (x = 0.4, y = 0.25) from the capsule: distance to the segment minus r, negative when the step is cut.
      let clearance = Infinity;
      for (let i = 0; i < 240; i++) {
        world.step();
        const pa = world.getPosition(a);
        const pb = world.getPosition(b);
        const dx = pb[0] - pa[0];
        const dy = pb[1] - pa[1];
        const t = Math.max(0, Math.min(1, ((0.4 - pa[0]) * dx + (0.25 - pa[1]) * dy) / (dx * dx + dy * dy)));
        const px = pa[0] + t * dx;
        const py = pa[1] + t * dy;
        // Below the nose on the step's side of the riser means cut through.
        const inside = px > 0.4 && py < 0.25;
        clearance = Math.min(clearance, (inside ? -1 : 1) * Math.hypot(px - 0.4, py - 0.25) - r);
      }
      return clearance;
    };
    expect(run(true)).toBeGreaterThan(-1e-3);
    expect(run(false)).toBeLessThan(-0.05);
  });

  it('a stick lying along a tread across its nose is held out over the whole stretch: both ends of it to the face, continuously in the tilt', () => {
    // A tread y = 0 over x in [0, 1] with its riser at x = 0; the stick runs from a over the tread to b past the nose.
    const ledge = new MeshBuilder().quad([0, 0, -1], [1, 0, -1], [1, 0, 1], [0, 0, 1], [0, 1, 0]).quad([0, -1, -1], [0, 0, -1], [0, 0, 1], [0, -1, 1], [-1, 0, 0]).shape();
    const r = 0.05;
    /** One projection with a at depth `da` under the capsule's rest height and b at `db`; returns a's and b's heights after. */
    const project = (da: number, db: number) => {
      const world = new World(still);
      world.addCollider(ledge);
      const a = world.addParticle({ position: [0.6, r - da, 0], mass: 2, radius: 0.001 });
      const b = world.addParticle({ position: [-0.3, r - db, 0], mass: 1, radius: 0.001 });
      addCapsuleEdge(world, a, b, r);
      world.step();
      return [world.getPosition(a)[1], world.getPosition(b)[1]] as const;
    };
    // The nose is at t = 0.6 / 0.9 of the way from a to b.
    const nose = ([ya, yb]: readonly [number, number]) => ya + ((yb - ya) * 0.6) / 0.9;
    // Sunk level by 1 cm, tilted by a nanometre either way: the same move, both ends of the stretch (a and the nose) on the face.
    // (The deepest point alone jumped from a to the nose as the tilt changed sign: a was lifted 1 cm, or 0.6 cm with b 1.6 cm.)
    const up = project(0.01 + 1e-9, 0.01 - 1e-9);
    const down = project(0.01 - 1e-9, 0.01 + 1e-9);
    for (const y of [up, down]) {
      expect(y[0]).toBeCloseTo(r, 8);
      expect(nose(y)).toBeCloseTo(r, 8);
    }
    expect(Math.abs(up[1] - down[1])).toBeLessThan(1e-8);
    // Tipped toward the overhang by 2 mm with a on the tread: the nose is the deeper end and raising it alone
    // (section 5 weights there) lifts a as well, which the face allows: the smallest move, as a point contact's.
    // (To 1e-7: the tilted capsule then reaches past the nose's rim by r·(1 − cos tilt), 1.4e-8 m, pushed out after.)
    const tipped = project(0, 0.002);
    expect(nose(tipped)).toBeCloseTo(r, 7);
    expect(tipped[0] - r).toBeCloseTo(share([1 / 3, 2 / 3], [0.5, 1], 0, 0.002 * (2 / 3)), 7);
    // Only the deepest point needs pushing when that clears the rest: a dipped 1 mm, the nose clear, as before (section 5 weights at t = 0).
    const dipped = project(0.001, -0.01);
    expect(dipped[0]).toBeCloseTo(r, 12);
    expect(dipped[1]).toBeCloseTo(r + 0.01, 12);
  });

  it('an edge leaves with its body: particles that later reuse the slots are not held by it', () => {
    const world = new World();
    world.addCollider({ type: 'sphere', position: [0, 0, 0], radius: 0.5 });
    const across = [{ position: [-1, 0.6, 0] as Vec3 }, { position: [1, 0.6, 0] as Vec3 }];
    const first = world.addParticles(across);
    const body = world.addBody(first, 2);
    world.addStick(first, first + 1);
    addCapsuleEdge(world, first, first + 1, 0.05);
    for (let i = 0; i < 30; i++) world.step();
    expect(world.getPosition(first)[1]).toBeCloseTo(0.55, 6); // held up by the edge
    world.remove(body);
    const again = world.addParticles(across);
    expect(particleSlot(again)).toBe(particleSlot(first)); // the same slots, under new ids
    world.addStick(again, again + 1);
    for (let i = 0; i < 60; i++) world.step();
    expect(world.getPosition(again)[1]).toBeLessThan(-1); // nothing holds the new stick
  });

  it('rejects bad edges with the function, argument and value named', () => {
    const world = new World();
    const a = world.addParticle({ position: [0, 0, 0] });
    const b = world.addParticle({ position: [1, 0, 0] });
    expect(() => addCapsuleEdge(world, a, b, -0.1)).toThrow('addCapsuleEdge: radius must be a finite number in [0, Infinity], got -0.1');
    expect(() => addCapsuleEdge(world, a, a, 0.1)).toThrow('addCapsuleEdge: a and b must differ, both are particle 0');
    expect(() => addCapsuleEdge(world, a, 7, 0.1)).toThrow('addCapsuleEdge: b: no particle with id 7');
    expect(() => addCapsuleEdge(world, a, b, 0.1, { anchor: 5 })).toThrow('addCapsuleEdge: anchor must be a (0) or b (1), got 5');
    expect(() => world.remove(2 ** 30 + 99)).toThrow(`remove: nothing in this world has id ${2 ** 30 + 99}`);
  });
});

describe('collision triangles: an obstacle poking through a triangle of particles', () => {
  it('a sphere through a face pushes its corners by barycentric weights w_i·b_i·Δ / Σ w_j·b_j²', () => {
    // The sphere's top pokes through the face at P = (0, 0.9, 0), which has weights (0.5, 0.3, 0.2).
    const corners: Vec3[] = [
      [-0.4, 0.9, -0.3],
      [1, 0.9, -0.5],
      [-0.5, 0.9, 1.5],
    ];
    const weights = [0.5, 0.3, 0.2];
    for (const masses of [
      [1, 1, 1],
      [2, 1, 0.5],
    ]) {
      const world = new World(still);
      world.addCollider({ type: 'sphere', position: [0, 0, 0], radius: 1 });
      const ids = corners.map((p, k) => world.addParticle({ position: p, mass: masses[k]! }));
      addCollisionTriangle(world, ids[0]!, ids[1]!, ids[2]!);
      world.step();
      const w = masses.map((m) => 1 / m);
      const moved = ids.map((id) => world.getPosition(id)[1] - 0.9);
      moved.forEach((m, k) => expect(m).toBeCloseTo(share(weights, w, k, 0.1), 12));
      // The contact point has moved by exactly the depth, onto the sphere.
      expect(moved.reduce((s, m, k) => s + weights[k]! * m, 0)).toBeCloseTo(0.1, 12);
      ids.forEach((id, k) => {
        expect(world.getPosition(id)[0]).toBe(corners[k]![0]);
        expect(world.getPosition(id)[2]).toBe(corners[k]![2]);
      });
    }
  });

  it('a rigid triangle dropped onto a mesh spike stays on it: the apex never crosses its face; without the face it does', () => {
    // A thin pyramid, apex at (0, 1, 0), on a floor.
    const apex: Vec3 = [0, 1, 0];
    const base: Vec3[] = [
      [-0.05, 0, -0.05],
      [0.05, 0, -0.05],
      [0.05, 0, 0.05],
      [-0.05, 0, 0.05],
    ];
    const spike = { type: 'mesh' as const, vertices: [...apex, ...base.flat()], indices: [0, 2, 1, 0, 3, 2, 0, 4, 3, 0, 1, 4] };
    const run = (withFace: boolean) => {
      const world = new World();
      world.addCollider(spike);
      world.addCollider({ type: 'plane', normal: [0, 1, 0], offset: 0 });
      const ids = [0, 1, 2].map((k) => {
        const angle = (k * 2 * Math.PI) / 3 + 0.3;
        return world.addParticle({ position: [0.4 * Math.cos(angle), 1.3, 0.4 * Math.sin(angle)] });
      });
      world.addStick(ids[0]!, ids[1]!);
      world.addStick(ids[1]!, ids[2]!);
      world.addStick(ids[2]!, ids[0]!);
      if (withFace) addCollisionTriangle(world, ids[0]!, ids[1]!, ids[2]!);
      let worst = Infinity;
      for (let i = 0; i < 120; i++) {
        world.step();
        const [a, b, c] = ids.map((id) => world.getPosition(id)) as [Vec3, Vec3, Vec3];
        // Height of the face above the apex where the apex's vertical line meets it (when it does).
        const det = (b[0] - a[0]) * (c[2] - a[2]) - (c[0] - a[0]) * (b[2] - a[2]);
        const u = ((apex[0] - a[0]) * (c[2] - a[2]) - (c[0] - a[0]) * (apex[2] - a[2])) / det;
        const v = ((b[0] - a[0]) * (apex[2] - a[2]) - (apex[0] - a[0]) * (b[2] - a[2])) / det;
        if (u < 0 || v < 0 || u + v > 1) continue;
        worst = Math.min(worst, a[1] + u * (b[1] - a[1]) + v * (c[1] - a[1]) - apex[1]);
      }
      return worst;
    };
    expect(run(true)).toBeGreaterThan(-1e-9);
    expect(run(false)).toBeLessThan(-0.5);
  });
});
