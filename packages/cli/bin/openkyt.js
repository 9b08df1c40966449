#!/usr/bin/env node
// Runs the built CLI (dist/main.js, which the README's set-up builds) when present: start-up
// imports only the dispatch table. Without dist/, or with OPENKYT_FROM_SOURCE=1, it runs the
// TypeScript sources through tsx (in the repository only), resolving workspace packages through
// their "source" export condition; after changing sources, rebuild (npm run build) or set it.
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
