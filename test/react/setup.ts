import { afterEach } from 'vitest';
import { cleanup } from '../../src/testing/index.js';

// @react-three/test-renderer drives React through act(); this flag tells React that
// act() is in use so it does not warn on every update (see shared/TOOLCHAIN.md).
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
// Unmount any world a failed test left mounted (sinew-physics/testing's cleanup, as the README's setup file does).
afterEach(cleanup);
