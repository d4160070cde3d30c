import { afterEach } from 'vitest';
import { cleanup } from 'sinew-physics/testing';

// React's act() is in use: without this flag it warns on every update.
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
// Unmount what a failed test left mounted.
afterEach(cleanup);
