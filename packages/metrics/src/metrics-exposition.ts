/** The text the /metrics endpoint answers: refreshers run first, then the registry is rendered. */
import type { OpenKytMetrics } from "./metrics-registry.js";

/** A rendered scrape. */
export interface Exposition {
  readonly contentType: string;
  readonly body: string;
}

/**
 * Renders `metrics` in the Prometheus text format (0.0.4) after running each refresher (store
 * and warm-ledger gauges); a refresher that throws fails the scrape.
 */
export async function exposition(
  metrics: OpenKytMetrics,
  refreshers: ReadonlyArray<() => void | Promise<void>> = [],
): Promise<Exposition> {
  for (const refresh of refreshers) await refresh();
  return { contentType: metrics.registry.contentType, body: await metrics.registry.metrics() };
}
