/**
 * A small, hand-made world for engine scenarios: an exchange, a mixer and a sanctioned
 * address on Ethereum, two unattributed intermediaries and a client address, with a ledger
 * whose exposures can be worked out by hand (see each transfer's comment).
 */
import type { Engine, LedgerTransfer } from "@openkyt/core";

const addr = (byte: string) => `0x${byte.repeat(20)}`;
const hash = (n: number) => `0x${n.toString(16).padStart(64, "0")}`;

/** Start of the world: 2024-01-01T00:00:00Z. */
export const T0 = Date.UTC(2024, 0, 1);
/** One hour. */
export const HOUR = 3_600_000;
/** ETH price on every day of the world. */
export const ETH_USD = 2_000;
/** The USDT contract on Ethereum. */
export const USDT = "0xdac17f958d2ee523a2206206994597c13d831ec7";

/** Addresses of the world. */
export const W = Object.freeze({
  sanctioned: addr("11"),
  mixer: addr("22"),
  exchange: addr("33"),
  a: addr("aa"),
  b: addr("bb"),
  client: addr("cc"),
  fresh: addr("dd"),
});

/** Transaction hashes of the world. */
export const TX = Object.freeze({
  sanctionedToA: hash(1),
  exchangeToA: hash(2),
  aToB: hash(3),
  /** B -> client 10 ETH: through B and A, 30% sanctions and 70% exchange (both indirect). */
  deposit: hash(4),
  /** mixer -> client 1 ETH: a direct mixer interaction. */
  mixerDeposit: hash(5),
  /** exchange -> client 2 ETH: a direct exchange interaction (no risk by default). */
  exchangeDeposit: hash(6),
  /** client -> sanctioned 1 ETH: an outgoing transfer to a sanctioned address. */
  withdrawalToSanctioned: hash(7),
  /** exchange -> client 500 USDT. */
  usdtDeposit: hash(8),
  /** Not on the ledger. */
  unknown: hash(999),
});

/**
 * A registration body of the world's deposit to the client (`TX.deposit`, severe: 30% of its
 * funds are two hops from a sanctioned address), with `over` replacing or adding fields.
 */
export const depositBody = (over: Record<string, unknown> = {}) => ({
  client_id: "client-1",
  direction: "incoming" as const,
  network: "ETH",
  tx_hash: TX.deposit,
  token_id: null,
  output_address: W.client,
  ...over,
});

const row = (
  txHash: string,
  from: string,
  to: string,
  amount: number,
  hours: number,
  tokenId = "native",
): LedgerTransfer => ({
  network: "ETH",
  txHash,
  logIndex: 0,
  tokenId,
  from,
  to,
  amount,
  occurredAt: T0 + hours * HOUR,
  block: 1_000 + hours,
  valueUsd: null,
});

/** The ledger of the world. */
export const WORLD_LEDGER: ReadonlyArray<LedgerTransfer> = Object.freeze([
  row(TX.sanctionedToA, W.sanctioned, W.a, 30, 1),
  row(TX.exchangeToA, W.exchange, W.a, 70, 2),
  row(TX.aToB, W.a, W.b, 50, 3),
  row(TX.deposit, W.b, W.client, 10, 4),
  row(TX.mixerDeposit, W.mixer, W.client, 1, 5),
  row(TX.exchangeDeposit, W.exchange, W.client, 2, 6),
  row(TX.withdrawalToSanctioned, W.client, W.sanctioned, 1, 7),
  row(TX.usdtDeposit, W.exchange, W.client, 500, 8, USDT),
]);

/** Loads the world's reference data into an engine's store. */
export async function loadWorld(engine: Engine): Promise<void> {
  await engine.reference.loadLedger(WORLD_LEDGER);
  await engine.reference.loadAttributions([
    { network: "ETH", address: W.mixer, entityName: "Mixer One", entityCategory: "mixer", source: "test" },
    {
      network: "ETH",
      address: W.exchange,
      entityName: "Big Exchange",
      entityCategory: "exchange",
      source: "test",
    },
  ]);
  await engine.reference.loadSanctions([
    {
      network: "ETH",
      address: W.sanctioned,
      listName: "OFAC SDN",
      program: "CYBER2",
      entity: "Bad Actor",
      listedAt: null,
      delistedAt: null,
    },
  ]);
  await engine.reference.loadTokens([
    { network: "ETH", tokenId: USDT, symbol: "USDT", decimals: 6, name: "Tether USD" },
  ]);
  const days = [0, 1, 2].map((d) => new Date(T0 + d * 24 * HOUR).toISOString().slice(0, 10));
  await engine.reference.loadPrices([
    ...days.map((day) => ({ network: "ETH", tokenId: "native", day, usd: ETH_USD })),
    ...days.map((day) => ({ network: "ETH", tokenId: USDT, day, usd: 1 })),
  ]);
}
