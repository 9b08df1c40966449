/**
 * Issue 31's "done when", end to end through the processes a user runs: a database built with
 * `openkyt import labels` and `openkyt import ledger --format bitcoin-core` (Bitcoin Core's
 * `getblock <hash> 3` answers, one block a line), then `openkyt serve` on it, and a BTC deposit
 * registered over HTTP with the published client. It is bound to the outputs paying its
 * `output_address` and checked with the exposure docs/risk-model.md ("Bitcoin") gives: by the
 * haircut rule the deposit carries its transaction's pooled inputs pro rata, so the labelled
 * coin one hop back is credited its share in satoshis, the coinbase coin `mining` the rest.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// The CLI package does not depend on the client; the test reaches it through the workspace.
import { createKytClient } from "../../client/src/index.js";
import { exited, firstLine, runInProcess, start } from "./cli-process.js";

const KEY = { keyId: "btc-serve-key-01", secret: "btc-serve-secret-0123456789", account: "exchange" };

/** Addresses (valid mainnet forms): a ransomware wallet, its payee, a miner, the client, change. */
const RANSOM = "115p7UMMngoj1pMvkpHijcRdfJNXj6LrLn";
const PAYEE = "1BgGZ9tcN4rm9KBzDn7KprQz87SZ26SAMH";
const MINER = "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4";
const CLIENT = "bc1qc8qurswpc8qurswpc8qurswpc8qurswpee0dfr";
const CHANGE = "bc1q5xs6rgdp5xs6rgdp5xs6rgdp5xs6rgdp4gkthz";

const txid = (byte: string) => byte.repeat(32);
const REWARD_1 = txid("c1");
const REWARD_2 = txid("c2");
const REWARD_3 = txid("c3");
const PAYMENT = txid("a1");
const DEPOSIT = txid("b1");

/** A scriptPubKey as Core 22+ writes it (the importer reads `address`). */
const spk = (address: string) => ({ address, hex: "00", type: "witness_v0_keyhash" });
const coinbase = (id: string, address: string, value: string) => ({
  txid: id,
  vin: [{ coinbase: "03a08601", sequence: 4294967295 }],
  vout: [{ value, n: 0, scriptPubKey: spk(address) }],
});
const spend = (prev: string, vout: number, address: string, value: string) => ({
  txid: prev,
  vout,
  prevout: { generated: false, height: 0, value, scriptPubKey: spk(address) },
  sequence: 4294967293,
});
/** One `getblock <hash> 3` answer, as a JSON line with its amounts written as Core writes them. */
const block = (height: number, txs: ReadonlyArray<object>) =>
  JSON.stringify({
    hash: `${"00".repeat(31)}${height.toString(16).padStart(2, "0")}`,
    height,
    time: 1_700_000_000 + height * 600,
    nTx: txs.length,
    tx: txs,
  }).replace(/"(\d+\.\d{8})"/g, "$1");

const BLOCKS = [
  block(100, [coinbase(REWARD_1, RANSOM, "1.00000000")]),
  block(101, [
    coinbase(REWARD_2, MINER, "3.00000000"),
    {
      txid: PAYMENT,
      vin: [spend(REWARD_1, 0, RANSOM, "1.00000000")],
      vout: [{ value: "0.99990000", n: 0, scriptPubKey: spk(PAYEE) }],
    },
  ]),
  block(102, [
    coinbase(REWARD_3, MINER, "6.25000000"),
    {
      txid: DEPOSIT,
      vin: [spend(PAYMENT, 0, PAYEE, "0.99990000"), spend(REWARD_2, 0, MINER, "3.00000000")],
      vout: [
        { value: "2.00000000", n: 0, scriptPubKey: spk(CLIENT) },
        { value: "1.99980000", n: 1, scriptPubKey: spk(CHANGE) },
      ],
    },
  ]),
];

describe("a BTC deposit over HTTP, on a database built with import ledger --format bitcoin-core", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "openkyt-btc-serve-"));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("is bound to the client's output and checked with the haircut shares of its inputs", async () => {
    const db = join(dir, "kyt.db");
    const labels = join(dir, "labels.csv");
    const ledger = join(dir, "blocks.jsonl");
    await writeFile(
      labels,
      `network,address,entity_name,entity_category,source\nBTC,${RANSOM},WannaCry,ransomware,test\n`,
    );
    await writeFile(ledger, `${BLOCKS.join("\n")}\n`);
    const imported = await runInProcess(["import", "labels", labels, "--db", db, "--json"]);
    expect(imported.code, imported.err).toBe(0);
    const built = await runInProcess([
      "import",
      "ledger",
      ledger,
      "--format",
      "bitcoin-core",
      "--db",
      db,
      "--json",
    ]);
    expect(built.code, built.err).toBe(0);
    expect(JSON.parse(built.out)).toMatchObject({
      format: "bitcoin-core",
      rowsRead: 5,
      added: 5,
      rejected: 0,
    });

    const server = start(["serve", "--port", "0", "--db", db, "--json"], {
      OPENKYT_API_KEYS: `${KEY.keyId}:${KEY.secret}:${KEY.account}`,
    });
    try {
      const { url } = JSON.parse(await firstLine(server)) as { url: string };
      const client = createKytClient({ baseUrl: url, keyId: KEY.keyId, secret: KEY.secret });
      const { id } = await client.registerTransfer({
        direction: "incoming",
        network: "BTC",
        tx_hash: DEPOSIT,
        output_address: CLIENT,
      });
      const done = await client.waitUntilChecked(id, { timeoutMs: 45_000, intervalMs: 50 });
      // Bound to the output paying the client (2 BTC); input_address is the largest input's.
      expect(done).toMatchObject({
        tx_status: "bound",
        amount: 2,
        input_address: MINER,
        output_address: CLIENT,
      });
      expect(done.risk_level).not.toBe("none");

      const exposure = await client.getTransferExposure(id);
      expect(exposure.input_addresses).toEqual([PAYEE, MINER]);
      expect(exposure.utxo_rule).toBe("haircut");
      // No input resolves to an entity: no direct interaction, every share is indirect.
      expect(exposure.direct_interaction).toBeNull();
      const shares = new Map((exposure.indirect_interaction ?? []).map((s) => [s.entity_category, s]));
      // The pool: 99,990,000 sat of the ransom payment and 300,000,000 sat of a block reward.
      const pool = 99_990_000 + 300_000_000;
      expect(shares.get("ransomware")?.value_share).toBeCloseTo(99_990_000 / pool, 12);
      expect(shares.get("mining")?.value_share).toBeCloseTo(300_000_000 / pool, 12);
      expect([...shares.keys()].sort()).toEqual(["mining", "ransomware"]);
      // The ransomware share's path: the client's coin, the payee's coin it was paid from, the
      // ransom wallet's coin that paid the payee, with each coin's txid:vout.
      expect(shares.get("ransomware")?.strongest_path).toMatchObject({
        addresses: [CLIENT, PAYEE, RANSOM],
        tx_hashes: [`${DEPOSIT}:0`, `${PAYMENT}:0`, `${REWARD_1}:0`],
      });

      server.kill("SIGTERM");
      expect(await exited(server)).toBe(0);
    } finally {
      server.kill("SIGKILL");
    }
  }, 120_000);
});
