/**
 * Sending one signed request: the query string built in the order given, the body serialised
 * once as compact JSON and sent byte for byte as signed, the answer parsed, and a non-2xx
 * answer turned into a {@link KytHttpError}.
 */
import { KytHttpError } from "./client-errors.js";
import { signedHeaders } from "./client-signing.js";

/** A fetch function (the global one by default). */
export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

/** Connection settings of a client. */
export interface TransportOptions {
  /** Base URL of the server, e.g. `http://127.0.0.1:8080` (a path prefix is kept). */
  readonly baseUrl: string;
  readonly keyId: string;
  readonly secret: string;
  readonly fetch?: FetchLike;
  /** Source of API-TIMESTAMP; default the system clock. */
  readonly clock?: { now(): number };
}

/** Query values; undefined and null are left out. */
export type QueryValues = Readonly<Record<string, string | number | boolean | null | undefined>>;

/** One request. */
export interface SendOptions {
  readonly query?: QueryValues | object;
  /** A JSON body (serialised compactly), or undefined for none. */
  readonly body?: unknown;
  /** Extra headers (e.g. X-Request-Id). */
  readonly headers?: Readonly<Record<string, string>>;
}

/** A successful answer. */
export interface Answer<T> {
  readonly status: number;
  readonly headers: Headers;
  readonly body: T;
}

/** The request target (`/path?query`) of a path and query, as sent and signed. */
export function requestTarget(baseUrl: string, path: string, query?: object): string {
  const prefix = new URL(baseUrl).pathname.replace(/\/$/, "");
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== null) params.append(name, String(value));
  }
  const search = params.toString();
  return `${prefix}${path}${search ? `?${search}` : ""}`;
}

async function failure(response: Response): Promise<KytHttpError> {
  const text = await response.text();
  let body: { detail?: unknown; code?: unknown; errors?: unknown; allowed?: unknown } = {};
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: keep the status only
  }
  const retry = Number(response.headers.get("retry-after"));
  return new KytHttpError({
    status: response.status,
    code: typeof body.code === "string" ? body.code : `HTTP_${response.status}`,
    detail: typeof body.detail === "string" ? body.detail : text.slice(0, 500),
    errors: (body.errors ?? {}) as Record<string, string[]>,
    requestId: response.headers.get("x-request-id"),
    retryAfterSeconds: Number.isFinite(retry) && response.headers.has("retry-after") ? retry : null,
    allowed: Array.isArray(body.allowed) ? body.allowed.map(String) : null,
  });
}

/** Creates the signed sender of a client. */
export function createTransport(options: TransportOptions) {
  const fetchFn: FetchLike = options.fetch ?? ((input, init) => fetch(input, init));
  const clock = options.clock ?? { now: () => Date.now() };
  const origin = new URL(options.baseUrl).origin;

  async function exchange(
    method: string,
    path: string,
    send: SendOptions,
    accept: string,
  ): Promise<Response> {
    const target = requestTarget(options.baseUrl, path, send.query);
    const body = send.body === undefined ? null : JSON.stringify(send.body);
    const timestamp = clock.now();
    const headers: Record<string, string> = {
      Accept: accept,
      ...signedHeaders(options.keyId, { secret: options.secret, method, path: target, timestamp, body }),
      ...send.headers,
    };
    if (body !== null) headers["Content-Type"] = "application/json";
    const response = await fetchFn(`${origin}${target}`, { method, headers, body: body ?? undefined });
    if (!response.ok) throw await failure(response);
    return response;
  }

  return Object.freeze({
    /** Sends a signed request and parses the JSON answer. */
    async send<T>(method: string, path: string, send: SendOptions = {}): Promise<Answer<T>> {
      const response = await exchange(method, path, send, "application/json");
      return { status: response.status, headers: response.headers, body: (await response.json()) as T };
    },
    /** Sends a signed GET and returns the bytes (PDF reports). */
    async bytes(path: string): Promise<Answer<Uint8Array>> {
      const response = await exchange("GET", path, {}, "application/pdf");
      return {
        status: response.status,
        headers: response.headers,
        body: new Uint8Array(await response.arrayBuffer()),
      };
    },
  });
}

/** The signed sender. */
export type Transport = ReturnType<typeof createTransport>;
