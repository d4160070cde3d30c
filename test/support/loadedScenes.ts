import { BodyAttachment, World, particleSlot, createBox, createCloth, createRagdoll, createRope, type ClothHandle, type RopeHandle, type WorldOptions } from '../../src/core/index.js';

// Light things carrying heavy things (issue 25), each built as a user would,
// every option at its default, and the numbers the issue names read back.

/** A world at its defaults (long-range attachments on, see `Tethers`). */
export function tethered(options: WorldOptions = {}): World {
  return new World(options);
}

/** Structural sticks of a cloth (row and column neighbours), as particle pairs. */
export function structuralPairs(cloth: ClothHandle): [number, number][] {
  const pairs: [number, number][] = [];
  for (let j = 0; j < cloth.height; j++) {
    for (let i = 0; i < cloth.width; i++) {
      const id = cloth.first + j * cloth.width + i;
      if (i + 1 < cloth.width) pairs.push([id, id + 1]);
      if (j + 1 < cloth.height) pairs.push([id, id + cloth.width]);
    }
  }
  return pairs;
}

/** Mean and largest strain (length / rest − 1) of particle pairs whose rest length is `rest`. */
export function strain(world: World, pairs: readonly (readonly [number, number])[], rest: number): { mean: number; max: number } {
  const p = world.positions;
  let sum = 0;
  let max = 0;
  for (const [idA, idB] of pairs) {
    const a = particleSlot(idA);
    const b = particleSlot(idB);
    const e = Math.hypot(p[a * 3]! - p[b * 3]!, p[a * 3 + 1]! - p[b * 3 + 1]!, p[a * 3 + 2]! - p[b * 3 + 2]!) / rest - 1;
    sum += e;
    if (e > max) max = e;
  }
  return { mean: sum / pairs.length, max };
}

/** Speed (m/s) of particle `id`. */
export function speed(world: World, id: number): number {
  const v = world.getVelocity(id);
  return Math.hypot(v[0], v[1], v[2]);
}

/** The hammock of issue 25: a 30 × 30 cloth, 2.9 m square at spacing 0.1, pinned at its corners 1.5 m over the floor. */
export function hammock(options: WorldOptions = {}): { world: World; cloth: ClothHandle; middle: number[] } {
  const world = tethered(options);
  world.addCollider({ type: 'plane', normal: [0, 1, 0], offset: 0 });
  const cloth = createCloth(world, { width: 30, height: 30, spacing: 0.1, orientation: 'horizontal', corner: [-1.45, 1.5, -1.45], pin: 'corners' });
  const middle = [14, 15].flatMap((j) => [14, 15].map((i) => cloth.first + j * 30 + i));
  return { world, cloth, middle };
}

/** Mean height (m) of particles `ids`. */
export function meanHeight(world: World, ids: readonly number[]): number {
  let y = 0;
  for (const id of ids) y += world.positions[particleSlot(id) * 3 + 1]!;
  return y / ids.length;
}

/** Sum of the lengths (m) of consecutive particles of a rope. */
export function ropeLength(world: World, rope: RopeHandle): number {
  const p = world.positions;
  let length = 0;
  const first = particleSlot(rope.first);
  for (let i = first; i < first + rope.count - 1; i++) length += Math.hypot(p[i * 3]! - p[i * 3 + 3]!, p[i * 3 + 1]! - p[i * 3 + 4]!, p[i * 3 + 2]! - p[i * 3 + 5]!);
  return length;
}

/** A default 2 m rope hanging from a pin at 3.5 m, its end particle made a 13.5 kg weight. */
export function weightedRope(options: WorldOptions = {}): { world: World; rope: RopeHandle; weight: number } {
  const world = tethered(options);
  world.addCollider({ type: 'plane', normal: [0, 1, 0], offset: 0 });
  const rope = createRope(world, { from: [0, 3.5, 0], to: [0, 1.5, 0], segments: 20, pinStart: true });
  const weight = rope.first + rope.count - 1;
  world.setMass(weight, 13.5);
  return { world, rope, weight };
}

/** The same rope with a default 0.3 m box (13.5 kg) tied to its end by a corner, the rope starting level so that the box falls and swings. */
export function ropeWithBox(options: WorldOptions = {}): { world: World; rope: RopeHandle; box: ReturnType<typeof createBox> } {
  const world = tethered(options);
  world.addCollider({ type: 'plane', normal: [0, 1, 0], offset: 0 });
  const rope = createRope(world, { from: [0, 3.5, 0], to: [2, 3.5, 0], segments: 20, pinStart: true });
  const box = createBox(world, { size: 0.3, position: [2.15, 3.65, 0.15] });
  new BodyAttachment(world, [rope.first + rope.count - 1], [box.vertices[0]!]);
  return { world, rope, box };
}

/** A chain of ten 10 g links (eleven particles, the first pinned) holding a 10 kg particle: 1000:1. */
export function heavyChain(options: WorldOptions = {}): { world: World; links: number[]; weight: number } {
  const world = tethered(options);
  const first = world.addParticles(Array.from({ length: 11 }, (_, k) => ({ position: [0, 3 - 0.1 * k, 0] as const, mass: k === 10 ? 10 : 0.01 })));
  world.addPin(first);
  const links: number[] = [];
  for (let k = 0; k < 10; k++) links.push(world.addStick(first + k, first + k + 1));
  return { world, links, weight: first + 10 };
}

/** A default ragdoll dropped onto the hammock from 2.5 m. */
export function ragdollInHammock(options: WorldOptions = {}) {
  const scene = hammock(options);
  const ragdoll = createRagdoll(scene.world, { feet: [0, 2.2, 0.9], rotation: [-Math.PI / 2, 0, 0] });
  return { ...scene, ragdoll };
}

/** A 64 × 64 cloth hanging from its top corners over a ball (its lower part draped on it), four default boxes dropped around it. */
export function clothWithBoxes(options: WorldOptions = {}) {
  const world = tethered(options);
  world.addCollider({ type: 'plane', normal: [0, 1, 0], offset: 0 });
  world.addCollider({ type: 'sphere', position: [0, 0.8, 0.45], radius: 0.4 });
  const cloth = createCloth(world, { width: 64, height: 64, spacing: 0.05, corner: [-1.6, 3.4, 0], pin: 'top-corners', radius: 0.01 });
  const boxes = [-1, -0.35, 0.35, 1].map((x, k) => createBox(world, { size: 0.3, position: [x, 2.4 + 0.5 * k, k % 2 === 0 ? 0.3 : -0.3] }));
  return { world, cloth, boxes };
}
