import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { nodeUrl } from "@openkyt/core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createEvmClient } from "../src/evm-connection.js";

// A loopback JSON-RPC node that answers eth_chainId and keeps the headers of each request.
const seen: IncomingHttpHeaders[] = [];
const server = createServer((req, res) => {
  seen.push(req.headers);
  let body = "";
  req.on("data", (chunk) => {
    body += chunk;
  });
  req.on("end", () => {
    const { id } = JSON.parse(body) as { id: number };
    res.setHeader("content-type", "application/json");
    res.end(JSON.stringify({ jsonrpc: "2.0", id, result: "0x1" }));
  });
});
let port = 0;
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

it("credentials in the RPC URL are sent as HTTP Basic authentication, not in the URL", async () => {
  seen.length = 0;
  const client = createEvmClient({ rpcUrl: `http://alice:p%40ss%3Aword@127.0.0.1:${port}/rpc` });
  expect(await client.getChainId()).toBe(1);
  expect(seen).toHaveLength(1);
  expect(seen[0]?.authorization).toBe(`Basic ${Buffer.from("alice:p@ss:word").toString("base64")}`);
});

it("a URL without credentials sends no authorization header", async () => {
  seen.length = 0;
  const client = createEvmClient({ rpcUrl: `http://127.0.0.1:${port}` });
  expect(await client.getChainId()).toBe(1);
  expect(seen[0]?.authorization).toBeUndefined();
});

it("nodeUrl leaves the rest of the URL, encodes UTF-8, and refuses what is not an http(s) URL", () => {
  expect(nodeUrl("https://u:k@node.example/v1/key?x=1")).toEqual({
    url: "https://node.example/v1/key?x=1",
    authorization: `Basic ${Buffer.from("u:k").toString("base64")}`,
  });
  expect(nodeUrl("https://j%C3%BCrgen:pw@node.example").authorization).toBe(
    `Basic ${Buffer.from("jürgen:pw", "utf8").toString("base64")}`,
  );
  expect(() => nodeUrl("not a url", "rpcUrl")).toThrow(/rpcUrl/);
  expect(() => nodeUrl("node.example:8545", "rpcUrl")).toThrow(/http\(s\) URL, not node\.example:/);
});
