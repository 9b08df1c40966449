/**
 * Failures of the node as CHAIN_ERROR: connection refused, timeouts, JSON-RPC errors and
 * answers that make no sense all throw `KytError("CHAIN_ERROR", ..., { cause })`, so the engine
 * retries with backoff and finally records the reason (tx_status `error`).
 */
import { describeError, isKytError, KytError } from "@openkyt/core";
import { BaseError } from "viem";

/** The CHAIN_ERROR for a failed node request (a KytError passes through unchanged). */
export function chainError(network: string, what: string, error: unknown): KytError {
  if (isKytError(error)) return error;
  const detail = error instanceof BaseError ? error.shortMessage : describeError(error);
  return new KytError("CHAIN_ERROR", `${network} node: ${what} failed: ${detail}`, { cause: error });
}

/** Runs one node request, turning any failure into a CHAIN_ERROR that names it. */
export async function rpcCall<T>(network: string, what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw chainError(network, what, error);
  }
}

/** True when `error` is, or was caused by, an error of one of these viem classes. */
export function causedBy(
  error: unknown,
  classes: ReadonlyArray<abstract new (...args: never[]) => Error>,
): boolean {
  if (!(error instanceof BaseError)) return false;
  return error.walk((e) => classes.some((c) => e instanceof c)) !== null;
}

/** A CHAIN_ERROR for an answer the node should not have given (wrong hash, missing fields). */
export function badAnswer(network: string, what: string): KytError {
  return new KytError("CHAIN_ERROR", `${network} node: ${what}`);
}
