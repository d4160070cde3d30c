import { bench, describe } from 'vitest';
import { clothWorkload } from './clothWorkload.js';

// ms per step of the yardstick cloth (../shared/bench/README.md): 30 untimed steps, then timed ones.
for (const n of [32, 64, 128]) {
  describe(`cloth ${n}×${n}, 10 passes`, () => {
    const world = clothWorkload(n);
    for (let i = 0; i < 30; i++) world.step();
    bench(`step N=${n}`, () => world.step(), { time: 2000, warmupIterations: 30 });
  });
}
