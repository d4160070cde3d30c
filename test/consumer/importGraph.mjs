// What an entry point of the installed package loads: follows its relative
// imports through dist/ and fails when a package it reaches is not allowed.
//   node importGraph.mjs PACKAGE_DIR ENTRY ALLOWED_REGEX
// e.g. node importGraph.mjs node_modules/sinew-physics dist/core.js '^$' (the engine imports no package).
import { readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

const [packageDir, entry, allowed] = process.argv.slice(2);
const allow = new RegExp(allowed);
const specifiers = /(?:^|[\s;}])(?:import|export)\b[^'"]*?from\s*['"]([^'"]+)['"]|\bimport\s*\(?\s*['"]([^'"]+)['"]/g;

const seen = new Set();
const packages = new Map();
const queue = [join(packageDir, entry)];
while (queue.length > 0) {
  const file = queue.pop();
  if (seen.has(file)) continue;
  seen.add(file);
  for (const match of readFileSync(file, 'utf8').matchAll(specifiers)) {
    const specifier = match[1] ?? match[2];
    if (specifier.startsWith('.')) queue.push(join(dirname(file), specifier));
    else if (!packages.has(specifier)) packages.set(specifier, relative(packageDir, file));
  }
}

const refused = [...packages].filter(([name]) => !allow.test(name));
if (refused.length > 0) {
  console.error(`importGraph.mjs: ${entry} loads ${refused.map(([name, from]) => `${name} (from ${from})`).join(', ')}; it may load only what matches ${allow}`);
  process.exit(1);
}
console.log(`importGraph.mjs: ${entry} loads ${seen.size} modules and the packages ${JSON.stringify([...packages.keys()].sort())}`);
