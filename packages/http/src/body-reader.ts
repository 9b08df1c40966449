/**
 * Reads a request body as raw bytes, refusing more than `limit` bytes with PAYLOAD_TOO_LARGE
 * before reading it when Content-Length says so, else as soon as the stream passes the limit.
 */
import { KytError } from "@openkyt/core";

function tooLarge(limit: number): KytError {
  return new KytError("PAYLOAD_TOO_LARGE", `the request body is larger than ${limit} bytes`);
}

/** The body of `request`, at most `limit` bytes. */
export async function readBodyBytes(request: Request, limit: number): Promise<Uint8Array> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (Number.isFinite(declared) && declared > limit) throw tooLarge(limit);
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge(limit);
    }
    chunks.push(value);
  }
  const out = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}
