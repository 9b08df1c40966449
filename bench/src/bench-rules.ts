/** Rule matching and aggregation: evaluations of the default model per second. */
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

/** A realistic exposure: eight categories, two of them risky. */
const EXPOSURE: ExposureResult = {
  direct: null,
  shares: [
    share("exchange", "indirect", 0.4),
    share("dex", "indirect", 0.2),
    share("mixer", "indirect", 0.05),
    share("gambling", "indirect", 0.05),
    share("sanctions", "indirect", 0.02),
    share("personal_wallet", "indirect", 0.08),
    share("bridge", "indirect", 0.05),
    share("undefined", "indirect", 0.15),
  ],
  truncated: false,
  edgesRead: 120,
  hops: 5,
};

/** Evaluations per second (one evaluation: every rule of the default model over one exposure, then aggregation). */
export async function benchRules(quick: boolean): Promise<Figure[]> {
  const n = quick ? 20_000 : 200_000;
  const rates = await repeat(quick ? 3 : 5, async () => {
    let fired = 0;
    const t0 = performance.now();
    for (let i = 0; i < n; i += 1) {
      const risks = evaluateRisks({
        model: DEFAULT_RISK_MODEL,
        direction: "incoming",
        isAttempt: false,
        transferValue: 10_000,
        exposure: EXPOSURE,
        counterparty: null,
        sanctions: null,
      });
      fired += aggregateRisk(risks, true).riskScore ?? 0;
    }
    const seconds = (performance.now() - t0) / 1000;
    if (fired === 0) throw new Error("no rule fired");
    return n / seconds;
  });
  return [
    figure(
      "rule matching + aggregation (default model, 8 categories)",
      "evaluations/s",
      rates,
      ">= 1,000,000",
    ),
  ];
}
