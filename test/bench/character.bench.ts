import { afterAll, bench, describe } from 'vitest';
import { walkSpeed } from '../../src/testing/testHumanoid.js';
import { walker, type Walker } from '../support/walker.js';
import { median, protocol } from './protocol.js';

// Issue 12: what an animated character costs per frame. The test humanoid (31 bones, 2 600 vertices) walks
// with its ragdoll following the animation (pinned to it, not yet hit), then is shot and falls; each 60 Hz
// frame's parts are timed apart: the mixer, AnimatedRagdoll.follow (reading the animated pose from the bones),
// the world's step, and AnimatedRagdoll.pose (posing the bones from the particles after physics, with the
// skeleton's world matrices). The source modules run under vitest's module runner (three.js cannot go in the
// built core bundle the other benches time), which makes calls across modules dearer than in an application.
const p = protocol();
const FRAMES = p.steps;
type Phase = 'mixer' | 'follow' | 'step' | 'pose';
const phases: Phase[] = ['mixer', 'follow', 'step', 'pose'];
type Timing = Record<Phase, number[]>;
const following: Timing = { mixer: [], follow: [], step: [], pose: [] };
const fallen: Timing = { mixer: [], follow: [], step: [], pose: [] };

/** Median milliseconds per frame of each phase over `frames` frames of `w` (the median: a collection or the loaded machine's other jobs land on single frames). */
function time(w: Walker, frames: number, into: Timing): void {
  const dt = 1 / 60;
  const each = { mixer: [] as number[], follow: [] as number[], step: [] as number[], pose: [] as number[] };
  for (let i = 0; i < frames; i++) {
    const t0 = performance.now();
    w.mixer.update(dt);
    if (!w.character.active) w.humanoid.root.position.z += walkSpeed() * dt;
    const t1 = performance.now();
    w.character.follow(dt);
    const t2 = performance.now();
    w.world.advance(dt);
    const t3 = performance.now();
    w.character.pose();
    const t4 = performance.now();
    each.mixer.push(t1 - t0);
    each.follow.push(t2 - t1);
    each.step.push(t3 - t2);
    each.pose.push(t4 - t3);
  }
  for (const phase of phases) into[phase].push(median(each[phase]));
}

for (let r = 0; r < p.runs; r++) {
  const w = walker({}, 0);
  for (let i = 0; i < p.warmup; i++) w.frame();
  time(w, FRAMES, following);
  w.character.hit('chest', [0, 0, -1], 0.01);
  for (let i = 0; i < p.warmup; i++) w.frame();
  time(w, FRAMES, fallen);
}

const line = (what: string, t: Timing) => `${what}: ${phases.map((ph) => `${ph} ${(median(t[ph]) * 1000).toFixed(0)} µs`).join(', ')} per frame`;
afterAll(() => {
  console.log([line('character following its walk (pinned)', following), line('character fallen after a shot (ragdoll poses the bones)', fallen)].join('\n'));
});

describe('animated character', () => {
  const w = walker({}, 0);
  for (let i = 0; i < 30; i++) w.frame();
  bench('frame, following the walk', () => w.frame(), { time: 200 });
  const shot = walker({}, 0);
  for (let i = 0; i < 30; i++) shot.frame();
  shot.character.hit('chest', [0, 0, -1], 0.01);
  for (let i = 0; i < 30; i++) shot.frame();
  bench('pose the bones after physics', () => shot.character.pose(), { time: 200 });
});
