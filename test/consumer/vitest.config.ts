import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    environment: 'node', // no DOM and no WebGL needed
    setupFiles: ['./vitest.setup.ts'],
  },
});
