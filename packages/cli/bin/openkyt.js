#!/usr/bin/env node
// Runs the built CLI (dist/main.js) when present; else, in the repository, the TypeScript
// sources through tsx, resolving workspace packages through their "source" export condition.
import { existsSync } from "node:fs";
import { register } from "node:module";

const built = new URL("../dist/main.js", import.meta.url);
if (existsSync(built) && !process.env.OPENKYT_FROM_SOURCE) {
  await import(built.href);
} else {
  const tsx = await import("tsx/esm/api");
  tsx.register();
  register("./source-conditions.mjs", import.meta.url);
  await import(new URL("../src/main.ts", import.meta.url).href);
}
