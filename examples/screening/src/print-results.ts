/** Prints the demo's screening results as a readable table. */
import type { AccountApi } from "@openkyt/core";

/** One screened item. */
export interface Screened {
  readonly label: string;
  readonly kind: "transfer" | "manual_check";
  readonly id: string;
}

/** Prints every item with its level, score and the risks that fired. */
export async function printResults(
  api: AccountApi,
  items: ReadonlyArray<Screened>,
  run: { file: string; loaded: number; ms: number },
): Promise<void> {
  console.log(`OpenKYT demo: ${run.loaded.toLocaleString("en-US")} ledger transfers, database ${run.file}\n`);
  for (const item of items) {
    const view =
      item.kind === "transfer" ? await api.getTransfer(item.id) : await api.getManualCheck(item.id);
    const risks =
      item.kind === "transfer" ? await api.getTransferRisks(item.id) : await api.getManualCheckRisks(item.id);
    const status = "tx_status" in view ? view.tx_status : view.check_status;
    console.log(`${item.label}`);
    console.log(
      `  risk ${view.risk_level.toUpperCase()} (score ${view.risk_score ?? "-"}), ${status}, id ${item.id}`,
    );
    for (const risk of risks.slice(0, 4)) {
      const share = risk.value_share === null ? "" : ` ${(risk.value_share * 100).toFixed(1)}%`;
      const value = risk.value_in_fiat === null ? "" : ` $${risk.value_in_fiat.toLocaleString("en-US")}`;
      console.log(
        `  - ${risk.risk_level}: ${risk.risk_type} ${risk.entity_category} (${risk.proximity})${share}${value}`,
      );
    }
    if (risks.length > 4) console.log(`  - ... and ${risks.length - 4} more`);
    console.log("");
  }
  console.log(`Done in ${Math.round(run.ms)} ms. Open ${run.file} with any SQLite client to look around.`);
}
