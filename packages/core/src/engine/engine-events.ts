/** The engine's typed events, emitted after the change that causes them has been committed. */
import type { CheckKind, TxStatus } from "../domain/enums.js";
import type { AlertRecord, ManualCheckRecord, RiskRecord, TransferRecord } from "../domain/records.js";

/** Event name to listener signature. */
export interface EngineEvents {
  /** A transfer or attempt was registered (not emitted when a registration returned an existing one). */
  "transfer.registered": (transfer: TransferRecord) => void;
  /** tx_status changed (binding, bound, not_found, error). */
  "transfer.status_changed": (transfer: TransferRecord, from: TxStatus) => void;
  /** A transfer became bound and was enriched with on-chain data. */
  "transfer.bound": (transfer: TransferRecord) => void;
  /** One check of a transfer finished (checked or error). */
  "check.completed": (transfer: TransferRecord, kind: CheckKind) => void;
  /** Every check a job was asked to run has finished. */
  "transfer.checked": (transfer: TransferRecord) => void;
  /** A rule fired (a new risk was written). */
  "risk.detected": (risk: RiskRecord) => void;
  /** An alert was opened. */
  "alert.created": (alert: AlertRecord) => void;
  /** An alert changed. */
  "alert.updated": (alert: AlertRecord) => void;
  /** A manual check finished (checked or error). */
  "manual_check.completed": (check: ManualCheckRecord) => void;
  /** A job failed and will be retried, or gave up (`final`). */
  "job.failed": (info: {
    jobId: string;
    kind: string;
    subjectId: string;
    reason: string;
    final: boolean;
  }) => void;
}
