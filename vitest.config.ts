import { defineConfig } from "vitest/config";

// Tests run against the TypeScript sources: every package exports a "source" condition.
export default defineConfig({
  resolve: { conditions: ["source"] },
  ssr: { resolve: { conditions: ["source"] } },
  test: {
    include: [
      "packages/*/test/**/*.test.ts",
      "examples/*/test/**/*.test.ts",
      "bench/test/**/*.test.ts",
      "docs/test/**/*.test.ts",
      "scripts/test/**/*.test.ts",
    ],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
  },
});
