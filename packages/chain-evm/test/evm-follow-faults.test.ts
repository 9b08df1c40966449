/**
 * Faults between the service and its node, on a real anvil behind a loopback proxy that can go
 * down (connections dropped), slow (answers after the request timeout) or answer nonsense: the
 * chain follower counts the failures, backs off and resumes from its cursor with no gap once the
 * node is back; an engine binding through the same proxy keeps answering, its lookups back off,
 * and a registration ends as tx_status says: `bound` once the node answers again, `error` when
 * the node answers nonsense past the job's attempts.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import {
  createChainFollower,
  createEngine,
  createMemoryStore,
  type Engine,
  type LedgerTransfer,
  routedChainSource,
  type Store,
  storeChainSource,
} from "@openkyt/core";
import type { Address, Hash } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEvmBlockSource, createEvmChainSource } from "../src/index.js";
import { startTestChain, type TestChain } from "./anvil-chain.js";

type Mode = "pass" | "down" | "slow" | "nonsense";

/** A proxy in front of the node whose behaviour the test switches. */
interface FaultyProxy {
  readonly url: string;
  mode: Mode;
  close(): Promise<void>;
}

async function startProxy(target: string): Promise<FaultyProxy> {
  const state = { mode: "pass" as Mode };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const mode = state.mode;
      if (mode === "down") {
        req.socket.destroy();
        return;
      }
      if (mode === "nonsense") {
        res.writeHead(200, { "content-type": "application/json" });
        res.end('{"jsonrpc":"2.0","id":1,"result":{"garbage":true}');
        return;
      }
      const forward = async () => {
        const answer = await fetch(target, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: Buffer.concat(chunks),
        });
        const body = await answer.text();
        if (mode === "slow") await new Promise((r) => setTimeout(r, 600));
        if (!res.destroyed) {
          res.writeHead(answer.status, { "content-type": "application/json" });
          res.end(body);
        }
      };
      forward().catch(() => req.socket.destroy());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    get mode() {
      return state.mode;
    },
    set mode(m: Mode) {
      state.mode = m;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

let chain: TestChain;
let proxy: FaultyProxy;
let alice: Address;
let bob: Address;

beforeAll(async () => {
  chain = await startTestChain({ chainId: 1 });
  [alice, bob] = chain.accounts as [Address, Address];
  proxy = await startProxy(chain.rpcUrl);
}, 60_000);

afterAll(async () => {
  await proxy?.close();
  await chain?.stop();
});

async function until(what: string, probe: () => Promise<boolean>, ms = 15_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await probe()) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`timed out waiting for ${what}`);
}

const key = (r: LedgerTransfer) => `${r.txHash}/${r.logIndex}`;

describe("faults between the service and its node", () => {
  it("the follower backs off through a node down, slow and answering nonsense, then resumes with no gap", async () => {
    const store: Store = createMemoryStore();
    const source = createEvmBlockSource({
      rpcUrl: proxy.url,
      network: "ETH",
      timeoutMs: 300,
      retry: { count: 0 },
    });
    const first = Number(await chain.publicClient.getBlockNumber()) + 1;
    const errors: string[] = [];
    let last = first;
    const follower = createChainFollower({
      store,
      source,
      fromBlock: first,
      pollMs: 20,
      batchBlocks: 3,
      onError: (e) => errors.push(e.code),
    });
    follower.start();
    try {
      const sent: Hash[] = [];
      for (const mode of ["pass", "down", "slow", "nonsense", "pass"] as const) {
        proxy.mode = mode;
        const before = errors.length;
        for (let i = 0; i < 3; i++) sent.push(await chain.sendNative(alice, bob, "0.01"));
        if (mode !== "pass") {
          await until(`a failure while the node is ${mode}`, async () => errors.length > before);
        }
      }
      // anvil answers eth_sendTransaction before its block number moves: the last block is the
      // one the last transfer's receipt names, not the head read right after sending.
      const { blockNumber } = await chain.publicClient.waitForTransactionReceipt({
        hash: sent[sent.length - 1] as Hash,
        pollingInterval: 20,
      });
      last = Number(blockNumber);
      // The follower may be in its backoff after the failures (doubling from pollMs, at most
      // 60 s; on a loaded machine the faulty phases last long enough to reach tens of seconds):
      // the catch-up is waited for past the longest backoff.
      await until(
        "the follower to catch up",
        async () => (await store.followedHead("ETH"))?.height === last,
        75_000,
      );
    } finally {
      proxy.mode = "pass";
      await follower.stop();
    }
    expect(errors.length).toBeGreaterThanOrEqual(3);
    expect(new Set(errors)).toEqual(new Set(["CHAIN_ERROR"]));
    expect(last).toBe(first + 14);
    const expected = await createEvmBlockSource({ rpcUrl: chain.rpcUrl, network: "ETH" }).readBlocks(
      first,
      last,
    );
    const scan = await store.scanLedger?.(0, 100_000);
    expect((scan?.rows ?? []).map(key).sort()).toEqual(expected.transfers.map(key).sort());
    expect(expected.transfers).toHaveLength(15);
    for (const block of expected.blocks) {
      expect((await store.followedBlock("ETH", block.height))?.hash).toBe(block.hash);
    }
  }, 150_000);

  it("lookups back off while the node is down and bind once it is back; nonsense past the attempts ends in error", async () => {
    const store: Store = createMemoryStore();
    const live = createEvmChainSource({
      rpcUrl: proxy.url,
      network: "ETH",
      timeoutMs: 300,
      retry: { count: 0 },
    });
    const engine: Engine = createEngine({
      store,
      chainSource: routedChainSource({ ETH: live }, storeChainSource(store)),
      binding: { pollMs: 50 },
      jobs: { maxAttempts: 4, backoffBaseMs: 100, backoffMaxMs: 400, pollIntervalMs: 20 },
    });
    engine.start();
    try {
      const kyt = engine.forAccount("acme");
      const register = (hash: string) =>
        kyt.registerTransfer({
          direction: "incoming",
          network: "ETH",
          tx_hash: hash,
          output_address: bob.toLowerCase(),
        });

      // Down, then back: the registration waits out the failures and binds.
      const sent = await chain.sendNative(alice, bob, "0.2");
      proxy.mode = "down";
      const { transfer } = await register(sent);
      await new Promise((r) => setTimeout(r, 250));
      expect((await kyt.getTransfer(transfer.id)).tx_status).toBe("binding");
      proxy.mode = "pass";
      await until("the transfer to bind once the node is back", async () => {
        return (await kyt.getTransfer(transfer.id)).tx_status === "bound";
      });
      expect(await kyt.getTransfer(transfer.id)).toMatchObject({ tx_status: "bound", amount: 0.2 });

      // Nonsense for good: the lookups fail their attempts and the transfer ends in error, with the reason.
      const other = await chain.sendNative(alice, bob, "0.3");
      proxy.mode = "nonsense";
      const failing = await register(other);
      await until("the transfer to end in error", async () => {
        return (await kyt.getTransfer(failing.transfer.id)).tx_status === "error";
      });
      // The engine kept answering meanwhile.
      expect((await kyt.listTransfers({})).total_items).toBe(2);
    } finally {
      proxy.mode = "pass";
      await engine.stop();
    }
  }, 60_000);
});
