/**
 * Serving the app on Node with @hono/node-server, with server timeouts set, caps on open
 * connections (in all and per source address, see connection-limits.ts), and a graceful close:
 * stop accepting, let requests in flight finish (closing idle keep-alive sockets), and cut what
 * is left after a grace period.
 */

import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createAdaptorServer } from "@hono/node-server";
import {
  type ConnectionLimiter,
  type ConnectionLog,
  DEFAULT_MAX_CONNECTIONS_PER_ADDRESS,
  defaultMaxConnections,
  limitConnections,
} from "./connection-limits.js";

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
  /**
   * How often Node checks the headers and request timeouts; default 2 s (Node's own is 30 s,
   * which lets an idle connection live 40 s past a 10 s headers timeout).
   */
  readonly timeoutCheckIntervalMs?: number;
  /** Idle keep-alive socket lifetime; default 5 s. */
  readonly keepAliveTimeoutMs?: number;
  /** How long `close()` waits for requests in flight before cutting connections; default 10 s. */
  readonly closeGraceMs?: number;
  /**
   * Most open connections in all; 0: no cap. Default 1,000, or the open-file limit less 256 when
   * that is lower (see `defaultMaxConnections`). A connection past it is reset at once.
   */
  readonly maxConnections?: number;
  /**
   * Most open connections from one source address (an IPv6 /64); 0: no cap. Default 100. Behind
   * a proxy or load balancer every connection comes from it: raise this to at least what the
   * proxy opens, or set 0.
   */
  readonly maxConnectionsPerAddress?: number;
  /** Where refused connections are reported (one line per 10 s at most); a pino logger fits. */
  readonly logger?: ConnectionLog;
}

/** A listening server. */
export interface HttpServer {
  readonly server: Server;
  readonly host: string;
  readonly port: number;
  /** `http://host:port` */
  readonly url: string;
  /** The connection caps in force, open connections and refusals. */
  readonly connections: ConnectionLimiter & {
    readonly maxConnections: number;
    readonly maxConnectionsPerAddress: number;
  };
  /** Stops accepting, waits for requests in flight (up to the grace period), then resolves. Idempotent. */
  close(): Promise<void>;
}

function checkCap(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new RangeError(`${name} must be a whole number >= 0 (0: no cap), got ${value}`);
  }
  return value;
}

/** Serves `app` and resolves once it listens. */
export function serveHttp(app: FetchApp, options: ServeHttpOptions): Promise<HttpServer> {
  const host = options.host ?? "127.0.0.1";
  let caps: { maxConnections: number; maxConnectionsPerAddress: number };
  try {
    caps = {
      maxConnections: checkCap("maxConnections", options.maxConnections ?? defaultMaxConnections()),
      maxConnectionsPerAddress: checkCap(
        "maxConnectionsPerAddress",
        options.maxConnectionsPerAddress ?? DEFAULT_MAX_CONNECTIONS_PER_ADDRESS,
      ),
    };
  } catch (error) {
    return Promise.reject(error);
  }
  const server = createAdaptorServer({
    fetch: (request, env) => app.fetch(request, env),
    hostname: host,
    serverOptions: {
      headersTimeout: options.headersTimeoutMs ?? 10_000,
      requestTimeout: options.requestTimeoutMs ?? 30_000,
      keepAliveTimeout: options.keepAliveTimeoutMs ?? 5_000,
      connectionsCheckingInterval: options.timeoutCheckIntervalMs ?? 2_000,
    },
  }) as Server;
  const limiter = limitConnections(server, caps, options.logger);
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
        connections: { ...limiter, ...caps },
        close() {
          closing ??= new Promise<void>((done) => {
            const grace = setTimeout(() => server.closeAllConnections(), options.closeGraceMs ?? 10_000);
            server.close(() => {
              clearTimeout(grace);
              limiter.stop();
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
