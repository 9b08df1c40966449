#!/usr/bin/env bash
# Each publishable package installs and runs alone: packs every package that is not private
# (pnpm pack turns workspace:* into the versions), installs the runtime ones into an empty
# folder with plain npm, checks that no test tool came along, then runs the README's embedding
# example (its first ts block under "## Embed it", as plain JavaScript), loads the browser entry
# `@openkyt/core/wire` and runs `openkyt --help` there. Each tarball's manifest names only files
# it holds (scripts/check-tarball.mjs), and a TypeScript program of one's own builds against the
# packages under NodeNext and Bundler resolution (scripts/check-consumer.sh). Needs the packages
# built (npm test builds them). Prints what it checked; exits non-zero naming the step that failed.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/packs" "$work/app"

# Test utilities are published for adopters' test suites, not installed at run time.
TEST_ONLY="@openkyt/testkit"
runtime=()
bash "$root/scripts/pack-packages.sh" "$work/packs" > "$work/tarballs.txt"
mapfile -t tarballs < "$work/tarballs.txt"
for tarball in "${tarballs[@]}"; do
  node "$root/scripts/check-tarball.mjs" "$tarball"
  name=$(tar -xzOf "$tarball" package/package.json | node -p "JSON.parse(require('fs').readFileSync(0, 'utf8')).name")
  [ "$name" = "$TEST_ONLY" ] || runtime+=("$tarball")
done
echo "check-packages: packed $(ls "$work"/packs/*.tgz | wc -l) packages, each naming only files it ships; installing ${#runtime[@]} with npm into an empty folder"

cd "$work/app"
npm init -y >/dev/null
npm install --no-audit --no-fund --loglevel=error "${runtime[@]}" >/dev/null

for tool in vitest vite tsx fast-check @openkyt/testkit; do
  if [ -e "node_modules/$tool" ]; then
    echo "check-packages: $tool was installed with the runtime packages" >&2
    exit 1
  fi
done

awk '/^## Embed it/{f=1} f && /^```ts$/{b=1; next} b && /^```$/{exit} b' "$root/README.md" > embed.mjs
[ -s embed.mjs ] || { echo "check-packages: no ts block under ## Embed it in README.md" >&2; exit 1; }
out=$(node embed.mjs)
echo "$out" | sed 's/^/  embed: /'
echo "$out" | grep -q "^risk severe score 1 bound$" || { echo "check-packages: the embedding example did not screen the deposit as severe" >&2; exit 1; }

# The browser entry the console bundles is in core's tarball and loads on its own.
node --input-type=module -e 'const w = await import("@openkyt/core/wire"); if (!w.ALERT_STATUS_MACHINE) process.exit(1);' || {
  echo "check-packages: @openkyt/core/wire did not load from the installed core" >&2
  exit 1
}

help=$(npx --no-install openkyt --help)
echo "$help" | grep -q "openkyt" || { echo "check-packages: openkyt --help printed no usage" >&2; exit 1; }
version=$(npx --no-install openkyt --version)
npx --no-install openkyt demo --no-serve --db demo.db > demo.out 2>&1 || {
  tail -20 demo.out >&2
  echo "check-packages: openkyt demo --no-serve failed from the installed packages" >&2
  exit 1
}
grep -q "risk SEVERE" demo.out || { echo "check-packages: the demo found no severe risk" >&2; exit 1; }
echo "check-packages: openkyt $version (--help, demo) runs from the installed packages; no test tool installed"

# A TypeScript program of one's own: strict, NodeNext and Bundler, tsc and tsx.
bash "$root/scripts/check-consumer.sh" "${runtime[@]}"
