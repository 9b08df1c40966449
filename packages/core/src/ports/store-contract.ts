/**
 * Checks every Store implementation makes the same way, so that the port's contract is one
 * function rather than a copy per adapter.
 */
import type { CheckKind } from "../domain/enums.js";
import type { RiskRecord } from "../domain/records.js";
import { KytError } from "../errors.js";
import type { RiskReplacement } from "./store.js";

/**
 * `Store.replaceRisks`: every risk must be of one of the kinds being replaced (a risk of another
 * kind would survive the next replacement of its own kind). VALIDATION_ERROR otherwise.
 */
/**
 * `Store.replaceRisksOfSubjects`: each replacement's risks are of its kinds (see
 * {@link assertRisksOfKinds}) and no subject is named twice. VALIDATION_ERROR otherwise.
 */
export function assertReplacements(replacements: ReadonlyArray<RiskReplacement>): void {
  const seen = new Set<string>();
  for (const r of replacements) {
    if (seen.has(r.subjectId))
      throw new KytError("VALIDATION_ERROR", `subject ${r.subjectId} is named twice in one risk replacement`);
    seen.add(r.subjectId);
    assertRisksOfKinds(r.checkKinds, r.risks);
  }
}

export function assertRisksOfKinds(kinds: ReadonlyArray<CheckKind>, risks: ReadonlyArray<RiskRecord>): void {
  const stray = risks.find((risk) => !kinds.includes(risk.checkKind));
  if (stray) {
    throw new KytError(
      "VALIDATION_ERROR",
      `risk ${stray.id} is of check kind ${stray.checkKind}, not one of those replaced (${kinds.join(", ")})`,
    );
  }
}
