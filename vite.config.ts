/// <reference types="vitest/config" />
import { storybookTest } from '@storybook/addon-vitest/vitest-plugin';
import react from '@vitejs/plugin-react';
import { playwright } from '@vitest/browser-playwright';
import { resolve } from 'node:path';
import { defineConfig, type Plugin } from 'vite';

// Debian's Chromium with SwiftShader WebGL (../shared/TOOLCHAIN.md); CHROME_PATH points elsewhere.
const chromium = () =>
  playwright({
    launchOptions: {
      executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--enable-unsafe-swiftshader', '--use-angle=swiftshader', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
    },
  });

// Pre-bundled up front so Vite never re-bundles mid-run (which loads two Reacts).
const browserDeps = [
  'react',
  'react-dom',
  'react-dom/client',
  'react/jsx-runtime',
  'react/jsx-dev-runtime',
  'three',
  'three/examples/jsm/geometries/ConvexGeometry.js',
  '@react-three/fiber',
  '@react-three/drei',
  'zustand',
  'zustand/vanilla',
  '@react-three/rapier',
  '@react-three/test-renderer',
];

// sinew-physics/worker starts its worker with `new Worker(new URL('./workerMain.ts', import.meta.url))`,
// which the dev server (tests, stories) bundles from the sources. The library build must not bundle it
// (it would write an app-root URL, /assets/…): this plugin marks the URL ignored for this build and then
// writes it as `./workerMain.js`, the entry beside remoteWorld.js, unmarked, for the app's bundler to follow.
const workerUrl = /new URL\('\.\/workerMain\.ts', import\.meta\.url\)/;
const keepWorkerUrl = (): Plugin => {
  // Only the library build: an app or Storybook build of the sources bundles the worker as usual.
  let library = false;
  return {
    name: 'sinew-keep-worker-url',
    apply: 'build',
    enforce: 'pre',
    configResolved(config) {
      library = Boolean(config.build.lib);
    },
    transform(code, id) {
      if (!library || !id.endsWith('src/worker/remoteWorld.ts')) return null;
      if (!workerUrl.test(code)) throw new Error('sinew-keep-worker-url: remoteWorld.ts no longer holds the worker URL this plugin rewrites');
      return { code: code.replace(workerUrl, "new URL(/* @vite-ignore */ './workerMain.js', import.meta.url)"), map: null };
    },
    renderChunk(code, chunk) {
      if (!library || chunk.fileName !== 'worker/remoteWorld.js') return null;
      return { code: code.replace(/\/\*\s*@vite-ignore\s*\*\/\s*/, ''), map: null };
    },
  };
};

// Library build of the entry points (`sinew-physics`, `sinew-physics/core`, `sinew-physics/teaching`, `sinew-physics/testing`, `sinew-physics/rapier`, `sinew-physics/worker`); declarations come
// from `tsc -p tsconfig.build.json`. The vitest projects live here too.
export default defineConfig({
  plugins: [react(), keepWorkerUrl()],
  // Examples and tests import the package by its published names.
  resolve: {
    alias: [
      { find: /^sinew-physics\/core$/, replacement: resolve(import.meta.dirname, 'src/core/index.ts') },
      { find: /^sinew-physics\/teaching$/, replacement: resolve(import.meta.dirname, 'src/teaching/index.ts') },
      { find: /^sinew-physics\/testing$/, replacement: resolve(import.meta.dirname, 'src/testing/index.ts') },
      { find: /^sinew-physics\/rapier$/, replacement: resolve(import.meta.dirname, 'src/rapier/index.ts') },
      { find: /^sinew-physics\/worker$/, replacement: resolve(import.meta.dirname, 'src/worker/index.ts') },
      { find: /^sinew-physics$/, replacement: resolve(import.meta.dirname, 'src/index.ts') },
    ],
  },
  build: {
    lib: {
      entry: {
        index: resolve(import.meta.dirname, 'src/index.ts'),
        core: resolve(import.meta.dirname, 'src/core/index.ts'),
        teaching: resolve(import.meta.dirname, 'src/teaching/index.ts'),
        testing: resolve(import.meta.dirname, 'src/testing/index.ts'),
        rapier: resolve(import.meta.dirname, 'src/rapier/index.ts'),
        worker: resolve(import.meta.dirname, 'src/worker/index.ts'),
        // The worker's entry, beside remoteWorld.js, for `new URL('./workerMain.js', import.meta.url)`.
        'worker/workerMain': resolve(import.meta.dirname, 'src/worker/workerMain.ts'),
      },
      formats: ['es'],
    },
    rolldownOptions: {
      // One output file per source module: with `"sideEffects": false` in package.json an app's
      // bundler drops every module it does not reach (a component the app never renders, and the
      // @react-three/drei code only <IKHandle> imports), which it cannot do inside a merged chunk.
      output: { preserveModules: true, preserveModulesRoot: 'src' },
      // @react-three/test-renderer (sinew-physics/testing's optional peer) and @react-three/rapier
      // (sinew-physics/rapier's) fall under /^@react-three\//.
      external: [/^react($|\/)/, /^react-dom($|\/)/, /^three($|\/)/, /^@react-three\//, /^@dimforge\//, /^zustand($|\/)/],
    },
    sourcemap: true,
  },
  test: {
    globals: true,
    projects: [
      {
        extends: true,
        test: {
          name: 'core',
          environment: 'node',
          include: ['test/core/**/*.test.ts'],
          benchmark: { include: ['test/bench/**/*.bench.ts'] },
          // A timeout catches a hang, not slowness (speed goals live in the benchmarks):
          // long physics runs take several times longer on a loaded machine.
          testTimeout: 60_000,
          pool: 'forks',
          // Heap tests force collections with global.gc(); optimising on the main
          // thread makes "allocates nothing once optimised" hold at the same point every run.
          execArgv: ['--expose-gc', '--no-concurrent-recompilation', '--min-semi-space-size=16'],
        },
      },
      {
        extends: true,
        test: {
          name: 'react',
          environment: 'node',
          include: ['test/react/**/*.test.tsx'],
          setupFiles: ['test/react/setup.ts'],
          testTimeout: 60_000,
          pool: 'forks',
          // The heap tests force collections with global.gc(); optimising on the main thread makes
          // "allocates nothing once optimised" hold on a loaded machine too.
          execArgv: ['--expose-gc', '--no-concurrent-recompilation', '--min-semi-space-size=16'],
        },
      },
      {
        extends: true,
        optimizeDeps: { include: browserDeps },
        test: {
          name: 'browser',
          include: ['test/browser/**/*.test.tsx'],
          exclude: ['test/browser/isolated/**'],
          testTimeout: 60_000,
          browser: { enabled: true, headless: true, provider: chromium(), instances: [{ browser: 'chromium', viewport: { width: 800, height: 600 } }] },
        },
      },
      {
        // The tests that need a cross-origin isolated page (SharedArrayBuffer: sinew-physics/worker's shared transport).
        extends: true,
        optimizeDeps: { include: browserDeps },
        server: { headers: { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' } },
        test: {
          name: 'browser-isolated',
          include: ['test/browser/isolated/**/*.test.tsx'],
          testTimeout: 60_000,
          browser: { enabled: true, headless: true, provider: chromium(), instances: [{ browser: 'chromium', viewport: { width: 800, height: 600 } }] },
        },
      },
      {
        extends: true,
        plugins: [storybookTest({ configDir: '.storybook' })],
        optimizeDeps: { include: browserDeps },
        test: {
          name: 'storybook',
          setupFiles: ['.storybook/vitest.setup.ts'],
          // As above, for a hang: a play function that waits for world time (the Rapier
          // hammock, 29 s with three suites on two cores) runs slower than real time there.
          testTimeout: 60_000,
          browser: { enabled: true, headless: true, provider: chromium(), instances: [{ browser: 'chromium', viewport: { width: 800, height: 600 } }] },
        },
      },
    ],
  },
});
