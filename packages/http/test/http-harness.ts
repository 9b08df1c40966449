/**
 * A real server on 127.0.0.1 (a free port) over an engine on SQLite in memory with the
 * hand-made world loaded, two accounts with provisioned keys, and a client for each.
 */

import { createKytClient, type KytClient, type KytClientOptions } from "@openkyt/client";
import type { Clock, EngineConfig, ReportRenderer } from "@openkyt/core";
import { createSqliteStore } from "@openkyt/store-sqlite";
import { createHarness, type Harness } from "@openkyt/testkit";
import { createHttpApp, type HttpAppOptions, type HttpServer, serveHttp } from "../src/index.js";

/** Key ids and secrets of the two accounts. */
export const KEYS = Object.freeze({
  acme: { keyId: "acme-key-0001", secret: "acme-secret-0123456789abcdef" },
  other: { keyId: "other-key-0001", secret: "other-secret-0123456789abcdef" },
});

/** A running server with its engine harness and clients. */
export interface Served {
  readonly h: Harness;
  readonly server: HttpServer;
  /** Client of account "acme". */
  readonly acme: KytClient;
  /** Client of account "other". */
  readonly other: KytClient;
  /** A client with other credentials or clock. */
  client(overrides: Partial<KytClientOptions>): KytClient;
  close(): Promise<void>;
}

/** A renderer that writes a tiny stand-in PDF naming what it rendered. */
export const stubRenderer: ReportRenderer = {
  async render(request) {
    const d = request.data;
    const subject =
      d.kind === "transfer"
        ? d.transfer.id
        : d.kind === "backtest"
          ? d.backtestId
          : d.kind === "case_file"
            ? d.alert.id
            : d.check.id;
    return new TextEncoder().encode(
      `%PDF-1.4\n% ${request.data.kind} ${subject} risks=${request.withRisks}\n%%EOF\n`,
    );
  },
};

/** Starts a server; `http` adjusts the app, `engine` the engine config. */
export async function serve(
  options: { http?: Partial<HttpAppOptions>; engine?: Partial<EngineConfig>; clientClock?: Clock } = {},
): Promise<Served> {
  const h = await createHarness(
    { name: "sqlite", createStore: () => createSqliteStore({ filename: ":memory:" }) },
    options.engine,
  );
  await h.engine.apiKeys.provision(KEYS.acme.keyId, KEYS.acme.secret, "acme");
  await h.engine.apiKeys.provision(KEYS.other.keyId, KEYS.other.secret, "other");
  const app = createHttpApp({
    engine: h.engine,
    limits: { ratePerKey: null, failedAuth: null },
    ...options.http,
  });
  const server = await serveHttp(app, { port: 0 });
  const client = (overrides: Partial<KytClientOptions>) =>
    createKytClient({ baseUrl: server.url, ...KEYS.acme, clock: options.clientClock, ...overrides });
  return {
    h,
    server,
    acme: client({}),
    other: client(KEYS.other),
    client,
    async close() {
      await server.close();
      await h.close();
    },
  };
}

/** The error a promise rejects with (fails the test when it resolves). */
export async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    (value) => {
      throw new Error(`expected a rejection, got ${JSON.stringify(value)?.slice(0, 200)}`);
    },
    (error: unknown) => error,
  );
}
