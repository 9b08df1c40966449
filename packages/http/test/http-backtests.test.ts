import { backtestSettled, type KytHttpError, pollUntil } from "@openkyt/client";
import { backtestResponseSchema } from "@openkyt/core";
import { TX, W } from "@openkyt/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rejection, type Served, serve } from "./http-harness.js";
import { expectWire } from "./wire-expect.js";

describe("backtests over HTTP", () => {
  let s: Served;
  beforeAll(async () => {
    s = await serve();
  });
  afterAll(async () => {
    await s.close();
  });

  it("a backtest is a job: 201 queued, then done with the report; nothing of the transfer changes", async () => {
    // History: an exchange deposit screened by the built-in model (exchange funds raise nothing).
    const { transfer } = await s.h.acme.registerTransfer({
      direction: "incoming",
      network: "ETH",
      tx_hash: TX.exchangeDeposit,
      output_address: W.client,
    });
    await s.h.engine.drain();
    const screened = await s.acme.getTransfer(transfer.id);
    expect(screened.risk_level).toBe("none");
    const strict = await s.acme.createRiskModel({
      name: "Strict",
      rules: [
        {
          rule_type: "origin_of_funds",
          rule_sub_type: "all",
          entity_category: "exchange",
          min_value_in_fiat: null,
          min_value_share: 0.5,
          risk_level: "high",
        },
      ],
    });
    const started = expectWire(
      backtestResponseSchema,
      await s.acme.backtestRiskModel(strict.id, { from: "2000-01-01", to: "2100-12-31", shift_limit: 5 }),
    );
    expect(started).toMatchObject({ status: "queued", model: strict.id, report: null, error: null });
    expect(started.from).toBe("2000-01-01T00:00:00.000000+00:00");
    // Another account sees no such backtest.
    expect(((await rejection(s.other.getBacktest(started.id))) as KytHttpError).status).toBe(404);

    await s.h.engine.drain();
    const done = expectWire(
      backtestResponseSchema,
      await pollUntil("backtest", () => s.acme.getBacktest(started.id), backtestSettled, {
        timeoutMs: 5_000,
        intervalMs: 50,
      }),
    );
    expect(done.status).toBe("done");
    expect(done.progress).toEqual({ scanned: 1, total: 1 });
    const report = done.report ?? expect.fail("no report");
    expect(report.candidate).toBe(`${strict.id}@1`);
    expect(report.evaluated).toBe(1);
    expect(report.actual_models).toEqual([{ version: "default@1", transfers: 1 }]);
    expect(report.levels.find((l) => l.level === "none")).toEqual({ level: "none", actual: 1, candidate: 0 });
    expect(report.levels.find((l) => l.level === "high")).toEqual({ level: "high", actual: 0, candidate: 1 });
    expect(report.alerts).toEqual([
      { risk_type: "origin_of_funds", category: "exchange", actual: 0, candidate: 1 },
    ]);
    expect(report.shift).toMatchObject({ up: 1, down: 0, same: 0, up_ids: [transfer.id], down_ids: [] });
    // The backtest wrote no result and opened no alert.
    expect(await s.acme.getTransfer(transfer.id)).toEqual(screened);
    expect((await s.acme.listAlerts({})).total_items).toBe(0);
  });

  it("with retrace, the candidate sees the ledger and labels as they are now", async () => {
    const { transfer } = await s.h.acme.registerTransfer({
      direction: "incoming",
      network: "ETH",
      tx_hash: TX.mixerDeposit,
      output_address: W.client,
    });
    await s.h.engine.drain();
    expect((await s.acme.getTransfer(transfer.id)).risk_level).toBe("medium");
    // Since the check, the mixer was found to be an exchange.
    await s.h.engine.reference.loadAttributions([
      {
        network: "ETH",
        address: W.mixer,
        entityName: "Was a mixer",
        entityCategory: "exchange",
        source: "test",
      },
    ]);
    const run = async (retrace: boolean) => {
      const started = await s.acme.backtestRiskModel("default", {
        from: "2000-01-01",
        to: "2100-12-31",
        retrace,
      });
      await s.h.engine.drain();
      const done = await s.acme.getBacktest(started.id);
      const report = done.report ?? expect.fail(`no report: ${done.error}`);
      return report.shift.down_ids.includes(transfer.id);
    };
    // The stored exposure still says mixer: nothing moves. Traced again: exchange, down to none.
    expect(await run(false)).toBe(false);
    expect(await run(true)).toBe(true);
  });

  it("refuses an unknown or foreign model (404) and a bad window (400, naming the field)", async () => {
    const unknown = (await rejection(
      s.acme.backtestRiskModel("nope", { from: "2026-01-01", to: "2026-01-31" }),
    )) as KytHttpError;
    expect(unknown.status).toBe(404);
    const mine = await s.acme.createRiskModel({ name: "Mine", copy_from: "default" });
    const foreign = (await rejection(
      s.other.backtestRiskModel(mine.id, { from: "2026-01-01", to: "2026-01-31" }),
    )) as KytHttpError;
    expect(foreign.status).toBe(404);
    const bad = (await rejection(
      s.acme.backtestRiskModel("default", { from: "2026-02-01", to: "last week" }),
    )) as KytHttpError;
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.errors)).toEqual(["to"]);
  });

  it("the OpenAPI document lists both operations", async () => {
    // biome-ignore lint/suspicious/noExplicitAny: a JSON document read by path
    const doc: any = await (await fetch(`${s.server.url}/v1/openapi.json`)).json();
    expect(doc.paths["/v1/risk-models/{id}/backtest/"].post.operationId).toBe("backtestRiskModel");
    expect(doc.paths["/v1/backtests/{id}/"].get.operationId).toBe("getBacktest");
  });
});
