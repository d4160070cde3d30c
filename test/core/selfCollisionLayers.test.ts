import { describe, expect, it } from 'vitest';
import { wasmKernelAvailable, type StickKernel } from '../../src/core/index.js';
import { crossings, placedThrows, randomThrows, SPACING, type Throw } from './layerThrows.js';

// Issue 28, item 2: self-collision holds wherever one layer of a cloth falls on another.
// One body of two layers of the same 8 × 8 cloth (spacing 5 cm, structural and shear
// sticks): the lower one flat, lying on the ground or hanging from its four corners,
// the free one laid over it at a shift, a turn about the vertical and a tilt, and thrown
// down onto it. The first throws put its particles exactly over the lower layer's
// vertices, over its edges, over the middle of its squares (the diagonal two triangles
// share) and its corner over the lower layer's corner; the rest are drawn from a seed.
// The judge is the detector of the fold tests (./selfCrossing.ts); each throw is also
// run without self-collision, where the detector must see the layers pass through
// each other, so that a throw that misses the lower layer proves nothing.
//
// The docs allow any thickness below the spacing (enableSelfCollision: "keep it below
// the stick lengths"; docs/self-collision.md: "holds at any thickness"): tested at
// 1 mm (a fiftieth of the spacing) and at half the spacing.
//
// At 1 mm, d6cd66b let 10 of the 12 throws through (1–13 crossings each; a particle ended
// on the floor under the lower layer), e4df7e6 7. Now these throws onto the layer on the
// ground hold: self-collision runs after the colliders and leaves the ground's layer
// where the ground holds it, particle pairs that pass through each other in a substep are
// parted the way they came, and a particle slipping over the edge two triangles share
// keeps its side. Without edge–edge contact, three of the six onto the hanging layer still
// pass through, with 1–3 crossings each: the thrown layer slides off the hanging one and
// comes to hang over its rim by a stick, which the rest of the layer drags through the
// sheet, edge through edge, with no particle near a triangle. That case stays `it.fails`
// until it holds (then `it.fails` itself fails). With `edges: true` every throw holds, on
// the ground too (with edges projected after the colliders, holding what the ground holds;
// d30fdbe's edges, projected before them, let 2 of the 6 onto the ground through).
//
// These twelve throws guard what holds; they do not prove it holds everywhere. Four hundred
// throws from other seeds still find crossings below a fifth of the spacing (at 1 mm, 7 of
// 200 onto the ground and 61 of 200 onto the hanging layer; at 5–8 mm, about 1 in 200; none
// from 10 mm): docs/self-collision.md has the table and the ways through.

/** The thicknesses tested, with edge–edge contact or without, and whether main holds them on the ground and hanging. */
const THICKNESSES: [number, boolean, { ground: boolean; hanging: boolean }][] = [
  [0.001, false, { ground: true, hanging: false }],
  [0.001, true, { ground: true, hanging: true }],
  [SPACING / 2, false, { ground: true, hanging: true }],
];
/** Random throws per thickness and kernel, beyond the four placed ones. */
const RANDOM_THROWS = 8;

const kernels: StickKernel[] = wasmKernelAvailable() ? ['wasm', 'js'] : ['js'];

const throws = [...placedThrows(), ...randomThrows(28, RANDOM_THROWS)];
const describeThrow = (t: Throw) =>
  JSON.stringify({ ...t, shift: t.shift.map((x) => +x.toFixed(4)), turn: +t.turn.toFixed(3), tilt: +t.tilt.toFixed(3), axis: +t.axis.toFixed(3), gap: +t.gap.toFixed(3), speed: +t.speed.toFixed(2) });

describe('a layer of cloth thrown onto another never passes through it (issue 28)', () => {
  for (const kernel of kernels)
    for (const [thickness, edges, held] of THICKNESSES)
      for (const below of ['ground', 'hanging'] as const) {
        const these = throws.filter((t) => t.below === below);
        (held[below] ? it : it.fails)(
          `${these.length} throws at 0–4 m/s onto a layer ${below === 'ground' ? 'lying on the ground' : 'hanging from its corners'}, thickness ${thickness} on spacing ${SPACING}${edges ? ', with edge–edge contact' : ''} (${kernel} kernel)`,
          () => {
            const failed = these.map((t) => ({ t, n: crossings(t, thickness, kernel, edges) })).filter(({ n }) => n > 0);
            expect(failed.map(({ t, n }) => `${n} crossings: ${describeThrow(t)}`)).toEqual([]);
          },
          60_000,
        );
      }

  it('without self-collision every throw passes through the lower layer, and the detector sees it', () => {
    // Measured: 5 crossings where only the corners overlap, 58–511 elsewhere.
    const missed = throws.filter((t) => crossings(t, undefined, kernels[0]!) === 0);
    expect(missed.map(describeThrow)).toEqual([]);
  }, 60_000);
});
