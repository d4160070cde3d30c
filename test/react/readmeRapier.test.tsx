import { readFileSync } from 'node:fs';
import { act } from 'react';
import { Vector3, type Object3D } from 'three';
import { describe, expect, it } from 'vitest';
import { mountWorld } from './helpers.js';
import { RapierHammock } from './readme/RapierHammock.js';

// The README's "Using sinew with Rapier" example is ./readme/RapierHammock.tsx, verbatim; here it runs
// with the real @react-three/rapier (its <Physics> loads Rapier's WebAssembly in Node).
const source = readFileSync(new URL('./readme/RapierHammock.tsx', import.meta.url), 'utf8');
const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { peerDependencies: Record<string, string>; devDependencies: Record<string, string> };
const section = readme.slice(readme.indexOf('## Using sinew with Rapier'), readme.indexOf('\n## ', readme.indexOf('## Using sinew with Rapier') + 5));

describe('the README section "Using sinew with Rapier"', () => {
  it('prints the example exactly as it is tested, and the peer ranges package.json asks for', () => {
    expect(section).toContain('```tsx\n' + source.trim() + '\n```');
    expect(section).toContain(`| \`@react-three/rapier\` | ${pkg.peerDependencies['@react-three/rapier']} |`);
    // sinew imports no @dimforge package, so it asks for none: a peer range would meet @types/three's own Rapier and install another.
    expect(pkg.peerDependencies).not.toHaveProperty('@dimforge/rapier3d-compat');
  });

  it('runs: the ball falls into the hammock, is caught and comes to rest on it', async () => {
    const scene = await mountWorld(<RapierHammock />, { sleep: false });
    let ball: Object3D | undefined;
    for (let i = 0; i < 200 && !ball; i++) {
      await act(async () => {
        await new Promise((resolve) => setTimeout(resolve, 10));
      });
      ball = scene.renderer.scene.findAll((node) => node.instance.name === 'ball')[0]?.instance;
    }
    expect(ball).toBeDefined();
    const at = () => ball!.getWorldPosition(new Vector3()).y;
    // The cloth's highest particle over the run: never above its pins (before the bridge read colliders'
    // poses from their bodies, the ball's first sweep came up from the origin through the cloth and threw
    // it 10 cm above them).
    const top = () => {
      const p = scene.world.particles.position;
      let most = -Infinity;
      for (let i = 0; i < scene.world.particles.end; i++) if (scene.world.particles.isAlive(i)) most = Math.max(most, p[i * 3 + 1]!);
      return most;
    };
    let highest = top();
    await scene.frames(1);
    highest = Math.max(highest, top());
    expect(at()).toBeCloseTo(2, 1);
    for (let frame = 1; frame < 480; frame++) {
      await scene.frames(1);
      highest = Math.max(highest, top());
    }
    expect(highest).toBeLessThanOrEqual(1);
    const y = at();
    // Lying in the cloth pinned at its corners at 1 m, which the long-range attachments keep at its rest size:
    // measured 1.087 m, 8 cm under where a flat cloth would hold the 0.15 m ball (1.17 m).
    expect(y).toBeGreaterThan(0.75);
    expect(y).toBeLessThan(1.12);
    await scene.seconds(0.5);
    expect(Math.abs(at() - y)).toBeLessThan(0.005);
    expect(await scene.unmount()).toEqual([]);
  });
});
