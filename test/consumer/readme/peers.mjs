// Run in an app right after the README's install line: npm must have installed
// what the line asked for and nothing else. Fails when npm reports a problem
// (an extraneous, invalid or missing package) or when sinew-physics resolved an
// optional peer (or a former peer) that the line did not ask for.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const pkg = JSON.parse(readFileSync(join('node_modules', 'sinew-physics', 'package.json'), 'utf8'));
const optional = Object.keys(pkg.peerDependenciesMeta ?? {}).filter((name) => pkg.peerDependenciesMeta[name].optional);
// Packages sinew asked for once and no longer does: they must not come back.
const formerPeers = ['@dimforge/rapier3d-compat'];

let tree;
try {
  tree = JSON.parse(execFileSync('npm', ['ls', '--all', '--json'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }));
} catch (error) {
  // npm ls exits non-zero when it finds problems; its JSON is still on stdout.
  tree = JSON.parse(error.stdout);
}

const failures = [...(tree.problems ?? [])];
let count = 0;
(function walk(node) {
  for (const [name, child] of Object.entries(node.dependencies ?? {})) {
    // An optional peer nobody installed is listed without a version.
    if (child.version === undefined) continue;
    count++;
    if (name === 'sinew-physics')
      for (const peer of new Set([...optional, ...formerPeers]))
        if (child.dependencies?.[peer]?.version) failures.push(`sinew-physics resolved ${peer}@${child.dependencies[peer].version}, which the app did not ask for`);
    walk(child);
  }
})(tree);

if (failures.length > 0) {
  console.error(`peers.mjs: the README's install line installed more than it asked for:\n  ${failures.join('\n  ')}`);
  process.exit(1);
}
console.log(`peers.mjs: ${count} packages, none extraneous; no optional peer of sinew-physics (${optional.join(', ')}) installed`);
