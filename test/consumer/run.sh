#!/usr/bin/env bash
# A user's project, run against sinew as npm would deliver it: packs the built
# repository (run `npm run build` first), installs the tarball into a temporary
# copy of this fixture with the fixture's pinned versions, type-checks it against
# the published declarations and runs its vitest tests, plus the README's
# "Testing your scene" example with the README's config.
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

# --ignore-scripts: dist/ is built already; `prepare` would only rebuild the
# WebAssembly module that the build has bundled in.
npm pack --ignore-scripts --silent --pack-destination "$work" >/dev/null
mv "$work"/sinew-*.tgz "$work/sinew.tgz"

mkdir "$work/app"
cp -R "$fixture/src" "$fixture/test" "$fixture/package.json" "$fixture/tsconfig.json" "$fixture/vitest.config.ts" "$fixture/vitest.setup.ts" "$work/app/"
cp "$root/test/react/readme/tyreSwing.test.tsx" "$work/app/test/readme.test.tsx"
cd "$work/app"

# The tarball's package.json still has a `prepare` script (scripts/build-wasm.mjs,
# not in the package; issue 15 removes it). npm does not run `prepare` for a
# tarball dependency, so a plain install works.
npm install --no-audit --no-fund --loglevel=error

# The main entry must not need the optional peer @react-three/test-renderer.
if grep -l '@react-three/test-renderer' node_modules/sinew/dist/*.js | grep -v '/testing\.js$'; then
  echo "test/consumer/run.sh: the files above import @react-three/test-renderer, which only sinew/testing may" >&2
  exit 1
fi

npx tsc --noEmit
npx vitest run
echo "test/consumer/run.sh: passed in $((SECONDS - start)) s"
