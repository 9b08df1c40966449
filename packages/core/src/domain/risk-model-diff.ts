/**
 * What changed between two versions of a risk model: the rules added, removed and changed, each
 * named by its number (1-based, as the console labels rules: "rule 4"). Works on rules as the
 * interface answers them (snake_case), so the console shows the same diff before saving as the
 * version history shows after. Pure: inputs are never changed.
 */

/** A rule as the interface answers it (the fields a diff compares). */
export interface DiffRule {
  readonly rule_type: string;
  readonly rule_sub_type: string;
  readonly entity_category: string;
  readonly min_value_in_fiat: number | null;
  readonly min_value_share: number | null;
  readonly risk_level: string;
}

/** The fields of a rule a change can touch, in the order they are shown. */
export const DIFF_RULE_FIELDS = [
  "rule_type",
  "rule_sub_type",
  "entity_category",
  "min_value_in_fiat",
  "min_value_share",
  "risk_level",
] as const;
export type DiffRuleField = (typeof DIFF_RULE_FIELDS)[number];

/** A rule with its number (1-based) in the version it belongs to. */
export interface NumberedRule {
  readonly number: number;
  readonly rule: DiffRule;
}

/** A rule present in both versions with different thresholds or level. */
export interface ChangedRule {
  /** Its number in the new version. */
  readonly number: number;
  /** Its number in the previous version. */
  readonly previousNumber: number;
  readonly before: DiffRule;
  readonly after: DiffRule;
  /** The fields that differ, in {@link DIFF_RULE_FIELDS} order. */
  readonly fields: ReadonlyArray<DiffRuleField>;
}

/** The difference between a previous version's rules and a new version's. */
export interface RiskModelDiff {
  /** Rules only in the new version, by their number there. */
  readonly added: ReadonlyArray<NumberedRule>;
  /** Rules only in the previous version, by their number there. */
  readonly removed: ReadonlyArray<NumberedRule>;
  readonly changed: ReadonlyArray<ChangedRule>;
  /** Rules the same in both (their place may differ). */
  readonly unchanged: number;
}

/** What a rule matches on, thresholds included: equal keys are the same rule. */
const exactKey = (r: DiffRule) =>
  `${r.rule_type}|${r.rule_sub_type}|${r.entity_category}|${r.min_value_in_fiat ?? "-"}|${r.min_value_share ?? "-"}`;
/** What a rule looks at, thresholds aside: an unmatched pair with equal keys is one rule changed. */
const looseKey = (r: DiffRule) => `${r.rule_type}|${r.rule_sub_type}|${r.entity_category}`;

/** Takes the first index of `key` out of `index`, or undefined. */
function take(index: Map<string, number[]>, key: string): number | undefined {
  const list = index.get(key);
  const found = list?.shift();
  if (list && list.length === 0) index.delete(key);
  return found;
}

function indexBy(
  rules: ReadonlyArray<DiffRule>,
  positions: ReadonlyArray<number>,
  key: (r: DiffRule) => string,
) {
  const index = new Map<string, number[]>();
  for (const i of positions) {
    const k = key(rules[i]!);
    const list = index.get(k);
    if (list) list.push(i);
    else index.set(k, [i]);
  }
  return index;
}

/**
 * The diff from `previous` to `next`. A rule with the same type, sub type, category and
 * thresholds in both is the same rule (changed when its level differs); of the rest, rules that
 * look at the same type, sub type and category are paired in order as changed; what is left is
 * added or removed. Every rule of either side is counted exactly once.
 */
export function diffRiskModelRules(
  previous: ReadonlyArray<DiffRule>,
  next: ReadonlyArray<DiffRule>,
): RiskModelDiff {
  const changed: ChangedRule[] = [];
  let unchanged = 0;
  const pair = (p: number, n: number) => {
    const before = previous[p]!;
    const after = next[n]!;
    const fields = DIFF_RULE_FIELDS.filter((f) => before[f] !== after[f]);
    if (fields.length === 0) unchanged += 1;
    else changed.push({ number: n + 1, previousNumber: p + 1, before, after, fields });
  };
  const exact = indexBy(
    previous,
    previous.map((_, i) => i),
    exactKey,
  );
  const unmatched: number[] = [];
  next.forEach((rule, n) => {
    const p = take(exact, exactKey(rule));
    if (p === undefined) unmatched.push(n);
    else pair(p, n);
  });
  const left = [...exact.values()].flat().sort((a, b) => a - b);
  const loose = indexBy(previous, left, looseKey);
  const added: NumberedRule[] = [];
  for (const n of unmatched) {
    const p = take(loose, looseKey(next[n]!));
    if (p === undefined) added.push({ number: n + 1, rule: next[n]! });
    else pair(p, n);
  }
  const removed = [...loose.values()]
    .flat()
    .sort((a, b) => a - b)
    .map((p) => ({ number: p + 1, rule: previous[p]! }));
  changed.sort((a, b) => a.number - b.number);
  return { added, removed, changed, unchanged };
}

/** True when the diff changes nothing. */
export function isEmptyDiff(diff: RiskModelDiff): boolean {
  return diff.added.length === 0 && diff.removed.length === 0 && diff.changed.length === 0;
}

/** A rule in one line, the same words everywhere: "entity direct, mixer, from USD 100, share 0.1 -> high". */
export function describeDiffRule(r: DiffRule): string {
  const parts = [
    `${r.rule_type.replaceAll("_", " ")} ${r.rule_sub_type}`,
    r.entity_category.replaceAll("_", " "),
  ];
  if (r.min_value_in_fiat !== null) parts.push(`from USD ${r.min_value_in_fiat}`);
  if (r.min_value_share !== null) parts.push(`share ${r.min_value_share}`);
  return `${parts.join(", ")} -> ${r.risk_level}`;
}
