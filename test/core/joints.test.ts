import { describe, expect, it } from 'vitest';
import { ballJoint, createBox, createTetrahedron, hinge, particleSlot, quatConjugate, quatFromAxisAngle, quatMultiply, rotateVector, stickJoint, World, type Vec3 } from '../../src/core/index.js';

/** A box hung by its edge on an immovable bar along x at (y, z) = (1.95, 0.05), turned by `angle` about x from hanging straight down. */
function door(angle: number, options: { gravity?: Vec3 } = {}) {
  const world = new World({ gravity: options.gravity ?? [0, -9.81, 0] });
  const bar = createBox(world, { size: [2, 0.1, 0.1], position: [0, 2, 0], mass: 0 });
  // Door vertices 2 and 3 (local (∓1, +0.5, -0.05)) are the bar's vertices 4 and 5 (world (∓1, 1.95, 0.05)).
  const rotation = quatFromAxisAngle([1, 0, 0], angle);
  const offset = rotateVector(rotation, [0, 0.5, -0.05]);
  const panel = createBox(world, { size: [2, 1, 0.1], position: [0, 1.95 - offset[1], 0.05 - offset[2]], rotation, mass: 8, shared: hinge(bar, [4, 5], [2, 3]) });
  return { world, bar, panel };
}

describe('articulated bodies', () => {
  it('a hinge shares two particles and turns only about their line, with the period of a physical pendulum', () => {
    const { world, bar, panel } = door(0.3);
    expect(panel.vertices[2]).toBe(bar.vertices[4]);
    expect(panel.vertices[3]).toBe(bar.vertices[5]);
    expect(panel.count).toBe(6); // only the other six corners are new particles
    const xs = panel.vertices.map((id) => world.getPosition(id)[0]);
    const axisDistance = (id: number) => Math.hypot(world.getPosition(id)[1] - 1.95, world.getPosition(id)[2] - 0.05);
    const radii = panel.vertices.map(axisDistance);
    const crossings: number[] = [];
    let previous = 0;
    let offAxisSpin = 0;
    let offAxisTurn = 0;
    for (let i = 0; i < 400; i++) {
      world.step();
      const t = panel.update();
      panel.vertices.forEach((id, k) => {
        expect(world.getPosition(id)[0]).toBeCloseTo(xs[k]!, 4); // every corner moves in a plane across the axis
        expect(axisDistance(id)).toBeCloseTo(radii[k]!, 3);
      });
      const w = t.angularVelocity;
      offAxisSpin = Math.max(offAxisSpin, Math.hypot(w[1], w[2]) / Math.max(1, Math.abs(w[0])));
      offAxisTurn = Math.max(offAxisTurn, Math.hypot(t.quaternion[1], t.quaternion[2])); // rotated about x only
      if (previous < 0 && w[0] >= 0) crossings.push(i * world.timeStep);
      previous = w[0];
    }
    // Measured: 1e-3 and 5e-5; the rest is the sticks' give under the swing.
    expect(offAxisSpin).toBeLessThan(2e-3);
    expect(offAxisTurn).toBeLessThan(1e-4);
    // Compound pendulum: the six moving corners (1 kg each) at (y, z) from the axis
    // (-1, 0) ×2, (-1, 0.1) ×2, (0, 0.1) ×2: I = Σ m r² = 4.04, m·d = |Σ m r| = √16.16,
    // T = 2π √(I / (m·d·g)) for small swings, times (1 + θ₀²/16) for the amplitude θ₀.
    const period = 2 * Math.PI * Math.sqrt(4.04 / (Math.sqrt(16.16) * 9.81));
    const measured = crossings[crossings.length - 1]! - crossings[crossings.length - 2]!;
    // The moving corners' centre hangs atan(0.4 / 4) toward +z at angle 0; turning by +0.3 about x swings it toward -z.
    const amplitude = 0.3 - Math.atan(0.1);
    expect(measured / (period * (1 + (amplitude * amplitude) / 16))).toBeCloseTo(1, 2);
  });

  it('two free boxes sharing an edge only turn about it relative to each other, and keep their momentum', () => {
    const world = new World({ gravity: [0, 0, 0] });
    const a = createBox(world, { size: [1, 0.1, 1], mass: 2 });
    // b's edge at local x = -0.5 (vertices 0, 4) is a's edge at x = +0.5 (vertices 1, 5): a hinge along z.
    const b = createBox(world, { size: [1, 0.1, 1], position: [1, 0, 0], mass: 2, shared: hinge(a, [1, 5], [0, 4]) });
    world.setVelocity(b.vertices[3]!, [0.3, 2, -1]);
    world.setVelocity(a.vertices[6]!, [-1, 0.5, 0.7]);
    const particles = [...new Set([...a.vertices, ...b.vertices])];
    const momentum = () => [0, 1, 2].map((k) => particles.reduce((s, id) => s + world.getMass(id) * world.getVelocity(id)[k]!, 0));
    world.step();
    const p0 = momentum();
    let largest = 0;
    let offAxis = 0;
    let drift = 0;
    // b's corners relative to the hinge line (vertex 0 → 4, length 1): along it and away from it.
    const rest = b.vertices.map((id) => world.getPosition(id).map((x, j) => x - world.getPosition(b.vertices[0]!)[j]!));
    const alongAtRest = rest.map((r) => r[2]!);
    const acrossAtRest = rest.map((r) => Math.hypot(r[0]!, r[1]!));
    for (let i = 0; i < 300; i++) {
      world.step();
      const relative = quatMultiply(quatConjugate(a.update().quaternion), b.update().quaternion);
      // The relative rotation's axis is the hinge's (local z): no x or y part.
      offAxis = Math.max(offAxis, Math.hypot(relative[0], relative[1]));
      // Frame-free: each of b's corners keeps its place along the hinge line and its distance from it.
      const h0 = world.getPosition(b.vertices[0]!);
      const h1 = world.getPosition(b.vertices[4]!);
      const axis = h1.map((x, k) => x - h0[k]!);
      b.vertices.forEach((id, k) => {
        const r = world.getPosition(id).map((x, j) => x - h0[j]!);
        const along = r.reduce((s, x, j) => s + x * axis[j]!, 0);
        const across = Math.sqrt(Math.max(0, r.reduce((s, x) => s + x * x, 0) - along * along));
        drift = Math.max(drift, Math.abs(along - alongAtRest[k]!), Math.abs(across - acrossAtRest[k]!));
      });
      largest = Math.max(largest, Math.abs(relative[2]));
      momentum().forEach((p, k) => expect(p).toBeCloseTo(p0[k]!, 9));
    }
    // Measured: 4e-3 (0.5°) and 2.6 mm on 1 m boxes, which the one-pass sticks stretch while they spin.
    expect(offAxis).toBeLessThan(1e-2);
    expect(drift).toBeLessThan(5e-3);
    expect(largest).toBeGreaterThan(0.1); // the hinge did turn
    // Shared particles carry both bodies' shares: 0.25 + 0.25 kg.
    expect(world.getMass(a.vertices[1]!)).toBeCloseTo(0.5, 12);
    expect(particles.reduce((s, id) => s + world.getMass(id), 0)).toBeCloseTo(4, 12);
  });

  it('a ball joint shares one particle; the pair falls as one body of the summed mass, and removal returns the lent mass', () => {
    const world = new World();
    const upper = createTetrahedron(world, { size: 0.4, position: [0, 2, 0], mass: 4, angularVelocity: [0, 0, 3] });
    // The upper tetrahedron's vertex 0 is the lower one's apex (vertex 3).
    const apex = world.getPosition(upper.vertices[0]!);
    const height = 0.4 * Math.sqrt(2 / 3);
    const lower = createTetrahedron(world, { size: 0.4, position: [apex[0], apex[1] - (3 * height) / 4, apex[2]], mass: 2, shared: ballJoint(upper, 0, 3), angularVelocity: [2, 0, 0] });
    expect(lower.vertices[3]).toBe(upper.vertices[0]);
    expect(world.getMass(upper.vertices[0]!)).toBeCloseTo(1 + 0.5, 12);
    const centre = () => {
      const pu = upper.update().position;
      const pl = lower.update().position;
      return [0, 1, 2].map((k) => (4 * pu[k]! + 2 * pl[k]!) / 6);
    };
    const c0 = centre();
    const momentum = () => {
      const ids = [...new Set([...upper.vertices, ...lower.vertices])];
      return [0, 1, 2].map((k) => ids.reduce((s, id) => s + world.getMass(id) * world.getVelocity(id)[k]!, 0));
    };
    // Before the first step (x - x*) / h reads v - ½·g·h: x* is set so that Verlet follows the parabola exactly.
    const v0 = momentum().map((p, k) => p / 6 + (k === 1 ? 0.5 * -9.81 * world.substep : 0));
    for (let i = 1; i <= 90; i++) {
      world.step();
      const t = i * world.timeStep;
      // The system's centre of mass follows the closed-form parabola, whatever the joint does.
      const c = centre();
      for (let k = 0; k < 3; k++) expect(c[k]).toBeCloseTo(c0[k]! + v0[k]! * t + (k === 1 ? -4.905 * t * t : 0), 9);
    }
    lower.remove();
    expect(world.getMass(upper.vertices[0]!)).toBeCloseTo(1, 12);
    expect(world.particles.isAlive(upper.vertices[0]!)).toBe(true);
    expect(world.particleCount).toBe(4);
  });

  it('a body whose owner went first gives no mass back to whatever reuses the particle ids', () => {
    const world = new World();
    const upper = createTetrahedron(world, { size: 0.4, position: [0, 2, 0], mass: 4 });
    const lower = createTetrahedron(world, { size: 0.4, position: [0, 1.5, 0], mass: 2, shared: ballJoint(upper, 0, 3) });
    const joint = upper.vertices[0]!;
    upper.remove();
    // The freed slots go to a new body; the old joint particle's slot is among them.
    const next = createTetrahedron(world, { size: 0.4, position: [3, 2, 0], mass: 8 });
    expect(next.vertices.map(particleSlot)).toContain(particleSlot(joint));
    lower.remove();
    for (const id of next.vertices) expect(world.getMass(id)).toBeCloseTo(2, 12);
  });

  it('the same holds for a loose shared particle removed and its slot reused', () => {
    const world = new World();
    const anchor = world.addParticle({ position: [0, 2, 0], mass: 1 });
    const box = createBox(world, { size: 0.2, position: [0.1, 1.9, 0.1], mass: 8, shared: ballJoint({ vertices: [anchor] }, 0, 7) });
    expect(world.getMass(anchor)).toBeCloseTo(2, 12);
    world.removeParticle(anchor);
    const fresh = world.addParticle({ position: [5, 5, 5], mass: 3 });
    expect(particleSlot(fresh)).toBe(particleSlot(anchor));
    box.remove();
    expect(world.getMass(fresh)).toBe(3);
  });

  it('a stick joint belongs to both bodies: removing either takes it', () => {
    const world = new World({ gravity: [0, 0, 0] });
    const a = createBox(world, { size: 0.2 });
    const b = createBox(world, { size: 0.2, position: [1, 0, 0], velocity: [2, 0, 0] });
    const stick = stickJoint(world, { body: a, vertex: 1 }, { body: b, vertex: 0 });
    expect(a.body.constraints).toContain(stick);
    expect(b.body.constraints).toContain(stick);
    const rest = world.sticks.rest[world.stickRow(stick)]!;
    expect(rest).toBeCloseTo(0.8, 12);
    for (let i = 0; i < 60; i++) world.step();
    const p = world.getPosition(a.vertices[1]!);
    const q = world.getPosition(b.vertices[0]!);
    expect(Math.hypot(q[0] - p[0], q[1] - p[1], q[2] - p[2])).toBeCloseTo(rest, 3);
    expect((a.update().velocity[0] + b.update().velocity[0]) / 2).toBeCloseTo(1, 9); // the pair shares the momentum 2 kg·m/s
    a.remove();
    expect(world.hasConstraint(stick)).toBe(false);
    expect(() => b.remove()).not.toThrow();
    expect(world.particleCount).toBe(0);
  });

  it('rejects bad input, naming the function, the argument and the value', () => {
    const world = new World();
    const a = createBox(world);
    expect(() => hinge(a, [1, 9], [0, 4])).toThrow('hinge: fromVertices[1] must be a local vertex index in [0, 8), got 9');
    expect(() => hinge(a, [1, 1], [0, 4])).toThrow(`hinge: fromVertices must name two different particles, both are particle ${a.vertices[1]}`);
    expect(() => hinge(a, [1, 2], [4, 4])).toThrow('hinge: toVertices must differ, both are 4');
    expect(() => ballJoint(a, 0, -1)).toThrow('ballJoint: toVertex must be a local vertex index (an integer >= 0), got -1');
    expect(() => createTetrahedron(world, { shared: { 0: a.vertices[0]!, 1: a.vertices[0]! } })).toThrow(`createTetrahedron: shared maps two vertices to particle ${a.vertices[0]}`);
    expect(() => createTetrahedron(world, { shared: { 0: 0, 1: 1, 2: 2, 3: 3 } })).toThrow('createTetrahedron: shared takes over all 4 vertices');
  });
});
