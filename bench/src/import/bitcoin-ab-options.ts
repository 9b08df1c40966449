/**
 * The options and generated files of the two-checkout Bitcoin import benches
 * (`bitcoin-import-ab.ts`, `bitcoin-decode-ab.ts`): `--data DIR` (the files
 * `bitcoin-import-bench.ts --data DIR` kept), `--txs`, `--rounds`, `--other` (the checkout to
 * compare with: a worktree at a fixed commit with its dependencies installed) and `--formats`.
 */
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { BitcoinLedgerFiles } from "./bitcoin-ledger-files.js";

/** What both benches read from their command line, and the files they import. */
export interface BitcoinAbOptions {
  /** The `--data` folder (the benches write their scratch databases there). */
  readonly data: string;
  readonly rounds: number;
  /** The repository root of the other checkout, and of this one. */
  readonly other: string;
  readonly here: string;
  readonly formats: ReadonlyArray<string>;
  readonly files: BitcoinLedgerFiles;
  /** The kept file of `format` (bitcoin-core, esplora or bitcoin-blocks). */
  fileOf(format: string): string;
}

/** Reads the command line (`defaultRounds` when `--rounds` is absent); a missing option throws, naming it. */
export function bitcoinAbOptions(defaultRounds: number): BitcoinAbOptions {
  const arg = (name: string, fallback: string) => {
    const at = process.argv.indexOf(name);
    return at >= 0 ? (process.argv[at + 1] ?? fallback) : fallback;
  };
  const data = arg("--data", "");
  if (data === "") throw new Error("--data DIR: the files bitcoin-import-bench.ts --data DIR kept");
  const other = arg("--other", "");
  if (other === "") throw new Error("--other DIR: the checkout to compare with (its dependencies installed)");
  const txs = Number(arg("--txs", "200000"));
  const files = JSON.parse(
    readFileSync(join(data, `bitcoin-${txs}`, "files.json"), "utf8"),
  ) as BitcoinLedgerFiles;
  return {
    data,
    rounds: Number(arg("--rounds", String(defaultRounds))),
    other: resolve(other),
    here: resolve(import.meta.dirname, "../../.."),
    formats: arg("--formats", "bitcoin-core,esplora,bitcoin-blocks").split(","),
    files,
    fileOf: (format) =>
      format === "bitcoin-core" ? files.core : format === "esplora" ? files.esplora : files.blk,
  };
}
