/**
 * Recorded answers of a Tron full node, written from the HTTP API's documented formats
 * (developers.tron.network: getnowblock, getblockbynum, gettransactionbyid,
 * gettransactioninfobyid), served by a loopback HTTP server: blocks 0 (mainnet's genesis id),
 * 98, 99 and 100, with a TRX transfer, a USDT-TRC20 transfer and a reverted USDT-TRC20 transfer
 * in block 98. The server can also answer garbage, fail, or stall.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { TRON_MAINNET_GENESIS } from "../src/index.js";

/** USDT-TRC20's contract, in both forms (a well-known pair). */
export const USDT = {
  base58: "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t",
  hex: "41a614f803b6fd780986a42c78ec9c7f77e6ded13c",
};
/** Three accounts as the node writes them (41-hex). */
export const ALICE = "41a1b2c3d4e5f60718293a4b5c6d7e8f9011223344";
export const BOB = "41f0e1d2c3b4a5968778695a4b3c2d1e0f55667788";
export const CAROL = "4100112233445566778899aabbccddeeff00112233";

const h = (c: string) => c.repeat(64);
export const TX = { trx: h("1"), usdt: h("2"), reverted: h("3"), pending: h("4") };
const BLOCK_ID = (n: number) => `${n.toString(16).padStart(16, "0")}${"ab".repeat(24)}`;
export const BLOCK_TIME = 1_700_000_001_000;

const word = (hex41: string) => `000000000000000000000000${hex41.slice(2)}`;
const transferContract = (from: string, to: string, sun: number) => ({
  parameter: {
    value: { amount: sun, owner_address: from, to_address: to },
    type_url: "type.googleapis.com/protocol.TransferContract",
  },
  type: "TransferContract",
});
const triggerContract = (from: string, data: string) => ({
  parameter: {
    value: { data, owner_address: from, contract_address: USDT.hex },
    type_url: "type.googleapis.com/protocol.TriggerSmartContract",
  },
  type: "TriggerSmartContract",
});
const tx = (txID: string, contractRet: string, contract: object) => ({
  ret: [{ contractRet }],
  signature: ["c0ffee"],
  txID,
  raw_data: {
    contract: [contract],
    ref_block_bytes: "0062",
    ref_block_hash: "aabbccdd",
    expiration: BLOCK_TIME + 60_000,
    timestamp: BLOCK_TIME - 3_000,
  },
  raw_data_hex: "0a02",
});
const transferData = (to: string, units: bigint) =>
  `a9059cbb${word(to)}${units.toString(16).padStart(64, "0")}`;

export const TRANSACTIONS: Record<string, object> = {
  [TX.trx]: tx(TX.trx, "SUCCESS", transferContract(ALICE, BOB, 12_500_000)),
  [TX.usdt]: tx(TX.usdt, "SUCCESS", triggerContract(BOB, transferData(CAROL, 1_500_250_000n))),
  [TX.reverted]: tx(TX.reverted, "REVERT", triggerContract(CAROL, transferData(ALICE, 9_000_000n))),
  [TX.pending]: tx(TX.pending, "SUCCESS", transferContract(ALICE, CAROL, 1_000_000)),
};

const info = (id: string, extra: object) => ({
  id,
  fee: 345_000,
  blockNumber: 98,
  blockTimeStamp: BLOCK_TIME,
  contractResult: [""],
  receipt: { net_usage: 268 },
  ...extra,
});
export const INFOS: Record<string, object> = {
  [TX.trx]: info(TX.trx, {}),
  [TX.usdt]: info(TX.usdt, {
    contract_address: USDT.hex,
    receipt: { energy_usage_total: 14_650, net_usage: 345, result: "SUCCESS" },
    log: [
      {
        address: USDT.hex.slice(2),
        topics: ["ddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef", word(BOB), word(CAROL)],
        data: 1_500_250_000n.toString(16).padStart(64, "0"),
      },
    ],
  }),
  [TX.reverted]: info(TX.reverted, {
    contract_address: USDT.hex,
    result: "FAILED",
    resMessage: "5245564552540000",
    receipt: { energy_usage_total: 1_200, net_usage: 345, result: "REVERT" },
  }),
};

const block = (n: number, transactions: object[]) => ({
  blockID: n === 0 ? TRON_MAINNET_GENESIS : BLOCK_ID(n),
  block_header: {
    raw_data:
      n === 0
        ? { txTrieRoot: "00", parentHash: "e58f33f9baf9305dc6f82b9f1934ea8f0ade2defb951258d50167028c780351f" }
        : {
            number: n,
            txTrieRoot: "00",
            witness_address: ALICE,
            parentHash: BLOCK_ID(n - 1),
            version: 30,
            timestamp: BLOCK_TIME + (n - 98) * 3_000,
          },
    witness_signature: "00",
  },
  ...(transactions.length > 0 ? { transactions } : {}),
});

export const BLOCKS: Record<number, object> = {
  0: block(0, []),
  98: block(98, [TRANSACTIONS[TX.trx] ?? {}, TRANSACTIONS[TX.usdt] ?? {}, TRANSACTIONS[TX.reverted] ?? {}]),
  99: block(99, []),
  100: block(100, []),
};

/** What the node answers. */
export type NodeMode = "recorded" | "garbage" | "nonsense" | "error" | "stall";

/** A running fake of the node's HTTP API over the recorded answers. */
export interface TronFixtureNode {
  readonly url: string;
  mode: NodeMode;
  /** The paths asked, in order. */
  readonly asked: string[];
  /** The Authorization header of each request, in order (undefined without one). */
  readonly authorizations: Array<string | undefined>;
  close(): Promise<void>;
}

/** Starts the node on 127.0.0.1 and a free port. */
export async function startTronFixture(): Promise<TronFixtureNode> {
  const state: { mode: NodeMode } = { mode: "recorded" };
  const asked: string[] = [];
  const authorizations: Array<string | undefined> = [];
  const server: Server = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => {
      body += c;
    });
    req.on("end", () => {
      const path = req.url ?? "";
      asked.push(path);
      authorizations.push(req.headers.authorization);
      if (state.mode === "stall") return;
      if (state.mode === "error") {
        res.writeHead(502).end("Bad Gateway");
        return;
      }
      if (state.mode === "garbage") {
        res.writeHead(200, { "content-type": "text/html" }).end("<html>rate limited</html>");
        return;
      }
      if (state.mode === "nonsense") {
        res
          .writeHead(200, { "content-type": "application/json" })
          .end('{"blockID":42,"Error":"class java.lang.NullPointerException"}');
        return;
      }
      const args = (body ? JSON.parse(body) : {}) as { num?: number; value?: string };
      let answer: object = {};
      if (path === "/wallet/getnowblock") answer = BLOCKS[100] ?? {};
      else if (path === "/wallet/getblockbynum") answer = BLOCKS[args.num ?? -1] ?? {};
      else if (path === "/wallet/gettransactionbyid") answer = TRANSACTIONS[args.value ?? ""] ?? {};
      else if (path === "/wallet/gettransactioninfobyid") answer = INFOS[args.value ?? ""] ?? {};
      else {
        res.writeHead(404).end();
        return;
      }
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    get mode() {
      return state.mode;
    },
    set mode(m: NodeMode) {
      state.mode = m;
    },
    asked,
    authorizations,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
