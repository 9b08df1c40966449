/**
 * The OpenKYT demo: an engine embedded in this process on a SQLite file. It loads real OFAC
 * sanctions and Ethereum labels plus a generated ledger, registers transfers that show each
 * kind of risk, runs the checks and prints the results.
 */
import { rmSync } from "node:fs";
import { resolve } from "node:path";
import { createEngine, type LedgerTransfer } from "@openkyt/core";
import { createSqliteStore } from "@openkyt/store-sqlite";
import { loadRealData } from "./demo-data.js";
import { generateLedger, txHash, wallet } from "./demo-ledger.js";
import { printResults, type Screened } from "./print-results.js";

const DAY = 86_400_000;
const START = Date.UTC(2026, 9, 1);
const STORY = START + 30 * DAY;
const CLIENT = `0x${"c1".repeat(20)}`;

const file = resolve(process.argv[2] ?? "openkyt-demo.db");
for (const suffix of ["", "-wal", "-shm"]) rmSync(`${file}${suffix}`, { force: true });
const started = performance.now();
const store = await createSqliteStore({ filename: file });
const engine = createEngine({ store });

const { sanctions, labels } = await loadRealData(engine);
const ethSanctioned = sanctions.filter((s) => s.network === "ETH").map((s) => s.address.toLowerCase());
const byCategory = (category: string) =>
  labels.filter((l) => l.entityCategory === category).map((l) => l.address);
const [exchange, mixer, gambling, hack] = [
  byCategory("exchange"),
  byCategory("mixer"),
  byCategory("gambling"),
  byCategory("stolen_funds"),
];
const lazarus = sanctions.find((s) => s.entity?.includes("LAZARUS") && s.network === "ETH") ?? sanctions[0];

const background = generateLedger({
  start: START,
  days: 30,
  wallets: 5_000,
  transfers: 50_000,
  hubs: exchange,
  riskySources: [...ethSanctioned.slice(0, 5), ...mixer.slice(0, 3), ...hack.slice(0, 3)],
  seed: 42,
});
const at = (hours: number) => STORY + hours * 3_600_000;
const story = (n: number, from: string, to: string, amount: number, hours: number): LedgerTransfer => ({
  network: "ETH",
  txHash: txHash(n),
  logIndex: 0,
  tokenId: "native",
  from: from.toLowerCase(),
  to: to.toLowerCase(),
  amount,
  occurredAt: at(hours),
  block: null,
  valueUsd: null,
});
const hop1 = wallet(900_001);
const hop2 = wallet(900_002);
const stories = [
  story(1, ethSanctioned[0] ?? hop1, CLIENT, 2, 1),
  story(2, ethSanctioned[1] ?? hop1, hop1, 40, 2),
  story(3, exchange[0] ?? hop1, hop1, 60, 3),
  story(4, hop1, hop2, 50, 4),
  story(5, hop2, CLIENT, 5, 5),
  story(6, mixer[0] ?? hop1, CLIENT, 1, 6),
  story(7, exchange[1] ?? hop1, CLIENT, 3, 7),
  story(8, CLIENT, hack[0] ?? hop1, 1, 8),
];
const loaded = await engine.reference.loadLedger([...background, ...stories]);
const days = Array.from({ length: 60 }, (_, d) => new Date(START + d * DAY).toISOString().slice(0, 10));
await engine.reference.loadPrices(
  days.map((day) => ({ network: "ETH", tokenId: "native", day, usd: 2_500 })),
);

const acme = engine.forAccount("demo");
const incoming = (tx: number) => ({
  direction: "incoming",
  network: "ETH",
  tx_hash: txHash(tx),
  output_address: CLIENT,
});
const screened: Screened[] = [];
const register = async (label: string, body: Record<string, unknown>) => {
  const { transfer } = await acme.registerTransfer(body);
  screened.push({ label, kind: "transfer", id: transfer.id });
};
await register("Deposit straight from an OFAC-sanctioned address", incoming(1));
await register("Deposit whose funds came two hops from a sanctioned address", incoming(5));
await register("Deposit from Tornado Cash", incoming(6));
await register("Deposit from a Coinbase wallet", incoming(7));
await register("Withdrawal to a hacker's address", {
  direction: "outgoing",
  network: "ETH",
  tx_hash: txHash(8),
  output_address: hack[0] ?? hop1,
});
const attempt = await acme.registerAttempt({
  direction: "incoming",
  network: "ETH",
  input_address: gambling[0],
  amount: 0.5,
});
screened.push({
  label: "Deposit attempt from a gambling site (no hash yet)",
  kind: "transfer",
  id: attempt.id,
});
const check = await acme.checkAddress({ network: "ETH", address: lazarus?.address });
screened.push({
  label: `Address check: ${lazarus?.entity ?? "a sanctioned address"}`,
  kind: "manual_check",
  id: check.id,
});

await engine.drain();
await printResults(acme, screened, { file, loaded, ms: performance.now() - started });
await store.close();
