/**
 * Reading a file as UTF-8 text in chunks, counting bytes for progress. A missing or unreadable
 * file fails with a KytError naming it, before anything is written.
 */
import { createReadStream } from "node:fs";
import { open, stat } from "node:fs/promises";
import { StringDecoder } from "node:string_decoder";
import { describeError, KytError } from "@openkyt/core";

/**
 * Bytes read per chunk. Kept under V8's large-object size (128 KiB): a larger chunk's text, and
 * the line text it is joined with, go straight to the old generation, where only full
 * collections free them: reading a 1 GiB ledger in 256 KiB chunks, the process's RSS swung by
 * about 80 MiB. 64 KiB chunks die young, and cost no more CPU time.
 */
const CHUNK_BYTES = 64 * 1024;

/** An opened text file: its size, its chunks, and how much was read. */
export interface TextFile {
  readonly path: string;
  readonly totalBytes: number;
  /** Bytes read so far by `chunks()`. */
  bytesRead(): number;
  /** The text in chunks (a UTF-8 BOM dropped); read once. */
  chunks(): AsyncIterable<string>;
}

/** The error for a file that cannot be read. */
export function unreadable(path: string, why: string, cause?: unknown): KytError {
  return new KytError("VALIDATION_ERROR", `${path}: ${why}`, {
    cause,
    errors: { file: [why] },
    details: { file: path },
  });
}

/** Checks that `path` is a readable regular file and gives its size. */
async function sizeOf(path: string): Promise<number> {
  try {
    const info = await stat(path);
    if (!info.isFile()) throw unreadable(path, "not a regular file");
    const handle = await open(path, "r");
    await handle.close();
    return info.size;
  } catch (error) {
    if (error instanceof KytError) throw error;
    const code = (error as { code?: unknown }).code;
    if (code === "ENOENT")
      throw new KytError("NOT_FOUND", `${path}: file not found`, { cause: error, details: { file: path } });
    throw unreadable(path, `cannot be read (${describeError(error)})`, error);
  }
}

/** Opens a text file for streaming. */
export async function openTextFile(path: string): Promise<TextFile> {
  const totalBytes = await sizeOf(path);
  let bytes = 0;
  async function* chunks(): AsyncGenerator<string> {
    const decoder = new StringDecoder("utf8");
    let first = true;
    try {
      for await (const buffer of createReadStream(path, { highWaterMark: CHUNK_BYTES })) {
        bytes += (buffer as Buffer).length;
        let text = decoder.write(buffer as Buffer);
        if (first && text.length > 0) {
          if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
          first = false;
        }
        if (text.length > 0) yield text;
      }
    } catch (error) {
      throw unreadable(path, `read failed (${describeError(error)})`, error);
    }
    const rest = decoder.end();
    if (rest.length > 0) yield rest;
  }
  return { path, totalBytes, bytesRead: () => bytes, chunks };
}

/** The first `maxBytes` of a file as bytes, and whether the file goes on past them. */
export async function readHeadBytes(
  path: string,
  maxBytes = 64 * 1024,
): Promise<{ readonly bytes: Buffer; readonly cut: boolean }> {
  const size = await sizeOf(path);
  const handle = await open(path, "r");
  try {
    const buffer = Buffer.alloc(Math.min(maxBytes, size));
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    return { bytes: buffer.subarray(0, bytesRead), cut: size > bytesRead };
  } finally {
    await handle.close();
  }
}

/** `bytes` as UTF-8 text, a BOM dropped. */
export function headText(bytes: Buffer): string {
  const text = new StringDecoder("utf8").write(bytes);
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** The first `maxBytes` of a file as text (for format detection), BOM dropped. */
export async function readHead(path: string, maxBytes = 64 * 1024): Promise<string> {
  return headText((await readHeadBytes(path, maxBytes)).bytes);
}

/** The whole file as text (for formats parsed whole, such as YAML TagPacks). */
export async function readWhole(file: TextFile): Promise<string> {
  let text = "";
  for await (const chunk of file.chunks()) text += chunk;
  return text;
}
