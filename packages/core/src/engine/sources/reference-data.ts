/**
 * Loading reference data into the store: ledger transfers, attributions, sanctions listings,
 * tokens and prices. Every row is validated and normalised first; one bad row refuses the
 * whole batch with an error naming the row and field, so nothing is half-written.
 */
import { normalizeAddress, normalizeTokenId, normalizeTxHash } from "../../domain/addresses.js";
import { isEntityCategory } from "../../domain/entity-categories.js";
import { isNetworkCode } from "../../domain/networks.js";
import type {
  Attribution,
  LedgerTransfer,
  PriceRow,
  SanctionsListing,
  TokenInfo,
} from "../../domain/records.js";
import { type UtxoTransaction, utxoTransactionProblem } from "../../domain/utxo.js";
import { isUtxoNetwork } from "../../domain/utxo-binding.js";
import { describeError, KytError } from "../../errors.js";
import type { EntityResolver } from "../../exposure/entity-resolver.js";
import { type ClusteringSummary, clusterUtxoTransactions } from "../../exposure/utxo-clustering.js";
import type { Logger } from "../../ports/runtime.js";
import type { Store } from "../../ports/store.js";

/** Runs `normalize` on each row; a failure names the row index and reason. */
function normalizeAll<T>(kind: string, rows: ReadonlyArray<T>, normalize: (row: T) => T): T[] {
  return rows.map((row, index) => {
    try {
      return Object.freeze(normalize(row));
    } catch (error) {
      throw new KytError("VALIDATION_ERROR", `${kind} row ${index}: ${describeError(error)}`, {
        cause: error,
        errors: { [`${kind}[${index}]`]: [describeError(error)] },
      });
    }
  });
}

function network(code: string): string {
  if (!isNetworkCode(code)) throw new Error(`unknown network ${code}`);
  return code;
}

function finite(name: string, value: number, min = 0): number {
  if (typeof value !== "number" || !Number.isFinite(value) || value < min)
    throw new Error(`${name} must be a number >= ${min}`);
  return value;
}

/** A safe integer, negative allowed (a log index below 0: position in the block unknown). */
function integer(name: string, value: number): number {
  if (!Number.isSafeInteger(value)) throw new Error(`${name} must be an integer`);
  return value;
}

/** A UTXO transaction checked and in normal form (addresses, txids); throws what is wrong. */
function normalizeUtxoTransaction(tx: UtxoTransaction): UtxoTransaction {
  if (!isUtxoNetwork(network(tx.network))) throw new Error(`${tx.network} is not a UTXO network`);
  const address = (a: string | null) => (a === null ? null : normalizeAddress(tx.network, a));
  const txid = (t: string | null) => (t === null ? null : normalizeTxHash(tx.network, t));
  const clean: UtxoTransaction = {
    ...tx,
    txid: normalizeTxHash(tx.network, tx.txid),
    inputs: tx.inputs.map((i) => ({ ...i, prevTxid: txid(i.prevTxid), address: address(i.address) })),
    outputs: tx.outputs.map((o) => ({ ...o, address: address(o.address), spentBy: null })),
  };
  const problem = utxoTransactionProblem(clean);
  if (problem !== null) throw new Error(problem);
  const spent = clean.inputs.reduce((s, i) => s + i.value, 0);
  const paid = clean.outputs.reduce((s, o) => s + o.value, 0);
  if (!clean.coinbase && paid > spent) {
    throw new Error(`transaction ${clean.txid} pays ${paid} satoshis from inputs worth ${spent}`);
  }
  return clean;
}

/** What {@link referenceData} needs beyond the store. */
export interface ReferenceDataOptions {
  /** Merge the address clusters of loaded UTXO transactions (the engine's `clustering`). */
  readonly clustering: boolean;
  /** Resolves the labels of a cluster when looking for conflicts. */
  readonly resolver: EntityResolver;
  readonly logger: Logger;
}

/** What loading UTXO transactions did. */
export interface UtxoLoadSummary {
  /** Transactions new to the store. */
  readonly added: number;
  /** The clustering of the loaded transactions; null when clustering is off. */
  readonly clustering: ClusteringSummary | null;
}

/** The reference-data loaders of an engine. */
export function referenceData(store: Store, options: ReferenceDataOptions) {
  return Object.freeze({
    /** Adds ledger transfers; returns how many were new (re-loading the same rows adds none). */
    async loadLedger(rows: ReadonlyArray<LedgerTransfer>): Promise<number> {
      const clean = normalizeAll("ledger", rows, (r) => ({
        ...r,
        network: network(r.network),
        txHash: normalizeTxHash(r.network, r.txHash),
        tokenId: normalizeTokenId(r.network, r.tokenId),
        from: normalizeAddress(r.network, r.from),
        to: normalizeAddress(r.network, r.to),
        amount: finite("amount", r.amount),
        occurredAt: finite("occurredAt", r.occurredAt),
        logIndex: integer("logIndex", r.logIndex),
        block: r.block ?? null,
        valueUsd: r.valueUsd ?? null,
      }));
      return store.putLedgerTransfers(clean);
    },
    /**
     * Adds UTXO transactions (BTC, LTC), whole; returns how many were new. Addresses and txids
     * are normalised; a transaction whose outputs exceed its inputs (other than a coinbase), or
     * whose values are not whole satoshis, refuses the batch.
     */
    async loadUtxoTransactions(txs: ReadonlyArray<UtxoTransaction>): Promise<UtxoLoadSummary> {
      const clean = normalizeAll("utxo", txs, normalizeUtxoTransaction);
      const added = await store.putUtxoTransactions(clean);
      if (!options.clustering) return { added, clustering: null };
      const clustering = await clusterUtxoTransactions(store, clean, options.resolver);
      for (const c of clustering.conflicts) {
        options.logger.warn(
          { network: c.network, clusterId: c.clusterId, entities: c.entities },
          "two labelled entities fell into one address cluster; the riskiest label extends to it, flagged as a conflict",
        );
      }
      return { added, clustering };
    },
    /** Adds or replaces attributions (address -> entity). */
    async loadAttributions(rows: ReadonlyArray<Attribution>): Promise<number> {
      const clean = normalizeAll("attribution", rows, (r) => {
        if (!isEntityCategory(r.entityCategory))
          throw new Error(`unknown entity category ${r.entityCategory}`);
        if (!r.entityName) throw new Error("entityName is empty");
        return {
          ...r,
          network: network(r.network),
          address: normalizeAddress(r.network, r.address),
          source: r.source ?? null,
        };
      });
      return store.putAttributions(clean);
    },
    /** Adds or replaces sanctions listings. */
    async loadSanctions(rows: ReadonlyArray<SanctionsListing>): Promise<number> {
      const clean = normalizeAll("sanctions", rows, (r) => {
        if (!r.listName) throw new Error("listName is empty");
        if (r.listedAt !== null && r.delistedAt !== null && r.delistedAt < r.listedAt) {
          throw new Error("delistedAt is before listedAt");
        }
        return { ...r, network: network(r.network), address: normalizeAddress(r.network, r.address) };
      });
      return store.putSanctions(clean);
    },
    /** Adds or replaces tokens. */
    async loadTokens(rows: ReadonlyArray<TokenInfo>): Promise<number> {
      const clean = normalizeAll("token", rows, (r) => {
        if (!r.symbol) throw new Error("symbol is empty");
        if (!Number.isInteger(r.decimals) || r.decimals < 0 || r.decimals > 36)
          throw new Error("decimals must be 0..36");
        return {
          ...r,
          network: network(r.network),
          tokenId: normalizeTokenId(r.network, r.tokenId),
          name: r.name ?? null,
        };
      });
      return store.putTokens(clean);
    },
    /** Adds or replaces daily USD prices. */
    async loadPrices(rows: ReadonlyArray<PriceRow>): Promise<number> {
      const clean = normalizeAll("price", rows, (r) => {
        if (!/^\d{4}-\d{2}-\d{2}$/.test(r.day)) throw new Error(`day ${r.day} is not YYYY-MM-DD`);
        return {
          ...r,
          network: network(r.network),
          tokenId: normalizeTokenId(r.network, r.tokenId),
          usd: finite("usd", r.usd),
        };
      });
      return store.putPrices(clean);
    },
  });
}

/** The reference-data loaders. */
export type ReferenceData = ReturnType<typeof referenceData>;
