/**
 * Whether `--warm` would fit and help, said at the start of `serve` and `worker`. The rule
 * (docs/deployment.md, "Screening from memory"):
 *
 * - the ledger's rows are estimated by its last stored position (`Store.scanLedger`: SQLite's
 *   rowid, Postgres's `seq`), found by a doubling then a binary search of one-row reads (about
 *   two reads per bit of the count, each an index lookup); positions left by deleted or
 *   rolled-back rows make it an upper bound;
 * - a warm ledger takes about {@link WARM_BYTES_PER_ROW} bytes of memory per row, of which
 *   {@link WARM_HEAP_BYTES_PER_ROW} on the JavaScript heap (measured on the 1M-transfer
 *   benchmark ledger, rounded up);
 * - it fits when that is at most half the memory available to the process (the cgroup limit when
 *   there is one, else the machine's available memory) and at most half the heap limit, so the
 *   process and a second worker keep room;
 * - it helps whenever it fits: a warm worker spends about a third of the CPU per screened
 *   transfer of a cold one (docs/benchmarks.md, "Cold traces").
 *
 * Without `--warm` a ledger that fits gets a note suggesting it; with `--warm` a ledger that does
 * not fit gets a warning. The process never switches by itself: a warm ledger costs seconds per
 * million rows at start and memory in every worker, which only the operator can weigh.
 */
import { freemem, totalmem } from "node:os";
import { getHeapStatistics } from "node:v8";
import { lastLedgerPosition, type Store } from "@openkyt/core";

/** Memory per warm ledger row, bytes: RSS 730 MB warm vs 246 MB cold on the 1M ledger, rounded up. */
export const WARM_BYTES_PER_ROW = 500;
/** JavaScript heap per warm ledger row, bytes: 160 MB per million rows measured, rounded up. */
export const WARM_HEAP_BYTES_PER_ROW = 200;

/** The memory a process may use. */
export interface MemoryRoom {
  /** Bytes available to the process (cgroup limit or the machine's available memory). */
  readonly availableBytes: number;
  /** V8's heap size limit, bytes. */
  readonly heapLimitBytes: number;
}

/** What the rule decided. */
export interface WarmFit {
  readonly rows: number;
  readonly neededBytes: number;
  readonly fits: boolean;
}

/** The room of this process: the smaller of the cgroup limit and the available memory. */
export function memoryRoom(): MemoryRoom {
  const constrained = process.constrainedMemory?.() ?? 0;
  const free = freemem();
  const available = constrained > 0 && constrained < totalmem() ? Math.min(constrained, free) : free;
  return { availableBytes: available, heapLimitBytes: getHeapStatistics().heap_size_limit };
}

/** Whether a warm ledger of `rows` fits in `room` (see the module comment). */
export function warmFit(rows: number, room: MemoryRoom): WarmFit {
  const neededBytes = rows * WARM_BYTES_PER_ROW;
  const fits =
    neededBytes <= room.availableBytes / 2 && rows * WARM_HEAP_BYTES_PER_ROW <= room.heapLimitBytes / 2;
  return { rows, neededBytes, fits };
}

/**
 * The ledger's last stored position, an upper bound of its row count; null when the store
 * cannot list its ledger in stored order.
 */
export async function ledgerRowsEstimate(store: Pick<Store, "scanLedger">): Promise<number | null> {
  return lastLedgerPosition(store);
}

/** MB, rounded. */
function mb(bytes: number): string {
  return `${Math.round(bytes / 2 ** 20).toLocaleString("en-US")} MB`;
}

/** The line to print at start (with its newline), or null when there is nothing to say. */
export function warmAdviceLine(fit: WarmFit, room: MemoryRoom, warm: boolean): string | null {
  if (fit.rows === 0) return null;
  const rows = `about ${fit.rows.toLocaleString("en-US")} rows`;
  if (warm) {
    return fit.fits
      ? null
      : `warning: --warm holds the ledger (${rows}) in about ${mb(fit.neededBytes)}, more than half of the ${mb(room.availableBytes)} available or of the ${mb(room.heapLimitBytes)} heap limit (docs/deployment.md)\n`;
  }
  return fit.fits
    ? `note: the ledger (${rows}) would fit in memory with --warm (about ${mb(fit.neededBytes)} of ${mb(room.availableBytes)} available), which screens at about a third of the CPU per transfer of tracing from the database (docs/deployment.md)\n`
    : null;
}

/** The advice for `store` in this process, or null (see {@link warmAdviceLine}). */
export async function warmAdvice(store: Pick<Store, "scanLedger">, warm: boolean): Promise<string | null> {
  const rows = await ledgerRowsEstimate(store);
  if (rows === null) return null;
  const room = memoryRoom();
  return warmAdviceLine(warmFit(rows, room), room, warm);
}
