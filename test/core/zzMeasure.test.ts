import { it } from 'vitest';
import { throwMatrix, type Thrown } from './clothSurfaceScenes.js';

it('measure', () => {
  for (const thrown of ['limb', 'box', 'rope'] as Thrown[]) {
    for (const surfaceContacts of [false, true]) {
      const t0 = performance.now();
      const r = throwMatrix(thrown, thrown === 'box' ? 0.3 : 0, { surfaceContacts });
      // count throws with any crossing (js + wasm counted separately in r.crossed)
      console.log(`MEASURE ${thrown} surface=${surfaceContacts}: throws crossed ${r.crossed.length}/48 runs, crossings ${r.crossings}, nearEdge ${r.nearEdge}, same ${r.sameBits}, ${(performance.now() - t0).toFixed(0)} ms`);
    }
  }
}, 900_000);
