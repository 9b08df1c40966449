/**
 * Runs one benchmark in this process and prints its figures as JSON on the last line, so the
 * orchestrator gets each figure (memory above all) from a fresh process.
 *
 *   node --conditions=source --import tsx bench/src/bench-one.ts <name> <ledgerSize> [--quick]
 */
import { benchBacktest } from "./bench-backtest.js";
import { benchBitcoinTrace } from "./bench-bitcoin-trace.js";
import { benchBitcoinWarm } from "./bench-bitcoin-warm.js";
import { benchMemory } from "./bench-memory.js";
import { benchPostgres } from "./bench-postgres.js";
import { benchPostgresThreads } from "./bench-postgres-threads.js";
import { benchRules } from "./bench-rules.js";
import { benchLatency, benchScreening } from "./bench-screening.js";
import { benchScreeningThreads } from "./bench-screening-threads.js";
import type { Figure } from "./bench-stats.js";
import { benchTracing } from "./bench-tracing.js";
import { benchColdTrace } from "./cold/bench-cold-trace.js";
import { benchRecall } from "./recall/bench-recall.js";

const BENCHES: Record<string, (ledgerSize: number, quick: boolean) => Promise<Figure[]>> = {
  rules: (_size, quick) => benchRules(quick),
  tracing: benchTracing,
  screening: benchScreening,
  "screening-threads": benchScreeningThreads,
  latency: benchLatency,
  memory: benchMemory,
  postgres: benchPostgres,
  "postgres-threads": benchPostgresThreads,
  recall: () => benchRecall(),
  backtest: benchBacktest,
  "bitcoin-trace": benchBitcoinTrace,
  "cold-trace": benchColdTrace,
  "bitcoin-warm": benchBitcoinWarm,
};

const [name = "", size = "100000"] = process.argv.slice(2);
const bench = BENCHES[name];
if (!bench) {
  console.error(`unknown benchmark ${name}; known: ${Object.keys(BENCHES).join(", ")}`);
  process.exit(2);
}
const figures = await bench(Number(size), process.argv.includes("--quick"));
console.log(JSON.stringify(figures));
