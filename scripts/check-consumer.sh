#!/usr/bin/env bash
# A TypeScript program of one's own, built against the packed packages as a user would: an empty
# folder, the runtime tarballs installed with plain npm, TypeScript, tsx and @types/node from the
# npm registry (the versions the repository uses), and the README's embedding example saved as
# embed.ts. It is type-checked and compiled twice, strict, under "module"/"moduleResolution"
# "NodeNext" and under "Bundler", with skipLibCheck off (so the packages' own .d.ts are checked
# too); each compiled embed.js runs with node, and embed.ts runs with tsx. Each run must screen
# the deposit as severe. Usage: scripts/check-consumer.sh TARBALL... (check-packages.sh calls it).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
[ "$#" -gt 0 ] || { echo "usage: scripts/check-consumer.sh TARBALL..." >&2; exit 2; }
app=$(mktemp -d)
trap 'rm -rf "$app"' EXIT
version() { node -p "require('$root/package.json').devDependencies['$1']"; }

cd "$app"
npm init -y >/dev/null
npm pkg set type=module private=true >/dev/null
npm install --no-audit --no-fund --loglevel=error "$@" >/dev/null
npm install --no-audit --no-fund --loglevel=error --save-dev \
  "typescript@$(version typescript)" "tsx@$(version tsx)" "@types/node@$(version @types/node)" >/dev/null

awk '/^## Embed it/{f=1} f && /^```ts$/{b=1; next} b && /^```$/{exit} b' "$root/README.md" > embed.ts
[ -s embed.ts ] || { echo "check-consumer: no ts block under ## Embed it in README.md" >&2; exit 1; }

expect_severe() {
  grep -q "^risk severe score 1 bound$" <<<"$2" || {
    printf '%s\n' "$2" | sed 's/^/  /' >&2
    echo "check-consumer: $1 did not screen the deposit as severe" >&2
    exit 1
  }
  echo "check-consumer: $1: risk severe score 1 bound"
}

for resolution in NodeNext Bundler; do
  module=$([ "$resolution" = NodeNext ] && echo NodeNext || echo ESNext)
  cat > "tsconfig.$resolution.json" <<JSON
{
  "compilerOptions": {
    "target": "ES2022",
    "module": "$module",
    "moduleResolution": "$resolution",
    "strict": true,
    "skipLibCheck": false,
    "types": ["node"],
    "outDir": "out-$resolution"
  },
  "files": ["embed.ts"]
}
JSON
  npx --no-install tsc -p "tsconfig.$resolution.json" || {
    echo "check-consumer: tsc failed under \"moduleResolution\": \"$resolution\" (strict)" >&2
    exit 1
  }
  rm -f kyt.db kyt.db-wal kyt.db-shm
  expect_severe "tsc ($resolution, strict) then node" "$(node "out-$resolution/embed.js")"
done
rm -f kyt.db kyt.db-wal kyt.db-shm
expect_severe "tsx embed.ts" "$(npx --no-install tsx embed.ts)"
