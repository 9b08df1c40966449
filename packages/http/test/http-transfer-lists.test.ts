import type { KytHttpError } from "@openkyt/client";
import { transferPageSchema } from "@openkyt/core";
import { HOUR, TX, USDT, W } from "@openkyt/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rejection, type Served, serve } from "./http-harness.js";
import { expectWire } from "./wire-expect.js";

describe("the transfer list over HTTP: every filter, ordering and pagination edges", () => {
  let s: Served;
  const ids: Record<string, string> = {};
  const list = async (query: Record<string, string | number>) => {
    const page = expectWire(transferPageSchema, await s.acme.listTransfers(query));
    return page.items.map((t) => Object.keys(ids).find((k) => ids[k] === t.id));
  };

  beforeAll(async () => {
    s = await serve();
    const register = async (name: string, body: Parameters<Served["acme"]["registerTransfer"]>[0]) => {
      ids[name] = (await s.acme.registerTransfer(body)).id;
      s.h.clock.advance(1_000);
    };
    const incoming = { direction: "incoming" as const, network: "ETH", output_address: W.client };
    // Registered on 2024-01-02 (UTC).
    await register("deposit", { ...incoming, client_id: "c0", tx_hash: TX.deposit });
    await register("mixer", { ...incoming, client_id: "c1", tx_hash: TX.mixerDeposit });
    await register("exchange", { ...incoming, client_id: "c2", tx_hash: TX.exchangeDeposit });
    s.h.clock.advance(24 * HOUR);
    // Registered on 2024-01-03.
    await register("usdt", { ...incoming, client_id: "c3", tx_hash: TX.usdtDeposit, token_id: "USDT" });
    await register("withdrawal", {
      client_id: "c4",
      direction: "outgoing",
      network: "ETH",
      tx_hash: TX.withdrawalToSanctioned,
      output_address: W.sanctioned,
    });
    ids.attempt = (
      await s.acme.registerAttempt({
        client_id: "c5",
        direction: "outgoing",
        network: "ETH",
        output_address: W.fresh,
      })
    ).id;
    await s.h.engine.drain();
  });
  afterAll(async () => {
    await s.close();
  });

  it("lists newest first", async () => {
    expect(await list({})).toEqual(["attempt", "withdrawal", "usdt", "exchange", "mixer", "deposit"]);
  });

  it("filters by client_id, direction, network, token, hash and addresses", async () => {
    expect(await list({ client_id: "c1" })).toEqual(["mixer"]);
    expect(await list({ direction: "outgoing" })).toEqual(["attempt", "withdrawal"]);
    expect(await list({ network: "eth" })).toHaveLength(6);
    expect(await list({ network: "TRX" })).toEqual([]);
    expect(await list({ token_id: "native" })).toEqual([
      "attempt",
      "withdrawal",
      "exchange",
      "mixer",
      "deposit",
    ]);
    expect(await list({ token_id: USDT.toUpperCase().replace("0X", "0x") })).toEqual(["usdt"]);
    expect(await list({ token_id: "usdt" })).toEqual(["usdt"]);
    expect(await list({ token_symbol: "USDT" })).toEqual(["usdt"]);
    expect(await list({ tx_hash: TX.mixerDeposit })).toEqual(["mixer"]);
    expect(await list({ input_address: W.mixer })).toEqual(["mixer"]);
    expect(await list({ output_address: W.sanctioned })).toEqual(["withdrawal"]);
    expect(await list({ output_address: W.fresh, network: "ETH" })).toEqual(["attempt"]);
  });

  it("filters by whole UTC days, both ends inclusive, and by datetimes", async () => {
    expect(await list({ registered_from: "2024-01-02", registered_to: "2024-01-02" })).toEqual([
      "exchange",
      "mixer",
      "deposit",
    ]);
    expect(await list({ registered_from: "2024-01-03" })).toEqual(["attempt", "withdrawal", "usdt"]);
    expect(await list({ registered_to: "2024-01-01" })).toEqual([]);
    expect(await list({ occurred_from: "2024-01-01", occurred_to: "2024-01-01" })).toHaveLength(5);
    expect(
      await list({ occurred_from: "2024-01-01T05:00:00Z", occurred_to: "2024-01-01T06:00:00Z" }),
    ).toEqual(["exchange", "mixer"]);
    // "+" decoded to a space by the query string is read back as an offset.
    expect(await list({ occurred_to: "2024-01-01T06:00:00+01:00" })).toEqual(["mixer", "deposit"]);
  });

  it("filters by risk level and counterparty", async () => {
    expect(await list({ risk_level: "severe" })).toEqual(["withdrawal", "deposit"]);
    expect(await list({ risk_level: "none" })).toEqual(["attempt", "usdt", "exchange"]);
    expect(await list({ counterparty_category: "exchange" })).toEqual(["usdt", "exchange"]);
    expect(await list({ counterparty_name: "Mixer One" })).toEqual(["mixer"]);
    expect(await list({ counterparty_name: "Nobody" })).toEqual([]);
  });

  it("filters by tx_status: the attempt without a transaction, the bound ones, none in error", async () => {
    expect(await list({ tx_status: "none" })).toEqual(["attempt"]);
    expect(await list({ tx_status: "bound" })).toEqual([
      "withdrawal",
      "usdt",
      "exchange",
      "mixer",
      "deposit",
    ]);
    expect(await list({ tx_status: "not_found" })).toEqual([]);
    expect(await list({ tx_status: "bound", client_id: "c1" })).toEqual(["mixer"]);
  });

  it("paginates: sizes, last page, past the end, and a walk over every page", async () => {
    const first = await s.acme.listTransfers({ page_size: 4 });
    expect(first).toMatchObject({ page: 1, page_size: 4, total_items: 6, total_pages: 2 });
    expect(first.items).toHaveLength(4);
    const last = await s.acme.listTransfers({ page: 2, page_size: 4 });
    expect(last.items).toHaveLength(2);
    const past = await s.acme.listTransfers({ page: 3, page_size: 4 });
    expect(past).toMatchObject({ page: 3, total_items: 6, total_pages: 2, items: [] });
    expect((await s.acme.listTransfers({ page_size: 100 })).items).toHaveLength(6);
    expect((await s.acme.listTransfers()).page_size).toBe(20);
    const none = await s.acme.listTransfers({ client_id: "nobody" });
    expect(none).toMatchObject({ total_items: 0, total_pages: 0, items: [] });
    const walked = [];
    for await (const t of s.acme.eachTransfer({ page_size: 4 })) walked.push(t.id);
    expect(walked).toEqual([...first.items, ...last.items].map((t) => t.id));
  });

  it("refuses bad pages and filters with 400 naming the parameter", async () => {
    const cases: Array<[Record<string, string | number>, string]> = [
      [{ page_size: 101 }, "page_size"],
      [{ page_size: 0 }, "page_size"],
      [{ page: 0 }, "page"],
      [{ page: "two" }, "page"],
      [{ direction: "sideways" }, "direction"],
      [{ network: "DOGE" }, "network"],
      [{ risk_level: "extreme" }, "risk_level"],
      [{ tx_status: "stuck" }, "tx_status"],
      [{ registered_from: "2024-13-01" }, "registered_from"],
      [{ occurred_from: "2024-01-01T05:00:00" }, "occurred_from"],
      [{ registered_from: "2024-01-03", registered_to: "2024-01-02" }, "registered_from"],
      [{ tx_hash: "0x1234" }, "tx_hash"],
      [{ colour: "red" }, "colour"],
    ];
    for (const [query, field] of cases) {
      const error = (await rejection(s.acme.listTransfers(query as never))) as KytHttpError;
      expect(error.status, JSON.stringify(query)).toBe(400);
      expect(error.code).toBe("VALIDATION_ERROR");
      expect(Object.keys(error.errors), JSON.stringify(query)).toContain(field);
    }
    const twice = (await rejection(s.acme.send("GET", "/v1/transfers/?page=1&page=2"))) as KytHttpError;
    expect(twice).toMatchObject({ status: 400, errors: { page: ["given more than once"] } });
  });
});
