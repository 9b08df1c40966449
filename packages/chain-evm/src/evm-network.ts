/** The one network a chain source or ingestor answers for, checked against core's network table. */
import { fieldError, KytError, type NetworkInfo, networkInfo } from "@openkyt/core";

/** The network of an EVM network code; anything else is a VALIDATION_ERROR naming `network`. */
export function evmNetwork(code: string): NetworkInfo {
  const info = networkInfo(code);
  if (!info) throw fieldError("network", `unknown network ${JSON.stringify(code)}`);
  if (info.family !== "evm") throw fieldError("network", `${code} is not an EVM network`);
  return info;
}

/**
 * Refuses a request for another network than the configured one: NOT_CONFIGURED, since no
 * source was configured for it (the engine retries, then records the reason as tx_status error).
 */
export function assertSameNetwork(configured: NetworkInfo, asked: string): void {
  if (asked !== configured.code) {
    throw new KytError(
      "NOT_CONFIGURED",
      `this EVM chain source answers for ${configured.code} only, not ${asked}`,
      { details: { configured: configured.code, asked } },
    );
  }
}

/** A positive whole number of confirmations; 1 means "mined". */
export function confirmationsOption(value: number | undefined): number {
  const n = value ?? 1;
  if (!Number.isSafeInteger(n) || n < 1) throw fieldError("confirmations", "must be a whole number >= 1");
  return n;
}
