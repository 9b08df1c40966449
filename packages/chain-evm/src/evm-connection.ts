/**
 * How a chain source or ingestor reaches its node: an RPC URL (HTTP JSON-RPC with a timeout and
 * a small retry), any viem transport, or a ready viem public client.
 */
import { fieldError, nodeUrl } from "@openkyt/core";
import { createPublicClient, http, type PublicClient, type Transport } from "viem";

/** Retries of one RPC request inside the transport (the engine adds its own backoff on top). */
export interface RpcRetry {
  /** Retries after the first attempt; default 1. */
  readonly count: number;
  /** Delay before the first retry, doubled per retry (viem's rule); default 200 ms. */
  readonly delayMs: number;
}

/** Where the node is. Give exactly one of `rpcUrl`, `transport` or `client`. */
export interface EvmConnectionOptions {
  /** HTTP(S) JSON-RPC endpoint. */
  readonly rpcUrl?: string;
  /** Any viem transport (websocket, fallback, custom); `timeoutMs` and `retry` are then yours to set on it. */
  readonly transport?: Transport;
  /** A viem public client you already have. */
  readonly client?: PublicClient;
  /** Timeout of one HTTP request when `rpcUrl` is given; default 10,000 ms. */
  readonly timeoutMs?: number;
  /** Transport-level retries when `rpcUrl` is given. */
  readonly retry?: Partial<RpcRetry>;
}

/** Default transport retry: one quick retry; persistent failures are the engine's to back off. */
export const DEFAULT_RPC_RETRY: RpcRetry = Object.freeze({ count: 1, delayMs: 200 });

/** Default HTTP request timeout. */
export const DEFAULT_RPC_TIMEOUT_MS = 10_000;

/**
 * The viem public client for the options. Block numbers are never cached (`cacheTime: 0`), so
 * confirmations are counted against the node's current head.
 */
export function createEvmClient(options: EvmConnectionOptions): PublicClient {
  const given = [options.rpcUrl, options.transport, options.client].filter((v) => v !== undefined);
  if (given.length !== 1) throw fieldError("rpcUrl", "give exactly one of rpcUrl, transport or client");
  if (options.client) return options.client;
  if (options.transport) return createPublicClient({ transport: options.transport, cacheTime: 0 });
  const timeout = options.timeoutMs ?? DEFAULT_RPC_TIMEOUT_MS;
  if (!Number.isFinite(timeout) || timeout <= 0) throw fieldError("timeoutMs", "must be a positive number");
  const retry = { ...DEFAULT_RPC_RETRY, ...options.retry };
  const { url, authorization } = nodeUrl(options.rpcUrl ?? "", "rpcUrl");
  const transport = http(url, {
    timeout,
    retryCount: retry.count,
    retryDelay: retry.delayMs,
    ...(authorization === null ? {} : { fetchOptions: { headers: { authorization } } }),
  });
  return createPublicClient({ transport, cacheTime: 0 });
}
