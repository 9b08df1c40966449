/**
 * The live-chain example runs as its README line says and exits on its own: a deposit sent on
 * anvil after `follow` and `serve --chain` started is bound and checked, with no import.
 */
import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { expect, it } from "vitest";

const EXAMPLE = fileURLToPath(new URL("..", import.meta.url));

it("binds and checks a deposit sent on a live chain, then stops everything", {
  timeout: 120_000,
}, async () => {
  const dir = await mkdtemp(join(tmpdir(), "openkyt-live-chain-"));
  try {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ["--conditions=source", "--import", "tsx", "src/main.ts", join(dir, "live.db")],
      { cwd: EXAMPLE, timeout: 110_000 },
    );
    expect(stdout).toMatch(/following ETH into .*live\.db; serving http:\/\/127\.0\.0\.1:\d+/);
    expect(stdout).toMatch(
      /registered [0-9a-f-]+: tx_status bound, 1\.5 ETH from 0x[0-9a-f]{40}, risk none, checked [\d.]+ s after it was sent/,
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
