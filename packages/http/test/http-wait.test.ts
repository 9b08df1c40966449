import { connect } from "node:net";
import type { KytHttpError } from "@openkyt/client";
import { manualCheckResponseSchema, transferResponseSchema } from "@openkyt/core";
import { TX, W } from "@openkyt/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHttpApp, serveHttp } from "../src/index.js";
import { KEYS, rejection, type Served, serve } from "./http-harness.js";
import { rawRequest } from "./raw-request.js";
import { expectWire } from "./wire-expect.js";

const unknownHash = `0x${"ab".repeat(32)}`;

/** Sends headers and part of a body, then stalls; resolves with the status line the server answers. */
function stalledUpload(port: number): Promise<string> {
  return new Promise((resolve) => {
    let data = "";
    const socket = connect(port, "127.0.0.1", () =>
      // A known key and a fresh timestamp: the server reads the body before it checks the
      // signature (an unknown key or a missing header is refused before the body is read).
      socket.write(
        "POST /v1/webhooks/ HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n" +
          `API-KEY-ID: ${KEYS.acme.keyId}\r\nAPI-TIMESTAMP: ${Date.now()}\r\nAPI-SIGNATURE: AAAA\r\n\r\n{`,
      ),
    );
    socket.on("data", (chunk) => {
      data += chunk;
    });
    socket.on("close", () => resolve(data.split("\r\n")[0] ?? ""));
  });
}

describe("?wait=SECONDS: answering with the finished result", () => {
  let s: Served;
  beforeAll(async () => {
    s = await serve();
    s.h.engine.start();
  });
  afterAll(async () => {
    await s.close();
  });

  it("an address check of an address known to the ledger completes inside the request", async () => {
    const t0 = Date.now();
    const answer = await s.acme.send("POST", "/v1/manual-checks/check-address/", {
      query: { wait: 5 },
      body: { network: "ETH", address: W.sanctioned },
    });
    expect(answer.status).toBe(200);
    const check = expectWire(manualCheckResponseSchema, answer.body);
    expect(check).toMatchObject({ check_status: "checked", risk_level: "severe" });
    expect(check.checked_at).not.toBeNull();
    expect(Date.now() - t0).toBeLessThan(3_000);
    expect(await s.acme.getManualCheck(check.id)).toEqual(check);
  });

  it("check-transfer, register and register-attempt answer once their checks are done", async () => {
    const checked = await s.acme.checkTransfer(
      { network: "ETH", tx_hash: TX.deposit, output_address: W.client, direction: "incoming" },
      { wait: 10 },
    );
    expect(checked).toMatchObject({ check_status: "checked", risk_level: "severe" });

    const answer = await s.acme.send("POST", "/v1/transfers/register", {
      query: { wait: "10" },
      body: { direction: "incoming", network: "ETH", tx_hash: TX.deposit, output_address: W.client },
    });
    expect(answer.status).toBe(201);
    const transfer = expectWire(transferResponseSchema, answer.body);
    expect(transfer).toMatchObject({
      tx_status: "bound",
      risk_level: "severe",
      check_state: { exposure: "checked", counterparty: "checked", sanctions: "checked" },
    });

    const attempt = await s.acme.registerAttempt(
      { direction: "incoming", network: "ETH", input_address: W.sanctioned },
      { wait: 10 },
    );
    expect(attempt).toMatchObject({
      tx_status: "none",
      risk_level: "severe",
      check_state: { counterparty: "checked", sanctions: "checked" },
    });
  });

  it("answers the in-progress object when the checks do not finish within the wait", async () => {
    const t0 = Date.now();
    const transfer = await s.acme.registerTransfer(
      { direction: "incoming", network: "ETH", tx_hash: unknownHash, output_address: W.client },
      { wait: 0.5 },
    );
    const elapsed = Date.now() - t0;
    expect(transfer).toMatchObject({ tx_status: "binding", check_state: { exposure: "queued" } });
    expect(elapsed).toBeGreaterThanOrEqual(450);
    expect(elapsed).toBeLessThan(3_000);
    // Without wait the answer is immediate, as published.
    const quick = await s.acme.checkAddress({ network: "ETH", address: W.mixer });
    expect(quick.check_status).toBe("checking");
  });

  it("refuses a wait outside 0..30, or given twice, naming it, before anything is stored", async () => {
    const before = (await s.acme.listManualChecks()).total_items;
    for (const wait of ["31", "-1", "soon", "Infinity"]) {
      const error = (await rejection(
        s.acme.send("POST", "/v1/manual-checks/check-address/", {
          query: { wait },
          body: { network: "ETH", address: W.mixer },
        }),
      )) as KytHttpError;
      expect(error.status, wait).toBe(400);
      expect(Object.keys(error.errors), wait).toEqual(["wait"]);
    }
    const twice = await rawRequest(s.server.url, {
      method: "POST",
      path: "/v1/manual-checks/check-address/?wait=1&wait=2",
      body: JSON.stringify({ network: "ETH", address: W.mixer }),
    });
    expect(twice.status).toBe(400);
    expect(Object.keys(twice.json.errors)).toEqual(["wait"]);
    expect((await s.acme.listManualChecks()).total_items).toBe(before);
  });

  it("the query string is part of the signed path", async () => {
    const before = (await s.acme.listManualChecks()).total_items;
    const body = JSON.stringify({ network: "ETH", address: W.mixer });
    const unsigned = await rawRequest(s.server.url, {
      method: "POST",
      path: "/v1/manual-checks/check-address/?wait=1",
      body,
      signed: { path: "/v1/manual-checks/check-address/" },
    });
    expect(unsigned.status).toBe(401);
    expect((await s.acme.listManualChecks()).total_items).toBe(before);
    const signed = await rawRequest(s.server.url, {
      method: "POST",
      path: "/v1/manual-checks/check-address/?wait=1",
      body,
    });
    expect(signed.status).toBe(200);
    expect(signed.json.check_status).toBe("checked");
  });

  it("a wait longer than the server's request timeout is not cut (the timeout covers receiving the request)", async () => {
    const server = await serveHttp(createHttpApp({ engine: s.h.engine, limits: { ratePerKey: null } }), {
      port: 0,
      headersTimeoutMs: 200,
      requestTimeoutMs: 300,
      timeoutCheckIntervalMs: 50,
    });
    try {
      // The timeout is in force: a stalled upload is cut.
      expect(await stalledUpload(server.port)).toBe("HTTP/1.1 408 Request Timeout");
      const client = s.client({ baseUrl: server.url });
      const t0 = Date.now();
      const transfer = await client.registerTransfer(
        { direction: "outgoing", network: "ETH", tx_hash: unknownHash, output_address: W.client },
        { wait: 1.2 },
      );
      expect(Date.now() - t0).toBeGreaterThanOrEqual(1_100);
      expect(transfer.tx_status).toBe("binding");
    } finally {
      await server.close();
    }
  });
});
