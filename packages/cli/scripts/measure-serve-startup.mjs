// Prints how long `openkyt serve` takes from spawn until it prints where it listens, on a fresh
// SQLite file each run (so migrations run every time), then stops it with SIGTERM.
// usage: node packages/cli/scripts/measure-serve-startup.mjs [runs=5]
//   OPENKYT_FROM_SOURCE=1 measures the TypeScript sources instead of dist/.
import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const bin = fileURLToPath(new URL("../bin/openkyt.js", import.meta.url));
const runs = Number(process.argv[2] ?? 5);

function once(db) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [bin, "serve", "--port", "0", "--db", db, "--log-level", "warn"], {
      env: { ...process.env, OPENKYT_API_KEYS: "startup-key-01:startup-secret-0123456789:bench" },
      stdio: ["ignore", "pipe", "ignore"],
    });
    let ms = null;
    child.stdout.once("data", () => {
      ms = performance.now() - started;
      child.kill("SIGTERM");
    });
    child.on("exit", (code) => (ms === null ? reject(new Error(`exited ${code}`)) : resolve({ ms, code })));
  });
}

const dir = await mkdtemp(join(tmpdir(), "openkyt-startup-"));
const times = [];
try {
  for (let i = 0; i < runs; i += 1) {
    const { ms, code } = await once(join(dir, `run-${i}.db`));
    times.push(ms);
    console.log(`run ${i + 1}: ${ms.toFixed(0)} ms to listening, exit ${code}`);
  }
} finally {
  await rm(dir, { recursive: true, force: true });
}
times.sort((a, b) => a - b);
const mode = process.env.OPENKYT_FROM_SOURCE ? "sources (tsx)" : "dist if built";
console.log(
  `openkyt serve start-up (${mode}): min ${times[0].toFixed(0)} ms, median ${times[Math.floor(times.length / 2)].toFixed(0)} ms`,
);
