/**
 * Values a client controls (header values, paths) as they may appear in the log: at most
 * {@link LOG_VALUE_MAX} characters, a longer value cut and marked with its length, so one
 * request cannot write kilobytes of its own text into every line about it.
 */

/** Longest client-given value written to the log as it is. */
export const LOG_VALUE_MAX = 128;

/** `value` as the log may show it: unchanged up to `max` characters, else cut with "...(N chars)". */
export function logValue(value: string, max?: number): string;
export function logValue(value: string | undefined, max?: number): string | undefined;
export function logValue(value: string | undefined, max = LOG_VALUE_MAX): string | undefined {
  if (value === undefined || value.length <= max) return value;
  return `${value.slice(0, max)}...(${value.length} chars)`;
}
