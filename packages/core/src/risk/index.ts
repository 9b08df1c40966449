/** Risk models, rule matching and aggregation. */
export { assessRisks, type RiskAssessment } from "./assess-risks.js";
export {
  DEFAULT_RISK_MODEL,
  DEFAULT_RULE_TABLE,
  type RiskyGroup,
  type RuleTemplate,
} from "./default-risk-model.js";
export {
  compareFiredRisks,
  evaluateRisks,
  type RiskEvaluationInput,
} from "./evaluate-risks.js";
export { type AggregatedRisk, aggregateRisk } from "./risk-aggregation.js";
export { collapseRisks } from "./risk-collapse.js";
export { validateRiskModel } from "./risk-model-validation.js";
export {
  compareRules,
  type Observation,
  ruleFires,
  ruleKey,
  SHARE_TOLERANCE,
  subTypeAccepts,
} from "./rule-matching.js";
