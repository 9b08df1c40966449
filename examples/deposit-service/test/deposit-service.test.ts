import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { createEngine, type Engine, type Store } from "@openkyt/core";
import { createSqliteStore } from "@openkyt/store-sqlite";
import { loadWorld, TX, W } from "@openkyt/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Deposit } from "../src/deposit-desk.js";
import { createDepositService } from "../src/deposit-service.js";

describe("examples/deposit-service", () => {
  let store: Store;
  let engine: Engine;
  let base: string;
  let stop: () => Promise<void>;
  beforeAll(async () => {
    store = await createSqliteStore({ filename: ":memory:" });
    engine = createEngine({ store, binding: { windowMs: 200, pollMs: 50 } });
    await loadWorld(engine);
    const { app, detach } = createDepositService({ engine, accountId: "deposits" });
    const server = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" });
    await new Promise((resolve) => server.once("listening", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    engine.start();
    stop = async () => {
      detach();
      await new Promise((resolve) => server.close(resolve));
      await engine.stop();
      await store.close();
    };
  });
  afterAll(async () => {
    await stop();
  });

  const post = async (body: unknown) => {
    const response = await fetch(`${base}/deposits`, { method: "POST", body: JSON.stringify(body) });
    return { status: response.status, body: (await response.json()) as Deposit & { error?: string } };
  };
  const settled = async (id: string): Promise<Deposit> => {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const deposit = (await (await fetch(`${base}/deposits/${id}`)).json()) as Deposit;
      if (deposit.status !== "pending") return deposit;
      if (Date.now() > deadline) throw new Error(`deposit ${id} still pending`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  };

  it("credits a clean deposit, holds a risky one and queues its alerts, fails one not on chain", async () => {
    // 2 ETH straight from an exchange: nothing fires, credited at 2,000 USD per ETH.
    const clean = await post({ tx_hash: TX.exchangeDeposit, address: W.client });
    expect(clean).toMatchObject({ status: 202, body: { status: "pending" } });
    // 10 ETH, 30% of it from a sanctioned address two hops back: severe, held.
    const risky = await post({ tx_hash: TX.deposit, address: W.client });
    // A hash the ledger does not know: binding gives up after its window.
    const missing = await post({ tx_hash: `0x${"ab".repeat(32)}`, address: W.client });

    expect(await settled(clean.body.id)).toMatchObject({
      status: "credited",
      riskLevel: "none",
      creditedUsd: 4_000,
    });
    expect(await settled(risky.body.id)).toMatchObject({
      status: "held",
      riskLevel: "severe",
      creditedUsd: null,
      reason: "risk level severe",
    });
    expect(await settled(missing.body.id)).toMatchObject({ status: "failed" });
    // Only the clean deposit reached the balance.
    expect(await (await fetch(`${base}/balances/${W.client}`)).json()).toEqual({
      address: W.client,
      usd: 4_000,
    });
    // alert.created queued every alert of the risky deposit, and none of the clean one.
    const review = (await (await fetch(`${base}/review`)).json()) as Array<{
      depositId: string;
      category: string;
      riskLevel: string;
    }>;
    expect(review.length).toBeGreaterThan(0);
    expect(review.every((r) => r.depositId === risky.body.id)).toBe(true);
    expect(review.some((r) => r.category === "sanctions" && r.riskLevel === "severe")).toBe(true);
  });

  it("reporting a deposit twice changes nothing; a bad request is a 400 naming the problem", async () => {
    const again = await post({ tx_hash: TX.exchangeDeposit, address: W.client });
    expect(again.body).toMatchObject({ status: "credited", creditedUsd: 4_000 });
    expect(await (await fetch(`${base}/balances/${W.client}`)).json()).toMatchObject({ usd: 4_000 });
    expect((await post({ address: W.client })).status).toBe(400);
    const bad = await post({ tx_hash: "0x123", address: W.client });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toContain("tx_hash");
  });
});
