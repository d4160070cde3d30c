import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'vite';
import type * as source from '../../src/core/index.js';

/** The `sinew-physics/core` module: the source when imported in a test, the built library here. */
export type Engine = typeof source;

/**
 * Builds `src/core` the way `npm run build` does (Vite library mode, one ES
 * module) into a temporary directory and imports it. The benches time this
 * bundle, what an application runs: under vitest's module runner every call
 * across modules becomes a property load on a module object, which costs the
 * collision-heavy frame scenario about half as much again (the cloth loop, which
 * stays inside one module, is unaffected).
 */
export async function builtEngine(): Promise<Engine> {
  const dir = mkdtempSync(join(tmpdir(), 'sinew-bench-'));
  try {
    await build({
      configFile: false,
      logLevel: 'silent',
      build: { outDir: dir, emptyOutDir: true, minify: false, lib: { entry: resolve(import.meta.dirname, '../../src/core/index.ts'), formats: ['es'], fileName: () => 'core.js' } },
    });
    return (await import(pathToFileURL(join(dir, 'core.js')).href)) as Engine;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
