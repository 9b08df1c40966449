import { defineConfig } from "tsup";

// Two entries: the package, and `@openkyt/core/wire`, the browser-safe tables the console bundles.
export default defineConfig({
  entry: ["src/index.ts", "src/wire.ts"],
  format: ["esm"],
  dts: true,
  clean: true,
  sourcemap: true,
  target: "node20",
});
