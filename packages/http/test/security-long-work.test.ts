/**
 * Long work never stops the server: a backtest with `retrace: true` over thousands of checked
 * transfers on SQLite (whose driver answers without I/O, so nothing else would get a turn)
 * runs while `/healthz` keeps answering promptly; and an account cannot queue backtests
 * without bound (the one past the limit is 429 LIMIT_REACHED).
 */
import type { KytHttpError } from "@openkyt/client";
import { BACKTESTS_PENDING_PER_ACCOUNT } from "@openkyt/core";
import { makeTransfer, W } from "@openkyt/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rejection, type Served, serve } from "./http-harness.js";

/** Checked transfers in the backtest's window: each retrace traces its sender again. */
const TRANSFERS = 3_000;
const T0 = Date.parse("2026-10-01T00:00:00Z");

describe("long work and the event loop", () => {
  let s: Served;
  beforeAll(async () => {
    s = await serve();
    const rows = Array.from({ length: TRANSFERS }, (_, i) =>
      makeTransfer({
        accountId: "acme",
        registeredAt: T0 + i * 1_000,
        // Each its own hash (the identity is unique); the retrace traces its sender, B, through A.
        inputAddress: W.b,
        outputAddress: W.client,
        riskModelId: "default",
        riskModelVersion: "default@1",
      }),
    );
    for (let i = 0; i < rows.length; i += 500) await s.h.store.insertTransfers(rows.slice(i, i + 500));
  }, 120_000);
  afterAll(() => s.close());

  it("answers /healthz promptly while a retrace backtest of thousands of transfers runs", async () => {
    const started = await s.acme.backtestRiskModel("default", {
      from: "2026-10-01",
      to: "2026-10-31",
      retrace: true,
    });
    const began = performance.now();
    let settled = false;
    const run = s.h.engine.drain().finally(() => {
      settled = true;
    });
    const latencies: number[] = [];
    while (!settled) {
      const at = performance.now();
      const answer = await fetch(`${s.server.url}/healthz`);
      expect(answer.status).toBe(200);
      latencies.push(performance.now() - at);
      await new Promise((done) => setTimeout(done, 20));
    }
    await run;
    const ranMs = performance.now() - began;
    const done = await s.acme.getBacktest(started.id);
    expect(done.status).toBe("done");
    expect(done.report?.evaluated).toBe(TRANSFERS);
    // Many health checks answered during the run, each in a small part of it: a loop blocked by
    // the backtest would answer one or two, each as slow as the run. Measured against the run
    // itself, not a wall-clock floor, which a fast machine would pass under.
    expect(latencies.length).toBeGreaterThan(10);
    expect(Math.max(...latencies)).toBeLessThan(Math.min(750, ranMs / 4));
  }, 120_000);

  it(`accepts ${BACKTESTS_PENDING_PER_ACCOUNT} queued backtests of an account and refuses the next with 429`, async () => {
    const body = { from: "2026-10-01", to: "2026-10-02" };
    for (let i = 0; i < BACKTESTS_PENDING_PER_ACCOUNT; i++) {
      expect((await s.acme.backtestRiskModel("default", body)).status).toBe("queued");
    }
    const refused = (await rejection(s.acme.backtestRiskModel("default", body))) as KytHttpError;
    expect(refused.status).toBe(429);
    expect(refused.code).toBe("LIMIT_REACHED");
    expect(refused.detail).toMatch(/backtests queued or running/);
    // Another account's queue is its own.
    expect((await s.other.backtestRiskModel("default", body)).status).toBe("queued");
    // Once they have run, the account may start again.
    await s.h.engine.drain();
    expect((await s.acme.backtestRiskModel("default", body)).status).toBe("queued");
    await s.h.engine.drain();
  }, 60_000);
});
