/**
 * Bitcoin Core's block files: blk*.dat holds records of `magic, size (u32 LE), block`, and
 * rev*.dat records of `magic, size, CBlockUndo, checksum (32 bytes)`, where the checksum ties an
 * undo to its block (see `undoChecksum`). Files are preallocated: zero bytes after the last
 * record end the file.
 */
import { ByteReader, hexOf } from "./byte-reader.js";

/** One record of a blk*.dat or rev*.dat file. */
export interface FileRecord {
  /** The network magic, 4 bytes as hex. */
  readonly magic: string;
  /** Offset of the record (its magic) in the file. */
  readonly offset: number;
  /** The record's payload: a block, or an undo. */
  readonly payload: Uint8Array;
  /** rev*.dat only: the checksum after the payload, as hex. */
  readonly checksum: string | null;
}

/** True when `bytes` from `offset` on are all zero (the preallocated tail of a block file). */
function zeroTail(bytes: Uint8Array, offset: number): boolean {
  for (let i = offset; i < bytes.length; i++) if (bytes[i] !== 0) return false;
  return true;
}

/** The records of a blk*.dat (`withChecksum` false) or rev*.dat (true) file, in file order. */
export function* fileRecords(bytes: Uint8Array, withChecksum: boolean): Generator<FileRecord> {
  const reader = new ByteReader(bytes);
  while (reader.left > 0 && !zeroTail(bytes, reader.offset)) {
    const offset = reader.offset;
    const magic = hexOf(reader.take(4, `record at offset ${offset}: magic`));
    const size = reader.u32(`record at offset ${offset}: size`);
    const payload = reader.take(size, `record at offset ${offset}: ${withChecksum ? "undo" : "block"}`);
    const checksum = withChecksum ? hexOf(reader.take(32, `record at offset ${offset}: checksum`)) : null;
    yield { magic, offset, payload, checksum };
  }
}

/** True when `bytes` start like a block-file record: one of `magics`, then a size that fits. */
export function startsWithRecord(bytes: Uint8Array, magics: ReadonlyArray<string>): boolean {
  if (bytes.length < 8) return false;
  return magics.includes(hexOf(bytes.subarray(0, 4)));
}
