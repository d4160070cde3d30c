// Builds the README's Getting-started app with Vite twice, as written and with
// every sinew component replaced by a stub that renders its children, and
// prints what sinew adds (gzip, kB of 1000 bytes as Vite reports them). Fails
// over the limit, and when the app with sinew holds @react-three/drei modules
// that the app without it does not (sinew must not pull in drei code, such as
// <IKHandle>'s gizmo, that the app does not use), or any of the worker layer
// (sinew-physics/worker beyond the builders the components call, or a worker
// file). Also builds the bad-props scene for drive.mjs and the worker scene for
// worker.mjs, which must come out with its worker as a file of its own. Run
// from the installed app's directory:
//   node bundle.mjs GettingStarted.tsx BadProps.tsx WorkerScene.tsx LIMIT_KB
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { build } from 'vite';

const [gettingStarted, badProps, workerScene, limit] = process.argv.slice(2);
const limitKb = Number(limit);
const pages = resolve('pages');
const importLine = /^import\s*\{([^}]*)\}\s*from\s*'sinew-physics';\n/m;

/** main.tsx for an app module that exports its App by default or by name, as the README may. */
function main(source) {
  if (/^export\s+default\s/m.test(source)) return "import App from './App';\n";
  if (/^export\s+(function|const)\s+App\b/m.test(source)) return "import { App } from './App';\n";
  throw new Error('bundle.mjs: the app exports neither a default nor an App');
}

/** Builds `source` as a page of its own; returns the gzip size of its JavaScript and the modules in it. */
async function page(name, source) {
  const dir = join(pages, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'App.tsx'), source);
  writeFileSync(join(dir, 'main.tsx'), `import { createRoot } from 'react-dom/client';\n${main(source)}\ncreateRoot(document.getElementById('root')!).render(<App />);\n`);
  writeFileSync(
    join(dir, 'index.html'),
    `<!doctype html>\n<html lang="en">\n<head><meta charset="utf-8" /><link rel="icon" href="data:," /><title>${name}</title><style>html, body, #root { margin: 0; width: 100%; height: 100%; }</style></head>\n<body><div id="root"></div><script type="module" src="./main.tsx"></script></body>\n</html>\n`,
  );
  const output = await build({ root: dir, base: './', logLevel: 'warn', plugins: [react()], build: { outDir: 'dist', chunkSizeWarningLimit: 5000 } });
  let gzip = 0;
  const modules = new Set();
  for (const result of [output].flat())
    for (const chunk of result.output)
      if (chunk.type === 'chunk') {
        gzip += gzipSync(chunk.code).length;
        for (const [id, info] of Object.entries(chunk.modules)) if (info.renderedLength > 0) modules.add(id);
      }
  return { gzip, modules };
}

const app = readFileSync(gettingStarted, 'utf8');
const found = app.match(importLine);
if (!found) throw new Error(`bundle.mjs: ${gettingStarted} has no import from 'sinew-physics'`);
const names = found[1]
  .split(',')
  .map((name) => name.trim())
  .filter(Boolean);
// Components only: a stub that renders its children keeps the rest of the app as it is.
if (names.some((name) => !/^[A-Z]/.test(name))) throw new Error(`bundle.mjs: the app imports ${names.join(', ')}; only components can be stubbed`);
const stubs = names.map((name) => `const ${name} = (props: { children?: React.ReactNode }) => props.children ?? null;\n`).join('');

const withSinew = await page('with', app);
const without = await page('without', app.replace(importLine, stubs));
await page('bad-props', readFileSync(badProps, 'utf8'));
await page('worker', readFileSync(workerScene, 'utf8'));

const kb = (bytes) => (bytes / 1000).toFixed(1);
const delta = withSinew.gzip - without.gzip;
console.log(`bundle.mjs: Getting-started app ${kb(withSinew.gzip)} kB gzip with sinew, ${kb(without.gzip)} kB without: sinew adds ${kb(delta)} kB gzip (limit ${limitKb} kB)`);

const drei = (modules) => [...modules].filter((id) => id.includes('/node_modules/@react-three/drei/'));
const extraDrei = drei(withSinew.modules).filter((id) => !without.modules.has(id));
let failed = false;
if (extraDrei.length > 0) {
  console.error(`bundle.mjs: sinew brings @react-three/drei code the app does not use: ${extraDrei.map((id) => id.replace(/.*\/drei\//, '')).join(', ')}`);
  failed = true;
}
// The components reach dist/worker/builders.js (buildOn, makeOn), which imports nothing; the rest of
// the worker layer, and the worker's own file, only an app that imports sinew-physics/worker.
const workerFiles = (name) => readdirSync(join(pages, name, 'dist', 'assets')).filter((file) => file.startsWith('workerMain'));
const workerLayer = [...withSinew.modules].filter((id) => /\/sinew-physics\/dist\/worker\//.test(id) && !id.endsWith('/dist/worker/builders.js'));
if (workerLayer.length > 0 || workerFiles('with').length > 0) {
  console.error(`bundle.mjs: the Getting-started app carries the worker layer: ${[...workerLayer.map((id) => id.replace(/.*\/dist\//, 'dist/')), ...workerFiles('with')].join(', ')}`);
  failed = true;
}
if (workerFiles('worker').length !== 1) {
  console.error(`bundle.mjs: the worker scene's build holds ${JSON.stringify(workerFiles('worker'))} in assets/, expected one workerMain-….js`);
  failed = true;
}
if (delta > limitKb * 1000) {
  console.error(`bundle.mjs: sinew adds ${kb(delta)} kB gzip to the Getting-started app, over the ${limitKb} kB limit`);
  failed = true;
}
process.exit(failed ? 1 : 0);
