#!/usr/bin/env bash
# Packs every publishable package (not private) of the workspace into DEST as npm tarballs, the
# way they would be published: pnpm turns workspace:* into versions and applies publishConfig
# (the published exports have no `source` condition), and each package's prepack copies the
# LICENSE in. Needs the packages built (`npm run setup`). Prints each tarball's path, one a line.
# Usage: scripts/pack-packages.sh DEST   (or: npm run pack -- DEST)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
dest=${1:?usage: scripts/pack-packages.sh DEST}
mkdir -p "$dest"
dest=$(cd "$dest" && pwd)
for dir in "$root"/packages/*/; do
  [ "$(node -p "Boolean(require('$dir/package.json').private)")" = "true" ] && continue
  name=$(node -p "require('$dir/package.json').name")
  [ -d "$dir/dist" ] || { echo "pack-packages: $name is not built (run npm run setup)" >&2; exit 1; }
  (cd "$dir" && npx -y pnpm@10.34.8 pack --pack-destination "$dest" >/dev/null)
  tarball="$dest/$(node -p "const m = require('$dir/package.json'); m.name.slice(1).replace('/', '-') + '-' + m.version + '.tgz'")"
  [ -f "$tarball" ] || { echo "pack-packages: $name did not pack into $tarball" >&2; exit 1; }
  echo "$tarball"
done
