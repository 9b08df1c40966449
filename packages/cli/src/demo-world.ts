/**
 * The demo's world: a credited extract of real data shipped with the package (60 OFAC SDN
 * addresses, 43 labelled Ethereum addresses, 2 Bitcoin ransomware addresses) imported through
 * the real importers, a generated background ledger of realistic shape, a few transfers between
 * real labelled addresses that show each kind of risk, and a few Bitcoin transactions in the
 * UTXO ledger that fund two BTC deposits.
 */
import { fileURLToPath } from "node:url";
import type {
  AccountApi,
  LedgerTransfer,
  RegisterTransferRequest,
  Store,
  UtxoInput,
  UtxoTransaction,
} from "@openkyt/core";
import { clusterUtxoTransactions } from "@openkyt/core";
import { importFile } from "@openkyt/datasets";
import { generatedTxHash, ledgerRows } from "@openkyt/ledger-generator";

/** Real addresses of the extract used by the stories (see demo-data/SOURCES.md). */
export const DEMO_ADDRESSES = Object.freeze({
  sanctioned: "0x038989cbb1710c72b9920dc4fa529158f463e72c",
  sanctioned2: "0x04dba1194ee10112fe6c3207c0687def0e78bacf",
  lazarus: "0x08723392ed15743cc38513c4925f5e6be5c17243",
  coinbase: "0x02466e547bfdab679fc49e96bbfc62b9747d997c",
  coinbase2: "0x02d24cab4f2c3bf6e6eb07ea07e45f96baccffe7",
  tornado: "0x00d5ec4cdf59374b2a47e842b799027356eac02b",
  gambling: "0x0c073c92e7684031cfc297b83ecc33619e864d18",
  hacker: "0x9f26ae5cd245bfeeb5926d61497550f79d9c6c1c",
  client: `0x${"c1".repeat(20)}`,
  hop1: `0x${"e1".repeat(20)}`,
  hop2: `0x${"e2".repeat(20)}`,
});

/**
 * Bitcoin addresses of the BTC stories: a sanctioned address of the OFAC extract (HYDRA MARKET),
 * two WannaCry ransom payment addresses of `btc-labels-extract.csv`, and unlabelled P2WPKH
 * addresses (made of repeated bytes) for the sanctioned wallet's other address, the client, a
 * clean payer and the launderer's hops.
 */
export const DEMO_BTC_ADDRESSES = Object.freeze({
  sanctioned: "123WBUDmSJv4GctdVEz6Qq6z8nXSKrJ4KX",
  sanctionedWallet: "bc1qk2et9v4jk2et9v4jk2et9v4jk2et9v4jhzxjr8",
  wannacry: "115p7UMMngoj1pMvkpHijcRdfJNXj6LrLn",
  wannacry2: "12t9YDPgwueZ9NyMgw519p7AA8isjr6SMw",
  client: "bc1qc8qurswpc8qurswpc8qurswpc8qurswpee0dfr",
  clean: "bc1q68gar5w368gar5w368gar5w368gar5w32he3ks",
  hop1: "bc1q6tfd95kj6tfd95kj6tfd95kj6tfd95kjmnl5ax",
  hop2: "bc1q60fa857n60fa857n60fa857n60fa857n6r74h8",
});

const DAY = 86_400_000;
const START = Date.UTC(2026, 9, 1);
const STORY = START + 30 * DAY;

/** A file of the shipped extract. */
export const demoDataFile = (name: string) => fileURLToPath(new URL(`../demo-data/${name}`, import.meta.url));

const story = (n: number, from: string, to: string, amount: number, hours: number): LedgerTransfer => ({
  network: "ETH",
  txHash: generatedTxHash(9_000_000 + n),
  logIndex: 0,
  tokenId: "native",
  from,
  to,
  amount,
  occurredAt: STORY + hours * 3_600_000,
  block: null,
  valueUsd: null,
});

const A = DEMO_ADDRESSES;
/** The story transfers: straight from a sanctioned address, two hops from one, from a mixer, from an exchange, to a hacker. */
export const DEMO_STORIES: ReadonlyArray<LedgerTransfer> = Object.freeze([
  story(1, A.sanctioned, A.client, 2, 1),
  story(2, A.sanctioned2, A.hop1, 40, 2),
  story(3, A.coinbase, A.hop1, 60, 3),
  story(4, A.hop1, A.hop2, 50, 4),
  story(5, A.hop2, A.client, 5, 5),
  story(6, A.tornado, A.client, 1, 6),
  story(7, A.coinbase2, A.client, 3, 7),
  story(8, A.client, A.hacker, 1, 8),
]);

const SAT = 100_000_000;
const FEE = 10_000;
/** The txid of the demo's BTC transaction `n` (64 hex characters). */
export const demoBtcTxid = (n: number): string => `b7c0${n.toString(16).padStart(60, "0")}`;

const B = DEMO_BTC_ADDRESSES;
const btcTx = (
  n: number,
  hours: number,
  inputs: ReadonlyArray<UtxoInput> | "coinbase",
  outputs: ReadonlyArray<readonly [string, number]>,
): UtxoTransaction => ({
  network: "BTC",
  txid: demoBtcTxid(n),
  block: 900_000 + n,
  blockHash: null,
  occurredAt: STORY + hours * 3_600_000,
  position: inputs === "coinbase" ? 0 : 1,
  coinbase: inputs === "coinbase",
  inputs:
    inputs === "coinbase"
      ? [{ prevTxid: null, prevVout: null, address: null, value: 0, coinbase: true }]
      : inputs,
  outputs: outputs.map(([address, value], vout) => ({ vout, address, value, spentBy: null })),
});
const spend = (n: number, vout: number, address: string, value: number): UtxoInput => ({
  prevTxid: demoBtcTxid(n),
  prevVout: vout,
  address,
  value,
  coinbase: false,
});

/**
 * The BTC stories, in the UTXO ledger. The sanctioned wallet: (2) sweeps its coins at the
 * sanctioned address (3 BTC) and at another address of its own (1 BTC) into that other address,
 * which common-input clustering puts in the sanctioned address's cluster; (3) pays the client
 * 0.5 BTC from it. The ransomware: (4) the operator consolidates two ransom payments (0.3 and
 * 0.2001 BTC to WannaCry addresses) into a fresh address; (5) a payment spends that 0.5 BTC coin
 * with 0.5 BTC of clean coins and peels 0.4 BTC off to the client: by the haircut rule 50%
 * ransomware, two hops back (docs/risk-model.md, "Bitcoin and Litecoin").
 */
export const DEMO_BTC_STORIES: ReadonlyArray<UtxoTransaction> = Object.freeze([
  btcTx(1, 0, "coinbase", [
    [B.sanctioned, 3 * SAT],
    [B.sanctionedWallet, SAT],
    [B.wannacry, 0.3 * SAT],
    [B.wannacry2, 0.2 * SAT + FEE],
    [B.clean, 0.5 * SAT],
  ]),
  btcTx(
    2,
    9,
    [spend(1, 0, B.sanctioned, 3 * SAT), spend(1, 1, B.sanctionedWallet, SAT)],
    [[B.sanctionedWallet, 4 * SAT - FEE]],
  ),
  btcTx(
    3,
    10,
    [spend(2, 0, B.sanctionedWallet, 4 * SAT - FEE)],
    [
      [B.client, 0.5 * SAT],
      [B.sanctionedWallet, 3.5 * SAT - 2 * FEE],
    ],
  ),
  btcTx(
    4,
    11,
    [spend(1, 2, B.wannacry, 0.3 * SAT), spend(1, 3, B.wannacry2, 0.2 * SAT + FEE)],
    [[B.hop1, 0.5 * SAT]],
  ),
  btcTx(
    5,
    12,
    [spend(4, 0, B.hop1, 0.5 * SAT), spend(1, 4, B.clean, 0.5 * SAT)],
    [
      [B.client, 0.4 * SAT],
      [B.hop2, 0.6 * SAT - FEE],
    ],
  ),
]);

/**
 * A deposit of the demo ledger that the demo leaves unregistered, for the printed `curl`: story
 * 4, 50 ETH to `hop2` from `hop1`, whose funds are 40% from a sanctioned address (one hop).
 */
export const DEMO_REGISTER_EXAMPLE = Object.freeze({
  direction: "incoming",
  network: "ETH",
  tx_hash: generatedTxHash(9_000_004),
  output_address: A.hop2,
});

/** Loads the world into a store; returns how many ledger transfers it holds. */
export async function loadDemoWorld(store: Store, transfers = 50_000): Promise<number> {
  await importFile(store, {
    kind: "sanctions",
    file: demoDataFile("ofac-sdn-extract.csv"),
    asOf: "2026-08-20",
  });
  await importFile(store, { kind: "labels", file: demoDataFile("eth-labels-extract.csv") });
  await importFile(store, { kind: "labels", file: demoDataFile("btc-labels-extract.csv") });
  await store.putUtxoTransactions(DEMO_BTC_STORIES);
  // Common-input ownership, as `engine.reference.loadUtxoTransactions` merges it: the sanctioned
  // wallet's cluster.
  await clusterUtxoTransactions(store, DEMO_BTC_STORIES, null);
  let added = 0;
  let chunk: LedgerTransfer[] = [];
  for (const row of ledgerRows({ transfers, start: START, days: 30, seed: 42 })) {
    chunk.push(row);
    if (chunk.length === 10_000) {
      added += await store.putLedgerTransfers(chunk);
      chunk = [];
    }
  }
  added += await store.putLedgerTransfers([...chunk, ...DEMO_STORIES]);
  const days = Array.from({ length: 90 }, (_, d) => new Date(START + d * DAY).toISOString().slice(0, 10));
  await store.putPrices(days.map((day) => ({ network: "ETH", tokenId: "native", day, usd: 2_500 })));
  await store.putPrices(days.map((day) => ({ network: "BTC", tokenId: "native", day, usd: 60_000 })));
  return added;
}

/** One screened item of the demo. */
export interface DemoItem {
  readonly label: string;
  readonly kind: "transfer" | "manual_check";
  readonly id: string;
}

/** Registers the demo's transfers and checks through an account's API. */
export async function screenDemo(api: AccountApi): Promise<DemoItem[]> {
  const items: DemoItem[] = [];
  const incoming = (n: number): RegisterTransferRequest => ({
    direction: "incoming",
    network: "ETH",
    tx_hash: generatedTxHash(9_000_000 + n),
    output_address: A.client,
  });
  const register = async (label: string, body: RegisterTransferRequest) => {
    const { transfer } = await api.registerTransfer(body);
    items.push({ label, kind: "transfer", id: transfer.id });
  };
  await register("Deposit straight from an OFAC-sanctioned address", incoming(1));
  await register("Deposit whose funds came two hops from a sanctioned address", incoming(5));
  await register("Deposit from Tornado Cash", incoming(6));
  await register("Deposit from a Coinbase wallet", incoming(7));
  const btcDeposit = (n: number): RegisterTransferRequest => ({
    direction: "incoming",
    network: "BTC",
    tx_hash: demoBtcTxid(n),
    output_address: B.client,
  });
  await register("BTC deposit from a sanctioned wallet's cluster (HYDRA MARKET, OFAC SDN)", btcDeposit(3));
  await register("BTC deposit funded by ransomware payments (a consolidation, then a peel)", btcDeposit(5));
  await register("Withdrawal to a hacker's address", {
    direction: "outgoing",
    network: "ETH",
    tx_hash: generatedTxHash(9_000_008),
    output_address: A.hacker,
  });
  const attempt = await api.registerAttempt({
    direction: "incoming",
    network: "ETH",
    input_address: A.gambling,
    amount: 0.5,
  });
  items.push({
    label: "Deposit attempt from a gambling site (no hash yet)",
    kind: "transfer",
    id: attempt.id,
  });
  const check = await api.checkAddress({ network: "ETH", address: A.lazarus });
  items.push({ label: "Address check: LAZARUS GROUP (OFAC SDN)", kind: "manual_check", id: check.id });
  return items;
}

const usd = (value: number) => `$${value.toLocaleString("en-US", { maximumFractionDigits: 2 })}`;

/**
 * A risk's share of the transfer beside the transfer's total: "40.0% of $12,500 = $5,000",
 * "100.0% of $2,500" (parts left out when unknown: "100.0%" for an address check, which has
 * no total).
 */
export function shareText(share: number | null, value: number | null, total: number | null): string {
  const parts: string[] = [];
  if (share !== null) parts.push(`${(share * 100).toFixed(1)}%`);
  if (share !== null && total !== null) parts.push(`of ${usd(total)}`);
  // A whole share's value is the total: "100.0% of $2,500" says it once.
  if (value !== null && !(share === 1 && total !== null))
    parts.push(share === null ? usd(value) : `= ${usd(value)}`);
  return parts.length === 0 ? "" : ` ${parts.join(" ")}`;
}

/** The demo's results as readable lines. */
export async function describeDemo(api: AccountApi, items: ReadonlyArray<DemoItem>): Promise<string> {
  const lines: string[] = [];
  for (const item of items) {
    const view =
      item.kind === "transfer" ? await api.getTransfer(item.id) : await api.getManualCheck(item.id);
    const risks =
      item.kind === "transfer" ? await api.getTransferRisks(item.id) : await api.getManualCheckRisks(item.id);
    const status = "tx_status" in view ? view.tx_status : view.check_status;
    lines.push(
      item.label,
      `  risk ${view.risk_level.toUpperCase()} (score ${view.risk_score ?? "-"}), ${status}, id ${item.id}`,
    );
    const total = "value_in_fiat" in view ? view.value_in_fiat : null;
    for (const r of risks.slice(0, 3)) {
      const share = shareText(r.value_share, r.value_in_fiat, total);
      lines.push(`  - ${r.risk_level}: ${r.risk_type} ${r.entity_category} (${r.proximity})${share}`);
    }
    lines.push("");
  }
  return lines.join("\n");
}
