// What each sinew module adds to the README's Getting-started app: builds it with Vite against
// dist/ (run `npm run build` first) as written and with every sinew component stubbed out (as
// test/consumer/readme/bundle.mjs does with the packed package), prints the gzip delta, then one
// row per sinew module the app reaches: its rendered length, its length minified on its own, and
// that gzipped on its own (a module's share, not additive: gzip finds repeats across modules).
//   node scripts/bundle-report.mjs [APP.tsx] [--all]
// --all lists every module, not just the 40 largest; APP defaults to the Getting-started app.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { transform } from 'esbuild';
import { build } from 'vite';

const root = resolve(import.meta.dirname, '..');
const args = process.argv.slice(2);
const all = args.includes('--all');
const appFile = args.find((a) => !a.startsWith('--')) ?? join(root, 'test/react/readme/GettingStarted.tsx');
const work = join(root, 'node_modules/.bundle-report');
const importLine = /^import\s*\{([^}]*)\}\s*from\s*'sinew-physics';\n/m;
const entry = join(root, 'dist/index.js');

/** Builds `source` as an app of its own; returns its chunks. */
async function page(name, source, minify) {
  const dir = join(work, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'App.tsx'), source);
  writeFileSync(join(dir, 'main.tsx'), "import { createRoot } from 'react-dom/client';\nimport App from './App';\ncreateRoot(document.getElementById('root')!).render(<App />);\n");
  writeFileSync(join(dir, 'index.html'), '<!doctype html><html><body><div id="root"></div><script type="module" src="./main.tsx"></script></body></html>\n');
  const output = await build({
    root: dir,
    base: './',
    configFile: false,
    logLevel: 'warn',
    plugins: [react()],
    resolve: { alias: [{ find: /^sinew-physics$/, replacement: entry }] },
    build: { outDir: 'dist', minify, chunkSizeWarningLimit: 5000, write: false },
  });
  return [output]
    .flat()
    .flatMap((r) => r.output)
    .filter((c) => c.type === 'chunk');
}

const gzip = (chunks) => chunks.reduce((sum, c) => sum + gzipSync(c.code).length, 0);
const app = readFileSync(appFile, 'utf8');
const found = app.match(importLine);
if (!found) throw new Error(`bundle-report.mjs: ${appFile} has no import from 'sinew-physics'`);
const stubs = found[1]
  .split(',')
  .map((n) => n.trim())
  .filter(Boolean)
  .map((n) => `const ${n} = (props: { children?: React.ReactNode }) => props.children ?? null;\n`)
  .join('');

rmSync(work, { recursive: true, force: true });
const withSinew = await page('with', app, true);
const without = await page('without', app.replace(importLine, stubs), true);
const raw = await page('raw', app, false);
const kb = (bytes) => (bytes / 1000).toFixed(1);
const min = withSinew.reduce((s, c) => s + c.code.length, 0) - without.reduce((s, c) => s + c.code.length, 0);
console.log(`bundle-report.mjs: ${kb(gzip(withSinew))} kB gzip with sinew, ${kb(gzip(without))} kB without: sinew adds ${kb(gzip(withSinew) - gzip(without))} kB gzip (${kb(min)} kB minified)`);

const rows = [];
for (const chunk of raw)
  for (const [id, info] of Object.entries(chunk.modules)) {
    if (!id.startsWith(join(root, 'dist')) || !info.code || info.renderedLength === 0) continue;
    const minified = (await transform(info.code, { minify: true, loader: 'js' })).code;
    rows.push({ id: relative(join(root, 'dist'), id), rendered: info.renderedLength, minified: minified.length, gzip: gzipSync(minified).length });
  }
rows.sort((a, b) => b.minified - a.minified);
const total = rows.reduce((s, r) => ({ rendered: s.rendered + r.rendered, minified: s.minified + r.minified, gzip: s.gzip + r.gzip }), { rendered: 0, minified: 0, gzip: 0 });
console.log(`${rows.length} sinew modules; each minified and gzipped alone: ${kb(total.minified)} kB minified, ${kb(total.gzip)} kB gzip`);
console.log('rendered  minified  gzip  module');
for (const r of all ? rows : rows.slice(0, 40)) console.log(`${String(r.rendered).padStart(8)}  ${String(r.minified).padStart(8)}  ${String(r.gzip).padStart(5)}  ${r.id}`);
rmSync(work, { recursive: true, force: true });
