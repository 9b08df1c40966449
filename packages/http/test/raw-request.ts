/** Hand-made signed requests, for what a typed client would never send. */
import { signRequest } from "@openkyt/client";
import { KEYS } from "./http-harness.js";

/** A request and how to sign it; every signing part can be overridden. */
export interface RawRequest {
  readonly method: string;
  /** Path and query as sent. */
  readonly path: string;
  /** Body text as sent. */
  readonly body?: string;
  /** What the signature covers when it differs from what is sent. */
  readonly signed?: { path?: string; body?: string | null; timestamp?: string; secret?: string };
  readonly keyId?: string;
  readonly timestamp?: string;
  /** Headers replacing the signed ones (null removes one). */
  readonly headers?: Readonly<Record<string, string | null>>;
}

/** The answer: status, parsed JSON (or null) and headers. */
export interface RawAnswer {
  readonly status: number;
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON
  readonly json: any;
  readonly headers: Headers;
  /** The body as text (CSV, XML). */
  readonly text: string;
}

/** Sends a hand-signed request to `baseUrl`. */
export async function rawRequest(baseUrl: string, r: RawRequest): Promise<RawAnswer> {
  const timestamp = r.timestamp ?? String(Date.now());
  const signature = signRequest({
    secret: r.signed?.secret ?? KEYS.acme.secret,
    method: r.method,
    path: r.signed?.path ?? r.path,
    timestamp: r.signed?.timestamp ?? timestamp,
    body: r.signed?.body === undefined ? (r.body ?? null) : r.signed.body,
  });
  const headers: Record<string, string> = {
    "API-KEY-ID": r.keyId ?? KEYS.acme.keyId,
    "API-TIMESTAMP": timestamp,
    "API-SIGNATURE": signature,
    Accept: "application/json",
  };
  if (r.body !== undefined) headers["Content-Type"] = "application/json";
  for (const [name, value] of Object.entries(r.headers ?? {})) {
    const existing = Object.keys(headers).find((h) => h.toLowerCase() === name.toLowerCase());
    if (existing) delete headers[existing];
    if (value !== null) headers[name] = value;
  }
  const response = await fetch(`${baseUrl}${r.path}`, { method: r.method, headers, body: r.body });
  const text = await response.text();
  let json: unknown = null;
  try {
    json = JSON.parse(text);
  } catch {
    json = null;
  }
  return { status: response.status, json, headers: response.headers, text };
}
