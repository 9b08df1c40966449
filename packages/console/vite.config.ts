import { defineConfig } from "vite";

// The console is served by `openkyt serve` at /console/; every asset is bundled (no CDN, no remote font).
export default defineConfig({
  base: "/console/",
  esbuild: { jsx: "automatic", jsxImportSource: "preact" },
  build: {
    outDir: "dist",
    emptyOutDir: true,
    target: "es2022",
    assetsInlineLimit: 0,
    reportCompressedSize: true,
    // Lazily loaded chunks (the funds-flow graph) need no <link rel=modulepreload> list: smaller first screen.
    modulePreload: false,
  },
});
