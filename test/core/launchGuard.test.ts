import { describe, expect, it } from 'vitest';
import { createBox, createRagdoll, createRope, World, type StickKernel } from '../../src/core/index.js';
import { solids } from './collisionScenes.js';

// No launch from constraints and contacts together: whatever holds a body inside a collider or
// inside another body, let go it leaves at under 5 m/s (the push-out limit, 3 m/s by default, plus
// what gravity gives it in the step it leaves in).
const LAUNCH = 5;
const kernels: StickKernel[] = ['wasm', 'js'];

/** Fastest particle among `ids` over `steps` steps. */
function fastestOver(world: World, ids: readonly number[], steps: number): number {
  let fastest = 0;
  for (let s = 0; s < steps; s++) {
    world.step();
    for (const id of ids) fastest = Math.max(fastest, Math.hypot(...world.getVelocity(id)));
  }
  return fastest;
}

describe.each(kernels)('the launch guard (%s sticks)', (kernel) => {
  it('two particles tied by a stick, one pulled 3 m under the floor by a pin, leave at under 5 m/s when it lets go', () => {
    const world = new World({ kernel });
    world.addCollider(solids.plane!);
    const top = world.addParticle({ position: [0, 0, 0] });
    const deep = world.addParticle({ position: [0.5, 0, 0] });
    world.addStick(top, deep);
    const pin = world.addPin(deep, [0.5, -3, 0]);
    for (let s = 0; s < 60; s++) world.step();
    // The pin holds it deep inside while the stick keeps dragging its partner back in.
    expect(world.getPosition(deep)[1]).toBeLessThan(-2.9);
    world.remove(pin);
    // Measured: 374 m/s before the push-out limit bounded a whole step.
    expect(fastestOver(world, [top, deep], 180)).toBeLessThan(LAUNCH);
    expect(world.getPosition(deep)[1]).toBeGreaterThan(-1e-3);
  });

  it.each(Object.keys(solids))('a box, a rope and a ragdoll held 1 m inside a %s by a pin leave at under 5 m/s when it lets go', (kind) => {
    const world = new World({ kernel });
    world.addCollider(solids[kind]!);
    const box = createBox(world, { size: 0.4, position: [-1, 0.5, 0] });
    const rope = createRope(world, { from: [0, 0.3, 0], to: [1, 0.3, 0], segments: 10 });
    const doll = createRagdoll(world, { feet: [1.5, 0.05, 0] });
    const held = [box.vertices[0]!, rope.first + 5, doll.parts.rightHand];
    const pins = held.map((id) => {
      const p = world.getPosition(id);
      return world.addPin(id, [p[0], p[1] - 1.2, p[2]]);
    });
    for (let s = 0; s < 90; s++) world.step();
    for (const pin of pins) world.remove(pin);
    const everything = [...box.vertices, ...Array.from({ length: rope.count }, (_, k) => rope.first + k), ...doll.vertices];
    // Three quarters of a second: out at 3 m/s from 1.2 m takes 0.4 s; later a body on a round solid
    // rolls off its side and falls freely (a box off the sphere passes 16 m/s in three seconds).
    expect(fastestOver(world, everything, 45)).toBeLessThan(LAUNCH);
  });

  it('a box held inside another box by a pin leaves at under 5 m/s when it lets go', () => {
    const world = new World({ kernel });
    world.addCollider(solids.plane!);
    const base = createBox(world, { size: 1, position: [0, 0.5, 0], mass: 200 });
    const guest = createBox(world, { size: 0.3, position: [0.2, 1.4, 0] });
    const pin = world.addPin(guest.vertices[0]!, [0.2, 0.5, 0]);
    for (let s = 0; s < 90; s++) world.step();
    world.remove(pin);
    expect(fastestOver(world, [...base.vertices, ...guest.vertices], 180)).toBeLessThan(LAUNCH);
  });
});
