/**
 * `openkyt serve` and `openkyt worker` run as an on-call engineer sees them (docs/operations.md):
 * /readyz answers 503 while the process starts and loads its warm ledger, 200 once ready, 503
 * again from SIGTERM while it drains; /metrics of a real server counts a known sequence of
 * requests and jobs exactly; a worker serves its metrics on --metrics-port.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createEngine } from "@openkyt/core";
import { createSqliteStore } from "@openkyt/store-sqlite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKytClient } from "../../client/src/index.js";
import { ledgerRows } from "../../ledger-generator/src/index.js";
import { loadWorld, TX, W } from "../../testkit/src/engine-world.js";
import { parsePrometheusText, promValue } from "../../testkit/src/prometheus-text.js";
import { exited, firstLine, start } from "./cli-process.js";

const KEY = { keyId: "ops-key-0001", secret: "ops-secret-0123456789abcdef", account: "acme" };
const KEY_ENV = { OPENKYT_API_KEYS: `${KEY.keyId}:${KEY.secret}:${KEY.account}` };

/** A port that was free a moment ago. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

/**
 * GET a path: its status and JSON body, or null when nothing listens there (yet, or any more).
 * Its time limit is generous: on a busy machine (CI at a load average of 10) a server loading
 * its warm ledger can take seconds to answer, and a slow answer is still an answer (nothing
 * listening is refused at once, so the wait for the server to listen is not slowed by it).
 */
async function probe(
  url: string,
  timeoutMs = 30_000,
): Promise<{ status: number; body: { status?: string; waiting?: string[] } } | null> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
    return { status: response.status, body: (await response.json()) as { status?: string } };
  } catch {
    return null;
  }
}

async function scrape(url: string) {
  const response = await fetch(url);
  expect(response.status).toBe(200);
  return parsePrometheusText(await response.text());
}

describe("openkyt serve and worker in production", () => {
  let dir: string;
  let worldDb: string;
  let bigDb: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "openkyt-ops-"));
    worldDb = join(dir, "world.db");
    const store = await createSqliteStore({ filename: worldDb });
    await loadWorld(createEngine({ store }));
    await store.close();
    // A ledger large enough that loading it warm takes a while.
    bigDb = join(dir, "big.db");
    const big = await createSqliteStore({ filename: bigDb });
    const writer = await big.bulkLedgerWriter?.({ exclusive: true });
    if (!writer) throw new Error("the SQLite store has no bulk ledger writer");
    let batch = [];
    for (const row of ledgerRows({ transfers: 200_000, seed: 7 })) {
      batch.push(row);
      if (batch.length === 10_000) {
        await writer.write(batch);
        batch = [];
      }
    }
    await writer.write(batch);
    await writer.finish();
    await big.close();
  }, 120_000);
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("/readyz: 503 starting through the warm load, 200 when ready, 503 draining from SIGTERM; /healthz stays 200", {
    // About 15 s on an idle machine; 62 s measured at a load average of 16 to 22 on 2 cores.
    timeout: 180_000,
  }, async () => {
    const [port, metricsPort] = [await freePort(), await freePort()];
    const server = start([
      "serve",
      "--db",
      bigDb,
      "--port",
      String(port),
      "--metrics-port",
      String(metricsPort),
      "--warm",
      "--drain-seconds",
      "5",
      "--json",
    ]);
    try {
      const ready = firstLine(server);
      let readyLine: string | null = null;
      ready.then(
        (line) => {
          readyLine = line;
        },
        () => undefined,
      );
      const seen: string[] = [];
      const waited = new Set<string>();
      // Poll both listeners from the start until the server says it is ready.
      while (readyLine === null) {
        const answer = await probe(`http://127.0.0.1:${port}/readyz`);
        if (answer) {
          seen.push(`${answer.status} ${answer.body.status}`);
          for (const step of answer.body.waiting ?? []) waited.add(step);
          if (answer.status === 503) {
            // Meanwhile the interface answers 503 NOT_READY (401 once the engine took over).
            const early = await probe(`http://127.0.0.1:${port}/v1/transfers/`);
            expect([401, 503]).toContain(early?.status);
            expect([200, 503]).toContain((await probe(`http://127.0.0.1:${metricsPort}/readyz`))?.status);
          }
        }
        await new Promise((r) => setTimeout(r, 5));
        if (server.exitCode !== null) throw new Error("serve exited while starting");
      }
      const line = JSON.parse(await ready) as { url: string; metrics: string };
      expect(line.metrics).toBe(`http://127.0.0.1:${metricsPort}/metrics`);
      // It answered 503 while it loaded the warm ledger, before answering 200.
      expect(seen).toContain("503 starting");
      expect(waited.has("warm_sources")).toBe(true);
      const m = await scrape(line.metrics);
      expect(promValue(m, "openkyt_ready")).toBe(1);
      expect(promValue(m, "openkyt_warm_ledger_transfers")).toBe(200_000);
      // /metrics has its own address: the public one does not serve it.
      expect((await fetch(`${line.url}/metrics`)).status).toBe(404);

      server.kill("SIGTERM");
      // It drains for 5 s (--drain-seconds) from the signal: time enough, on a busy machine, to
      // see it and to ask the three questions below before it stops listening.
      let draining: Awaited<ReturnType<typeof probe>> = null;
      const deadline = Date.now() + 30_000;
      while (Date.now() < deadline && draining?.body.status !== "draining") {
        draining = await probe(`${line.url}/readyz`);
        await new Promise((r) => setTimeout(r, 10));
      }
      expect(draining).toEqual({ status: 503, body: { ready: false, status: "draining" } });
      // Still serving while it drains: liveness and the interface answer.
      expect((await probe(`${line.url}/healthz`))?.status).toBe(200);
      expect((await probe(`${line.url}/v1/transfers/`))?.status).toBe(401);
      expect((await probe(`http://127.0.0.1:${metricsPort}/readyz`))?.body.status).toBe("draining");
      expect(await exited(server)).toBe(0);
    } finally {
      server.kill("SIGKILL");
    }
  });

  it("/metrics counts a known sequence of requests and jobs exactly", { timeout: 60_000 }, async () => {
    const server = start(["serve", "--db", worldDb, "--port", "0", "--json"], KEY_ENV);
    try {
      const { url, metrics } = JSON.parse(await firstLine(server)) as { url: string; metrics: string };
      expect(metrics).toBe(`${url}/metrics`);
      const client = createKytClient({ baseUrl: url, keyId: KEY.keyId, secret: KEY.secret });
      const deposit = await client.registerTransfer(
        { direction: "incoming", network: "ETH", tx_hash: TX.deposit, output_address: W.client },
        { wait: 20 },
      );
      const mixer = await client.registerTransfer(
        { direction: "incoming", network: "ETH", tx_hash: TX.mixerDeposit, output_address: W.client },
        { wait: 20 },
      );
      expect([deposit.tx_status, mixer.tx_status]).toEqual(["bound", "bound"]);
      await client.getTransfer(deposit.id);
      await client.getTransfer(mixer.id);
      await client.listTransfers();
      const stranger = createKytClient({
        baseUrl: url,
        keyId: KEY.keyId,
        secret: "not-the-secret-0123456789",
      });
      expect(await stranger.listTransfers().catch((e) => e.status)).toBe(401);
      const alerts = (await client.listAlerts()).items;

      // The jobs settle just after the answers: read until they show, then compare exactly.
      let m = await scrape(metrics);
      for (
        let i = 0;
        i < 100 && promValue(m, "openkyt_jobs_settled_total", { kind: "transfer.bind", outcome: "done" }) < 2;
        i += 1
      ) {
        await new Promise((r) => setTimeout(r, 50));
        m = await scrape(metrics);
      }
      const requests = (route: string, method: string, status: string) =>
        promValue(m, "openkyt_http_requests_total", { route, method, status });
      expect(requests("/v1/transfers/register/", "POST", "201")).toBe(2);
      expect(requests("/v1/transfers/{id}/", "GET", "200")).toBe(2);
      expect(requests("/v1/transfers/", "GET", "200")).toBe(1);
      expect(requests("/v1/transfers/", "GET", "401")).toBe(1);
      expect(requests("/v1/alerts/", "GET", "200")).toBe(1);
      expect(promValue(m, "openkyt_http_auth_refusals_total", { reason: "bad_signature" })).toBe(1);
      expect(promValue(m, "openkyt_bindings_total", { outcome: "bound" })).toBe(2);
      expect(promValue(m, "openkyt_bindings_total", { outcome: "error" })).toBe(0);
      for (const kind of ["exposure", "counterparty", "sanctions"]) {
        expect(promValue(m, "openkyt_checks_total", { kind, outcome: "checked" })).toBe(2);
      }
      expect(promValue(m, "openkyt_transfer_register_to_checked_seconds_count")).toBe(2);
      expect(promValue(m, "openkyt_jobs_settled_total", { kind: "transfer.bind", outcome: "done" })).toBe(2);
      expect(promValue(m, "openkyt_jobs_running", { kind: "transfer.bind" })).toBe(0);
      expect(promValue(m, "openkyt_jobs_queued", { kind: "transfer.bind" })).toBe(0);
      expect(promValue(m, "openkyt_chain_lookup_duration_seconds_count", { outcome: "found" })).toBe(2);
      expect(alerts.length).toBeGreaterThan(0);
      for (const level of new Set(alerts.map((a) => a.risk_level))) {
        expect(promValue(m, "openkyt_alerts_created_total", { level })).toBe(
          alerts.filter((a) => a.risk_level === level).length,
        );
      }
      expect(m.get("openkyt_store_errors_total")?.samples).toEqual([]);
      expect(promValue(m, "openkyt_ready")).toBe(1);
      expect(m.get("process_cpu_seconds_total")?.type).toBe("counter");
      server.kill("SIGTERM");
      expect(await exited(server)).toBe(0);
    } finally {
      server.kill("SIGKILL");
    }
  });

  it("a worker serves /metrics and /readyz on --metrics-port, and refuses --metrics-host alone", {
    timeout: 60_000,
  }, async () => {
    const worker = start(["worker", "--db", worldDb, "--metrics-port", "0", "--json"]);
    try {
      const line = JSON.parse(await firstLine(worker)) as { worker: string; metrics: string };
      expect(line.metrics).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
      const base = line.metrics.replace(/\/metrics$/, "");
      expect(await probe(`${base}/readyz`)).toEqual({ status: 200, body: { ready: true, status: "ready" } });
      const m = await scrape(line.metrics);
      expect(promValue(m, "openkyt_jobs_queued", { lane: "checks", kind: "transfer.check" })).toBe(0);
      expect(promValue(m, "openkyt_store_up")).toBe(1);
      worker.kill("SIGTERM");
      expect(await exited(worker)).toBe(0);
    } finally {
      worker.kill("SIGKILL");
    }
    const alone = start(["worker", "--db", worldDb, "--metrics-host", "0.0.0.0"]);
    expect(await exited(alone)).toBe(2);
  });
});
