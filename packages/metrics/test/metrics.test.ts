/**
 * The metrics of an engine, read back through the text format: exact counts after a known
 * sequence of registrations and jobs, the queue gauges from the store (cached between reads),
 * and store failures counted apart from expected answers.
 */
import { createEngine, createMemoryStore, createWarmLedger, type JobKind, KytError } from "@openkyt/core";
import { describe, expect, it } from "vitest";
import { createSqliteStore } from "../../store-sqlite/src/index.js";
import { loadWorld, TX, W } from "../../testkit/src/engine-world.js";
import { parsePrometheusText, promValue } from "../../testkit/src/prometheus-text.js";
import { makeJob, makeLedgerTransfer } from "../../testkit/src/store-factories.js";
import {
  countStoreErrors,
  createMetrics,
  exposition,
  storeGauges,
  warmLedgerGauges,
  watchEngine,
} from "../src/index.js";

async function scrape(
  metrics: ReturnType<typeof createMetrics>,
  refreshers: Array<() => void | Promise<void>> = [],
) {
  return parsePrometheusText((await exposition(metrics, refreshers)).body);
}

describe("engine metrics", () => {
  it("count bindings, checks, alerts, jobs and register -> checked exactly", async () => {
    const metrics = createMetrics({ processMetrics: false });
    const engine = createEngine({ store: createMemoryStore() });
    await loadWorld(engine);
    const stop = watchEngine(metrics, engine);
    const kyt = engine.forAccount("acme");
    const unknown = `0x${"ee".repeat(32)}`;
    for (const tx_hash of [TX.deposit, TX.mixerDeposit, unknown]) {
      await kyt.registerTransfer({
        direction: "incoming",
        network: "ETH",
        tx_hash,
        output_address: W.client,
      });
    }
    await engine.drain();
    const m = await scrape(metrics);
    expect(promValue(m, "openkyt_bindings_total", { outcome: "bound" })).toBe(2);
    expect(promValue(m, "openkyt_bindings_total", { outcome: "not_found" })).toBe(0);
    for (const kind of ["exposure", "counterparty", "sanctions"]) {
      expect(promValue(m, "openkyt_checks_total", { kind, outcome: "checked" })).toBe(2);
      expect(promValue(m, "openkyt_checks_total", { kind, outcome: "error" })).toBe(0);
    }
    expect(promValue(m, "openkyt_transfer_register_to_checked_seconds_count")).toBe(2);
    const alerts = (await kyt.listAlerts({})).items;
    expect(alerts.length).toBeGreaterThan(0);
    for (const level of new Set(alerts.map((a) => a.risk_level))) {
      expect(promValue(m, "openkyt_alerts_created_total", { level })).toBe(
        alerts.filter((a) => a.risk_level === level).length,
      );
    }
    // Two binds bound and checked in one pass, one asked again later; nothing left running.
    expect(promValue(m, "openkyt_jobs_settled_total", { kind: "transfer.bind", outcome: "done" })).toBe(2);
    expect(promValue(m, "openkyt_jobs_settled_total", { kind: "transfer.bind", outcome: "later" })).toBe(1);
    expect(promValue(m, "openkyt_jobs_running", { kind: "transfer.bind" })).toBe(0);
    expect(promValue(m, "openkyt_chain_lookup_duration_seconds_count", { outcome: "found" })).toBe(2);
    expect(promValue(m, "openkyt_chain_lookup_duration_seconds_count", { outcome: "not_found" })).toBe(1);
    stop();
    await kyt.registerTransfer({
      direction: "incoming",
      network: "ETH",
      tx_hash: TX.exchangeDeposit,
      output_address: W.client,
    });
    await engine.drain();
    expect(promValue(await scrape(metrics), "openkyt_bindings_total", { outcome: "bound" })).toBe(2);
  });
});

describe("store gauges", () => {
  it("show the queue by lane and kind and the oldest due job, read at most once per cacheMs", async () => {
    const store = createMemoryStore();
    const metrics = createMetrics({ processMetrics: false });
    let now = 1_000_000;
    const refresh = storeGauges(metrics, store, { cacheMs: 1_000, now: () => now });
    await store.enqueueJob(makeJob({ id: "a", kind: "transfer.bind", runAt: now - 4_000 }));
    await store.enqueueJob(makeJob({ id: "b", kind: "transfer.bind", runAt: now - 1_000 }));
    await store.enqueueJob(makeJob({ id: "c", kind: "webhook.deliver", runAt: now + 60_000 }));
    let m = await scrape(metrics, [refresh]);
    expect(promValue(m, "openkyt_jobs_queued", { lane: "checks", kind: "transfer.bind" })).toBe(2);
    expect(promValue(m, "openkyt_jobs_oldest_queued_age_seconds", { kind: "transfer.bind" })).toBe(4);
    expect(promValue(m, "openkyt_jobs_scheduled", { lane: "webhooks", kind: "webhook.deliver" })).toBe(1);
    expect(promValue(m, "openkyt_jobs_queued", { kind: "transfer.check" })).toBe(0);
    expect(promValue(m, "openkyt_store_up")).toBe(1);
    await store.enqueueJob(makeJob({ id: "d", kind: "transfer.check", runAt: now - 500 }));
    now += 999;
    m = await scrape(metrics, [refresh]);
    expect(promValue(m, "openkyt_jobs_queued", { kind: "transfer.check" })).toBe(0);
    now += 1;
    m = await scrape(metrics, [refresh]);
    expect(promValue(m, "openkyt_jobs_queued", { kind: "transfer.check" })).toBe(1);
    expect(promValue(m, "openkyt_jobs_oldest_queued_age_seconds", { kind: "transfer.check" })).toBe(1.5);
    // A kind no runner of this version claims counts as `other`, and goes back to 0 once gone.
    expect(() => promValue(m, "openkyt_jobs_queued", { kind: "other" })).toThrow(/0 samples/);
    const foreign = { ...makeJob({ id: "f", runAt: now - 2_000 }), kind: "future.kind" as JobKind };
    await store.enqueueJob(foreign);
    now += 1_000;
    m = await scrape(metrics, [refresh]);
    expect(promValue(m, "openkyt_jobs_queued", { lane: "other", kind: "other" })).toBe(1);
    expect(promValue(m, "openkyt_jobs_oldest_queued_age_seconds", { kind: "other" })).toBe(3);
    await store.claimJobs({ now, limit: 10, leaseMs: 60_000, owner: "w", kinds: [foreign.kind] });
    now += 1_000;
    m = await scrape(metrics, [refresh]);
    expect(promValue(m, "openkyt_jobs_queued", { kind: "other" })).toBe(0);
    await store.close();
  });

  it("show the warm ledger only when there is one", async () => {
    const metrics = createMetrics({ processMetrics: false });
    expect((await scrape(metrics)).has("openkyt_warm_ledger_transfers")).toBe(false);
    // A real warm ledger: each scrape catches it up; once its store fails, the lag grows.
    let now = 10_000;
    const store = await createSqliteStore({ filename: ":memory:" });
    await store.putLedgerTransfers([makeLedgerTransfer(), makeLedgerTransfer()]);
    const ledger = await createWarmLedger(store, { clock: { now: () => now } });
    const refresh = warmLedgerGauges(metrics, ledger, { now: () => now });
    now = 12_500;
    await store.putLedgerTransfers([makeLedgerTransfer()]);
    let m = await scrape(metrics, [refresh]);
    expect(promValue(m, "openkyt_warm_ledger_transfers")).toBe(3);
    expect(promValue(m, "openkyt_warm_ledger_lag_seconds")).toBe(0);
    await store.close();
    now = 16_500;
    m = await scrape(metrics, [refresh]);
    expect(promValue(m, "openkyt_warm_ledger_transfers")).toBe(3);
    expect(promValue(m, "openkyt_warm_ledger_lag_seconds")).toBe(4);
  });
});

describe("store errors", () => {
  it("count failures by operation, not the store's expected answers, and keep optional members", async () => {
    const metrics = createMetrics({ processMetrics: false });
    const raw = await createSqliteStore({ filename: ":memory:" });
    const store = countStoreErrors(raw, metrics);
    expect(typeof store.scanLedger).toBe("function");
    expect(store.capabilities).toEqual(raw.capabilities);
    await store.enqueueJob(makeJob({ id: "j" }));
    await expect(store.enqueueJob(makeJob({ id: "j" }))).rejects.toBeInstanceOf(KytError);
    const refresh = storeGauges(metrics, store);
    await raw.close();
    await expect(store.getSetting("x")).rejects.toThrow();
    const m = await scrape(metrics, [refresh]);
    expect(promValue(m, "openkyt_store_errors_total", { operation: "getSetting" })).toBe(1);
    expect(promValue(m, "openkyt_store_errors_total", { operation: "operationalStats" })).toBe(1);
    expect(() => promValue(m, "openkyt_store_errors_total", { operation: "enqueueJob" })).toThrow(
      /0 samples/,
    );
    expect(promValue(m, "openkyt_store_up")).toBe(0);
  });
});
