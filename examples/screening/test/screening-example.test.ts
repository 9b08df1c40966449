/**
 * The screening example runs as its README line says and exits on its own: it screens the demo's
 * transfers with the job runner started, drains, and prints what the engine found.
 */
import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { expect, it } from "vitest";

const EXAMPLE = fileURLToPath(new URL("..", import.meta.url));

it("screens the demo world and exits 0 with every transfer settled", { timeout: 90_000 }, async () => {
  const dir = await mkdtemp(join(tmpdir(), "openkyt-example-"));
  try {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ["--conditions=source", "--import", "tsx", "src/main.ts", join(dir, "example.db")],
      { cwd: EXAMPLE, timeout: 80_000 },
    );
    expect(stdout).toMatch(/ledger transfers in /);
    expect(stdout).toMatch(/risk SEVERE \(score 1\), bound/);
    expect(stdout).toMatch(/Address check: .*\n {2}risk SEVERE \(score 1\), checked/);
    // Drained: nothing is left binding or checking.
    expect(stdout).not.toMatch(/binding|checking/);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
