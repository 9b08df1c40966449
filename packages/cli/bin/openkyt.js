#!/usr/bin/env node
// Runs the built CLI when present, else the TypeScript sources through tsx (in the repository).
import { existsSync } from "node:fs";
import { register } from "node:module";

const built = new URL("../dist/main.js", import.meta.url);
if (existsSync(built)) {
  await import(built.href);
} else {
  register("tsx/esm", import.meta.url);
  await import(new URL("../src/main.ts", import.meta.url).href);
}
