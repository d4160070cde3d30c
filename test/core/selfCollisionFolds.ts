import { createCloth, enableSelfCollision, SeededRandom, World, type ClothHandle, type StickKernel } from '../../src/core/index.js';
import { CrossingDetector } from './selfCrossing.js';

// The fold and the crumple the self-collision tests throw, and the run that watches them
// with the pass-through detector (./selfCrossing.ts).

/** The cloths' spacing and the thickness they keep (m): enableSelfCollision's own example. */
export const SPACING = 0.05;
export const THICKNESS = 0.02;

/**
 * A 16 × 24 cloth lying folded in two on the ground: rows 0–11 flat at y = 0, rows
 * 12–23 back over them one spacing higher, thrown down onto the lower half at `speed`.
 */
export function fold(selfCollide: boolean, speed: number, kernel?: StickKernel) {
  const world = new World({ kernel });
  world.addCollider({ type: 'plane', normal: [0, 1, 0], offset: 0 });
  const cloth = createCloth(world, { width: 16, height: 24, spacing: SPACING, orientation: 'horizontal' });
  for (let j = 0; j < 24; j++)
    for (let i = 0; i < 16; i++) {
      const top = j >= 12;
      const id = cloth.first + j * 16 + i;
      world.setPosition(id, [i * SPACING, top ? SPACING : 0, (top ? 23 - j : j) * SPACING]);
      if (top) world.setVelocity(id, [0, -speed, 0]);
    }
  if (selfCollide) enableSelfCollision(world, cloth.body, { thickness: THICKNESS });
  return { world, cloth };
}

/** A 24 × 24 curtain, its lower edge 2 cm above the ground, dropped so that it crumples onto itself; shaken so that it does not fold straight. */
export function crumple(selfCollide: boolean, kernel?: StickKernel) {
  const world = new World({ kernel });
  world.addCollider({ type: 'plane', normal: [0, 1, 0], offset: 0 });
  const cloth = createCloth(world, { width: 24, height: 24, spacing: SPACING, corner: [0, 23 * SPACING + 0.02, 0] });
  const random = new SeededRandom(7);
  for (let k = 0; k < cloth.count; k++) world.setVelocity(cloth.first + k, [random.next() - 0.5, -1 - random.next(), random.next() - 0.5]);
  if (selfCollide) enableSelfCollision(world, cloth.body, { thickness: THICKNESS });
  return { world, cloth };
}

export function run(scene: { world: World; cloth: ClothHandle }, steps: number): CrossingDetector {
  const detector = new CrossingDetector(scene.cloth);
  detector.check(scene.world);
  for (let s = 0; s < steps; s++) {
    scene.world.step();
    detector.check(scene.world);
  }
  return detector;
}
