/**
 * The backtest members of the Store port (see `Store`): a streamed read of an account's stored
 * transfers with their check results, and the backtests themselves. Every store keeps them
 * (memory, SQLite, Postgres) and passes their conformance section.
 */
import type { BacktestRecord } from "../domain/backtests.js";
import type { Millis, TransferRecord } from "../domain/records.js";
import type { TransferFilter } from "./store.js";

/** Where a transfer scan stands: the last transfer returned, by (registeredAt, id). */
export interface TransferCursor {
  readonly registeredAt: Millis;
  readonly id: string;
}

/**
 * What a backtest reads of a stored transfer: its place in the scan, how it was screened (the
 * level it got and the model version that checked it), whether any of its checks finished and
 * the results of its checks. The check states themselves are not read: rule evaluation only
 * needs to know whether one finished (`none` rather than `undefined` when nothing fires).
 */
export type ScreenedTransfer = Pick<
  TransferRecord,
  | "id"
  | "registeredAt"
  | "direction"
  | "txStatus"
  | "valueInFiat"
  | "riskLevel"
  | "riskModelVersion"
  | "exposure"
  | "counterparty"
  | "sanctions"
> & {
  /** Whether any of its checks is in state `checked`. */
  readonly anyChecked: boolean;
};

/** A page of a transfer scan. */
export interface TransferScanPage {
  readonly rows: ReadonlyArray<ScreenedTransfer>;
  /** The `after` of the next page; null when this page was the last. */
  readonly next: TransferCursor | null;
}

/** Backtest reads and records. */
export interface BacktestStoreOps {
  /**
   * The account's transfers that pass `filter`, in (registeredAt, id) order, from just after
   * `after` (null: from the first), at most `limit` of them (at least 1), each with the fields
   * of {@link ScreenedTransfer} only (its stored results, level and model version). Keyset paging: a caller
   * holds one page at a time however many transfers match, and a transfer registered meanwhile
   * with an earlier position is not seen. `next` is null once fewer than `limit` rows came back.
   */
  scanTransfers(
    accountId: string,
    filter: TransferFilter,
    after: TransferCursor | null,
    limit: number,
  ): Promise<TransferScanPage>;
  /** Writes a backtest, replacing the one with the same id (progress, status, report). */
  putBacktest(record: BacktestRecord): Promise<void>;
  /** One backtest of the account by id; another account's or an unknown id is null. */
  getBacktest(accountId: string, id: string): Promise<BacktestRecord | null>;
  /**
   * How many backtests of the account are `queued` or `running` (the per-account queue limit
   * counts them). Read inside a transaction, it sees that transaction's writes.
   */
  countPendingBacktests(accountId: string): Promise<number>;
}
