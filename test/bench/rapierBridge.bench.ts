import RAPIER from '@dimforge/rapier3d-compat';
import type * as RapierTypes from '@dimforge/rapier3d-compat';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, bench, describe } from 'vitest';
import { build } from 'vite';
import type * as coreSource from '../../src/core/index.js';
import type * as rapierSource from '../../src/rapier/bridge.js';
import type { RapierWorldLike } from '../../src/rapier/rapierTypes.js';
import { median, protocol } from './protocol.js';

// Issue 14, part 3: what the Rapier bridge costs per Rapier collider, and that a scene
// without coupled bodies pays nothing for them.
//
// 1. A 32×32 cloth lying on a static box, beside n Rapier balls (fixed, or dynamic and
//    resting on a Rapier floor) that touch no particle: Rapier's step plus sinew's step,
//    with and without the bridge. The difference over n is the bridge's cost per
//    collider and step (reading poses, following the path; a dynamic body's coupling).
// 2. main's engine (the commit this branch started from, built the same way) against
//    this one, on the kinematic-collider bench's scene (a cloth on a moving kinematic
//    box): the coupled-body checks in KinematicCollider are all a scene without coupled
//    bodies runs of this work. Timed in turns, so that both see the same machine.
const p = protocol();
const R = RAPIER as typeof RapierTypes;
await R.init();

type Core = typeof coreSource;
type Bridge = typeof rapierSource;

/** Builds `src/core` of `root` (with `withBridge`, and `src/rapier/bridge.ts` beside it: shared chunks, one copy of the engine) and imports them. */
async function built(root: string, withBridge: boolean): Promise<{ core: Core; bridge: Bridge | null }> {
  const dir = mkdtempSync(join(tmpdir(), 'sinew-bench-'));
  try {
    const entry: Record<string, string> = { core: resolve(root, 'src/core/index.ts') };
    if (withBridge) entry.bridge = resolve(root, 'src/rapier/bridge.ts');
    await build({ configFile: false, logLevel: 'silent', build: { outDir: dir, emptyOutDir: true, minify: false, lib: { entry, formats: ['es'] } } });
    const core = (await import(pathToFileURL(join(dir, 'core.js')).href)) as Core;
    const bridge = withBridge ? ((await import(pathToFileURL(join(dir, 'bridge.js')).href)) as Bridge) : null;
    return { core, bridge };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const repo = resolve(import.meta.dirname, '../..');
const now = await built(repo, true);
// Built alone, as main's is: with the bridge as a second entry the engine is split into shared
// chunks, and calls across them made the kinematic scene 1.6× slower than a one-file build.
const alone = await built(repo, false);
// main's core, from git (read-only: `git archive` of the commit this branch started at).
const baseDir = mkdtempSync(join(tmpdir(), 'sinew-base-'));
const base = execFileSync('git', ['merge-base', 'HEAD', 'main'], { cwd: repo, encoding: 'utf8' }).trim();
execFileSync('sh', ['-c', `git archive ${base} src/core | tar -x -C ${baseDir}`], { cwd: repo });
// The WebAssembly kernel is generated, not committed (scripts/build-wasm.mjs); this branch did not change it.
execFileSync('cp', [join(repo, 'src/core/wasm/sticks.generated.ts'), join(baseDir, 'src/core/wasm/sticks.generated.ts')]);
const before = await built(baseDir, false);
rmSync(baseDir, { recursive: true, force: true });

const counts = [0, 16, 64];
type Kind = 'fixed' | 'dynamic';

function bridgeScene(n: number, kind: Kind, bridged: boolean) {
  const { core, bridge } = now;
  const world = new core.World();
  world.addCollider({ type: 'obb', position: [0, -0.05, 0], halfExtents: [1, 0.05, 1] });
  core.createCloth(world, { width: 32, height: 32, spacing: 0.05, orientation: 'horizontal', corner: [-0.8, 0.011, -0.8], radius: 0.01 });
  const rapier = new R.World({ x: 0, y: -9.81, z: 0 });
  rapier.createCollider(R.ColliderDesc.cuboid(20, 0.1, 20).setTranslation(0, -0.1, 30));
  for (let i = 0; i < n; i++) {
    // In a row 5 m beside the cloth, resting (dynamic ones on Rapier's floor).
    const body = rapier.createRigidBody((kind === 'fixed' ? R.RigidBodyDesc.fixed() : R.RigidBodyDesc.dynamic()).setTranslation((i % 8) * 0.5 - 2, 0.1, 5 + Math.floor(i / 8) * 0.5));
    rapier.createCollider(R.ColliderDesc.ball(0.1), body);
  }
  const handle = bridged ? bridge!.bridgeRapier(rapier as unknown as RapierWorldLike, world) : null;
  const step = handle
    ? () => world.step()
    : () => {
        rapier.step();
        world.step();
      };
  return { step, free: () => (handle?.remove(), rapier.free()) };
}

function kinematicScene(core: Core) {
  const world = new core.World();
  const id = world.addCollider({ type: 'obb', position: [0, -0.05, 0], halfExtents: [1, 0.05, 1], kinematic: true });
  core.createCloth(world, { width: 32, height: 32, spacing: 0.05, orientation: 'horizontal', corner: [-0.8, 0.011, -0.8], radius: 0.01 });
  const collider = world.getCollider(id) as InstanceType<Core['KinematicCollider']>;
  let frame = 0;
  return () => {
    collider.targetPose[0] = 0.3 * Math.sin(frame++ / 60);
    world.step();
  };
}

function time(step: () => void): number {
  for (let i = 0; i < p.warmup; i++) step();
  const start = performance.now();
  for (let i = 0; i < p.steps; i++) step();
  return (performance.now() - start) / p.steps;
}

const bridgeMs = new Map<string, number[]>();
const engineMs = { before: [] as number[], now: [] as number[] };
for (let r = 0; r < p.runs; r++) {
  for (const kind of process.env.ENGINE_ONLY ? [] : (['fixed', 'dynamic'] as const)) {
    for (const n of counts) {
      for (const bridged of [false, true]) {
        const scene = bridgeScene(n, kind, bridged);
        const key = `${kind} ${n} ${bridged}`;
        bridgeMs.set(key, [...(bridgeMs.get(key) ?? []), time(scene.step)]);
        scene.free();
      }
    }
  }
  // Alternating which goes first: the later one in a run could pay for the first one's garbage.
  if (r % 2 === 0) engineMs.before.push(time(kinematicScene(before.core)));
  engineMs.now.push(time(kinematicScene(alone.core)));
  if (r % 2 === 1) engineMs.before.push(time(kinematicScene(before.core)));
  if (process.env.ENGINE_ONLY) console.log(engineMs.before.at(-1), engineMs.now.at(-1));
}

describe('Rapier bridge', () => {
  bench('cloth 32×32 and 64 dynamic Rapier balls, bridged', () => bridgeScene(64, 'dynamic', true).step(), { iterations: 1 });
});

afterAll(() => {
  const ms = (kind: Kind, n: number, bridged: boolean) => median(bridgeMs.get(`${kind} ${n} ${bridged}`)!);
  for (const kind of process.env.ENGINE_ONLY ? [] : (['fixed', 'dynamic'] as const)) {
    const row = counts.map((n) => `${n}: ${ms(kind, n, false).toFixed(3)} → ${ms(kind, n, true).toFixed(3)}`).join(', ');
    const most = counts[counts.length - 1]!;
    const perCollider = ((ms(kind, most, true) - ms(kind, most, false) - (ms(kind, 0, true) - ms(kind, 0, false))) / most) * 1000;
    console.log(`Rapier step + sinew step, ms, without → with the bridge, by ${kind} Rapier balls: ${row}; bridge per ${kind} collider and step: ${perCollider.toFixed(1)} µs`);
  }
  console.log(`cloth 32×32 on a moving kinematic box, ms per step: main's engine ${median(engineMs.before).toFixed(3)}, this branch ${median(engineMs.now).toFixed(3)}`);
});
