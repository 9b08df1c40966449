import { createTransport, isKytHttpError } from "@openkyt/client";
import {
  addressExposureResponseSchema,
  alertDetailResponseSchema,
  alertPageSchema,
  ENTITY_CATEGORIES,
  entityCategoryPageSchema,
  manualCheckPageSchema,
  manualCheckResponseSchema,
  NETWORKS,
  networkPageSchema,
  riskResponseSchema,
  tokenPageSchema,
  transferExposureResponseSchema,
} from "@openkyt/core";
import { ETH_USD, TX, USDT, W } from "@openkyt/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { KEYS, rejection, type Served, serve, stubRenderer } from "./http-harness.js";
import { expectWire } from "./wire-expect.js";

const wait = { timeoutMs: 10_000, intervalMs: 20 };

describe("manual checks, alerts, basics and reports over HTTP", () => {
  let s: Served;
  beforeAll(async () => {
    s = await serve({ engine: { reportRenderer: stubRenderer } });
    s.h.engine.start();
  });
  afterAll(async () => {
    await s.close();
  });

  it("check-transfer: 200 checking, then checked with the transfer, risks and exposures", async () => {
    const created = expectWire(
      manualCheckResponseSchema,
      await s.acme.checkTransfer({
        network: "ETH",
        tx_hash: TX.deposit,
        output_address: W.client,
        direction: "incoming",
      }),
    );
    expect(created).toMatchObject({
      check_type: "deposit",
      check_status: "checking",
      checked_at: null,
      address: null,
      risk_level: "undefined",
    });
    const done = expectWire(manualCheckResponseSchema, await s.acme.waitForManualCheck(created.id, wait));
    expect(done).toMatchObject({ check_status: "checked", risk_level: "severe", risk_score: 1 });
    expect(done.checked_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
    expect(done.transfer).toMatchObject({
      tx_hash: TX.deposit,
      input_address: W.b,
      amount: 10,
      value_in_fiat: 10 * ETH_USD,
    });
    const risks = expectWire(z.array(riskResponseSchema), await s.acme.getManualCheckRisks(created.id));
    expect(risks.some((r) => r.entity_category === "sanctions")).toBe(true);
    const exposure = expectWire(
      transferExposureResponseSchema,
      await s.acme.getManualCheckTransferExposure(created.id),
    );
    expect(exposure.indirect_interaction?.length).toBeGreaterThan(0);
    expectWire(addressExposureResponseSchema, await s.acme.getManualCheckAddressExposure(created.id));
  });

  it("check-address: sanctioned is severe, an exchange is none; an address check has no transfer exposure", async () => {
    const bad = await s.acme.checkAddress({
      network: "ETH",
      address: W.sanctioned.toUpperCase().replace("0X", "0x"),
    });
    expect(bad).toMatchObject({
      check_type: "single_address",
      transfer: null,
      address: { network: "ETH", address: W.sanctioned },
    });
    const clean = await s.acme.checkAddress({ network: "ETH", address: W.exchange });
    expect((await s.acme.waitForManualCheck(bad.id, wait)).risk_level).toBe("severe");
    expect((await s.acme.waitForManualCheck(clean.id, wait)).risk_level).toBe("none");
    expect(await s.acme.getManualCheckAddressExposure(clean.id)).toMatchObject({
      entity_category: "exchange",
      entity_name: "Big Exchange",
      exposure: null,
    });
    const none = await rejection(s.acme.getManualCheckTransferExposure(clean.id));
    expect(isKytHttpError(none, "NOT_FOUND")).toBe(true);
  });

  it("check-transfer of an unknown hash ends in error", async () => {
    const created = await s.acme.checkTransfer({
      network: "ETH",
      tx_hash: TX.unknown,
      output_address: W.client,
      direction: "incoming",
    });
    expect((await s.acme.waitForManualCheck(created.id, wait)).check_status).toBe("error");
  });

  it("lists manual checks newest first, page by page", async () => {
    const all = expectWire(manualCheckPageSchema, await s.acme.listManualChecks({ page_size: 100 }));
    expect(all.total_items).toBeGreaterThanOrEqual(4);
    const firstTwo = await s.acme.listManualChecks({ page: 1, page_size: 2 });
    expect(firstTwo).toMatchObject({ page: 1, page_size: 2, total_items: all.total_items });
    expect(firstTwo.total_pages).toBe(Math.ceil(all.total_items / 2));
    expect(firstTwo.items.map((c) => c.id)).toEqual(all.items.slice(0, 2).map((c) => c.id));
    const walked = [];
    for await (const c of s.acme.eachManualCheck({ page_size: 1 })) walked.push(c.id);
    expect(walked).toEqual(all.items.map((c) => c.id));
  });

  it("alerts: list with every filter, and one alert with the deprecated fields", async () => {
    const t = await s.acme.registerTransfer({
      client_id: "c9",
      direction: "incoming",
      network: "ETH",
      tx_hash: TX.mixerDeposit,
      output_address: W.client,
    });
    await s.acme.waitUntilChecked(t.id, wait);
    const all = expectWire(alertPageSchema, await s.acme.listAlerts());
    expect(all.total_items).toBeGreaterThan(0);
    const mixer = all.items.find((a) => a.entity_interaction?.entity_category === "mixer");
    expect(mixer).toMatchObject({
      alert_status: "open",
      status: "open",
      updated_at: null,
      fiat_currency: "USD",
    });
    expect(mixer?.type).toBe(mixer?.risk_type);
    const count = async (q: Record<string, string>) => (await s.acme.listAlerts(q)).total_items;
    const n = all.total_items;
    const direct = all.items.filter((a) => a.entity_interaction?.proximity === "direct").length;
    expect(await count({ client_id: "c9" })).toBe(n);
    expect(await count({ client_id: "nobody" })).toBe(0);
    expect(await count({ risk_type: mixer?.risk_type ?? "" })).toBeGreaterThan(0);
    expect(await count({ type: mixer?.risk_type ?? "" })).toBe(
      await count({ risk_type: mixer?.risk_type ?? "" }),
    );
    expect(await count({ risk_level: mixer?.risk_level ?? "" })).toBeGreaterThan(0);
    expect(await count({ alert_status: "open" })).toBe(n);
    expect(await count({ status: "open" })).toBe(n);
    expect(await count({ alert_status: "done" })).toBe(0);
    expect(await count({ created_from: "2024-01-02", created_to: "2024-01-02" })).toBe(n);
    expect(await count({ created_to: "2024-01-01" })).toBe(0);
    expect(
      await count({ occurred_from: "2024-01-01T05:00:00Z", occurred_to: "2024-01-01T05:00:00+00:00" }),
    ).toBe(n);
    expect(await count({ occurred_from: "2024-01-01T05:00:00.001Z" })).toBe(0);
    expect(await count({ network: "ETH" })).toBe(n);
    expect(await count({ network: "TRX" })).toBe(0);
    expect(await count({ token_id: "native" })).toBe(n);
    expect(await count({ token_id: USDT })).toBe(0);
    expect(await count({ token_symbol: "ETH" })).toBe(n);
    expect(await count({ token_symbol: "USDT" })).toBe(0);
    expect(await count({ entity_category: "mixer" })).toBe(n);
    expect(await count({ entity_category: "sanctions" })).toBe(0);
    expect(await count({ proximity: "direct" })).toBe(direct);
    expect(await count({ interaction: "direct" })).toBe(direct);
    expect(await count({ proximity: "indirect" })).toBe(n - direct);
    const disagree = await rejection(s.acme.listAlerts({ status: "open", alert_status: "done" }));
    expect(disagree).toMatchObject({ status: 400, code: "VALIDATION_ERROR" });

    const single = expectWire(alertDetailResponseSchema, await s.acme.getAlert(mixer?.id ?? ""));
    expect(single.entity_interaction?.interaction).toBe(single.entity_interaction?.proximity);
    expect(single.transfer?.id).toBe(t.id);
    const walked = [];
    for await (const a of s.acme.eachAlert({ page_size: 1 })) walked.push(a.id);
    expect(walked).toEqual(all.items.map((a) => a.id));
  });

  it("basics: networks, tokens (filters network and token_id) and entity categories", async () => {
    const networks = expectWire(networkPageSchema, await s.acme.listNetworks({ page_size: 100 }));
    expect(networks.total_items).toBe(NETWORKS.length);
    expect(networks.items.map((n) => n.code)).toContain("ETH");
    const second = await s.acme.listNetworks({ page: 2, page_size: 1 });
    expect(second.items[0]?.code).toBe(networks.items[1]?.code);
    const tokens = expectWire(tokenPageSchema, await s.acme.listTokens({ network: "ETH" }));
    expect(tokens.items.map((t) => t.token_id)).toContain(USDT);
    expect((await s.acme.listTokens({ token_id: "usdt" })).items.map((t) => t.token_id)).toEqual([USDT]);
    expect((await s.acme.listTokens({ network: "ETH", token_id: USDT })).total_items).toBe(1);
    expect((await s.acme.listTokens({ network: "TRX" })).total_items).toBe(0);
    const categories = expectWire(
      entityCategoryPageSchema,
      await s.acme.listEntityCategories({ page_size: 100 }),
    );
    expect(categories.total_items).toBe(ENTITY_CATEGORIES.length);
    expect(categories.items.map((c) => c.code)).toContain("sanctions");
  });

  it("PDF reports: 200 application/pdf with a file name, on every path; another account's id is 404", async () => {
    const t = await s.acme.registerTransfer({
      direction: "incoming",
      network: "ETH",
      tx_hash: TX.exchangeDeposit,
      output_address: W.client,
    });
    for (const path of ["pdf", "pdf-report"] as const) {
      const report = await s.acme.transferReport(t.id, { path });
      expect(new TextDecoder().decode(report.bytes)).toContain(`transfer ${t.id} risks=true`);
      expect(report.fileName).toBe(`openkyt-transfer-${t.id}.pdf`);
    }
    const short = await s.acme.transferReport(t.id, { withRisks: false });
    expect(new TextDecoder().decode(short.bytes)).toContain("risks=false");
    expect(short.fileName).toBe(`openkyt-transfer-${t.id}-without-risks.pdf`);
    const raw = await fetchWithHeaders(s, `/v1/transfers/${t.id}/pdf-report/`);
    expect(raw.headers.get("content-type")).toBe("application/pdf");
    expect(raw.headers.get("content-disposition")).toBe(
      `attachment; filename="openkyt-transfer-${t.id}.pdf"`,
    );

    const check = await s.acme.checkAddress({ network: "ETH", address: W.mixer });
    const checkReport = await s.acme.manualCheckReport(check.id);
    expect(new TextDecoder().decode(checkReport.bytes)).toContain(`manual_check ${check.id} risks=true`);
    const checkShort = await s.acme.manualCheckReport(check.id, { withRisks: false });
    expect(checkShort.fileName).toBe(`openkyt-manual-check-${check.id}-without-risks.pdf`);

    expect(await rejection(s.other.transferReport(t.id))).toMatchObject({ status: 404, code: "NOT_FOUND" });
    expect(await rejection(s.other.manualCheckReport(check.id))).toMatchObject({ status: 404 });
  });
});

async function fetchWithHeaders(s: Served, path: string): Promise<{ headers: Headers }> {
  return createTransport({ baseUrl: s.server.url, ...KEYS.acme }).bytes(path);
}

describe("PDF reports without a renderer", () => {
  it("authenticate, check the id, then answer 503 naming the missing renderer", async () => {
    const s = await serve();
    try {
      const t = await s.acme.registerAttempt({ direction: "incoming", network: "ETH", input_address: W.b });
      const error = await rejection(s.acme.transferReport(t.id));
      expect(error).toMatchObject({ status: 503, code: "NOT_CONFIGURED" });
      expect((error as { detail: string }).detail).toMatch(/report renderer/);
      expect(await rejection(s.acme.transferReport("00000000-0000-4000-8000-000000000000"))).toMatchObject({
        status: 404,
      });
      expect(
        await rejection(s.client({ secret: "wrong-secret-0123456789" }).transferReport(t.id)),
      ).toMatchObject({
        status: 401,
      });
    } finally {
      await s.close();
    }
  });
});
