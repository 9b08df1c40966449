/**
 * Node failures are CHAIN_ERROR: a stopped anvil (connection refused), and a real HTTP server on
 * 127.0.0.1 that answers badly (garbage, JSON-RPC errors, nonsense results, no answer at all).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { createMemoryStore, isKytError } from "@openkyt/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createBlockIngestor, createEvmChainSource } from "../src/index.js";
import { startAnvil } from "./anvil-node.js";

const HASH = `0x${"cd".repeat(32)}`;

type Reply = (body: { method: string; id: unknown }, res: ServerResponse) => void;

/** An HTTP server whose answer to each JSON-RPC request `reply` decides. */
async function badNode(reply: Reply): Promise<{ url: string; server: Server }> {
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let raw = "";
    req.on("data", (chunk: Buffer) => {
      raw += chunk.toString();
    });
    req.on("end", () => reply(JSON.parse(raw) as { method: string; id: unknown }, res));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

function json(res: ServerResponse, value: unknown): void {
  res.writeHead(200, { "content-type": "application/json" });
  res.end(JSON.stringify(value));
}

/** The CHAIN_ERROR's message; a failed request keeps its cause, a nonsense answer has none. */
async function chainErrorOf(promise: Promise<unknown>, withCause = true): Promise<string> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(isKytError(error, "CHAIN_ERROR")).toBe(true);
  if (withCause) expect((error as Error).cause).toBeDefined();
  return (error as Error).message;
}

const servers: Server[] = [];

afterAll(async () => {
  for (const server of servers) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

async function sourceFor(reply: Reply, timeoutMs = 2_000) {
  const { url, server } = await badNode(reply);
  servers.push(server);
  return createEvmChainSource({ rpcUrl: url, timeoutMs, retry: { count: 0 } });
}

describe("RPC failures", () => {
  let stoppedUrl: string;

  beforeAll(async () => {
    const node = await startAnvil();
    stoppedUrl = node.rpcUrl;
    await node.stop();
  });

  it("a stopped node: CHAIN_ERROR naming the request", async () => {
    const source = createEvmChainSource({ rpcUrl: stoppedUrl, retry: { count: 0 } });
    expect(await chainErrorOf(source.lookup("ETH", HASH))).toMatch(
      /^ETH node: eth_getTransactionByHash failed/,
    );
  });

  it("a stopped node: the ingestor's run fails with CHAIN_ERROR and writes no cursor", async () => {
    const store = createMemoryStore();
    const ingestor = createBlockIngestor({ store, rpcUrl: stoppedUrl, startBlock: 0, retry: { count: 0 } });
    await chainErrorOf(ingestor.runOnce());
    expect(await ingestor.cursor()).toBeNull();
  });

  it("a body that is not JSON", async () => {
    const source = await sourceFor((_body, res) => {
      res.writeHead(200, { "content-type": "text/html" });
      res.end("<html>bad gateway</html>");
    });
    await chainErrorOf(source.lookup("ETH", HASH));
  });

  it("an HTTP 502", async () => {
    const source = await sourceFor((_body, res) => {
      res.writeHead(502);
      res.end("bad gateway");
    });
    await chainErrorOf(source.lookup("ETH", HASH));
  });

  it("a JSON-RPC error", async () => {
    const source = await sourceFor((body, res) =>
      json(res, { jsonrpc: "2.0", id: body.id, error: { code: -32000, message: "header not found" } }),
    );
    expect(await chainErrorOf(source.lookup("ETH", HASH))).toMatch(/failed/);
  });

  it("a result that is not a transaction", async () => {
    const source = await sourceFor((body, res) => json(res, { jsonrpc: "2.0", id: body.id, result: 42 }));
    await chainErrorOf(source.lookup("ETH", HASH), false);
  });

  it("another transaction than the one asked for", async () => {
    const other = `0x${"ef".repeat(32)}`;
    const source = await sourceFor((body, res) =>
      json(res, {
        jsonrpc: "2.0",
        id: body.id,
        result: body.method === "eth_getTransactionByHash" ? { hash: other, blockNumber: null } : null,
      }),
    );
    expect(await chainErrorOf(source.lookup("ETH", HASH), false)).toMatch(/answered/);
  });

  it("no answer within the timeout", async () => {
    const source = await sourceFor(() => {
      // never answers
    }, 200);
    const started = Date.now();
    await chainErrorOf(source.lookup("ETH", HASH));
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});
