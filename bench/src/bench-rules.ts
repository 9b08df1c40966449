/**
 * Rule matching and aggregation: evaluations of the default model per second. One evaluation is
 * `evaluateRisks` with every rule of the default model over one exposure, then `aggregateRisk`.
 * Figures for a 1-, an 8- and a 20-category exposure show how the cost grows with the exposure.
 */
import { aggregateRisk, DEFAULT_RISK_MODEL, type ExposureResult, evaluateRisks } from "@openkyt/core";
import { type Figure, figure, repeat } from "./bench-stats.js";

const share = (category: string, proximity: "direct" | "indirect", s: number) => ({
  category,
  proximity,
  share: s,
  valueInFiat: 10_000 * s,
  entityNames: [],
  minHops: 2,
  path: [],
});

const exposure = (shares: ReturnType<typeof share>[]): ExposureResult => ({
  direct: null,
  shares,
  truncated: false,
  edgesRead: 120,
  hops: 5,
});

/** All the traced value from one risky category (two rules fire). */
const ONE_CATEGORY = exposure([share("mixer", "indirect", 1)]);

/** A realistic exposure: eight categories, two of them risky. */
const EIGHT_CATEGORIES = exposure([
  share("exchange", "indirect", 0.4),
  share("dex", "indirect", 0.2),
  share("mixer", "indirect", 0.05),
  share("gambling", "indirect", 0.05),
  share("sanctions", "indirect", 0.02),
  share("personal_wallet", "indirect", 0.08),
  share("bridge", "indirect", 0.05),
  share("undefined", "indirect", 0.15),
]);

/** A wide exposure: twenty categories, eight of them risky, one met directly. */
const TWENTY_CATEGORIES = exposure([
  share("exchange", "indirect", 0.2),
  share("dex", "indirect", 0.1),
  share("mixer", "indirect", 0.06),
  share("gambling", "direct", 0.05),
  share("sanctions", "indirect", 0.03),
  share("personal_wallet", "indirect", 0.05),
  share("bridge", "indirect", 0.05),
  share("scam", "indirect", 0.04),
  share("stolen_funds", "indirect", 0.02),
  share("darknet_market", "indirect", 0.01),
  share("lending", "indirect", 0.04),
  share("mining_pool", "indirect", 0.03),
  share("p2p_exchange", "indirect", 0.05),
  share("high_risk_exchange", "indirect", 0.04),
  share("payment_service_provider", "indirect", 0.03),
  share("nft_marketplace", "indirect", 0.02),
  share("smart_contract", "indirect", 0.03),
  share("custodial_wallet", "indirect", 0.05),
  share("fee", "indirect", 0.01),
  share("undefined", "indirect", 0.09),
]);

/** One evaluation: the model over `exposure`, then the aggregate. Returns a checksum of both. */
function evaluateOnce(exposure: ExposureResult): number {
  const risks = evaluateRisks({
    model: DEFAULT_RISK_MODEL,
    direction: "incoming",
    isAttempt: false,
    transferValue: 10_000,
    exposure,
    counterparty: null,
    sanctions: null,
  });
  return risks.length * 10 + (aggregateRisk(risks, true).riskScore ?? 0);
}

/** Evaluations per second over `exposure`, `runs` runs of `n` evaluations each. */
async function ratesOver(exposure: ExposureResult, n: number, runs: number): Promise<number[]> {
  const expected = evaluateOnce(exposure);
  if (expected < 10) throw new Error("no rule fired");
  for (let i = 0; i < n / 10; i += 1) evaluateOnce(exposure); // warm-up, not measured
  return repeat(runs, async () => {
    let checksum = 0;
    const t0 = performance.now();
    for (let i = 0; i < n; i += 1) checksum += evaluateOnce(exposure);
    const seconds = (performance.now() - t0) / 1000;
    // Every evaluation's result is used: a missing or different one fails the run.
    if (Math.abs(checksum - expected * n) > 1e-6 * expected * n) throw new Error("results differ");
    return n / seconds;
  });
}

/** Evaluations per second (one evaluation: every rule of the default model over one exposure, then aggregation). */
export async function benchRules(quick: boolean): Promise<Figure[]> {
  const n = quick ? 50_000 : 1_000_000;
  const runs = quick ? 3 : 5;
  const cases = [
    { label: "8 categories", exposure: EIGHT_CATEGORIES, target: ">= 1,000,000" },
    { label: "1 category", exposure: ONE_CATEGORY, target: undefined },
    { label: "20 categories", exposure: TWENTY_CATEGORIES, target: undefined },
  ];
  const figures: Figure[] = [];
  for (const c of cases) {
    const cpu = process.cpuUsage();
    const rates = await ratesOver(c.exposure, n, runs);
    const used = process.cpuUsage(cpu); // includes the warm-up: an upper bound
    const name = `rule matching + aggregation (default model, ${c.label})`;
    figures.push(figure(name, "evaluations/s", rates, c.target));
    const nanos = ((used.user + used.system) * 1000) / (n * runs + n / 10);
    figures.push(figure(`  CPU time per evaluation, ${c.label}`, "ns", [nanos]));
  }
  return figures;
}
