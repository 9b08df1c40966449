/**
 * A generated UTXO (Bitcoin) ledger with the shapes tracing meets on a real one, for benchmarks
 * and tests: exchange hot wallets that pay withdrawals in batches (with change back to the hot
 * wallet) and consolidate their deposit addresses' coins (many inputs, one output), customers
 * paying each other and exchange deposit addresses (a payment and a change output to a fresh
 * address), and peel chains (one large coin peeled again and again: a small payment and the
 * remainder to a new address). Every transaction spends coins the ledger created before it, its
 * outputs add up to its inputs minus a fee; each block starts with its coinbase.
 *
 * Streamed (a generator): only the unspent coins are kept, so a million transactions take a few
 * hundred MB at most. Seeded: the same options give the same transactions, txids included.
 */
import type { UtxoInput, UtxoOutput, UtxoTransaction } from "@openkyt/core";
import { seededRandom } from "./ledger-generator.js";

/** Shape of a generated UTXO ledger. */
export interface UtxoLedgerShapeOptions {
  /** Transactions, coinbases included. */
  readonly transactions: number;
  /** Transactions per block, its coinbase included; default 250. */
  readonly perBlock?: number;
  /** Exchanges (each a hot wallet and deposit addresses); default 8. */
  readonly exchanges?: number;
  /** Height of the first block; default 800,000. */
  readonly firstBlock?: number;
  /** Time of the first block, epoch ms; default 2024-01-01. */
  readonly start?: number;
  /** Network code; default BTC. */
  readonly network?: string;
  readonly seed?: number;
}

/** A coin not spent yet. */
interface Coin {
  readonly txid: string;
  readonly vout: number;
  readonly address: string;
  readonly value: number;
}

/** The n-th generated Bitcoin-like address (bech32 alphabet, 42 characters). */
export function generatedUtxoAddress(n: number): string {
  return `bc1q${n
    .toString(32)
    .replace(/[01bio]/g, (c) => "acdef"["01bio".indexOf(c)] ?? c)
    .padStart(38, "q")}`;
}

/** The hot wallet address of exchange `e`. */
export function generatedHotWallet(e: number): string {
  return `bc1qhot${e.toString().padStart(35, "q")}`;
}

const BLOCK_MS = 600_000;
const SUBSIDY = 312_500_000;
const FEE = 1_500;

/** Removes and returns a random element (order is not kept). */
function takeRandom<T>(pool: T[], random: () => number): T | undefined {
  if (pool.length === 0) return undefined;
  const i = Math.floor(random() * pool.length);
  const picked = pool[i] as T;
  pool[i] = pool[pool.length - 1] as T;
  pool.pop();
  return picked;
}

/** The transactions of a generated UTXO ledger, in block order (see the module comment). */
export function* generateUtxoLedger(options: UtxoLedgerShapeOptions): Generator<UtxoTransaction> {
  const random = seededRandom(options.seed ?? 7);
  const perBlock = Math.max(2, options.perBlock ?? 250);
  const exchanges = Math.max(1, options.exchanges ?? 8);
  const network = options.network ?? "BTC";
  const hex64 = () => {
    let s = "";
    for (let i = 0; i < 8; i++)
      s += Math.floor(random() * 0x1_0000_0000)
        .toString(16)
        .padStart(8, "0");
    return s;
  };
  let nextAddress = 0;
  const freshAddress = () => generatedUtxoAddress(nextAddress++);
  // Customers' coins, each exchange's hot coins and deposit coins, the heads of peel chains.
  const customers: Coin[] = [];
  const hot: Coin[][] = Array.from({ length: exchanges }, () => []);
  const deposits: Coin[][] = Array.from({ length: exchanges }, () => []);
  const peels: Coin[] = [];
  // Known customers: payments go to an existing one about half the time (addresses are reused).
  const known: string[] = [];
  const someCustomer = () =>
    known.length > 0 && random() < 0.5
      ? (known[Math.floor(random() * known.length)] as string)
      : freshAddress();

  let block = options.firstBlock ?? 800_000;
  let occurredAt = options.start ?? Date.UTC(2024, 0, 1);
  let blockHash = hex64();
  let position = 0;

  function tx(spent: ReadonlyArray<Coin>, pays: ReadonlyArray<{ address: string; value: number }>) {
    const txid = hex64();
    const inputs: UtxoInput[] = spent.map((c) => ({
      prevTxid: c.txid,
      prevVout: c.vout,
      address: c.address,
      value: c.value,
      coinbase: false,
    }));
    const outputs: UtxoOutput[] = pays.map((p, vout) => ({
      vout,
      address: p.address,
      value: p.value,
      spentBy: null,
    }));
    const made: UtxoTransaction = {
      network,
      txid,
      block,
      blockHash,
      occurredAt,
      position: position++,
      coinbase: false,
      inputs,
      outputs,
    };
    return made;
  }
  const coins = (t: UtxoTransaction): Coin[] =>
    t.outputs.map((o) => ({ txid: t.txid, vout: o.vout, address: o.address as string, value: o.value }));

  /** The coinbase: the subsidy to a miner, and while the ledger is young, airdrops to start the economy. */
  function coinbase(): UtxoTransaction {
    const pays: Array<{ address: string; value: number }> = [{ address: freshAddress(), value: SUBSIDY }];
    const seeding = customers.length + peels.length < 200;
    if (seeding) {
      for (let e = 0; e < exchanges; e++) pays.push({ address: generatedHotWallet(e), value: 50 * SUBSIDY });
      for (let i = 0; i < 100; i++) pays.push({ address: freshAddress(), value: SUBSIDY });
      for (let i = 0; i < 10; i++) pays.push({ address: freshAddress(), value: 40 * SUBSIDY });
    }
    const made: UtxoTransaction = {
      network,
      txid: hex64(),
      block,
      blockHash,
      occurredAt,
      position: position++,
      coinbase: true,
      inputs: [{ prevTxid: null, prevVout: null, address: null, value: 0, coinbase: true }],
      outputs: pays.map((p, vout) => ({ vout, address: p.address, value: p.value, spentBy: null })),
    };
    const [reward, ...rest] = coins(made);
    customers.push(reward as Coin);
    for (const c of rest) {
      const e = c.address.startsWith("bc1qhot") ? Number(c.address.slice(7).replace(/^q+/, "") || "0") : -1;
      if (e >= 0) (hot[e] as Coin[]).push(c);
      else if (c.value > 10 * SUBSIDY) peels.push(c);
      else customers.push(c);
    }
    return made;
  }

  /** A customer pays someone (another customer or an exchange deposit address), change to a fresh address. */
  function payment(): UtxoTransaction | null {
    const first = takeRandom(customers, random);
    if (!first) return null;
    const spent = [first];
    if (random() < 0.25 && customers.length > 0) spent.push(takeRandom(customers, random) as Coin);
    const total = spent.reduce((s, c) => s + c.value, 0);
    const fee = Math.min(FEE, Math.floor(total / 100));
    const exchange = random() < 0.3 ? Math.floor(random() * exchanges) : -1;
    const to = exchange >= 0 ? freshAddress() : someCustomer();
    const amount = total < 40_000 ? total - fee : Math.floor((total - fee) * (0.1 + 0.8 * random()));
    const change = total - fee - amount;
    const pays =
      change > 0
        ? [
            { address: to, value: amount },
            { address: freshAddress(), value: change },
          ]
        : [{ address: to, value: amount }];
    if (pays.length > 1 && random() < 0.5) pays.reverse();
    const made = tx(spent, pays);
    for (const c of coins(made)) {
      if (c.address === to && exchange >= 0) (deposits[exchange] as Coin[]).push(c);
      else customers.push(c);
    }
    if (exchange < 0) known.push(to);
    return made;
  }

  /** An exchange pays a batch of withdrawals from a hot coin, change back to its hot wallet. */
  function withdrawal(): UtxoTransaction | null {
    const e = Math.floor(random() * exchanges);
    const coin = takeRandom(hot[e] as Coin[], random);
    if (!coin) return null;
    const n = 1 + Math.floor(random() * 12);
    const fee = Math.min(FEE * n, Math.floor(coin.value / 100));
    let left = coin.value - fee;
    const pays: Array<{ address: string; value: number }> = [];
    for (let i = 0; i < n && left > 100_000; i++) {
      const value = Math.floor(left * 0.02 * random()) + 10_000;
      pays.push({ address: someCustomer(), value });
      left -= value;
    }
    pays.push({ address: generatedHotWallet(e), value: left });
    const made = tx([coin], pays);
    for (const c of coins(made))
      (c.address === generatedHotWallet(e) ? (hot[e] as Coin[]) : customers).push(c);
    return made;
  }

  /** An exchange sweeps up to 30 deposit coins into its hot wallet. */
  function consolidation(): UtxoTransaction | null {
    const e = Math.floor(random() * exchanges);
    const pool = deposits[e] as Coin[];
    if (pool.length < 3) return null;
    const spent: Coin[] = [];
    const n = Math.min(pool.length, 3 + Math.floor(random() * 28));
    for (let i = 0; i < n; i++) spent.push(takeRandom(pool, random) as Coin);
    const total = spent.reduce((s, c) => s + c.value, 0);
    const fee = Math.min(FEE * n, Math.floor(total / 100));
    const made = tx(spent, [{ address: generatedHotWallet(e), value: total - fee }]);
    (hot[e] as Coin[]).push(...coins(made));
    return made;
  }

  /** The next step of a peel chain: a small payment, the remainder to a fresh address (the chain's next head). */
  function peel(): UtxoTransaction | null {
    const head = takeRandom(peels, random);
    if (!head) return null;
    const fee = Math.min(FEE, Math.floor(head.value / 100));
    const amount = Math.floor(head.value * (0.005 + 0.03 * random()));
    const to = random() < 0.3 ? generatedHotWallet(Math.floor(random() * exchanges)) : someCustomer();
    const rest = head.value - fee - amount;
    const made = tx(
      [head],
      [
        { address: to, value: amount },
        { address: freshAddress(), value: rest },
      ],
    );
    const [paid, next] = coins(made) as [Coin, Coin];
    const e = to.startsWith("bc1qhot") ? Number(to.slice(7).replace(/^q+/, "") || "0") : -1;
    (e >= 0 ? (hot[e] as Coin[]) : customers).push(paid);
    // A chain ends when its head is small; it then becomes an ordinary customer's coin.
    (next.value > 2 * SUBSIDY ? peels : customers).push(next);
    return made;
  }

  let made = 0;
  while (made < options.transactions) {
    if (position === 0) {
      yield coinbase();
      made++;
      continue;
    }
    const r = random();
    const t =
      (r < 0.55 ? payment() : r < 0.75 ? withdrawal() : r < 0.83 ? consolidation() : peel()) ?? payment();
    if (t) {
      yield t;
      made++;
    }
    if (position >= perBlock || t === null) {
      block++;
      occurredAt += BLOCK_MS;
      blockHash = hex64();
      position = 0;
    }
  }
}
