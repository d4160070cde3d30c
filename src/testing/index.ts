/**
 * sinew-physics/testing: what a vitest (or any Node) test needs to mount sinew scenes
 * and hooks without WebGL or a browser, step them deterministically, read
 * particles by name, and assert physical facts. Needs
 * `@react-three/test-renderer` 9 (an optional peer dependency of sinew, used by
 * this entry only).
 *
 * @example
 * ```tsx
 * import { Ground, Rope } from 'sinew-physics';
 * import { expectAtRest, expectFinite, mountWorld } from 'sinew-physics/testing';
 *
 * const scene = await mountWorld(<><Ground /><Rope name="rope" from={[0, 1, 0]} to={[1, 1, 0]} segments={10} /></>);
 * await scene.seconds(4);
 * expectFinite(scene);
 * expectAtRest(scene, 'rope.end');
 * expect(await scene.unmount()).toEqual([]);
 * ```
 * @packageDocumentation
 */
export { mountWorld, type MountedWorld, type MountOptions, type WorldSceneProps } from './mountWorld.js';
export { mountHook, type MountedHook, type MountHookOptions } from './mountHook.js';
export { cleanup } from './cleanup.js';
export { leftovers } from './leftovers.js';
export type { TestScene } from './names.js';
export { expectAtRest } from './atRest.js';
export { expectStickLength, type StickLengthOptions } from './stickLength.js';
export { expectAsleep, isAsleep } from './asleep.js';
export { expectFinite, nonFiniteParticles } from './finite.js';
export { energy, expectEnergyNotGrowing, type Energy, type EnergyOptions } from './energy.js';
// A skinned stand-in for a Mixamo character and its walk, so a test or a story needs no model file.
export { createTestHumanoid, createWalkClip, walkSpeed, type TestHumanoid, type TestHumanoidOptions, type WalkClipOptions } from './testHumanoid.js';
