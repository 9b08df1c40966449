// Checks one packed tarball: every path its manifest points at (exports, main, types, bin) is
// a file the tarball holds, no export condition names `source` (the TypeScript sources stay in
// the repository), and the publishing fields are there. Prints nothing when all is well; else
// names each problem and exits 1. Usage: node scripts/check-tarball.mjs PACKAGE.tgz
import { execFileSync } from "node:child_process";

const tarball = process.argv[2];
if (!tarball) throw new Error("usage: node scripts/check-tarball.mjs PACKAGE.tgz");
const files = new Set(
  execFileSync("tar", ["-tzf", tarball], { encoding: "utf8" })
    .split("\n")
    .filter(Boolean)
    .map((f) => f.replace(/^package\//, "./")),
);
const manifest = JSON.parse(
  execFileSync("tar", ["-xzOf", tarball, "package/package.json"], { encoding: "utf8" }),
);
const problems = [];

/** Every target path of an exports value, with the conditions that lead to it. */
function targets(value, path = []) {
  if (typeof value === "string") return [[path, value]];
  if (value === null || typeof value !== "object") return [];
  return Object.entries(value).flatMap(([key, inner]) => targets(inner, [...path, key]));
}

for (const [conditions, target] of targets(manifest.exports ?? {})) {
  if (conditions.includes("source")) problems.push(`exports ${conditions.join(" > ")} is a source condition`);
  if (!files.has(target.startsWith("./") ? target : `./${target}`)) {
    problems.push(`exports ${conditions.join(" > ")} -> ${target}: not in the tarball`);
  }
}
const single = { main: manifest.main, types: manifest.types };
const bins = typeof manifest.bin === "string" ? { bin: manifest.bin } : (manifest.bin ?? {});
for (const [field, target] of Object.entries({ ...single, ...bins })) {
  if (target !== undefined && !files.has(`./${String(target).replace(/^\.\//, "")}`)) {
    problems.push(`${field} -> ${target}: not in the tarball`);
  }
}
for (const field of ["license", "repository", "engines", "files"]) {
  if (manifest[field] === undefined) problems.push(`no ${field}`);
}
if (manifest.publishConfig?.provenance !== true) problems.push("publishConfig.provenance is not true");
if (!files.has("./LICENSE")) problems.push("no LICENSE file (the prepack script copies it)");
if (JSON.stringify(manifest).includes("workspace:")) problems.push("a workspace: version was left in");

if (problems.length > 0) {
  for (const p of problems) console.error(`check-packages: ${manifest.name}: ${p}`);
  process.exit(1);
}
