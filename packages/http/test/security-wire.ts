/**
 * HTTP/1.1 over a raw TCP socket, for what fetch refuses to send: CR/LF inside header values,
 * duplicate headers, headers of any size, bytes written slowly. One request per connection
 * (`Connection: close`); the answer is parsed from the bytes the server wrote.
 */
import { connect, type Socket } from "node:net";

/** What came back on the socket. */
export interface WireAnswer {
  /** The status, or 0 when the server closed the socket without answering. */
  readonly status: number;
  /** Header names in lower case; repeated headers joined with ", ". */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  /** Milliseconds from connecting until the server closed the socket. */
  readonly ms: number;
}

function decodeChunked(body: string): string {
  let out = "";
  let rest = body;
  for (;;) {
    const eol = rest.indexOf("\r\n");
    if (eol === -1) return out;
    const size = Number.parseInt(rest.slice(0, eol), 16);
    if (!Number.isFinite(size) || size === 0) return out;
    out += rest.slice(eol + 2, eol + 2 + size);
    rest = rest.slice(eol + 2 + size + 2);
  }
}

/** Parses the bytes of an HTTP/1.1 response. */
export function parseAnswer(raw: string, ms: number): WireAnswer {
  const split = raw.indexOf("\r\n\r\n");
  const head = split === -1 ? raw : raw.slice(0, split);
  const [statusLine = "", ...lines] = head.split("\r\n");
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1] ?? 0);
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(":");
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
  }
  const rawBody = split === -1 ? "" : raw.slice(split + 4);
  const body = /chunked/i.test(headers["transfer-encoding"] ?? "") ? decodeChunked(rawBody) : rawBody;
  return { status, headers, body, ms };
}

/** Options of {@link wireExchange}. */
export interface WireOptions {
  /** Pieces written one after another, `gapMs` apart (default: the whole request at once). */
  readonly gapMs?: number;
  /** Gives up (and destroys the socket) after this long; default 10 s. */
  readonly timeoutMs?: number;
}

/** Sends `pieces` on a new connection to 127.0.0.1:`port` and reads until the server closes it. */
export function wireExchange(
  port: number,
  pieces: ReadonlyArray<string | Uint8Array>,
  options: WireOptions = {},
): Promise<WireAnswer> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const socket: Socket = connect({ host: "127.0.0.1", port });
    const chunks: Buffer[] = [];
    let timer: ReturnType<typeof setTimeout> | null = null;
    const giveUp = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no end of answer within ${options.timeoutMs ?? 10_000} ms`));
    }, options.timeoutMs ?? 10_000);
    const finish = () => {
      clearTimeout(giveUp);
      if (timer) clearTimeout(timer);
      resolve(parseAnswer(Buffer.concat(chunks).toString("latin1"), performance.now() - started));
    };
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    socket.on("close", finish);
    socket.on("error", () => undefined);
    let next = 0;
    const writeNext = () => {
      if (socket.destroyed || next >= pieces.length) return;
      socket.write(pieces[next] as string | Uint8Array);
      next += 1;
      if (next < pieces.length) timer = setTimeout(writeNext, options.gapMs ?? 0);
    };
    socket.once("connect", writeNext);
  });
}

/** The bytes of a request: request line, headers (in order, duplicates allowed), then the body. */
export function requestBytes(
  method: string,
  target: string,
  headers: ReadonlyArray<readonly [string, string]>,
  body = "",
): string {
  const lines = [`${method} ${target} HTTP/1.1`, "Host: 127.0.0.1", "Connection: close"];
  for (const [name, value] of headers) lines.push(`${name}: ${value}`);
  if (body) lines.push(`Content-Length: ${Buffer.byteLength(body)}`);
  return `${lines.join("\r\n")}\r\n\r\n${body}`;
}
