/**
 * A Bitcoin Core JSON-RPC client (also what bcoin's node answers): `POST` of
 * `{ method, params }` with HTTP basic authentication, the answer parsed with every number kept
 * as its text (amounts are decimal BTC: see lossless-json.ts). A JSON-RPC error comes back as a
 * {@link RpcError} with Core's code (-5: no such transaction or block); a node that cannot be
 * reached, answers late or answers nonsense is a CHAIN_ERROR naming the method.
 */
import { basicAuthorization, describeError, KytError, nodeUrl } from "@openkyt/core";
import { isObject } from "./json-fields.js";
import { parseJsonKeepingNumbers } from "./lossless-json.js";

/** How to reach a node. */
export interface BitcoinRpcOptions {
  /** The node's RPC URL, for example `http://127.0.0.1:8332`; user and password may be in it. */
  readonly url: string;
  /** RPC user and password (Core's `rpcuser`/`rpcpassword`, or `__cookie__` and the cookie's secret). */
  readonly user?: string;
  readonly password?: string;
  /** Milliseconds one request may take; default 10,000. */
  readonly timeoutMs?: number;
  /** The network code named in errors; default "BTC". */
  readonly network?: string;
}

/** An error the node answered (Core's RPC error codes: -5 not found, -8 bad parameter, ...). */
export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly method: string,
  ) {
    super(`${method}: ${message} (code ${code})`);
    this.name = "RpcError";
  }
}

/** Core's RPC_INVALID_ADDRESS_OR_KEY: no such transaction, block or address. */
export const RPC_NOT_FOUND = -5;
/** Core's RPC_MISC_ERROR, which bcoin also uses for "Transaction not found." and "Block not found". */
export const RPC_MISC_ERROR = -1;
/** Core's RPC_INVALID_PARAMETER (a height out of range, for one). */
export const RPC_INVALID_PARAMETER = -8;

/** Calls one method; numbers in the result are strings of their literal text. */
export type BitcoinRpc = (method: string, params: ReadonlyArray<unknown>) => Promise<unknown>;

/** Default milliseconds a request may take. */
export const DEFAULT_RPC_TIMEOUT_MS = 10_000;

/** Creates the client. */
export function createBitcoinRpc(options: BitcoinRpcOptions): BitcoinRpc {
  const split = nodeUrl(options.url);
  const url = split.url;
  const headers: Record<string, string> = { "content-type": "application/json" };
  const given = options.user !== undefined || options.password !== undefined;
  const authorization = given
    ? basicAuthorization(options.user ?? "", options.password ?? "")
    : split.authorization;
  if (authorization !== null) headers.authorization = authorization;
  const network = options.network ?? "BTC";
  const timeoutMs = options.timeoutMs ?? DEFAULT_RPC_TIMEOUT_MS;
  let id = 0;
  const failed = (method: string, why: string, cause?: unknown) =>
    new KytError(
      "CHAIN_ERROR",
      `${network} node: ${method} failed: ${why}`,
      cause === undefined ? {} : { cause },
    );
  return async (method, params) => {
    let text: string;
    let status: number;
    try {
      const response = await fetch(url, {
        method: "POST",
        headers,
        body: JSON.stringify({ jsonrpc: "1.0", id: ++id, method, params }),
        signal: AbortSignal.timeout(timeoutMs),
      });
      status = response.status;
      text = await response.text();
    } catch (error) {
      throw failed(method, describeError(error), error);
    }
    let answer: unknown;
    try {
      answer = parseJsonKeepingNumbers(text);
    } catch {
      throw failed(method, `HTTP ${status}, not JSON: ${JSON.stringify(text.slice(0, 200))}`);
    }
    if (!isObject(answer)) throw failed(method, `HTTP ${status}, an answer that is not a JSON-RPC object`);
    if (isObject(answer.error)) {
      const code = Number(answer.error.code);
      throw new RpcError(Number.isFinite(code) ? code : 0, String(answer.error.message ?? "error"), method);
    }
    if (status !== 200) throw failed(method, `HTTP ${status}`);
    return answer.result;
  };
}

/**
 * Calls `method`; the node's "not found" (-5; -8 for a height out of range; bcoin's -1 with
 * "not found") answers null, other RPC errors CHAIN_ERROR.
 */
export async function rpcOrNull(
  rpc: BitcoinRpc,
  network: string,
  method: string,
  params: ReadonlyArray<unknown>,
): Promise<unknown> {
  try {
    return await rpc(method, params);
  } catch (error) {
    if (error instanceof RpcError) {
      // bcoin answers "not found" with its generic code -1.
      const notFound = error.code === RPC_MISC_ERROR && /not found/i.test(error.message);
      if (error.code === RPC_NOT_FOUND || error.code === RPC_INVALID_PARAMETER || notFound) return null;
      throw new KytError("CHAIN_ERROR", `${network} node: ${error.message}`, { cause: error });
    }
    throw error;
  }
}
