/**
 * The server side of the HTTP benchmark, in its own process: `openkyt [KEY_CACHE_MS
 * [REPLAY_GUARD [metrics]]]` (the HTTP adapter over an engine on a SQLite file holding the test world, one
 * provisioned key, the rate limit lifted, `auth.keyCacheMs` as given, default 0, and the replay
 * guard as given: `auto`, the default, is the memory guard on SQLite; with `metrics`, wired as
 * `openkyt serve` wires them: the request observer, /metrics and /readyz, engine events and the
 * store's failures counted), `bare` (node:http answering a fixed
 * JSON body) or `floor` (node:http doing only the work a signed GET of a transfer cannot skip:
 * read the key, check the HMAC, read and present the transfer; no framework, no middleware, no
 * timestamp window, logging or errors: what any server of the interface would pay at least). Prints `{"port": N, "transferId": "..."}`, then answers each `cpu` line on stdin
 * with the process's CPU time so far (`{"cpuMs": N, "userMs": N, "systemMs": N}`).
 */

import { timingSafeEqual } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { createEngine, type Store } from "@openkyt/core";
import {
  createHttpApp,
  createHttpLogger,
  createReadiness,
  type OpsOptions,
  type ReplayGuardKind,
  serveHttp,
  signatureDigest,
} from "@openkyt/http";
import {
  countStoreErrors,
  createMetrics,
  exposition,
  httpRequestCounter,
  storeGauges,
  watchEngine,
} from "@openkyt/metrics";
import { createSqliteStore } from "@openkyt/store-sqlite";
import { loadWorld, TX, W } from "@openkyt/testkit";

export const BENCH_KEY = { id: "bench-key-0001", secret: "bench-secret-0123456789abcdef", account: "bench" };

const kind = process.argv[2];

// An orderly exit on SIGTERM, so that `node --cpu-prof` writes its profile.
process.once("SIGTERM", () => process.exit(0));

// The CPU time the server spent, asked for before and after each load run.
createInterface({ input: process.stdin }).on("line", (line) => {
  if (line.trim() !== "cpu") return;
  const { user, system } = process.cpuUsage();
  console.log(
    JSON.stringify({ cpuMs: (user + system) / 1000, userMs: user / 1000, systemMs: system / 1000 }),
  );
});

/**
 * The world every OpenKYT-backed server child serves: an engine on a fresh SQLite file (through
 * `wrap`, when given) holding the test world, the bench key and one registered, drained
 * transfer.
 */
async function benchWorld(wrap: (store: Store) => Store = (store) => store) {
  const store = wrap(
    await createSqliteStore({ filename: join(mkdtempSync(join(tmpdir(), "openkyt-http-bench-")), "kyt.db") }),
  );
  const engine = createEngine({ store });
  await loadWorld(engine);
  await engine.apiKeys.provision(BENCH_KEY.id, BENCH_KEY.secret, BENCH_KEY.account);
  const { transfer } = await engine.forAccount(BENCH_KEY.account).registerTransfer({
    direction: "incoming",
    network: "ETH",
    tx_hash: TX.deposit,
    output_address: W.client,
  });
  await engine.drain();
  return { store, engine, transfer };
}

if (kind === "bare") {
  const body = JSON.stringify({
    id: "00000000-0000-4000-8000-000000000001",
    tx_status: "bound",
    risk_level: "none",
  });
  const server = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(body) });
    res.end(body);
  });
  server.listen(0, "127.0.0.1", () =>
    console.log(JSON.stringify({ port: (server.address() as AddressInfo).port })),
  );
} else if (kind === "floor") {
  const { engine, transfer } = await benchWorld();
  const api = engine.forAccount(BENCH_KEY.account);
  const refuse = (res: import("node:http").ServerResponse) => {
    res.writeHead(401, { "content-type": "application/json" });
    res.end('{"detail":"unauthorized"}');
  };
  const server = createServer(async (req, res) => {
    const keyId = req.headers["api-key-id"];
    const stamp = req.headers["api-timestamp"];
    const signature = req.headers["api-signature"];
    if (typeof keyId !== "string" || typeof stamp !== "string" || typeof signature !== "string")
      return refuse(res);
    const key = await engine.apiKeys.resolve(keyId);
    if (!key) return refuse(res);
    const digest = signatureDigest(key.secret, {
      method: "GET",
      target: req.url ?? "",
      timestamp: stamp,
      body: null,
    });
    const given = Buffer.from(signature, "base64");
    if (given.length !== 32 || !timingSafeEqual(given, digest)) return refuse(res);
    const id = (req.url ?? "").split("/")[3] ?? "";
    const body = JSON.stringify(await api.getTransfer(id));
    res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(body) });
    res.end(body);
  });
  server.listen(0, "127.0.0.1", () =>
    console.log(JSON.stringify({ port: (server.address() as AddressInfo).port, transferId: transfer.id })),
  );
} else {
  const metrics = process.argv[5] === "metrics" ? createMetrics() : null;
  const { store, engine, transfer } = await benchWorld((opened) =>
    metrics ? countStoreErrors(opened, metrics) : opened,
  );
  let ops: OpsOptions | undefined;
  if (metrics) {
    watchEngine(metrics, engine);
    const refresh = storeGauges(metrics, store);
    ops = {
      readiness: createReadiness({ steps: [], probe: () => store.getSetting("openkyt.readiness-probe") }),
      observe: httpRequestCounter(metrics),
      metrics: () => exposition(metrics, [refresh]),
    };
  }
  engine.start();
  const app = createHttpApp({
    engine,
    logger: createHttpLogger({ level: "silent" }),
    limits: { ratePerKey: null },
    auth: {
      keyCacheMs: Number(process.argv[3] ?? 0),
      replay: { guard: (process.argv[4] ?? "auto") as ReplayGuardKind },
    },
    ...(ops ? { ops } : {}),
  });
  const server = await serveHttp(app, { host: "127.0.0.1", port: 0 });
  console.log(JSON.stringify({ port: server.port, transferId: transfer.id }));
}
