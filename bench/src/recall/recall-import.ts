/**
 * Recall through `openkyt import`: each MFTracer case written as the ledger CSV a user would
 * make of it (docs/data.md §5.1) and read back by the importer the command runs, into SQLite,
 * then each terminal's address check traced over the stored ledger at the defaults. The cases
 * know each transfer's block but not its place in it, so a transaction's transfers get log
 * index -1, -2, ... ("position unknown": either order inside the block). For comparison the
 * same files with 0, 1, ... per transaction, which claim an order inside the block that the
 * data does not have.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  createEntityResolver,
  DEFAULT_MAX_HOPS,
  DEFAULT_MIN_PATH_WEIGHT,
  type LedgerTransfer,
  storeAttributionSource,
  storeSanctionsSource,
  traceAddressExposure,
} from "@openkyt/core";
import { importFile } from "@openkyt/datasets";
import { createSqliteStore } from "@openkyt/store-sqlite";
import { CASE_TOKEN, type LaunderingCase } from "./mftracer-cases.js";

/** How a case's transfers get their log index in the file. */
export type LogIndexing = "unknown" | "claimed";

/** The ledger CSV of a case. */
function caseCsv(rows: ReadonlyArray<LedgerTransfer>, indexing: LogIndexing): string {
  const lines = ["network,tx_hash,log_index,token_id,from,to,amount,occurred_at,block,value_usd"];
  for (const r of rows) {
    // The reader numbers a transaction's transfers -1, -2, ...; "claimed" turns them into 0, 1, ...
    const logIndex = indexing === "unknown" ? r.logIndex : -r.logIndex - 1;
    lines.push(
      [
        r.network,
        r.txHash,
        logIndex,
        r.tokenId,
        r.from,
        r.to,
        r.amount,
        r.occurredAt,
        r.block ?? "",
        r.valueUsd ?? "",
      ].join(","),
    );
  }
  return `${lines.join("\n")}\n`;
}

/** Terminals whose address check shows the stolen funds, the case imported as `indexing` says. */
export async function terminalsThroughImport(c: LaunderingCase, indexing: LogIndexing): Promise<number> {
  const dir = await mkdtemp(join(tmpdir(), "openkyt-recall-"));
  const store = await createSqliteStore({ filename: join(dir, "case.db") });
  try {
    const file = join(dir, `${c.name}.csv`);
    await writeFile(file, caseCsv(c.rows, indexing));
    const summary = await importFile(store, { kind: "ledger", file });
    if (summary.rejected > 0) {
      throw new Error(
        `${c.name}: the import refused ${summary.rejected} rows: ${summary.rejections[0]?.reason}`,
      );
    }
    await store.putAttributions(
      c.sources.map((address) => ({
        network: "ETH",
        address,
        entityName: `${c.name} theft`,
        entityCategory: "stolen_funds",
        source: "bench",
      })),
    );
    const resolver = createEntityResolver({
      attributions: storeAttributionSource(store),
      sanctions: storeSanctionsSource(store),
    });
    let shown = 0;
    for (const terminal of c.terminals) {
      const result = await traceAddressExposure({
        ledger: store,
        resolver,
        network: "ETH",
        tokenId: CASE_TOKEN,
        address: terminal,
        side: "sender",
        at: Number.MAX_SAFE_INTEGER,
        span: { from: 0, to: Number.MAX_SAFE_INTEGER },
        maxHops: DEFAULT_MAX_HOPS,
        minPathWeight: DEFAULT_MIN_PATH_WEIGHT,
      });
      const stolen = result.entity
        ? Number(result.entity.category === "stolen_funds")
        : (result.exposure?.shares.find((x) => x.category === "stolen_funds")?.share ?? 0);
      if (stolen > 0) shown++;
    }
    return shown;
  } finally {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  }
}
