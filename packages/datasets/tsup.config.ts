import { defineConfig } from "tsup";

export default defineConfig({
  entry: ["src/index.ts", "src/ledger-thread-worker.ts", "src/utxo-thread-worker.ts"],
  format: ["esm"],
  dts: true,
  clean: true,
  sourcemap: true,
  target: "node20",
});
