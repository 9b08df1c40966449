/**
 * Connection floods: thousands of idle connections from one address (127.0.0.2) are capped
 * per address, a signed request from another address (127.0.0.3) still answers within a
 * second, the total cap holds against several addresses, refusals are logged as counts (not a
 * line per socket), and the server serves again once the flood is gone.
 */
import { request } from "node:http";
import { connect, type Socket } from "node:net";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defaultMaxConnections } from "../src/connection-limits.js";
import { type HttpServer, serveHttp } from "../src/index.js";
import { limitAddress } from "../src/remote-address.js";
import { createSecurityWorld, type SecurityWorld, signatureHeaders } from "./security-fixture.js";

const TARGET = "/v1/transfers/?page_size=5";

/** Opens `count` idle connections from `localAddress`, `batch` at a time; each resolves once connected. */
async function flood(port: number, localAddress: string, count: number, batch = 250): Promise<Socket[]> {
  const sockets: Socket[] = [];
  for (let start = 0; start < count; start += batch) {
    const opened = await Promise.all(
      Array.from(
        { length: Math.min(batch, count - start) },
        () =>
          new Promise<Socket>((resolve) => {
            const socket = connect({ host: "127.0.0.1", port, localAddress });
            socket.on("error", () => undefined);
            socket.once("connect", () => resolve(socket));
            socket.once("close", () => resolve(socket));
          }),
      ),
    );
    sockets.push(...opened);
  }
  return sockets;
}

/** A signed GET sent from `localAddress` on a new connection: status and milliseconds. */
function signedFrom(port: number, localAddress: string): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: "127.0.0.1",
        port,
        localAddress,
        path: TARGET,
        headers: { ...signatureHeaders({ method: "GET", target: TARGET }), Connection: "close" },
      },
      (res) => {
        res.resume();
        res.on("end", () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - started }));
      },
    );
    req.on("error", reject);
    req.end();
  });
}

async function until(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("connection caps: in all and per source address", () => {
  let world: SecurityWorld;
  const lines: Array<Record<string, unknown>> = [];
  const logger = pino({ level: "info" }, { write: (line: string) => lines.push(JSON.parse(line)) });
  beforeAll(async () => {
    world = await createSecurityWorld();
  });
  afterAll(async () => {
    await world.close();
  });

  it("2,500 idle connections from one address: 100 kept, the rest reset, another address answered within 1 s", {
    timeout: 60_000,
  }, async () => {
    lines.length = 0;
    const server: HttpServer = await serveHttp(world.app, {
      port: 0,
      maxConnections: 1_000,
      maxConnectionsPerAddress: 100,
      // Idle connections stay until the test closes them: only the caps are at work.
      headersTimeoutMs: 60_000,
      requestTimeoutMs: 60_000,
      logger,
    });
    try {
      const started = performance.now();
      const sockets = await flood(server.port, "127.0.0.2", 2_500);
      await until(
        () => server.connections.refused().perAddress + server.connections.open("127.0.0.2") >= 2_500,
      );
      const flooded = performance.now() - started;
      expect(server.connections.open("127.0.0.2")).toBe(100);
      expect(server.connections.refused()).toEqual({ total: 0, perAddress: 2_400 });
      await until(() => sockets.filter((s) => !s.destroyed).length === 100);
      const answer = await signedFrom(server.port, "127.0.0.3");
      expect(answer.status).toBe(200);
      expect(answer.ms, "a signed request from another address").toBeLessThan(1_000);
      const refusedLines = lines.filter((l) => l.msg === "connections refused past the connection caps");
      expect(
        refusedLines.length,
        "refusals are logged as counts, not one line per socket",
      ).toBeLessThanOrEqual(2);
      expect(refusedLines[0]).toMatchObject({ level: 40, addresses: ["127.0.0.2"] });
      for (const socket of sockets) socket.destroy();
      await until(() => server.connections.open() === 0);
      const after = await signedFrom(server.port, "127.0.0.2");
      expect(after.status, "the flooding address is served again once its connections close").toBe(200);
      console.info(
        `connection flood: 2,500 connections from 127.0.0.2 in ${flooded.toFixed(0)} ms, 100 kept and 2,400 reset; ` +
          `a signed GET from 127.0.0.3 answered ${answer.status} in ${answer.ms.toFixed(1)} ms; ${refusedLines.length} log line(s) of refusals`,
      );
    } finally {
      await server.close();
    }
  });

  it("the total cap holds against several addresses; the server serves again after the flood", {
    timeout: 60_000,
  }, async () => {
    const server = await serveHttp(world.app, {
      port: 0,
      maxConnections: 150,
      maxConnectionsPerAddress: 100,
      headersTimeoutMs: 60_000,
      requestTimeoutMs: 60_000,
    });
    try {
      const sockets = [
        ...(await flood(server.port, "127.0.0.4", 100)),
        ...(await flood(server.port, "127.0.0.5", 100)),
      ];
      await until(() => server.connections.refused().total + server.connections.open() >= 200);
      expect(server.connections.open()).toBe(150);
      expect(server.connections.refused().total).toBe(50);
      for (const socket of sockets) socket.destroy();
      await until(() => server.connections.open() === 0);
      expect((await signedFrom(server.port, "127.0.0.4")).status).toBe(200);
    } finally {
      await server.close();
    }
  });

  it("defaults: 100 per address; 1,000 in all, less when the open-file limit is low; bad caps refused", async () => {
    expect(defaultMaxConnections(null)).toBe(1_000);
    expect(defaultMaxConnections(65_536)).toBe(1_000);
    expect(defaultMaxConnections(1_024)).toBe(768);
    expect(defaultMaxConnections(100)).toBe(32);
    const server = await serveHttp(world.app, { port: 0 });
    try {
      expect(server.connections.maxConnectionsPerAddress).toBe(100);
      expect(server.connections.maxConnections).toBeLessThanOrEqual(1_000);
    } finally {
      await server.close();
    }
    await expect(serveHttp(world.app, { port: 0, maxConnections: -1 })).rejects.toThrow(/maxConnections/);
  });

  it("addresses are counted as IPv4, IPv4-mapped IPv6 as IPv4, and IPv6 by its /64", () => {
    expect(limitAddress("127.0.0.2")).toBe("127.0.0.2");
    expect(limitAddress("::ffff:10.1.2.3")).toBe("10.1.2.3");
    expect(limitAddress("2001:db8:1:2:aaaa::1")).toBe("2001:db8:1:2::/64");
    expect(limitAddress("2001:db8:1:2:ffff:ffff:ffff:ffff")).toBe("2001:db8:1:2::/64");
    expect(limitAddress("::1")).toBe("0:0:0:0::/64");
    expect(limitAddress("fe80::1%eth0")).toBe("fe80:0:0:0::/64");
    expect(limitAddress(undefined)).toBe("unknown");
  });
});
