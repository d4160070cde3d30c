import * as source from '../../src/core/index.js';
import type { Engine } from './engine.js';

/** Substeps per step and relaxation passes per substep. */
export interface ClothSolver {
  substeps: number;
  iterations: number;
}

/**
 * The yardstick workload of ../shared/bench (cloth.c), built through sinew's public
 * API: N×N particles 0.1 m apart in the x–y plane, top corners immovable, structural
 * and shear sticks in the same order as the C code, 10 Gauss–Seidel passes, a ground
 * plane at y = -5, Verlet damping 0.99 per step (k = 0.01 / dt). `core` is the
 * engine to build it with (the source by default, the built library in the benches);
 * `kernel` the stick kernel (the world's default when omitted); `solver` the
 * substeps and passes per step, cloth.c's 1 × 10 unless given (sinew's default is
 * 10 × 1); `compliance` (m/N) makes every stick an XPBD spring (0, the default:
 * rigid, as cloth.c), to time what compliance costs. Long-range attachments are off:
 * cloth.c is plain relaxation, and the yardstick compares equal work (the loads bench
 * times what they add).
 */
export function clothWorkload(n: number, core: Engine = source, kernel?: source.StickKernel, solver: ClothSolver = { substeps: 1, iterations: 10 }, compliance = 0): InstanceType<Engine['World']> {
  const dt = 1 / 60;
  const world = new core.World({ timeStep: dt, iterations: solver.iterations, substeps: solver.substeps, damping: 0.01 / dt, kernel, tethers: false });
  const top = -4 + (n - 1) * 0.1;
  const first = world.addParticles(
    Array.from({ length: n * n }, (_, p) => {
      const i = p % n;
      const j = Math.floor(p / n);
      const corner = j === 0 && (i === 0 || i === n - 1);
      return { position: [(i - (n - 1) / 2) * 0.1, top - j * 0.1, 0] as [number, number, number], mass: corner ? 0 : 1 };
    }),
  );
  const id = (i: number, j: number) => first + j * n + i;
  const stick = compliance > 0 ? { compliance } : {};
  for (let j = 0; j < n; j++) {
    for (let i = 0; i < n; i++) {
      if (i + 1 < n) world.addStick(id(i, j), id(i + 1, j), stick);
      if (j + 1 < n) world.addStick(id(i, j), id(i, j + 1), stick);
      if (i + 1 < n && j + 1 < n) {
        world.addStick(id(i, j), id(i + 1, j + 1), stick);
        world.addStick(id(i + 1, j), id(i, j + 1), stick);
      }
    }
  }
  world.addCollider({ type: 'plane', normal: [0, 1, 0], offset: -5, friction: 0 });
  return world;
}
