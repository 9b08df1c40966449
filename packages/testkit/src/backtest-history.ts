/**
 * A screened history for backtests: seeded transfer records as the engine stores them after
 * their checks (exposure shares, an identified or traced counterparty, sanctions, the level and
 * the model version that checked them), without running the checks. Tests and the benchmark
 * insert them with `insertTransfer` and backtest them.
 */
import type {
  CheckStates,
  CounterpartyResult,
  ExposureResult,
  ExposureShare,
  RiskLevel,
  RiskModel,
  RiskRule,
  SanctionsResult,
  TransferRecord,
} from "@openkyt/core";
import { seededRandom } from "@openkyt/ledger-generator";
import { checkedStates, makeTransfer } from "./store-factories.js";

/** The categories histories draw from (a few, so rules meet them often). */
export const HISTORY_CATEGORIES = [
  "mixer",
  "sanctions",
  "exchange",
  "gambling",
  "scam",
  "undefined",
] as const;

function pick<T>(random: () => number, items: ReadonlyArray<T>): T {
  return items[Math.floor(random() * items.length)]!;
}

/** An exposure of up to 4 categories whose shares sum to 1 (the rest `undefined`). */
function exposureOf(random: () => number, value: number | null, withValues: boolean): ExposureResult {
  const shares: ExposureShare[] = [];
  let left = 1;
  const used = new Set<string>();
  const count = 1 + Math.floor(random() * 4);
  for (let i = 0; i < count && left > 1e-6; i += 1) {
    const category = pick(random, HISTORY_CATEGORIES);
    if (used.has(category) || category === "undefined") continue;
    used.add(category);
    // Shares on round tiers (0.05 steps) meet thresholds exactly now and then.
    const share = Math.min(left, Math.round(random() * 20) / 20);
    if (share <= 0) continue;
    left -= share;
    const valueInFiat = withValues && value !== null ? share * value : null;
    const proximity = random() < 0.3 ? "direct" : "indirect";
    shares.push({
      category,
      proximity,
      share,
      valueInFiat,
      entityNames: [`${category}-1`],
      minHops: 2,
      path: [],
    });
  }
  if (left > 1e-9) {
    const valueInFiat = withValues && value !== null ? left * value : null;
    shares.push({
      category: "undefined",
      proximity: "indirect",
      share: left,
      valueInFiat,
      entityNames: [],
      minHops: 3,
      path: [],
    });
  }
  return { direct: null, shares, truncated: false, edgesRead: 10, hops: 3 };
}

/** Options of {@link screenedHistory}. */
export interface HistoryOptions {
  readonly accountId: string;
  readonly count: number;
  readonly seed: number;
  /** First registration time; transfers are `stepMs` apart. */
  readonly from: number;
  readonly stepMs: number;
  /** The model versions that checked them (`id@version` tags), drawn at random. */
  readonly versions: ReadonlyArray<string>;
  /** The level each stored transfer got; by default a level drawn at random. */
  readonly levelOf?: (t: TransferRecord) => RiskLevel;
}

/**
 * `count` screened transfers of one account: bound or attempts, incoming or outgoing, with an
 * exposure, a counterparty (identified, or traced) and a sanctions result, some never checked
 * (no model version, checks queued). Deterministic for a seed.
 */
export function screenedHistory(options: HistoryOptions): TransferRecord[] {
  const random = seededRandom(options.seed);
  const out: TransferRecord[] = [];
  for (let i = 0; i < options.count; i += 1) {
    const registeredAt = options.from + i * options.stepMs;
    const value = random() < 0.1 ? null : Math.round(random() * 50_000 * 100) / 100;
    const bound = random() < 0.85;
    const unchecked = random() < 0.05;
    const identified = random() < 0.3;
    const entity = identified ? { name: "Counterparty", category: pick(random, HISTORY_CATEGORIES) } : null;
    const counterparty: CounterpartyResult = {
      address: `0xcp${i}`,
      entity,
      exposure: identified ? null : exposureOf(random, value, false),
    };
    const hit = random() < 0.05;
    const sanctions: SanctionsResult = {
      address: `0xcp${i}`,
      hit,
      listings: hit
        ? [
            {
              network: "ETH",
              address: `0xcp${i}`,
              listName: "OFAC SDN",
              program: null,
              entity: "Listed",
              listedAt: null,
              delistedAt: null,
            },
          ]
        : [],
    };
    const checks: CheckStates = unchecked
      ? {
          exposure: { state: "queued", at: registeredAt },
          counterparty: { state: "queued", at: registeredAt },
          sanctions: { state: "queued", at: registeredAt },
        }
      : checkedStates(registeredAt);
    const base = makeTransfer({
      id: `bt-${options.seed}-${String(i).padStart(7, "0")}`,
      accountId: options.accountId,
      registeredAt,
      direction: random() < 0.7 ? "incoming" : "outgoing",
      txStatus: bound ? "bound" : "none",
      valueInFiat: value,
      checks,
      exposure: bound && !unchecked ? exposureOf(random, value, true) : null,
      counterparty: unchecked ? null : counterparty,
      sanctions: unchecked ? null : sanctions,
      riskModelVersion: unchecked ? null : pick(random, options.versions),
      updatedAt: registeredAt,
    });
    const riskLevel = options.levelOf
      ? options.levelOf(base)
      : pick(random, ["none", "low", "medium", "high", "severe"] as const);
    out.push({ ...base, riskLevel: unchecked ? "undefined" : riskLevel });
  }
  return out;
}

/** A rule from its parts (thresholds null unless given). */
export function historyRule(
  ruleType: RiskRule["ruleType"],
  ruleSubType: RiskRule["ruleSubType"],
  entityCategory: string,
  riskLevel: RiskRule["riskLevel"],
  minValueShare: number | null = null,
  minValueInFiat: number | null = null,
): RiskRule {
  return { ruleType, ruleSubType, entityCategory, riskLevel, minValueShare, minValueInFiat };
}

/** Two versions of a model over the history's categories: v2 is stricter on mixers and gambling. */
export function historyModels(id: string): { v1: RiskModel; v2: RiskModel } {
  const common = [
    historyRule("entity", "direct", "sanctions", "severe"),
    historyRule("origin_of_funds", "all", "sanctions", "severe", 0.05),
    historyRule("destination_of_funds", "all", "sanctions", "high", 0.05),
    historyRule("address_exposure", "indirect", "sanctions", "high", 0.1),
    historyRule("origin_of_funds", "indirect", "scam", "medium", 0.2, 100),
    historyRule("entity", "direct", "scam", "high"),
  ];
  const v1: RiskModel = {
    id,
    name: "lab",
    version: 1,
    rules: [
      ...common,
      historyRule("origin_of_funds", "all", "mixer", "medium", 0.5),
      historyRule("entity", "direct", "gambling", "low", null, 10_000),
    ],
  };
  const v2: RiskModel = {
    id,
    name: "lab",
    version: 2,
    rules: [
      ...common,
      historyRule("origin_of_funds", "all", "mixer", "high", 0.2),
      historyRule("origin_of_funds", "indirect", "mixer", "low", 0.05),
      historyRule("destination_of_funds", "all", "mixer", "medium", 0.25),
      historyRule("address_exposure", "all", "mixer", "medium", 0.3),
      historyRule("entity", "direct", "gambling", "medium"),
      historyRule("origin_of_funds", "all", "undefined", "low", 0.95),
    ],
  };
  return { v1, v2 };
}
