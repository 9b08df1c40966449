import { spawnSync } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createSqliteStore } from "@openkyt/store-sqlite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// The CLI package does not depend on the client at runtime; the test reaches it through the workspace.
import { createKytClient } from "../../client/src/index.js";
import { type CliIo, COMMANDS, runCli, shareText } from "../src/index.js";
import { exited, firstLine, start } from "./cli-process.js";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const PRINTED_URL = "http://127.0.0.1:8080";

let dir = "";
let db = "";
let printed = "";
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "openkyt-demo-serve-"));
  db = join(dir, "demo.db");
  const io: CliIo = {
    env: {},
    stdout: (t) => {
      printed += t;
    },
    stderr: () => {},
    untilSignal: () => Promise.resolve("SIGTERM"),
  };
  expect(await runCli(["demo", "--no-serve", "--db", db, "--transfers", "2000"], io, COMMANDS)).toBe(0);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The value after `label` on a printed line. */
function printedValue(label: string): string {
  const match = new RegExp(`^ {2}${label} (\\S+)$`, "m").exec(printed);
  if (!match?.[1]) throw new Error(`the demo printed no "${label}" line:\n${printed}`);
  return match[1];
}

/** The printed shell lines from the `export` line through the curl after the comment that contains `comment`. */
function printedShell(comment: string, url: string): string {
  const lines = printed.split("\n").map((l) => l.trim());
  const exported = lines.find((l) => l.startsWith("export OPENKYT_KEY_ID="));
  const at = lines.findIndex((l) => l.startsWith("#") && l.includes(comment));
  const end = lines.findIndex((l, i) => i > at && l.includes("| curl "));
  if (!exported || at < 0 || end < 0) throw new Error(`no "${comment}" lines in:\n${printed}`);
  return [exported, ...lines.slice(at + 1, end + 1)].join("\n").replaceAll(PRINTED_URL, url);
}

/** Runs shell lines from the repository root (where scripts/sign-request.mjs is); answers stdout as JSON. */
function runShell(script: string): Record<string, unknown> {
  const run = spawnSync("bash", ["-euo", "pipefail", "-c", script], { cwd: ROOT, encoding: "utf8" });
  expect(run.stderr).toBe("");
  expect(run.status).toBe(0);
  return JSON.parse(run.stdout) as Record<string, unknown>;
}

describe("openkyt demo, then openkyt serve on its database", () => {
  it("prints each risk's share beside the transfer's total", () => {
    expect(printed).toContain(
      "Deposit whose funds came two hops from a sanctioned address\n  risk SEVERE (score 1), bound,",
    );
    expect(printed).toMatch(/origin_of_funds sanctions \(indirect\) 40\.0% of \$12,500 = \$5,000\n/);
    expect(printed).toMatch(/origin_of_funds mixer \(direct\) 100\.0% of \$2,500\n/);
    expect(shareText(0.4, 5_000, 12_500)).toBe(" 40.0% of $12,500 = $5,000");
    expect(shareText(1, 2_500, 2_500)).toBe(" 100.0% of $2,500");
    expect(shareText(0.25, null, 1_000.5)).toBe(" 25.0% of $1,000.5");
    expect(shareText(1, null, null)).toBe(" 100.0%");
    expect(shareText(null, 12.345, null)).toBe(" $12.35");
    expect(shareText(null, null, 10)).toBe("");
  });

  it("the printed key works with `openkyt serve --db` (no OPENKYT_API_KEYS); the printed curl registers a ledger transfer", async () => {
    const keyId = printedValue("key id");
    const secret = printedValue("secret");
    const register = printedShell("register a deposit", PRINTED_URL);
    const hash = /"tx_hash":"(0x[0-9a-f]{64})"/.exec(register)?.[1] ?? "";
    // The hash the curl registers is in the demo ledger.
    const store = await createSqliteStore({ filename: db, migrate: false });
    try {
      expect(await store.ledgerByTxHash("ETH", hash)).toHaveLength(1);
    } finally {
      await store.close();
    }
    const server = start(["serve", "--port", "0", "--db", db, "--json", "--log-level", "silent"], {
      OPENKYT_API_KEYS: "",
    });
    try {
      const { url } = JSON.parse(await firstLine(server)) as { url: string };
      const registered = runShell(printedShell("register a deposit", url));
      expect(registered).toMatchObject({ tx_hash: hash, direction: "incoming" });
      const client = createKytClient({ baseUrl: url, keyId, secret });
      const done = await client.waitUntilChecked(String(registered.id), {
        timeoutMs: 10_000,
        intervalMs: 50,
      });
      expect(done).toMatchObject({ tx_status: "bound", amount: 50, risk_level: "severe" });
      // The account is the demo's: its seven transfers (two BTC) and one attempt, and the one just registered.
      expect((await client.listTransfers()).total_items).toBe(9);
      const check = runShell(printedShell("check an address", url));
      expect(check).toMatchObject({ check_type: "single_address" });
      const screened = runShell(printedShell("read a transfer", url));
      expect(screened).toMatchObject({ tx_status: "bound", risk_level: "severe" });
      server.kill("SIGTERM");
      expect(await exited(server)).toBe(0);
    } finally {
      server.kill("SIGKILL");
    }
  });
});
