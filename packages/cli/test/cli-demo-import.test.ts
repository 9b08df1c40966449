import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createSqliteStore } from "@openkyt/store-sqlite";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  type CliIo,
  COMMANDS,
  createCliEngine,
  DEMO_ADDRESSES,
  DEMO_BTC_ADDRESSES,
  DEMO_BTC_STORIES,
  demoBtcTxid,
  runCli,
} from "../src/index.js";

function capture(): CliIo & { out: string; err: string } {
  const io = {
    out: "",
    err: "",
    env: {},
    stdout: (t: string) => {
      io.out += t;
    },
    stderr: (t: string) => {
      io.err += t;
    },
    untilSignal: () => Promise.resolve("SIGTERM"),
  };
  return io;
}

let dir = "";
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "openkyt-cli-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("openkyt import", () => {
  it("imports good rows, reports bad ones with file and line, and changes nothing the second time", async () => {
    const file = join(dir, "labels.csv");
    await writeFile(
      file,
      "network,address,entity_name,entity_category,source\nETH,0x1111111111111111111111111111111111111111,Mixer X,mixer,test\nETH,0xnothex,Bad,mixer,test\n",
    );
    const db = join(dir, "kyt.db");
    const first = capture();
    expect(await runCli(["import", "labels", file, "--db", db], first, COMMANDS)).toBe(0);
    expect(first.out).toContain("2 rows read, 1 added");
    expect(first.out).toContain(`rejected ${file}:3:`);
    const again = capture();
    expect(await runCli(["import", "labels", file, "--db", db, "--json"], again, COMMANDS)).toBe(0);
    expect(JSON.parse(again.out)).toMatchObject({ rowsRead: 2, added: 0, unchanged: 1, rejected: 1 });
    const store = await createSqliteStore({ filename: db });
    expect(await store.getAttributions("ETH", ["0x1111111111111111111111111111111111111111"])).toHaveLength(
      1,
    );
    await store.close();
  });

  it("refuses an unknown kind (2) and an unreadable file (1) cleanly", async () => {
    expect(await runCli(["import", "nope", "x"], capture(), COMMANDS)).toBe(2);
    const missing = capture();
    expect(
      await runCli(
        ["import", "labels", join(dir, "missing.csv"), "--db", join(dir, "x.db")],
        missing,
        COMMANDS,
      ),
    ).toBe(1);
    expect(missing.err).toContain("missing.csv");
  });
});

describe("openkyt demo", () => {
  it("builds the demo database from the shipped extract and screens each kind of risk", async () => {
    const io = capture();
    const db = join(dir, "demo.db");
    expect(await runCli(["demo", "--no-serve", "--db", db, "--transfers", "5000"], io, COMMANDS)).toBe(0);
    expect(io.out).toContain("Deposit straight from an OFAC-sanctioned address\n  risk SEVERE");
    expect(io.out).toContain("Deposit from Tornado Cash\n  risk MEDIUM");
    expect(io.out).toContain("Deposit from a Coinbase wallet\n  risk NONE");
    expect(io.out).toContain("Withdrawal to a hacker's address\n  risk HIGH");
    expect(io.out).toContain("Address check: LAZARUS GROUP (OFAC SDN)\n  risk SEVERE");
    const store = await createSqliteStore({ filename: db });
    expect((await store.getSanctions([DEMO_ADDRESSES.lazarus])).length).toBe(1);
    await store.close();
  });

  it("screens two BTC deposits through the UTXO ledger at the shares the haircut rule gives", async () => {
    const io = capture();
    const db = join(dir, "demo.db");
    expect(await runCli(["demo", "--no-serve", "--db", db, "--transfers", "0"], io, COMMANDS)).toBe(0);
    const sanctionedLabel = "BTC deposit from a sanctioned wallet's cluster (HYDRA MARKET, OFAC SDN)";
    const ransomLabel = "BTC deposit funded by ransomware payments (a consolidation, then a peel)";
    expect(io.out).toContain(`${sanctionedLabel}\n  risk SEVERE`);
    expect(io.out).toContain(`${ransomLabel}\n  risk HIGH`);
    const idOf = (label: string) =>
      new RegExp(`${label.replace(/[()]/g, "\\$&")}\\n.*, id (\\S+)`).exec(io.out)?.[1];
    // Independently of the tracer, by the haircut rule: a coin carries its transaction's inputs
    // pro rata; a coin at a ransomware address is wholly ransomware, a coinbase's is none.
    const ransom = new Set<string>([DEMO_BTC_ADDRESSES.wannacry, DEMO_BTC_ADDRESSES.wannacry2]);
    const byTxid = new Map(DEMO_BTC_STORIES.map((t) => [t.txid, t]));
    const txShare = (txid: string): number => {
      const tx = byTxid.get(txid);
      if (!tx || tx.coinbase) return 0;
      const total = tx.inputs.reduce((s, i) => s + i.value, 0);
      return tx.inputs.reduce((s, i) => s + i.value * coinShare(i.address, i.prevTxid), 0) / total;
    };
    const coinShare = (address: string | null, createdBy: string | null): number =>
      ransom.has(address ?? "") ? 1 : createdBy === null ? 0 : txShare(createdBy);
    const ransomShare = txShare(demoBtcTxid(5));
    expect(ransomShare).toBeCloseTo(0.5, 12);
    const store = await createSqliteStore({ filename: db });
    try {
      const api = createCliEngine(store, {}).forAccount("demo");
      const origin = async (label: string) =>
        (await api.getTransferRisks(idOf(label) as string))
          .filter((r) => r.risk_type === "origin_of_funds")
          .map((r) => [r.entity_category, r.value_share]);
      expect(await origin(sanctionedLabel)).toEqual([["sanctions", 1]]);
      const [ransomOrigin] = await origin(ransomLabel);
      expect(ransomOrigin?.[0]).toBe("ransomware");
      expect(ransomOrigin?.[1]).toBeCloseTo(ransomShare, 12);
      const ransomDeposit = await api.getTransfer(idOf(ransomLabel) as string);
      expect(ransomDeposit).toMatchObject({ amount: 0.4, output_address: DEMO_BTC_ADDRESSES.client });
    } finally {
      await store.close();
    }
    expect(io.out).toContain("- high: origin_of_funds ransomware (indirect) 50.0% of $24,000 = $12,000");
  });
});
