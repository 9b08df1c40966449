/**
 * The reference matcher: what `evaluateRisks` computes, written as plainly as possible (every
 * observation against every rule of the model with `ruleFires`, then one sort with
 * `compareFiredRisks`). No index, no compilation, no precomputed keys; the compiled matcher must
 * give exactly its results, in its order.
 */
import type { CheckKind, Direction, RiskType, RuleType } from "../../src/domain/enums.js";
import {
  compareFiredRisks,
  type FiredRisk,
  type RiskEvaluationInput,
} from "../../src/risk/evaluate-risks.js";
import { type Observation, ruleFires } from "../../src/risk/rule-matching.js";

interface Source {
  readonly checkKind: CheckKind;
  readonly ruleType: RuleType;
  readonly riskType: RiskType;
  readonly seen: Observation & { readonly entityName: string | null };
}

function counterpartyRiskType(
  direction: Direction,
  kind: "entity" | "exposure",
  isAttempt: boolean,
): RiskType {
  const side = direction === "incoming" ? "sender" : "recipient";
  return `${isAttempt ? "attempt_" : ""}${side}_${kind}` as RiskType;
}

/** Every observation of the check results, with the rule type and risk type it answers to. */
function sourcesOf(input: RiskEvaluationInput): Source[] {
  const out: Source[] = [];
  const { direction, isAttempt, transferValue } = input;
  const flow = direction === "incoming" ? "origin_of_funds" : "destination_of_funds";
  for (const s of input.exposure?.shares ?? []) {
    out.push({
      checkKind: "exposure",
      ruleType: flow,
      riskType: flow,
      seen: { ...s, entityName: s.entityNames[0] ?? null },
    });
  }
  const cp = input.counterparty;
  if (cp?.entity) {
    out.push({
      checkKind: "counterparty",
      ruleType: "entity",
      riskType: counterpartyRiskType(direction, "entity", isAttempt),
      seen: {
        category: cp.entity.category,
        entityName: cp.entity.name,
        proximity: "direct",
        share: 1,
        valueInFiat: transferValue,
      },
    });
  } else {
    for (const s of cp?.exposure?.shares ?? []) {
      out.push({
        checkKind: "counterparty",
        ruleType: "address_exposure",
        riskType: counterpartyRiskType(direction, "exposure", isAttempt),
        seen: { ...s, valueInFiat: null, entityName: s.entityNames[0] ?? null },
      });
    }
  }
  const hit = input.sanctions?.hit ? input.sanctions.listings[0] : undefined;
  if (hit) {
    out.push({
      checkKind: "sanctions",
      ruleType: "entity",
      riskType: counterpartyRiskType(direction, "entity", isAttempt),
      seen: {
        category: "sanctions",
        entityName: hit.entity ?? hit.listName,
        proximity: "direct",
        share: 1,
        valueInFiat: transferValue,
      },
    });
  }
  return out;
}

/** The risks of `input` by the definition: same contract as `evaluateRisks`. */
export function referenceEvaluateRisks(input: RiskEvaluationInput): FiredRisk[] {
  const fired: FiredRisk[] = [];
  for (const source of sourcesOf(input)) {
    for (const rule of input.model.rules) {
      if (rule.ruleType !== source.ruleType || !ruleFires(rule, source.seen)) continue;
      fired.push(
        Object.freeze({
          checkKind: source.checkKind,
          riskType: source.riskType,
          riskLevel: rule.riskLevel,
          entityCategory: source.seen.category,
          entityName: source.seen.entityName,
          proximity: source.seen.proximity,
          valueInFiat: source.seen.valueInFiat,
          valueShare: source.seen.share,
          rule: Object.isFrozen(rule) ? rule : Object.freeze({ ...rule }),
        }),
      );
    }
  }
  return fired.sort(compareFiredRisks);
}
