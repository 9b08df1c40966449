/**
 * A test-only UTXO ledger in memory beside the memory store, until the stores keep one: the
 * `UtxoLedgerStore` port in its plainest form (inputs derive `spentBy`; a put is all or nothing).
 */
import {
  createMemoryStore,
  isSats,
  type SentQuery,
  type Store,
  type UtxoLedgerStore,
  type UtxoReceipt,
  type UtxoTransaction,
} from "@openkyt/core";

/** A memory store with a UTXO ledger. */
export function storeWithUtxoLedger(): Store & UtxoLedgerStore {
  const txs = new Map<string, UtxoTransaction>();
  const key = (network: string, txid: string) => `${network}:${txid}`;
  const spent = (network: string, txid: string, vout: number) => {
    for (const tx of txs.values()) {
      if (tx.network !== network) continue;
      const vin = tx.inputs.findIndex((i) => i.prevTxid === txid && i.prevVout === vout);
      if (vin >= 0) return { txid: tx.txid, vin };
    }
    return null;
  };
  const receipts = (network: string): UtxoReceipt[] =>
    [...txs.values()]
      .filter((t) => t.network === network)
      .flatMap((t) =>
        t.outputs
          .filter((o) => o.address !== null)
          .map((o) => ({
            network,
            txid: t.txid,
            vout: o.vout,
            address: o.address as string,
            value: o.value,
            occurredAt: t.occurredAt,
            block: t.block,
            position: t.position,
          })),
      );
  const ledger: UtxoLedgerStore = {
    async putUtxoTransactions(batch) {
      for (const tx of batch)
        for (const v of [...tx.inputs, ...tx.outputs]) if (!isSats(v.value)) throw new Error("not sats");
      let added = 0;
      for (const tx of batch) {
        if (txs.has(key(tx.network, tx.txid))) continue;
        txs.set(key(tx.network, tx.txid), tx);
        added++;
      }
      return added;
    },
    async deleteUtxoBlocksFrom(network, height) {
      let n = 0;
      for (const [k, tx] of txs)
        if (tx.network === network && tx.block !== null && tx.block >= height) {
          txs.delete(k);
          n++;
        }
      return n;
    },
    async utxoTransactions(network, txids) {
      return txids.flatMap((txid) => {
        const tx = txs.get(key(network, txid));
        if (tx === undefined) return [];
        return [{ ...tx, outputs: tx.outputs.map((o) => ({ ...o, spentBy: spent(network, txid, o.vout) })) }];
      });
    },
    async utxoReceived(network, queries, limit) {
      return queries.flatMap((q) =>
        receipts(network)
          .filter((r) => r.address === q.address && r.occurredAt < q.before)
          .slice(0, limit),
      );
    },
    async utxoSpentFrom(network, queries: ReadonlyArray<SentQuery>, limit) {
      return queries.flatMap((q) =>
        receipts(network)
          .filter((r) => r.address === q.address && spent(network, r.txid, r.vout) !== null)
          .slice(0, limit),
      );
    },
  };
  const store = createMemoryStore();
  return new Proxy(store, {
    get: (target, name, receiver) =>
      name in ledger ? ledger[name as keyof UtxoLedgerStore] : Reflect.get(target, name, receiver),
    has: (target, name) => name in ledger || Reflect.has(target, name),
  }) as Store & UtxoLedgerStore;
}

/** Every transaction of `network` the ledger holds, by txid. */
export async function ledgerTxs(
  store: UtxoLedgerStore,
  network: string,
  txids: ReadonlyArray<string>,
): Promise<UtxoTransaction[]> {
  const found = await store.utxoTransactions(network, txids);
  return [...found].sort((a, b) => (a.txid < b.txid ? -1 : 1));
}
