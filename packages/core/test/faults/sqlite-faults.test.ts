import { mkdtemp, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSqliteStore } from "../../../store-sqlite/src/index.js";
import { createHarness, type Harness } from "../../../testkit/src/engine-harness.js";
import { loadWorld, TX, W } from "../../../testkit/src/engine-world.js";
import { type ChainSource, createEngine, type Store } from "../../src/index.js";
import { startFaultProcess } from "./fault-process.js";

const load = createRequire(new URL("../../../store-sqlite/package.json", import.meta.url));
const Database = load("better-sqlite3") as new (
  file: string,
) => { pragma(sql: string, options: { simple: true }): unknown; close(): void };

/** Runs due jobs, moving the clock past each backoff, until nothing is left. */
async function settle(h: Harness): Promise<void> {
  for (let i = 0; i < 10 && (await h.store.listJobs()).length > 0; i += 1) {
    await h.engine.drain();
    h.clock.advance(10_000);
  }
}

describe("faults of the store: SQLite busy mid-job, a process killed mid-transaction", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "openkyt-faults-"));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("another process holds the write lock while a bind job writes: retried, then error with the reason", {
    timeout: 60_000,
  }, async () => {
    const file = join(dir, "busy.db");
    let store: Store | null = null;
    let lockDuringLookup = true;
    const holder = startFaultProcess("./sqlite-lock-holder.ts", [file]);
    // The lookup answers once the other process holds the lock: the bind job's write then waits
    // the store's 5 s busy timeout and fails; the holder lets go 6 s after taking the lock.
    const chain: ChainSource = {
      async lookup(network, txHash) {
        const transfers = await (store as Store).ledgerByTxHash(network, txHash);
        if (lockDuringLookup) {
          const locks = holder.lines.filter((l) => l === "locked").length;
          holder.send("lock 6000");
          await holder.waitFor(() => holder.lines.filter((l) => l === "locked").length > locks);
        }
        return { kind: "found", transfers };
      },
    };
    const h = await createHarness(
      {
        name: "sqlite-file",
        createStore: async () => {
          store = await createSqliteStore({ filename: file });
          return store;
        },
      },
      { chainSource: chain, jobs: { maxAttempts: 2, backoffBaseMs: 1_000, backoffMaxMs: 10_000 } },
    );
    try {
      await holder.waitFor((l) => l === "ready");
      const failures: Array<{ reason: string; final: boolean }> = [];
      h.engine.events.on("job.failed", (f) => failures.push(f));
      const { transfer } = await h.acme.registerTransfer({
        direction: "incoming",
        network: "ETH",
        tx_hash: TX.deposit,
        output_address: W.client,
      });
      await settle(h);
      expect(failures.map((f) => f.final)).toEqual([false, true]);
      expect(failures[0]?.reason).toMatch(/database is locked/);
      const stored = await h.store.getTransfer(transfer.id);
      expect(stored).toMatchObject({ txStatus: "error", occurredAt: null, amount: null, inputAddress: null });
      expect(stored?.lastError).toMatch(/database is locked/);
      expect(await h.store.listJobs()).toEqual([]);
      // Still serving once the other writer is gone.
      lockDuringLookup = false;
      const next = await h.acme.registerTransfer({
        direction: "incoming",
        network: "ETH",
        tx_hash: TX.mixerDeposit,
        output_address: W.client,
      });
      await settle(h);
      expect(await h.acme.getTransfer(next.transfer.id)).toMatchObject({ tx_status: "bound", amount: 1 });
    } finally {
      await holder.kill();
      await h.close();
    }
  });

  it("a process SIGKILLed inside a transaction leaves neither the transfer nor its job", {
    timeout: 60_000,
  }, async () => {
    const file = join(dir, "hang.db");
    await (await createSqliteStore({ filename: file })).close();
    const writer = startFaultProcess("./sqlite-kill-writer.ts", [file, "hang"]);
    const line = await writer.waitFor((l) => l.startsWith("in-transaction "));
    await writer.kill();
    const id = line.split(" ")[1] as string;
    const store = await createSqliteStore({ filename: file });
    try {
      expect(await store.getTransfer(id)).toBeNull();
      expect(await store.listJobs()).toEqual([]);
    } finally {
      await store.close();
    }
  });

  it("a process SIGKILLed while registering: every committed write is there, none half-written, the file serves", {
    timeout: 60_000,
  }, async () => {
    const file = join(dir, "loop.db");
    const seed = await createSqliteStore({ filename: file });
    await loadWorld(createEngine({ store: seed }));
    await seed.close();
    let committed: string[] = [];
    for (let round = 0; round < 3; round += 1) {
      const writer = startFaultProcess("./sqlite-kill-writer.ts", [file, "loop"]);
      await writer.waitFor((l) => l.startsWith("committed "));
      await new Promise((resolve) => setTimeout(resolve, 50 + Math.random() * 250));
      await writer.kill();
      committed = [
        ...committed,
        ...writer.lines.filter((l) => l.startsWith("committed ")).map((l) => l.slice(10)),
      ];
    }
    const sqlite = new Database(file);
    expect(sqlite.pragma("integrity_check", { simple: true })).toBe("ok");
    sqlite.close();
    const store = await createSqliteStore({ filename: file });
    const engine = createEngine({ store });
    try {
      const transfers = (await store.listTransfers("acme", {}, { page: 1, pageSize: 100_000 })).items;
      const checks = (await store.listManualChecks("acme", { page: 1, pageSize: 100_000 })).items;
      const ids = new Set([...transfers, ...checks].map((r) => r.id));
      expect(
        committed.filter((id) => !ids.has(id)),
        "committed writes lost",
      ).toEqual([]);
      // At most the one write in flight when the process died landed without its line being printed.
      expect(ids.size - committed.length).toBeLessThanOrEqual(3);
      const jobs = await store.listJobs();
      const jobOf = new Set(jobs.map((j) => j.subjectId));
      expect(
        [...ids].filter((id) => !jobOf.has(id)),
        "records without their job",
      ).toEqual([]);
      expect(jobs.length).toBe(ids.size);
      console.info(
        `SIGKILL mid-write: ${committed.length} writes acknowledged over 3 kills, ${ids.size} records, each with its job`,
      );
      // The file still serves: the engine registers and binds a transfer on it.
      const { transfer } = await engine.forAccount("other").registerTransfer({
        direction: "incoming",
        network: "ETH",
        tx_hash: TX.deposit,
        output_address: W.client,
      });
      await engine.drain();
      expect(await engine.forAccount("other").getTransfer(transfer.id)).toMatchObject({ tx_status: "bound" });
    } finally {
      await engine.stop();
      await store.close();
    }
  });
});
