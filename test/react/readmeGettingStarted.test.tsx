import ReactThreeTestRenderer from '@react-three/test-renderer';
import { readFileSync } from 'node:fs';
import type { ReactNode } from 'react';
import { Mesh, PlaneGeometry, type Object3D } from 'three';
import { describe, expect, it, vi } from 'vitest';
import App from './readme/GettingStarted.js';
import { readme } from '../support/readme.js';

// The README's "Getting started" prints ./readme/GettingStarted.tsx verbatim and
// the install line of the package's peers; here both are checked and the app runs.
// The test renderer is a canvas of its own, so the app's <Canvas> passes its
// children through, and drei's orbit controls (which need a DOM element) are
// left out; the story "Getting started" runs the app unchanged in Chromium.
vi.mock('@react-three/fiber', async (original) => ({ ...(await original<object>()), Canvas: ({ children }: { children: ReactNode }) => children }));
vi.mock('@react-three/drei', () => ({ OrbitControls: () => null }));

const read = (path: string) => readFileSync(new URL(path, import.meta.url), 'utf8');
const section = /\n## Getting started\n([\s\S]*?)\n## /.exec(readme)?.[1] ?? '';
const pkg = JSON.parse(read('../../package.json')) as { peerDependencies: Record<string, string>; peerDependenciesMeta: Record<string, { optional?: boolean }> };

describe('the README section "Getting started"', () => {
  it('comes first after the introduction, and prints the app exactly as it runs', () => {
    expect(/\n## (.*)/.exec(readme)?.[1]).toBe('Getting started');
    expect(section).toContain('```tsx\n' + read('./readme/GettingStarted.tsx').trim() + '\n```');
  });

  it('installs every required peer, and lists each with the range package.json asks for', () => {
    const required = Object.keys(pkg.peerDependencies).filter((name) => !pkg.peerDependenciesMeta[name]?.optional);
    const install = /```sh\n(npm install [^\n]*)\n```/.exec(section)?.[1] ?? '';
    expect(install.split(' ').slice(2).sort()).toEqual(['sinew-physics', ...required].sort());
    const rows = [...section.matchAll(/^\| (`[^|]+`) \| ([^|]+) \|/gm)];
    const listed = Object.fromEntries(rows.flatMap(([, names, range]) => [...names!.matchAll(/`([^`]+)`/g)].map((m) => [m[1]!, range!.trim()])));
    expect(listed).toEqual(Object.fromEntries(required.map((name) => [name, pkg.peerDependencies[name]])));
  });

  it('runs: a floor, a curtain gathered on seven hooks into folds and a rope hanging beside it', async () => {
    const renderer = await ReactThreeTestRenderer.create(<App />);
    await renderer.advanceFrames(120, 1 / 60);
    const scene = renderer.scene.instance as unknown as Object3D;
    scene.updateMatrixWorld(true);
    const meshes: Mesh[] = [];
    scene.traverse((o) => void (o instanceof Mesh && meshes.push(o)));

    expect(meshes.filter((m) => m.geometry instanceof PlaneGeometry)).toHaveLength(1);
    const curtain = meshes.find((m) => m.geometry.getAttribute('position')?.count === 25 * 31)!;
    const p = curtain.geometry.getAttribute('position');
    // Each hook holds its particle of the top row where the app puts it: 0.18 m apart, 5 cm in front and behind by turns.
    const hooks = [0, 4, 8, 12, 16, 20, 24].map((i) => [p.getX(i), p.getY(i), p.getZ(i)].map((v) => Number(v.toFixed(4))));
    expect(hooks).toEqual([0, 1, 2, 3, 4, 5, 6].map((k) => [Number((-0.54 + k * 0.18).toFixed(4)), 2, k % 2 ? 0.05 : -0.05]));
    // 1.44 m of cloth on 1.08 m of rail: the bottom edge folds in and out by more than the hooks do, and hangs above the floor.
    let front = -Infinity;
    let back = Infinity;
    for (let i = 0; i < 25; i++) {
      const z = p.getZ(30 * 25 + i);
      front = Math.max(front, z);
      back = Math.min(back, z);
      expect(p.getY(30 * 25 + i)).toBeGreaterThan(0);
    }
    expect(front - back).toBeGreaterThan(0.1);
    expect(meshes.length).toBe(3); // floor, curtain, rope
    await renderer.unmount();
  });
});
