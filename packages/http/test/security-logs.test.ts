/**
 * Log hygiene (issue 18, item 6): a client's header values and path are capped in the log (a
 * 15 KB API-KEY-ID was written verbatim twice), and a client that aborts its body is logged at
 * info as REQUEST_ABORTED, not as a 500 with a stack trace.
 */
import { connect } from "node:net";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LOG_VALUE_MAX } from "../src/index.js";
import { KEYS, type Served, serve } from "./http-harness.js";
import { signatureHeaders } from "./security-fixture.js";
import { requestBytes, wireExchange } from "./security-wire.js";

const CHECK = "/v1/manual-checks/check-address/";

/** Every string inside a parsed log line. */
function strings(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) return value.flatMap(strings);
  if (value !== null && typeof value === "object") return Object.values(value).flatMap(strings);
  return [];
}

async function until(condition: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("log hygiene", () => {
  let s: Served;
  const lines: Array<Record<string, unknown>> = [];
  beforeAll(async () => {
    const logger = pino({ level: "info" }, { write: (line: string) => lines.push(JSON.parse(line)) });
    s = await serve({ http: { logger } });
  });
  afterAll(async () => {
    await s.close();
  });

  it(`client values longer than ${LOG_VALUE_MAX} characters are cut in the log, with their length`, async () => {
    lines.length = 0;
    const keyId = "k".repeat(15_000);
    const refused = await wireExchange(s.server.port, [
      requestBytes("GET", "/v1/transfers/", [
        ["API-KEY-ID", keyId],
        ["API-TIMESTAMP", String(Date.now())],
        ["API-SIGNATURE", Buffer.alloc(32).toString("base64")],
      ]),
    ]);
    expect(refused.status).toBe(401);
    const longPath = `/v1/transfers/${"p".repeat(1_000)}/`;
    const missing = await wireExchange(s.server.port, [
      requestBytes("GET", longPath, [["API-KEY-ID", keyId]]),
    ]);
    expect(missing.status).toBe(401);
    await until(() => lines.filter((l) => l.msg === "request").length >= 2);
    const longest = Math.max(...lines.flatMap(strings).map((v) => v.length));
    expect(longest).toBeLessThanOrEqual(LOG_VALUE_MAX + "...(15000 chars)".length);
    const all = JSON.stringify(lines);
    expect(all).toContain(`${"k".repeat(LOG_VALUE_MAX)}...(15000 chars)`);
    expect(all).toContain("...(1015 chars)");
    expect(lines.filter((l) => l.msg === "authentication refused")).toHaveLength(2);
  });

  it("a body the client aborts is logged at info as REQUEST_ABORTED, with no error line and no stack", async () => {
    lines.length = 0;
    const body = JSON.stringify({ network: "ETH", address: "0x", pad: "x".repeat(40_000) });
    const headers = signatureHeaders({ method: "POST", target: CHECK, body });
    const head = requestBytes("POST", CHECK, [
      ...Object.entries(headers),
      ["Content-Length", String(body.length)],
    ]);
    await new Promise<void>((resolve) => {
      const socket = connect({ host: "127.0.0.1", port: s.server.port }, () => {
        socket.write(`${head}${body.slice(0, 1_000)}`);
        setTimeout(() => {
          socket.destroy();
          resolve();
        }, 100);
      });
      socket.on("error", () => undefined);
    });
    await until(() => lines.some((l) => l.msg === "request"));
    const line = lines.find((l) => l.msg === "request");
    expect(line).toMatchObject({
      level: 30,
      method: "POST",
      path: CHECK,
      status: 400,
      code: "REQUEST_ABORTED",
      keyId: KEYS.acme.keyId,
    });
    expect(lines.filter((l) => (l.level as number) >= 50)).toEqual([]);
    expect(JSON.stringify(lines)).not.toMatch(/stack/i);
    expect((await fetch(`${s.server.url}/healthz`)).status).toBe(200);
  });
});
