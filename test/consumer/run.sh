#!/usr/bin/env bash
# A user's project, run against sinew as npm would deliver it (run `npm run build`
# first). Packs the built repository, then:
# 1. a new user's app (readme/): installs the tarball with the README's exact
#    install line, checks npm installed nothing it was not asked for, type-checks
#    every entry's declarations with strict and skipLibCheck false on the repo's
#    TypeScript and on the oldest supported one, builds the README's Getting-started
#    app with Vite with and without sinew and fails when sinew adds more than
#    $BUNDLE_LIMIT_KB kB gzip or any of the worker layer, and opens it and a bad-props
#    scene in headless Chromium, where no error may reach the page as an uncaught one;
#    then opens the README's <World worker> as a built app, served cross-origin
#    isolated and not: the built worker file runs the physics, on the shared and the
#    transfer transport, and the positions read back are a main-thread World's;
# 2. a user's project with tests (this fixture): installs the tarball with the
#    fixture's pinned versions, type-checks and runs its vitest tests, plus the
#    README's "Testing your scene" example with the README's config; then builds the
#    README's Playground with Vite (app/) and drives it in Chromium (app/drive.mjs).
# The checks of part 1 all run and report before the step fails.
# KEEP_WORK=1 keeps the temporary projects for a look afterwards.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
fixture="$root/test/consumer"
cd "$root"

if [ ! -f dist/testing.js ] || [ -n "$(find src -newer dist/testing.js -type f -print -quit)" ]; then
  echo "test/consumer/run.sh: dist/ is missing or older than src/; run npm run build first" >&2
  exit 1
fi

work="$(mktemp -d)"
trap '[ -n "${KEEP_WORK:-}" ] || rm -rf "$work"' EXIT
start=$SECONDS
# The oldest TypeScript whose compiler reads the declarations (they use its generic
# typed arrays, Float64Array<ArrayBuffer>); CHANGELOG.md says so to users.
oldest_typescript=5.7.3
# What sinew may add to the Getting-started app, gzip: a newcomer's first scene should not cost more than a
# modest library; scripts/bundle-report.mjs shows which modules make up the figure. 62.8 kB measured: 49.4
# before the loaded solver, whose parts this app runs (long-range attachments for its pinned curtain and
# rope, the curtain as a surface to the rope, force-limited drags); 72.1 kB with the World-state work of
# issue 27 (feature registry, declared stages, id generations, checked settings), 74.1 kB with builders
# called through buildOn/makeOn for <World worker> and the drag's release as a world feature; not yet sorted
# into what this app needs and what it could leave out: a stopgap, docs/performance.md, "Bundle size".
BUNDLE_LIMIT_KB=76

# What npm would publish: dist/ (ES modules, one per source module, their source maps,
# declarations), README.md, LICENSE, CHANGELOG.md and package.json, and nothing else (no sources, scripts, tests or
# stories; no WebAssembly text: the build turns the binary into a JavaScript module).
npm pack --dry-run --json --ignore-scripts 2>/dev/null | node -e '
  const [pack] = JSON.parse(require("fs").readFileSync(0, "utf8"));
  const files = pack.files.map((f) => f.path);
  const allowed = /^(README\.md|package\.json|LICENSE|CHANGELOG\.md|dist\/[\w/.-]+\.js(\.map)?|dist\/types\/[\w/.-]+\.d\.ts)$/;
  const stray = files.filter((f) => !allowed.test(f));
  const entries = ["LICENSE", "CHANGELOG.md", "dist/index.js", "dist/core.js", "dist/teaching.js", "dist/testing.js", "dist/rapier.js", "dist/worker.js", "dist/worker/workerMain.js", "dist/types/index.d.ts", "dist/types/core/index.d.ts", "dist/types/teaching/index.d.ts", "dist/types/testing/index.d.ts", "dist/types/rapier/index.d.ts", "dist/types/worker/index.d.ts"];
  const missing = entries.filter((f) => !files.includes(f));
  if (stray.length || missing.length) {
    console.error("test/consumer/run.sh: the package would publish " + JSON.stringify(stray) + " and lacks " + JSON.stringify(missing));
    process.exit(1);
  }
  console.log("test/consumer/run.sh: the package holds " + files.length + " files, " + (pack.size / 1024).toFixed(0) + " kB packed");
'

# --ignore-scripts: dist/ is built already.
npm pack --ignore-scripts --silent --pack-destination "$work" >/dev/null
mv "$work"/sinew-physics-*.tgz "$work/sinew-physics.tgz"

# The published package.json runs nothing when installed: no install-time
# scripts (they would run, or warn, in every app that installs sinew).
tar -xzf "$work/sinew-physics.tgz" -C "$work" package/package.json
node -e '
  const { scripts = {} } = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
  const run = ["preinstall", "install", "postinstall", "prepare", "prepublish", "preprepare", "postprepare"].filter((name) => name in scripts);
  if (run.length) {
    console.error("test/consumer/run.sh: the packed package.json has install-time scripts: " + run.join(", "));
    process.exit(1);
  }
' "$work/package/package.json"

# 1. A new user's app, installed with the README's exact install line.
failed=()
install_line="$(grep -m1 '^npm install sinew-physics ' README.md)"
[ -n "$install_line" ] || { echo "test/consumer/run.sh: README.md has no 'npm install sinew-physics …' line" >&2; exit 1; }
cp -R "$fixture/readme" "$work/readme"
cp "$root/test/react/readme/GettingStarted.tsx" "$work/readme/GettingStarted.tsx"
cd "$work/readme"
echo "test/consumer/run.sh: ${install_line/sinew-physics /<the tarball> }"
# shellcheck disable=SC2086 # the README's words, split as a shell would split them
${install_line/sinew-physics / $work/sinew-physics.tgz } --no-audit --no-fund --loglevel=error
node peers.mjs || failed+=("installs only what was asked (peers.mjs)")

# What the app loads from each entry: nothing optional from the main one, nothing at all from the engine.
shared='react|react-dom|react/jsx-runtime|three|three/examples/jsm/[\w/.]+|@react-three/fiber|@react-three/drei|zustand|zustand/vanilla'
graph() { node "$fixture/importGraph.mjs" node_modules/sinew-physics "$1" "$2" || failed+=("what $1 loads (importGraph.mjs)"); }
graph dist/index.js "^($shared)\$"
graph dist/core.js '^$'
graph dist/teaching.js '^$'
graph dist/testing.js "^($shared|@react-three/test-renderer)\$"
graph dist/rapier.js "^($shared|@react-three/rapier)\$"
graph dist/worker.js '^$'
graph dist/worker/workerMain.js '^$'

# The tools a Vite + TypeScript app adds (and a tester's renderer, for sinew-physics/testing's
# declarations), at the fixture's pinned versions.
tools="$(node -e '
  const f = require(process.argv[1]);
  const pinned = { ...f.dependencies, ...f.devDependencies };
  console.log(["typescript", "vite", "@vitejs/plugin-react", "@types/react", "@types/react-dom", "@types/three", "playwright-core", "@react-three/test-renderer"].map((n) => n + "@" + pinned[n]).join(" "));
' "$fixture/package.json")"
# shellcheck disable=SC2086
npm install -D $tools --no-audit --no-fund --loglevel=error

# Strict declarations on both compilers at once (two cores; each reads all of @types/three).
repo_typescript="$(node -p 'require("./node_modules/typescript/package.json").version')"
npx tsc -p tsconfig.json >"$work/tsc-repo.log" 2>&1 &
repo_tsc=$!
npx --yes -p "typescript@$oldest_typescript" tsc -p tsconfig.json >"$work/tsc-oldest.log" 2>&1 &
oldest_tsc=$!
for run in "$repo_typescript:$repo_tsc:$work/tsc-repo.log" "$oldest_typescript:$oldest_tsc:$work/tsc-oldest.log"; do
  IFS=: read -r version pid log <<<"$run"
  if wait "$pid"; then
    echo "test/consumer/run.sh: the declarations type-check strictly (skipLibCheck false) on TypeScript $version"
  else
    echo "test/consumer/run.sh: the declarations fail a strict type check on TypeScript $version:" >&2
    grep -E 'error TS' "$log" | head -20 >&2
    failed+=("strict types on TypeScript $version")
  fi
done

node bundle.mjs GettingStarted.tsx BadProps.tsx WorkerScene.tsx "$BUNDLE_LIMIT_KB" || failed+=("bundle size (bundle.mjs)")
node drive.mjs "$fixture/screenshots/readme" || failed+=("no uncaught errors in Chromium (drive.mjs)")
node worker.mjs "$fixture/screenshots/readme" || failed+=("<World worker> in the built app, isolated and not (worker.mjs)")
cd "$root"

# 2. A user's project with tests.
mkdir "$work/app"
cp -R "$fixture/src" "$fixture/test" "$fixture/app" "$fixture/package.json" "$fixture/tsconfig.json" "$fixture/vitest.config.ts" "$fixture/vitest.setup.ts" "$work/app/"
cp "$root/test/react/readme/tyreSwing.test.tsx" "$work/app/test/readme.test.tsx"
# The README's "Getting started" app, type-checked against the published declarations.
cp "$root/test/react/readme/GettingStarted.tsx" "$work/app/src/GettingStarted.tsx"
# The README's Playground, rendered in Chromium by the Vite app in app/.
cp "$root/test/react/readme/Playground.tsx" "$work/app/app/src/Playground.tsx"
cd "$work/app"

npm install --no-audit --no-fund --loglevel=error

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
if [ "${#failed[@]}" -gt 0 ]; then
  printf 'test/consumer/run.sh: failed: %s\n' "${failed[@]}" >&2
  echo "test/consumer/run.sh: failed in $((SECONDS - start)) s" >&2
  exit 1
fi
echo "test/consumer/run.sh: passed in $((SECONDS - start)) s"
