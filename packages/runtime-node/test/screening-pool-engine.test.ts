/**
 * Scenario: the same transfers registered through the README's API with the traces on the main
 * thread and on a screening pool get the same exposure, counterparty result and risk level, on
 * the in-memory store and on SQLite.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import {
  createEngine,
  createMemoryStore,
  createWarmSources,
  type Engine,
  type Store,
  type TransferRecord,
} from "@openkyt/core";
import { afterAll, describe, expect, it } from "vitest";
import { generateLedger } from "../../ledger-generator/src/index.js";
import { createSqliteStore } from "../../store-sqlite/src/index.js";
import { createPooledWarmSources } from "../src/pooled-warm-sources.js";
import { screeningThreadCount } from "../src/screening-pool.js";

const LEDGER = generateLedger({ transfers: 3_000, addresses: 500, hubs: 10, seed: 5 });
const SAMPLE = LEDGER.transfers.filter((_, i) => i >= 1_000 && i % 80 === 0);

const dir = mkdtempSync(join(tmpdir(), "openkyt-pool-engine-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** What each registered transfer was checked to, by tx hash and direction. */
async function screen(
  engine: Engine,
): Promise<Map<string, Pick<TransferRecord, "exposure" | "counterparty" | "riskLevel">>> {
  const out = new Map<string, Pick<TransferRecord, "exposure" | "counterparty" | "riskLevel">>();
  const all = SAMPLE.length * 2;
  const done = new Promise<void>((resolve) => {
    engine.events.on("transfer.checked", (t) => {
      out.set(`${t.txHash}/${t.direction}`, {
        exposure: t.exposure,
        counterparty: t.counterparty,
        riskLevel: t.riskLevel,
      });
      if (out.size === all) resolve();
    });
  });
  engine.start();
  const api = engine.forAccount("scenario");
  for (const row of SAMPLE) {
    for (const direction of ["incoming", "outgoing"] as const) {
      await api.registerTransfer({
        direction,
        network: row.network,
        tx_hash: row.txHash,
        token_id: row.tokenId,
        output_address: row.to,
      });
    }
  }
  await done;
  await engine.stop();
  return out;
}

async function loaded(store: Store): Promise<Store> {
  await store.putLedgerTransfers(LEDGER.transfers);
  await store.putAttributions(LEDGER.attributions);
  await store.putSanctions(LEDGER.sanctions);
  return store;
}

const STORES: ReadonlyArray<readonly [string, () => Promise<Store>]> = [
  ["memory", async () => createMemoryStore()],
  ["sqlite", async () => createSqliteStore({ filename: join(dir, `engine-${Math.random()}.db`) })],
];

describe.each(STORES)("the README's API over the %s store", (_name, open) => {
  it("checks every transfer the same with 0 and 2 screening threads", async () => {
    const inlineStore = await loaded(await open());
    const poolStore = await loaded(await open());
    const pooled = await createPooledWarmSources(poolStore, { pool: { threads: 2, referenceRefreshMs: 0 } });
    try {
      const inline = await screen(
        createEngine({ store: inlineStore, ...(await createWarmSources(inlineStore)) }),
      );
      const onPool = await screen(createEngine({ store: poolStore, ...pooled }));
      expect(onPool.size).toBe(SAMPLE.length * 2);
      expect([...inline.values()].filter((r) => (r.exposure?.edgesRead ?? 0) > 0).length).toBeGreaterThan(5);
      expect(onPool).toEqual(inline);
    } finally {
      await pooled.close();
      await inlineStore.close();
      await poolStore.close();
    }
  }, 180_000);

  it("traces inline with 0 threads: no pool, the same results, close() is harmless", async () => {
    const inlineStore = await loaded(await open());
    const zeroStore = await loaded(await open());
    const zero = await createPooledWarmSources(zeroStore, { pool: { threads: 0 } });
    try {
      expect(zero.traceExecutor).toBeUndefined();
      const inline = await screen(
        createEngine({ store: inlineStore, ...(await createWarmSources(inlineStore)) }),
      );
      expect(await screen(createEngine({ store: zeroStore, ...zero }))).toEqual(inline);
    } finally {
      await zero.close();
      await zero.close();
      await inlineStore.close();
      await zeroStore.close();
    }
  }, 180_000);
});

describe("createPooledWarmSources' size", () => {
  it("defaults to one fewer thread than the cores, and names a bad count", async () => {
    const store = await loaded(createMemoryStore());
    const sized = await createPooledWarmSources(store, { pool: { referenceRefreshMs: 0 } });
    try {
      expect(sized.traceExecutor?.threads ?? 0).toBe(screeningThreadCount(undefined));
      expect(screeningThreadCount(undefined)).toBe(Math.max(0, availableParallelism() - 1));
    } finally {
      await sized.close();
    }
    await expect(createPooledWarmSources(store, { pool: { threads: -1 } })).rejects.toThrow(
      /screening threads must be an integer >= 0, got -1/,
    );
    await store.close();
  }, 60_000);
});
