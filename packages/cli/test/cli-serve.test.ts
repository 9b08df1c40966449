import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// The CLI package does not depend on the client; the test reaches it through the workspace.
import { createKytClient } from "../../client/src/index.js";
import { exited, firstLine, runInProcess, start } from "./cli-process.js";

const ENV_KEY = { keyId: "scripted-key-01", secret: "scripted-secret-0123456789", account: "acme" };

/** Runs a command in this process, on the same database file the server uses. */
async function openkyt(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  return runInProcess(argv);
}

describe("openkyt serve as a process, with keys managed beside it", () => {
  let dir: string;
  let db: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "openkyt-cli-"));
    db = join(dir, "kyt.db");
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("keys create prints the id and secret once; serve answers signed requests; revoke is immediate; SIGTERM exits 0", async () => {
    const created = await openkyt("keys", "create", "--account", "acme", "--db", db, "--json");
    expect(created.code).toBe(0);
    const key = JSON.parse(created.out) as { id: string; secret: string; account: string };
    expect(key.account).toBe("acme");
    expect(key.secret).toMatch(/^[A-Za-z0-9]{64}$/);
    expect(created.err).toMatch(/OPENKYT_VAULT_KEY is not set/);
    const plain = await openkyt("keys", "create", "--account", "acme", "--db", db);
    expect(plain.out).toMatch(/^key id: \w{32}\nsecret: \w{64}\naccount: acme\n$/);

    const listed = await openkyt("keys", "list", "--account", "acme", "--db", db, "--json");
    expect(listed.code).toBe(0);
    expect(listed.out).not.toContain(key.secret);
    expect(JSON.parse(listed.out)).toEqual([
      expect.objectContaining({ id: key.id, revoked_at: null }),
      expect.objectContaining({ revoked_at: null }),
    ]);

    const server = start(["serve", "--port", "0", "--db", db, "--json"], {
      OPENKYT_API_KEYS: `${ENV_KEY.keyId}:${ENV_KEY.secret}:${ENV_KEY.account}`,
    });
    try {
      const { url, workers } = JSON.parse(await firstLine(server)) as { url: string; workers: boolean };
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(workers).toBe(true);
      const scripted = createKytClient({ baseUrl: url, keyId: ENV_KEY.keyId, secret: ENV_KEY.secret });
      const mine = createKytClient({ baseUrl: url, keyId: key.id, secret: key.secret });
      const check = await scripted.checkAddress({ network: "ETH", address: `0x${"ab".repeat(20)}` });
      // The job runner runs in the server: the check completes without anyone draining it.
      const done = await scripted.waitForManualCheck(check.id, { timeoutMs: 10_000, intervalMs: 50 });
      expect(done.check_status).toBe("checked");
      expect((await mine.listManualChecks()).total_items).toBe(1);
      // PDF reports: serve loads @openkyt/pdf on the first one.
      const report = await scripted.manualCheckReport(check.id);
      expect(new TextDecoder().decode(report.bytes.subarray(0, 5))).toBe("%PDF-");
      expect(report.fileName).toBe(`openkyt-manual-check-${check.id}.pdf`);

      const revoked = await openkyt("keys", "revoke", key.id, "--account", "acme", "--db", db);
      expect(revoked).toMatchObject({ code: 0, out: `revoked ${key.id}\n` });
      expect(await mine.listManualChecks().catch((e) => e)).toMatchObject({
        status: 401,
        code: "UNAUTHORIZED",
      });
      expect((await scripted.listManualChecks()).total_items).toBe(1);

      server.kill("SIGTERM");
      expect(await exited(server)).toBe(0);
    } finally {
      server.kill("SIGKILL");
    }
    const after = JSON.parse(
      (await openkyt("keys", "list", "--account", "acme", "--db", db, "--json")).out,
    ) as Array<{
      id: string;
      revoked_at: string | null;
    }>;
    expect(after.find((k) => k.id === key.id)?.revoked_at).not.toBeNull();
    expect((await openkyt("keys", "revoke", key.id, "--db", db)).code).toBe(1);
  });

  it("serve --warm screens from a warm ledger: a transfer imported beforehand is bound and checked", async () => {
    const ledger = join(dir, "ledger.csv");
    const from = `0x${"12".repeat(20)}`;
    const to = `0x${"34".repeat(20)}`;
    const hash = `0x${"56".repeat(32)}`;
    await writeFile(
      ledger,
      `network,tx_hash,log_index,token_id,from,to,amount,occurred_at\nETH,${hash},0,native,${from},${to},1.5,2024-01-01T00:00:00Z\n`,
    );
    const warmDb = join(dir, "warm.db");
    expect((await openkyt("import", "ledger", ledger, "--db", warmDb)).code).toBe(0);
    const server = start(["serve", "--warm", "--port", "0", "--db", warmDb, "--json"], {
      OPENKYT_API_KEYS: `${ENV_KEY.keyId}:${ENV_KEY.secret}:${ENV_KEY.account}`,
    });
    try {
      const { url } = JSON.parse(await firstLine(server)) as { url: string };
      const client = createKytClient({ baseUrl: url, keyId: ENV_KEY.keyId, secret: ENV_KEY.secret });
      const { id } = await client.registerTransfer({
        direction: "incoming",
        network: "ETH",
        tx_hash: hash,
        output_address: to,
      });
      const done = await client.waitUntilChecked(id, { timeoutMs: 10_000, intervalMs: 50 });
      expect(done).toMatchObject({ tx_status: "bound", amount: 1.5, risk_level: "none" });
      server.kill("SIGTERM");
      expect(await exited(server)).toBe(0);
    } finally {
      server.kill("SIGKILL");
    }
  });
});
