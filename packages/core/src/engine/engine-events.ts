/** The engine's typed events, emitted after the change that causes them has been committed. */
import type { CheckKind, TxStatus } from "../domain/enums.js";
import type {
  AlertRecord,
  JobRecord,
  ManualCheckRecord,
  RiskRecord,
  TransferRecord,
} from "../domain/records.js";
import type { ChainLookup } from "../ports/chain-source.js";

/** The job runners of an engine: checks (binding, checks, manual checks) and webhook deliveries. */
export type JobLane = "checks" | "webhooks";

/** What became of a claimed job: deleted as done, run again later, retried after a failure, or given up. */
export type JobSettlement = "done" | "later" | "retried" | "gave_up";

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
  /** A runner claimed a batch of jobs and starts running them (before any of them runs). */
  "jobs.claimed": (info: { lane: JobLane; jobs: ReadonlyArray<JobRecord> }) => void;
  /** A claimed job was settled (see {@link JobSettlement}). */
  "job.settled": (info: { lane: JobLane; job: JobRecord; outcome: JobSettlement }) => void;
  /** A batch claimed by a runner was run and settled; `ms` from its claim to its last settlement. */
  "jobs.batch_finished": (info: { lane: JobLane; jobs: number; startedAt: number; ms: number }) => void;
  /** The chain source answered a lookup (its kind), or failed, timed out or answered a malformed lookup (`error`). */
  "chain.looked_up": (info: { outcome: ChainLookup["kind"] | "error"; ms: number }) => void;
  /** A webhook delivery was attempted: received (2xx) or not, and whether this failure paused the webhook. */
  "webhook.delivered": (info: { webhookId: string; ok: boolean; paused: boolean }) => void;
}

/** An event name of the engine. */
export type EngineEventName = keyof EngineEvents;

/**
 * The engine's typed event emitter (`engine.events`): Node's emitter methods, each listener
 * typed by its event. Our own small interface and emitter (engine-emitter.ts): the emitter
 * package used before had CommonJS types that broke a program's `tsc` under
 * `"moduleResolution": "NodeNext"` (TS2709 on `EventEmitter`, then untyped listeners).
 */
export interface EngineEventEmitter {
  /** Adds a listener; it runs after the change that caused the event was committed. */
  on<E extends EngineEventName>(event: E, listener: EngineEvents[E]): this;
  /** Same as `on`. */
  addListener<E extends EngineEventName>(event: E, listener: EngineEvents[E]): this;
  /** Adds a listener that runs once. */
  once<E extends EngineEventName>(event: E, listener: EngineEvents[E]): this;
  /** Removes a listener (every listener of the event when none is given). */
  off<E extends EngineEventName>(event: E, listener?: EngineEvents[E]): this;
  /** Same as `off`. */
  removeListener<E extends EngineEventName>(event: E, listener?: EngineEvents[E]): this;
  /** Removes every listener of one event, or of all. */
  removeAllListeners(event?: EngineEventName): this;
  /** Calls the event's listeners in order; true when it had any. */
  emit<E extends EngineEventName>(event: E, ...args: Parameters<EngineEvents[E]>): boolean;
  /** How many listeners the event has. */
  listenerCount(event: EngineEventName): number;
}
