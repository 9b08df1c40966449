/**
 * Requests to a Tron full node's HTTP API (`POST /wallet/...` with a JSON body): bounded by a
 * timeout; a refused connection, an HTTP error, a timeout or a body that is not JSON is a
 * CHAIN_ERROR naming the request, never the node's URL (it may carry an API key).
 */
import { describeError, KytError, nodeUrl } from "@openkyt/core";

/** How to reach the node. */
export interface TronConnectionOptions {
  /** The full node's HTTP API, for example `https://api.trongrid.io` (trailing slash optional). */
  readonly url: string;
  /** Timeout of one request; default 10,000 ms. */
  readonly timeoutMs?: number;
  /** Extra headers (for example a provider's API key header). */
  readonly headers?: Readonly<Record<string, string>>;
}

/** Sends one request; answers its parsed JSON. */
export type TronRequest = (path: string, body: Readonly<Record<string, unknown>>) => Promise<unknown>;

/** A request function over `options`. */
export function tronRequester(options: TronConnectionOptions): TronRequest {
  const node = nodeUrl(options.url);
  const base = node.url.replace(/\/+$/, "");
  const auth: Record<string, string> =
    node.authorization === null ? {} : { authorization: node.authorization };
  const timeoutMs = options.timeoutMs ?? 10_000;
  return async (path, body) => {
    const what = `${path} ${JSON.stringify(body)}`;
    let text: string;
    try {
      const response = await fetch(`${base}${path}`, {
        method: "POST",
        headers: { "content-type": "application/json", ...auth, ...options.headers },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      });
      text = await response.text();
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
    } catch (error) {
      const reason =
        error instanceof Error && error.name === "TimeoutError"
          ? `no answer within ${timeoutMs} ms`
          : describeError(error);
      throw new KytError("CHAIN_ERROR", `TRX node: ${what} failed: ${reason}`, { cause: error });
    }
    try {
      return JSON.parse(text) as unknown;
    } catch (error) {
      throw new KytError("CHAIN_ERROR", `TRX node: ${what} answered something that is not JSON`, {
        cause: error,
      });
    }
  };
}
