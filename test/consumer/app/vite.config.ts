import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The README's Playground imports 'sinew-physics'; it gets src/withChecks.tsx, which
// re-exports the installed package ('sinew-installed') with a <World> that also
// mounts the scripted checks, so the README's code runs unchanged.
export default defineConfig({
  plugins: [react()],
  resolve: {
    alias: [
      { find: /^sinew-physics$/, replacement: fileURLToPath(new URL('./src/withChecks.tsx', import.meta.url)) },
      { find: /^sinew-installed$/, replacement: fileURLToPath(new URL('../node_modules/sinew-physics/dist/index.js', import.meta.url)) },
    ],
    dedupe: ['react', 'react-dom', 'three', '@react-three/fiber'],
  },
});
