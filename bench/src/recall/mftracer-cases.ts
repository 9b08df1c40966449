/**
 * The five verified laundering cases of the MFTracer ground truth (WWW'25, "Shedding Light on
 * Shadows"), read in place from the shared data folder: it has no licence, so it is never
 * copied into the repository, and the recall benchmark skips, saying why, when it is absent.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { LedgerTransfer } from "@openkyt/core";

/** Where the cases are: OPENKYT_SHARED_DATA, else `../shared/data` beside the repository. */
export const MFTRACER_DIR = join(
  process.env.OPENKYT_SHARED_DATA ??
    resolve(fileURLToPath(new URL(".", import.meta.url)), "../../../../shared/data"),
  "transfer-graphs",
  "mftracer-ground-truth",
);

/** One case: its edges as ledger rows, the addresses the funds were stolen at, and where they ended. */
export interface LaunderingCase {
  readonly name: string;
  readonly rows: ReadonlyArray<LedgerTransfer>;
  readonly sources: ReadonlyArray<string>;
  readonly terminals: ReadonlyArray<string>;
  /** Lines of the case file repeated verbatim (same transaction, addresses and value). */
  readonly repeated: number;
}

/** The token the cases are traced in: their edges give USD values, across tokens. */
export const CASE_TOKEN = "native";

/** The cases found (sorted by name); empty when the folder is absent. */
export function readLaunderingCases(dir = MFTRACER_DIR): LaunderingCase[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort()
    .map((name) => readCase(join(dir, name), name));
}

function addresses(file: string): string[] {
  return readFileSync(file, "utf8")
    .split(/\s+/)
    .map((a) => a.trim().toLowerCase())
    .filter((a) => a !== "");
}

/**
 * One case. Each edge `Timestamp,Block,Tx_hash,From,From_label,To,To_label,Value_in_USD` is a
 * transfer of its USD value at its block's time (UTC). The file has no log index, so the
 * position of an edge inside its block is unknown: its log index is negative (-1, -2, ... per
 * transaction), which the order rule reads as "either way inside the block".
 */
function readCase(dir: string, name: string): LaunderingCase {
  const lines = readFileSync(join(dir, `${name}.csv`), "utf8").split(/\r?\n/);
  const header = lines[0]?.split(",") ?? [];
  const col = (c: string) => {
    const i = header.indexOf(c);
    if (i < 0) throw new Error(`${name}.csv: no ${c} column (header: ${header.join(",")})`);
    return i;
  };
  const [ts, block, tx, from, to, usd] = ["Timestamp", "Block", "Tx_hash", "From", "To", "Value_in_USD"].map(
    col,
  ) as [number, number, number, number, number, number];
  const seen = new Set<string>();
  const perTx = new Map<string, number>();
  const rows: LedgerTransfer[] = [];
  let repeated = 0;
  for (const line of lines.slice(1)) {
    if (line.trim() === "") continue;
    // Labels may hold commas only when quoted; the columns read here never do, so split the
    // unquoted prefix and suffix around the label columns.
    const f = splitCsv(line);
    const hash = (f[tx] ?? "").toLowerCase();
    const key = `${hash},${f[from]},${f[to]},${f[usd]}`.toLowerCase();
    if (seen.has(key)) {
      repeated++;
      continue;
    }
    seen.add(key);
    const k = (perTx.get(hash) ?? 0) + 1;
    perTx.set(hash, k);
    const at = Date.parse(`${(f[ts] ?? "").replace(" ", "T")}Z`);
    const amount = Number(f[usd]);
    if (!Number.isFinite(at) || !Number.isFinite(amount)) throw new Error(`${name}.csv: bad line ${line}`);
    rows.push({
      network: "ETH",
      txHash: hash,
      logIndex: -k,
      tokenId: CASE_TOKEN,
      from: (f[from] ?? "").toLowerCase(),
      to: (f[to] ?? "").toLowerCase(),
      amount,
      occurredAt: at,
      block: Number(f[block]),
      valueUsd: amount,
    });
  }
  return {
    name,
    rows,
    sources: addresses(join(dir, "source addresses.csv")),
    terminals: addresses(join(dir, "terminal addresses.csv")),
    repeated,
  };
}

/** Fields of one CSV line (double quotes group, "" is a quote). */
function splitCsv(line: string): string[] {
  const out: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quoted) {
      if (c === '"' && line[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") {
      out.push(field);
      field = "";
    } else field += c;
  }
  out.push(field);
  return out;
}
