import ReactThreeTestRenderer from '@react-three/test-renderer';
import { readFileSync } from 'node:fs';
import { Box3, InstancedMesh, Matrix4, Mesh, Vector3, type Object3D } from 'three';
import { describe, expect, it } from 'vitest';
import { Playground } from './readme/Playground.js';
import { readme } from '../support/readme.js';

// The README's React example is ./readme/Playground.tsx, verbatim; here it runs
// (the <Canvas> wrapper is left to the browser; the test renderer supplies its own).
const source = readFileSync(new URL('./readme/Playground.tsx', import.meta.url), 'utf8');

function find<T extends Object3D>(root: Object3D, test: (o: Object3D) => o is T): T[] {
  const found: T[] = [];
  root.traverse((o) => {
    if (test(o)) found.push(o);
  });
  return found;
}

describe('the README example', () => {
  it('is printed in the README exactly as it is tested', () => {
    expect(readme).toContain(source.trim());
  });

  it('runs: the flag streams out downwind and the ragdoll falls onto the ground', async () => {
    const renderer = await ReactThreeTestRenderer.create(<Playground />);
    const scene = renderer.scene.instance as unknown as Object3D;
    const flag = find(scene, (o): o is Mesh => o instanceof Mesh && !(o instanceof InstancedMesh) && o.geometry.getAttribute('position')?.count === 24 * 16)[0]!;
    expect(flag).toBeDefined();
    const position = flag.geometry.getAttribute('position');
    // Where the free edge is on average over seconds 2 to 3: a flag flaps, so one moment says little.
    let flying = 0;
    for (let i = 1; i <= 180; i++) {
      await renderer.advanceFrames(1, 1 / 60);
      if (i > 120 && i % 6 === 0) for (let row = 0; row < 16; row++) flying += position.getX(row * 24 + 23) / 16 / 10;
    }
    scene.updateMatrixWorld(true);

    const box = new Box3().setFromBufferAttribute(position as never);
    // 24 × 16 particles row by row, pinned along the pole (column 0, x = -1).
    let poleX = 0;
    let freeX = 0;
    for (let row = 0; row < 16; row++) {
      poleX = Math.max(poleX, Math.abs(position.getX(row * 24) + 1));
      freeX += position.getX(row * 24 + 23) / 16;
    }
    expect(poleX).toBeLessThan(1e-6); // the pole side stays pinned
    expect(freeX).toBeGreaterThan(-0.8); // the free edge is blown downwind (+x): hanging limp it would be at the pole's -1
    // It flies: a light flag (0.25 kg, 0.11 kg/m²) streams out more than 1 m downwind of its pole, not drooping beside it.
    expect(flying).toBeGreaterThan(0);
    expect(box.max.z).toBeGreaterThan(0.3); // and is blown along the wind's z component
    expect(box.min.y).toBeGreaterThan(0);

    const limbs = find(scene, (o): o is InstancedMesh => o instanceof InstancedMesh);
    expect(limbs.length).toBeGreaterThan(0);
    const m = new Matrix4();
    const p = new Vector3();
    let highest = -Infinity;
    let lowest = Infinity;
    for (const mesh of limbs) {
      for (let i = 0; i < mesh.count; i++) {
        mesh.getMatrixAt(i, m);
        p.setFromMatrixPosition(m);
        highest = Math.max(highest, p.y);
        lowest = Math.min(lowest, p.y);
      }
    }
    expect(lowest).toBeGreaterThan(-0.01); // on the ground, not through it
    expect(highest).toBeLessThan(0.6); // fallen over: a standing 1.8 m figure reaches far higher
    await renderer.unmount();
  }, 60_000);
});
