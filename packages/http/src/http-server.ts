/**
 * Serving the app on Node with @hono/node-server, with server timeouts set, and a graceful
 * close: stop accepting, let requests in flight finish (closing idle keep-alive sockets), and
 * cut what is left after a grace period.
 */

import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createAdaptorServer } from "@hono/node-server";

/** Something with a fetch handler (a Hono app). */
export interface FetchApp {
  fetch(request: Request, env?: unknown): Response | Promise<Response>;
}

/** Options of {@link serveHttp}. */
export interface ServeHttpOptions {
  /** Interface to bind; default 127.0.0.1. */
  readonly host?: string;
  /** Port; 0 picks a free one. */
  readonly port: number;
  /** Time to receive the request headers; default 10 s. */
  readonly headersTimeoutMs?: number;
  /**
   * Time to receive the whole request; default 30 s. It ends once the request is received, so a
   * handler that takes longer (`?wait=30`) is not cut.
   */
  readonly requestTimeoutMs?: number;
  /** How often Node checks the headers and request timeouts; default Node's (30 s). */
  readonly timeoutCheckIntervalMs?: number;
  /** Idle keep-alive socket lifetime; default 5 s. */
  readonly keepAliveTimeoutMs?: number;
  /** How long `close()` waits for requests in flight before cutting connections; default 10 s. */
  readonly closeGraceMs?: number;
}

/** A listening server. */
export interface HttpServer {
  readonly server: Server;
  readonly host: string;
  readonly port: number;
  /** `http://host:port` */
  readonly url: string;
  /** Stops accepting, waits for requests in flight (up to the grace period), then resolves. Idempotent. */
  close(): Promise<void>;
}

/** Serves `app` and resolves once it listens. */
export function serveHttp(app: FetchApp, options: ServeHttpOptions): Promise<HttpServer> {
  const host = options.host ?? "127.0.0.1";
  const server = createAdaptorServer({
    fetch: (request, env) => app.fetch(request, env),
    hostname: host,
    serverOptions: {
      headersTimeout: options.headersTimeoutMs ?? 10_000,
      requestTimeout: options.requestTimeoutMs ?? 30_000,
      keepAliveTimeout: options.keepAliveTimeoutMs ?? 5_000,
      ...(options.timeoutCheckIntervalMs === undefined
        ? {}
        : { connectionsCheckingInterval: options.timeoutCheckIntervalMs }),
    },
  }) as Server;
  let closing: Promise<void> | null = null;
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, host, () => {
      server.off("error", reject);
      const port = (server.address() as AddressInfo).port;
      const shown = host.includes(":") ? `[${host}]` : host;
      resolve({
        server,
        host,
        port,
        url: `http://${shown}:${port}`,
        close() {
          closing ??= new Promise<void>((done) => {
            const grace = setTimeout(() => server.closeAllConnections(), options.closeGraceMs ?? 10_000);
            server.close(() => {
              clearTimeout(grace);
              done();
            });
            server.closeIdleConnections();
          });
          return closing;
        },
      });
    });
  });
}
