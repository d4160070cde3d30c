/// <reference types="vitest/config" />
import { playwright } from '@vitest/browser-playwright';
import { resolve } from 'node:path';
import { defineConfig, mergeConfig } from 'vite';
import base from '../../../vite.config.js';

// `npm run bench:browser`: the browser benchmarks, in headless Chromium, outside `npm test`
// (this config is not one of vite.config.ts's projects). The page is cross-origin isolated
// (COOP + COEP) for two reasons: performance.now() then ticks in 5 µs steps rather than
// 100 µs, and the worker can use either transport (SharedArrayBuffer or transferred buffers).
const root = resolve(import.meta.dirname, '../../..');
// The library build's settings and the test projects stay out: only the plugins and aliases carry over.
const shared = { plugins: base.plugins, resolve: base.resolve };

export default mergeConfig(
  shared,
  defineConfig({
    root,
    optimizeDeps: { include: ['react', 'react-dom', 'react-dom/client', 'react/jsx-runtime', 'react/jsx-dev-runtime', 'three', '@react-three/fiber', 'zustand', 'zustand/vanilla'] },
    server: { host: '127.0.0.1', headers: { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' } },
    test: {
      name: 'bench-browser',
      globals: true,
      include: ['test/bench/browser/**/*.browser.tsx'],
      // The whole run measures for about two minutes; a hang still fails.
      testTimeout: 240_000,
      browser: {
        enabled: true,
        api: { host: '127.0.0.1' },
        headless: true,
        provider: playwright({
          launchOptions: {
            executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
            args: ['--no-sandbox', '--enable-unsafe-swiftshader', '--use-angle=swiftshader', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
          },
        }),
        instances: [{ browser: 'chromium', viewport: { width: 800, height: 600 } }],
      },
    },
  }),
);
