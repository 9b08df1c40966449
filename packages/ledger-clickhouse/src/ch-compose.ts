/**
 * A store whose ledger lives elsewhere: every ledger member (the writes, the hash lookup, the
 * tracing hops, the bulk load) goes to `ledger`, everything else (transfers, checks, alerts,
 * jobs, reference data) stays on `store`. Inside `store.transaction`, ledger writes go to the
 * ledger at once and are not undone by a rollback: ledger rows are chain facts keyed by
 * (network, txHash, logIndex), so writing one again is harmless, and a follower that restarts
 * rewrites the blocks after its saved cursor. `scanLedger` is left out: a warm in-memory copy
 * of an external ledger is not offered (the point of the external ledger is that it does not fit);
 * `ledgerChangesSince` is the ledger's, when it has it (a cold process's hub cache follows it).
 *
 * The UTXO ledger (Bitcoin, Litecoin) goes to `ledger` the same way: its reads, writes and a
 * reorg's deletes. The address clusters stay on `store`: they are screening state derived from
 * the ledger (a union-find merged as transactions arrive), small next to the ledger, and merged
 * in the store's transaction with the rest of a check's state. `bulkUtxoWriter` and
 * `scanUtxoTransactions` are left out (an import writes batch by batch through
 * `putUtxoTransactions`; no warm copy).
 */
import type {
  LedgerBulkWriter,
  LedgerReader,
  LedgerStore,
  Store,
  StoreOps,
  UtxoLedgerStore,
} from "@openkyt/core";

/** What an external ledger offers. */
export interface ExternalLedger
  extends LedgerStore,
    LedgerReader,
    UtxoLedgerStore,
    Partial<Pick<Store, "ledgerChangesSince">> {
  bulkLedgerWriter(): Promise<LedgerBulkWriter>;
  close(): Promise<void>;
}

const LEDGER_MEMBERS = new Set<PropertyKey>([
  "putLedgerTransfers",
  "ledgerByTxHash",
  "ledgerIncoming",
  "ledgerOutgoing",
  "utxoTransactions",
  "utxoReceived",
  "utxoSpentFrom",
  "putUtxoTransactions",
  "deleteUtxoBlocksFrom",
]);

/**
 * The ledger's optional members (hop counts, lumped reads, senders' siblings, hash lookups of
 * several transactions): answered by `ledger` when it has
 * them, else absent. Never the store's own: they would count or read the store's ledger, which
 * is not the one traced (a store's counts of an empty ledger say every hub has no rows).
 */
const OPTIONAL_READER_MEMBERS = new Set<PropertyKey>([
  ...(["ledgerChangesSince"] satisfies ReadonlyArray<keyof Store>),
  ...([
    "ledgerIncomingCounts",
    "ledgerOutgoingCounts",
    "ledgerIncomingLumped",
    "ledgerSenderSiblings",
  ] satisfies ReadonlyArray<keyof LedgerReader>),
  ...(["ledgerByTxHashes"] satisfies ReadonlyArray<keyof LedgerStore>),
]);

/** `ops` with its ledger members taken from `ledger`. */
function overlay<T extends StoreOps>(
  ops: T,
  ledger: ExternalLedger,
  extra: Partial<Record<PropertyKey, unknown>>,
): T {
  return new Proxy(ops, {
    get(target, prop) {
      if (prop in extra) return extra[prop];
      if (OPTIONAL_READER_MEMBERS.has(prop)) {
        const member = ledger[prop as keyof ExternalLedger];
        return typeof member === "function" ? member.bind(ledger) : undefined;
      }
      if (LEDGER_MEMBERS.has(prop)) {
        const member = ledger[prop as keyof ExternalLedger] as (...args: unknown[]) => unknown;
        return member.bind(ledger);
      }
      const value = Reflect.get(target, prop, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
    has(target, prop) {
      if (prop in extra) return extra[prop] !== undefined;
      if (OPTIONAL_READER_MEMBERS.has(prop))
        return typeof ledger[prop as keyof ExternalLedger] === "function";
      return LEDGER_MEMBERS.has(prop) || Reflect.has(target, prop);
    },
    // Listed too, so that a wrapper copying the store's members (the metrics' error counter)
    // keeps the ledger's optional members the state store lacks (`ledgerChangesSince`).
    ownKeys(target) {
      const keys = Reflect.ownKeys(target);
      if (!Reflect.isExtensible(target)) return keys;
      const more = [...OPTIONAL_READER_MEMBERS].filter(
        (prop): prop is string =>
          typeof prop === "string" &&
          !keys.includes(prop) &&
          typeof ledger[prop as keyof ExternalLedger] === "function",
      );
      return [...keys, ...more];
    },
    getOwnPropertyDescriptor(target, prop) {
      const own = Reflect.getOwnPropertyDescriptor(target, prop);
      if (own !== undefined || !Reflect.isExtensible(target) || !OPTIONAL_READER_MEMBERS.has(prop))
        return own;
      const member = ledger[prop as keyof ExternalLedger];
      return typeof member === "function"
        ? { value: member.bind(ledger), writable: false, enumerable: true, configurable: true }
        : undefined;
    },
  });
}

/** `store` with its ledger in `ledger`; closing it closes both. */
export function withExternalLedger(store: Store, ledger: ExternalLedger): Store {
  return overlay(store, ledger, {
    transaction: <T>(fn: (tx: StoreOps) => Promise<T>) =>
      store.transaction((tx) => fn(overlay(tx, ledger, {}))),
    bulkLedgerWriter: () => ledger.bulkLedgerWriter(),
    scanLedger: undefined,
    scanUtxoTransactions: undefined,
    bulkUtxoWriter: undefined,
    close: async () => {
      try {
        await ledger.close();
      } finally {
        await store.close();
      }
    },
  });
}
