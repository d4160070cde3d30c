import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createCloth, createPlant, createSoftBody, protectFromTunnelling, createBox, World } from '../../src/core/index.js';

// 0.x keeps no names "until the next version": a renamed option is renamed everywhere at once.

const SRC = new URL('../../src/', import.meta.url).pathname;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? sources(join(dir, e.name)) : /\.tsx?$/.test(e.name) ? [join(dir, e.name)] : []));
}

describe('no deprecated names', () => {
  it('no source file marks anything @deprecated', () => {
    const marked = sources(SRC).filter((f) => readFileSync(f, 'utf8').includes('@deprecated'));
    expect(marked).toEqual([]);
  });

  it('the old option names are gone from the types (the type check fails if one comes back)', () => {
    const world = new World();
    // @ts-expect-error `origin` was a cloth's old name for where it is placed.
    createCloth(world, { width: 2, height: 2, origin: [0, 0, 0] });
    // @ts-expect-error `center` was a soft body's old name for its position.
    createSoftBody(world, { center: [0, 0, 0] });
    // @ts-expect-error `base` was a plant's old name for where it is rooted.
    createPlant(world, { base: [0, 0, 0] });
    // @ts-expect-error `center` was the sphere collider's old name for its position.
    world.addCollider({ type: 'sphere', center: [0, 0, 0], radius: 1 });
    // @ts-expect-error `quaternion` was the obb collider's old name for its rotation.
    world.addCollider({ type: 'obb', halfExtents: [1, 1, 1], quaternion: [0, 0, 0, 1] });
    const guard = protectFromTunnelling(world, createBox(world).body);
    expect('disable' in guard).toBe(false);
  });
});
