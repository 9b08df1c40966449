/**
 * Token amounts from raw integer units. The ledger keeps amounts as JS numbers (core's
 * records), so a conversion from the chain's uint256 keeps about 15-16 significant digits.
 */
import { fieldError } from "@openkyt/core";
import { formatUnits } from "viem";

/**
 * `raw / 10^decimals` as the JS number nearest to the exact decimal value: the exact quotient
 * is written out as a decimal string first (no floating-point division), then parsed once,
 * so the only error is the final rounding to a double (relative error at most 2^-53, about
 * 1.1e-16). Amounts with more than 15-16 significant digits lose their last digits; for
 * example 123456789.123456789 tokens come out as 123456789.12345679.
 */
export function unitsToNumber(raw: bigint, decimals: number): number {
  if (!Number.isSafeInteger(decimals) || decimals < 0)
    throw fieldError("decimals", "must be a whole number >= 0");
  return Number(formatUnits(raw, decimals));
}
