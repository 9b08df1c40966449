/**
 * A batch of ledger rows packed for the trip from the parse thread to the writing thread. The
 * writing thread is the import's bottleneck (it also runs the store), so the form is the one
 * cheapest to receive there: the hashes and addresses in one string, the numbers in one
 * transferred Float64Array, networks and token ids (a few per file) named once per batch. On
 * 5,000-row batches, receiving and unpacking it cost about 0.3 µs a row on the receiving thread,
 * against 1.1 to 1.6 µs for the structured clone of the row objects.
 *
 * The text is cut every {@link ROWS_PER_TEXT} rows: a string over V8's large-object size (128
 * KiB) is received straight into the old generation, where only full collections free it (on a
 * 1M-row import about 15 MiB of them waited there at a time).
 */
import { KytError, type LedgerTransfer } from "@openkyt/core";

/** Numbers per row: network, token (positions in `names`), log index, amount, time, block, value. */
const NUMBERS_PER_ROW = 7;
/** Between the strings of a text: checked hashes and addresses never hold it. */
const SEPARATOR = "\n";
/** Rows per text: under 128 KiB even for rows of long (Bech32) addresses, about 200 characters. */
const ROWS_PER_TEXT = 512;

/** A packed batch of ledger rows (structured-clone friendly; `numbers.buffer` is transferable). */
export interface PackedLedgerBatch {
  /** The networks and token ids of the batch, each once. */
  readonly names: ReadonlyArray<string>;
  /** txHash, from and to of each row, in order, joined by a line break, {@link ROWS_PER_TEXT} rows a text. */
  readonly texts: ReadonlyArray<string>;
  /** {@link NUMBERS_PER_ROW} numbers per row; NaN stands for a null block or value. */
  readonly numbers: Float64Array;
}

/** Packs `rows` (their hashes and addresses in normal form: no line breaks). */
export function packLedgerBatch(rows: ReadonlyArray<LedgerTransfer>): PackedLedgerBatch {
  const names: string[] = [];
  const positions = new Map<string, number>();
  const nameAt = (name: string): number => {
    let at = positions.get(name);
    if (at === undefined) {
      at = names.push(name) - 1;
      positions.set(name, at);
    }
    return at;
  };
  const texts: string[] = [];
  let strings = new Array<string>(Math.min(rows.length, ROWS_PER_TEXT) * 3);
  const numbers = new Float64Array(rows.length * NUMBERS_PER_ROW);
  let lastNetwork = "";
  let networkAt = -1;
  let lastToken = "";
  let tokenAt = -1;
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i] as LedgerTransfer;
    if (row.network !== lastNetwork || networkAt < 0) {
      lastNetwork = row.network;
      networkAt = nameAt(row.network);
    }
    if (row.tokenId !== lastToken || tokenAt < 0) {
      lastToken = row.tokenId;
      tokenAt = nameAt(row.tokenId);
    }
    const j = i % ROWS_PER_TEXT;
    strings[3 * j] = row.txHash;
    strings[3 * j + 1] = row.from;
    strings[3 * j + 2] = row.to;
    if (j === ROWS_PER_TEXT - 1 || i === rows.length - 1) {
      texts.push(strings.join(SEPARATOR));
      strings = new Array<string>(Math.min(rows.length - i - 1, ROWS_PER_TEXT) * 3);
    }
    const at = NUMBERS_PER_ROW * i;
    numbers[at] = networkAt;
    numbers[at + 1] = tokenAt;
    numbers[at + 2] = row.logIndex;
    numbers[at + 3] = row.amount;
    numbers[at + 4] = row.occurredAt;
    numbers[at + 5] = row.block ?? Number.NaN;
    numbers[at + 6] = row.valueUsd ?? Number.NaN;
  }
  return { names, texts, numbers };
}

/** The rows of a packed batch, as they were packed. */
export function unpackLedgerBatch(batch: PackedLedgerBatch): LedgerTransfer[] {
  const { names, numbers } = batch;
  const count = numbers.length / NUMBERS_PER_ROW;
  const rows = new Array<LedgerTransfer>(count);
  let strings: string[] = [];
  for (let i = 0; i < count; i++) {
    const j = i % ROWS_PER_TEXT;
    if (j === 0) {
      strings = (batch.texts[i / ROWS_PER_TEXT] ?? "").split(SEPARATOR);
      if (strings.length !== Math.min(count - i, ROWS_PER_TEXT) * 3)
        throw new KytError("INTERNAL_ERROR", "a packed ledger batch holds a line break in a value");
    }
    const at = NUMBERS_PER_ROW * i;
    const block = numbers[at + 5] as number;
    const valueUsd = numbers[at + 6] as number;
    rows[i] = {
      network: names[numbers[at] as number] as string,
      txHash: strings[3 * j] as string,
      logIndex: numbers[at + 2] as number,
      tokenId: names[numbers[at + 1] as number] as string,
      from: strings[3 * j + 1] as string,
      to: strings[3 * j + 2] as string,
      amount: numbers[at + 3] as number,
      occurredAt: numbers[at + 4] as number,
      block: Number.isNaN(block) ? null : block,
      valueUsd: Number.isNaN(valueUsd) ? null : valueUsd,
    };
  }
  return rows;
}
