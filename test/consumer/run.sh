#!/usr/bin/env bash
# A user's project, run against sinew as npm would deliver it: packs the built
# repository (run `npm run build` first), installs the tarball into a temporary
# copy of this fixture with the fixture's pinned versions, type-checks it against
# the published declarations and runs its vitest tests, plus the README's
# "Testing your scene" example with the README's config; then builds the README's
# scene with Vite (app/) and drives it in headless Chromium (app/drive.mjs).
# KEEP_WORK=1 keeps the temporary project for a look afterwards.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
fixture="$root/test/consumer"
cd "$root"

if [ ! -f dist/testing.js ] || [ -n "$(find src -newer dist/testing.js -type f -print -quit)" ]; then
  echo "test/consumer/run.sh: dist/ is missing or older than src/; run npm run build first" >&2
  exit 1
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
start=$SECONDS

# What npm would publish: dist/ (ES modules, their source maps, declarations),
# README.md and package.json, and nothing else (no sources, scripts, tests or
# stories; no WebAssembly text or generated modules, which the build bundles in).
npm pack --dry-run --json --ignore-scripts 2>/dev/null | node -e '
  const [pack] = JSON.parse(require("fs").readFileSync(0, "utf8"));
  const files = pack.files.map((f) => f.path);
  const allowed = /^(README\.md|package\.json|LICENSE|dist\/[\w-]+\.js(\.map)?|dist\/types\/[\w/.-]+\.d\.ts)$/;
  const stray = files.filter((f) => !allowed.test(f));
  const entries = ["dist/index.js", "dist/core.js", "dist/teaching.js", "dist/testing.js", "dist/rapier.js", "dist/types/index.d.ts", "dist/types/core/index.d.ts", "dist/types/teaching/index.d.ts", "dist/types/testing/index.d.ts", "dist/types/rapier/index.d.ts"];
  const missing = entries.filter((f) => !files.includes(f));
  if (stray.length || missing.length) {
    console.error("test/consumer/run.sh: the package would publish " + JSON.stringify(stray) + " and lacks " + JSON.stringify(missing));
    process.exit(1);
  }
  console.log("test/consumer/run.sh: the package holds " + files.length + " files, " + (pack.size / 1024).toFixed(0) + " kB packed");
'

# --ignore-scripts: dist/ is built already.
npm pack --ignore-scripts --silent --pack-destination "$work" >/dev/null
mv "$work"/sinew-*.tgz "$work/sinew.tgz"

# The published package.json runs nothing when installed: no install-time
# scripts (they would run, or warn, in every app that installs sinew).
tar -xzf "$work/sinew.tgz" -C "$work" package/package.json
node -e '
  const { scripts = {} } = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
  const run = ["preinstall", "install", "postinstall", "prepare", "prepublish", "preprepare", "postprepare"].filter((name) => name in scripts);
  if (run.length) {
    console.error("test/consumer/run.sh: the packed package.json has install-time scripts: " + run.join(", "));
    process.exit(1);
  }
' "$work/package/package.json"

mkdir "$work/app"
cp -R "$fixture/src" "$fixture/test" "$fixture/app" "$fixture/package.json" "$fixture/tsconfig.json" "$fixture/vitest.config.ts" "$fixture/vitest.setup.ts" "$work/app/"
cp "$root/test/react/readme/tyreSwing.test.tsx" "$work/app/test/readme.test.tsx"
# The README's "Getting started" app, type-checked against the published declarations.
cp "$root/test/react/readme/GettingStarted.tsx" "$work/app/src/GettingStarted.tsx"
# The README's Playground, rendered in Chromium by the Vite app in app/.
cp "$root/test/react/readme/Playground.tsx" "$work/app/app/src/Playground.tsx"
cd "$work/app"

npm install --no-audit --no-fund --loglevel=error

# The main entry must not need the optional peer @react-three/test-renderer.
if grep -l '@react-three/test-renderer' node_modules/sinew-physics/dist/*.js | grep -v '/testing\.js$'; then
  echo "test/consumer/run.sh: the files above import @react-three/test-renderer, which only sinew-physics/testing may" >&2
  exit 1
fi

# Nor the optional peers @react-three/rapier and @dimforge/rapier3d-compat: only sinew-physics/rapier
# may import them (from dist/rapier.js itself, or a chunk only it loads).
if grep -lE "from ['\"](@react-three/rapier|@dimforge/)" node_modules/sinew-physics/dist/*.js | grep -v '/rapier\.js$'; then
  echo "test/consumer/run.sh: the files above import Rapier, which only sinew-physics/rapier may" >&2
  exit 1
fi

npx tsc --noEmit
npx vitest run

# The README scene in headless Chromium, served on 127.0.0.1 only: app/drive.mjs
# drags the ragdoll into the floor with real pointer events and checks what the
# page measured (app/src/withChecks.tsx); screenshots in test/consumer/screenshots.
npx vite build app --logLevel warn
port="$(node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')"
npx vite preview app --host 127.0.0.1 --port "$port" --strictPort >"$work/preview.log" 2>&1 &
preview=$!
trap 'kill "$preview" 2>/dev/null; [ -n "${KEEP_WORK:-}" ] || rm -rf "$work"' EXIT
for _ in $(seq 50); do curl -sf "http://127.0.0.1:$port/" >/dev/null && break; sleep 0.2; done
node app/drive.mjs "http://127.0.0.1:$port/?check" "$fixture/screenshots"
echo "test/consumer/run.sh: passed in $((SECONDS - start)) s"
