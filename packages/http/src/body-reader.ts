/**
 * Reads a request body as raw bytes, refusing more than `limit` bytes with PAYLOAD_TOO_LARGE
 * before reading it when Content-Length says so, else as soon as the stream passes the limit.
 * Two sources: a fetch `Request` (the app mounted anywhere), and node's own request object when
 * the app is served by @hono/node-server (no web stream is built around it then). A client that
 * closes the connection or errs before its body is complete is REQUEST_ABORTED (a 400 the client
 * will not read, logged at info like any 4xx): an expected outcome, not a server failure.
 */
import type { IncomingMessage } from "node:http";
import { KytError } from "@openkyt/core";

function tooLarge(limit: number): KytError {
  return new KytError("PAYLOAD_TOO_LARGE", `the request body is larger than ${limit} bytes`);
}

/** The error of a body the client stopped sending (`cause`: the stream's error, if any). */
export function requestAborted(cause?: unknown): KytError {
  return new KytError(
    "REQUEST_ABORTED",
    "the client closed the connection before sending the whole request body",
    cause === undefined ? {} : { cause },
  );
}

/** Refuses a request whose Content-Length (the header's value, if any) is past `limit`. */
export function checkDeclaredLength(contentLength: string | null | undefined, limit: number): void {
  const declared = Number(contentLength ?? "0");
  if (Number.isFinite(declared) && declared > limit) throw tooLarge(limit);
}

function concat(chunks: ReadonlyArray<Uint8Array>, size: number): Uint8Array {
  if (chunks.length === 1) return chunks[0] as Uint8Array;
  const out = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}

/** The body of `request`, at most `limit` bytes. */
export async function readBodyBytes(request: Request, limit: number): Promise<Uint8Array> {
  checkDeclaredLength(request.headers.get("content-length"), limit);
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    let next: Awaited<ReturnType<typeof reader.read>>;
    try {
      next = await reader.read();
    } catch (error) {
      throw requestAborted(error);
    }
    const { done, value } = next;
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge(limit);
    }
    chunks.push(value);
  }
  return size === 0 ? new Uint8Array(0) : concat(chunks, size);
}

/**
 * The body of node's `incoming` request, at most `limit` bytes. Past the limit it stops
 * listening and pauses the stream; the server drains or closes it after the answer.
 */
export function readIncomingBytes(incoming: IncomingMessage, limit: number): Promise<Uint8Array> {
  const declared = incoming.headers["content-length"];
  try {
    checkDeclaredLength(declared, limit);
  } catch (error) {
    return Promise.reject(error);
  }
  if (incoming.readableEnded) return Promise.resolve(new Uint8Array(0));
  return new Promise((resolve, reject) => {
    const chunks: Uint8Array[] = [];
    let size = 0;
    const stop = () => {
      incoming.off("data", onData);
      incoming.off("end", onEnd);
      incoming.off("error", onError);
      incoming.off("close", onClose);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size > limit) {
        stop();
        incoming.pause();
        reject(tooLarge(limit));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      stop();
      resolve(size === 0 ? new Uint8Array(0) : concat(chunks, size));
    };
    const onError = (error: Error) => {
      stop();
      reject(requestAborted(error));
    };
    const onClose = () => {
      stop();
      if (incoming.complete) onEnd();
      else reject(requestAborted());
    };
    incoming.on("data", onData);
    incoming.on("end", onEnd);
    incoming.on("error", onError);
    incoming.on("close", onClose);
  });
}
