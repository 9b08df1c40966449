/**
 * What the soak driver and its server process share: the generated ledger both sides build
 * from the same seed, the two accounts' keys, and reading `--flag value` arguments.
 */
import type { LedgerShapeOptions } from "@openkyt/testkit";

/** The ledger the server loads and the driver registers transfers of. */
export const SOAK_LEDGER: LedgerShapeOptions = Object.freeze({ transfers: 20_000, seed: 20_240_101 });

/** The accounts traffic comes from (the second one's ids are also sent by the first: 404s). */
export const SOAK_KEYS = Object.freeze([
  { keyId: "soak-key-acme-01", secret: "soak-secret-acme-0123456789abcdef", account: "acme" },
  { keyId: "soak-key-other-01", secret: "soak-secret-other-0123456789abcdef", account: "other" },
]);

/** The value after `flag` on the command line, or `fallback`. */
export function argValue(flag: string, fallback: string): string {
  const at = process.argv.indexOf(flag);
  return at >= 0 ? (process.argv[at + 1] ?? fallback) : fallback;
}

/** A line the server prints: where it listens, then its memory every 2 s. */
export interface ServerLine {
  readonly port?: number;
  readonly rss: number;
  readonly heapUsed: number;
}
