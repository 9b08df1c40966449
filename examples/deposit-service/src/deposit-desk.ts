/**
 * The deposit desk: what the service knows of each deposit, and the rule that decides it. A
 * deposit is `pending` from the moment it is reported until its screening ends; then it is
 * `credited` (the risk level allows it: none or low) or `held` (medium and above: compliance
 * looks first). A transaction OpenKYT cannot find ends `failed`. Alerts are queued for review as
 * they open. Kept in memory: the engine's store holds the screening itself, and a restarted
 * service can rebuild the desk from the transfers of its account.
 */
import type { AlertRecord, RiskLevel, TransferRecord } from "@openkyt/core";

/** Levels at which a deposit may be credited at once. */
export const CREDITABLE: ReadonlySet<RiskLevel> = new Set(["none", "low"]);

/** States of a deposit. */
export type DepositStatus = "pending" | "credited" | "held" | "failed";

/** A deposit as the service shows it. */
export interface Deposit {
  readonly id: string;
  readonly address: string;
  readonly txHash: string;
  readonly status: DepositStatus;
  readonly riskLevel: RiskLevel;
  /** USD credited (when credited). */
  readonly creditedUsd: number | null;
  readonly reason: string | null;
}

/** An alert waiting for a compliance officer. */
export interface ReviewItem {
  readonly alertId: string;
  readonly depositId: string | null;
  readonly riskLevel: string;
  readonly category: string;
}

/** The desk: deposits by transfer id, balances by address, the review queue. */
export function createDepositDesk() {
  const byTransfer = new Map<string, Deposit>();
  const balances = new Map<string, number>();
  const review: ReviewItem[] = [];
  const set = (transferId: string, changes: Partial<Deposit>) => {
    const current = byTransfer.get(transferId);
    if (current) byTransfer.set(transferId, { ...current, ...changes });
  };
  return {
    /** A reported deposit, pending. Reporting the same transfer again returns the same deposit. */
    open(transferId: string, address: string, txHash: string): Deposit {
      const known = byTransfer.get(transferId);
      if (known) return known;
      const deposit: Deposit = {
        id: transferId,
        address,
        txHash,
        status: "pending",
        riskLevel: "undefined",
        creditedUsd: null,
        reason: null,
      };
      byTransfer.set(transferId, deposit);
      return deposit;
    },
    /** The engine finished screening the transfer: credit it or hold it, once. */
    screened(t: TransferRecord): void {
      const deposit = byTransfer.get(t.id);
      if (deposit?.status !== "pending") return;
      if (CREDITABLE.has(t.riskLevel) && t.valueInFiat !== null) {
        balances.set(deposit.address, (balances.get(deposit.address) ?? 0) + t.valueInFiat);
        set(t.id, { status: "credited", riskLevel: t.riskLevel, creditedUsd: t.valueInFiat });
      } else {
        const reason = CREDITABLE.has(t.riskLevel) ? "no USD value known" : `risk level ${t.riskLevel}`;
        set(t.id, { status: "held", riskLevel: t.riskLevel, reason });
      }
    },
    /** The transaction could not be bound (not found on chain, or an error). */
    failed(t: TransferRecord): void {
      const deposit = byTransfer.get(t.id);
      if (deposit?.status === "pending") set(t.id, { status: "failed", reason: t.lastError ?? t.txStatus });
    },
    /** An alert opened: queued for review (the deposit's own status follows its level). */
    alerted(alert: AlertRecord): void {
      review.push({
        alertId: alert.id,
        depositId: byTransfer.has(alert.transferId) ? alert.transferId : null,
        riskLevel: alert.riskLevel,
        category: alert.entityCategory,
      });
    },
    get: (id: string) => byTransfer.get(id) ?? null,
    balance: (address: string) => balances.get(address) ?? 0,
    review: () => [...review],
  };
}

/** A deposit desk. */
export type DepositDesk = ReturnType<typeof createDepositDesk>;
