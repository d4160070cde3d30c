import { describe, expect, it } from 'vitest';
import * as core from '../../src/core/index.js';
import { World, type SelfCollision, type StickKernel } from '../../src/core/index.js';

// Self-collision in snapshots and removals (issue 27, items 2 and 4): its listings and passes
// build on what the steps before found (the listed pairs with their sides and dues, the
// odometers, where each particle was listed, and with edges the edge pairs). A snapshot keeps all
// of it, so a restored run repeats bit for bit; removing the cloth takes it out, so a cloth
// built in the freed slots steps bit for bit as in a fresh world.

const kernels: StickKernel[] = ['wasm', 'js'];

/** Every position of `world`, as raw bits. */
function bits(world: World): number[] {
  return Array.from(new Uint32Array(world.particles.position.slice(0, world.particles.end * 3).buffer));
}

/**
 * What a self-collision reports of its work: listings, pairs listed, projected and looked at.
 * Each depends on what the listings before found, so a restore that lost some of it shows here
 * even where the positions happen not to.
 */
function work(self: SelfCollision): number[] {
  return [self.searches, self.listed, self.projected, self.examined];
}

/** Steps `steps` times, `drive` before each; returns the positions after each step as raw bits, and `self`'s work then. */
function run(world: World, steps: number, drive: (w: World) => void = () => {}, self?: SelfCollision): number[][] {
  const out: number[][] = [];
  for (let s = 0; s < steps; s++) {
    drive(world);
    world.step();
    out.push([...bits(world), ...(self ? work(self) : [])]);
  }
  return out;
}

/** Index of the first step whose positions (or work) differ, or -1. */
function firstDifference(a: number[][], b: number[][]): number {
  for (let s = 0; s < a.length; s++) if (a[s]!.length !== b[s]!.length || a[s]!.some((x, k) => x !== b[s]![k])) return s;
  return -1;
}

/**
 * A 12 × 12 sheet (spacing 5 cm, thickness 2 cm) folded in two, its lower half turned up 1 cm in
 * front of its upper half (inside the thickness), self-colliding: let go over the floor, it
 * crumples onto itself, its layers pressing on each other throughout.
 */
function foldedSheet(world: World, edges: boolean) {
  const cloth = core.createCloth(world, { width: 12, height: 12, spacing: 0.05, corner: [0, 0.7, 0], pin: 'none' });
  for (let j = 6; j < 12; j++) {
    for (let i = 0; i < 12; i++) {
      const [x, y, z] = world.getPosition(cloth.first + (11 - j) * 12 + i);
      world.setPosition(cloth.first + j * 12 + i, [x, y, z + 0.01]);
    }
  }
  const self = core.enableSelfCollision(world, cloth.body, { thickness: 0.02, edges });
  return { cloth, self };
}

/** The folded sheet over a floor. */
function folding(kernel: StickKernel, edges: boolean) {
  const world = new World({ kernel });
  world.addCollider({ type: 'plane', normal: [0, 1, 0], offset: 0 });
  return { world, ...foldedSheet(world, edges) };
}

describe('a snapshot repeats a self-colliding run bit for bit', () => {
  for (const kernel of kernels) {
    for (const edges of [false, true]) {
      it(`a sheet crumpling onto itself${edges ? ' (with edge–edge contact)' : ''}, restored into its world after more steps and (structured-cloned) into a world built the same way (${kernel})`, () => {
        // Two snapshots: at step 30, falling and crumpling (its next steps list again), and at
        // step 60, settling (its next steps keep most of the list). A restore without the edge
        // pairs (with edges) differs within the steps compared (checked by leaving them out).
        const { world, self } = folding(kernel, edges);
        run(world, 30);
        const early = world.snapshot();
        const afterEarly = run(world, 30, undefined, self);
        const late = world.snapshot();
        const afterLate = run(world, 15, undefined, self);
        expect(self.projected).toBeGreaterThan(0);
        world.restore(early);
        expect(firstDifference(run(world, 20, undefined, self), afterEarly.slice(0, 20))).toBe(-1);
        world.restore(late);
        expect(firstDifference(run(world, 15, undefined, self), afterLate)).toBe(-1);
        const copy = folding(kernel, edges);
        copy.world.restore(structuredClone(early));
        expect(firstDifference(run(copy.world, 20, undefined, copy.self), afterEarly.slice(0, 20))).toBe(-1);
        copy.world.restore(structuredClone(late));
        expect(firstDifference(run(copy.world, 15, undefined, copy.self), afterLate)).toBe(-1);
      });
    }

    it(`a thick cloth piling up on the floor (particle pairs alone, its strays listed alone), restored mid-pile and (structured-cloned) into a world built the same way (${kernel})`, () => {
      // A listing of strays sorts them into the grid of the listings before, in its box: a
      // restore that lost the box would sort afresh, list the same pairs in another order and
      // step otherwise from there.
      const thickCloth = () => {
        const world = new World({ kernel });
        world.addCollider({ type: 'plane', normal: [0, 1, 0], offset: 0 });
        const cloth = core.createCloth(world, { width: 10, height: 40, spacing: 0.01, corner: [0, 0.45, 0], bend: {}, radius: 0.005 });
        const random = new core.SeededRandom(3);
        for (let k = 0; k < cloth.count; k++) {
          const [x, y, z] = world.getPosition(cloth.first + k);
          world.setPosition(cloth.first + k, [x, y, z + (random.next() - 0.5) * 1e-4]);
        }
        return { world, self: core.enableSelfCollision(world, cloth.body, { thickness: 0.01 }) };
      };
      const { world, self } = thickCloth();
      run(world, 25);
      const snap = world.snapshot();
      const after = run(world, 20, undefined, self);
      world.restore(snap);
      expect(firstDifference(run(world, 20, undefined, self), after)).toBe(-1);
      const copy = thickCloth();
      copy.world.restore(structuredClone(snap));
      expect(firstDifference(run(copy.world, 20, undefined, copy.self), after)).toBe(-1);
    });

    it(`self-collision enabled after a snapshot starts over on a restore, as when it was enabled (${kernel})`, () => {
      const world = new World({ kernel });
      world.addCollider({ type: 'sphere', position: [0.05, 0.3, 0.05], radius: 0.3 });
      const cloth = core.createCloth(world, { width: 10, height: 10, spacing: 0.05, corner: [-0.225, 0.6, -0.225], orientation: 'horizontal' });
      run(world, 10);
      const snap = world.snapshot();
      const self = core.enableSelfCollision(world, cloth.body, { thickness: 0.02 });
      const first = run(world, 40, undefined, self);
      world.restore(snap);
      expect(firstDifference(run(world, 40, undefined, self), first)).toBe(-1);
    });

    it(`a self-colliding cloth removed, and the same cloth built in its slots, steps bit for bit as in a fresh world (${kernel})`, () => {
      const reused = folding(kernel, true);
      run(reused.world, 30);
      const selfCollisions = () => Object.keys(reused.world.features.save()).filter((name) => name.startsWith('selfCollision#')).length;
      expect(selfCollisions()).toBe(1);
      reused.world.remove(reused.cloth);
      // The self-collision went with its body.
      expect(selfCollisions()).toBe(0);
      expect(() => reused.self.remove()).not.toThrow();
      const again = foldedSheet(reused.world, true);
      expect(core.particleSlot(again.cloth.first)).toBe(core.particleSlot(reused.cloth.first));
      expect(again.cloth.first).not.toBe(reused.cloth.first);
      // The fresh world has run as long, with nothing in it, before its sheet.
      const fresh = new World({ kernel });
      fresh.addCollider({ type: 'plane', normal: [0, 1, 0], offset: 0 });
      run(fresh, 30);
      const own = foldedSheet(fresh, true);
      expect(firstDifference(run(reused.world, 40, undefined, again.self), run(fresh, 40, undefined, own.self))).toBe(-1);
    });
  }
});
