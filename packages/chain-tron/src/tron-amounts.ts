/** Token amounts from raw integer units, as the nearest JS number (the ledger keeps numbers). */
import { fieldError } from "@openkyt/core";

/**
 * `raw / 10^decimals` written out exactly as a decimal string, then parsed once: the only error
 * is the final rounding to a double (about 15-16 significant digits kept).
 */
export function unitsToNumber(raw: bigint, decimals: number): number {
  if (!Number.isSafeInteger(decimals) || decimals < 0)
    throw fieldError("decimals", "must be a whole number >= 0");
  const negative = raw < 0n;
  const digits = (negative ? -raw : raw).toString().padStart(decimals + 1, "0");
  const whole = digits.slice(0, digits.length - decimals);
  const fraction = digits.slice(digits.length - decimals);
  return Number(`${negative ? "-" : ""}${whole}${fraction ? `.${fraction}` : ""}`);
}
