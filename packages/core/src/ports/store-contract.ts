/**
 * Checks every Store implementation makes the same way, so that the port's contract is one
 * function rather than a copy per adapter.
 */
import type { CheckKind } from "../domain/enums.js";
import type { RiskRecord } from "../domain/records.js";
import { KytError } from "../errors.js";

/**
 * `Store.replaceRisks`: every risk must be of one of the kinds being replaced (a risk of another
 * kind would survive the next replacement of its own kind). VALIDATION_ERROR otherwise.
 */
export function assertRisksOfKinds(kinds: ReadonlyArray<CheckKind>, risks: ReadonlyArray<RiskRecord>): void {
  const stray = risks.find((risk) => !kinds.includes(risk.checkKind));
  if (stray) {
    throw new KytError(
      "VALIDATION_ERROR",
      `risk ${stray.id} is of check kind ${stray.checkKind}, not one of those replaced (${kinds.join(", ")})`,
    );
  }
}
