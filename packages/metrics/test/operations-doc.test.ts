/**
 * docs/operations.md stays true to the metrics: its dashboard JSON and alert rules use only
 * metrics a process exposes, its table lists every OpenKYT metric and no other, and every alert
 * has its paragraph of what to do.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { createWarmLedger } from "@openkyt/core";
import { describe, expect, it } from "vitest";
import { createSqliteStore } from "../../store-sqlite/src/index.js";
import { createMetrics, followMetrics, warmLedgerGauges } from "../src/index.js";

const DOC = readFileSync(fileURLToPath(new URL("../../../docs/operations.md", import.meta.url)), "utf8");

/** The block of `language` that contains `marker`. */
function block(language: string, marker: string): string {
  const blocks = [...DOC.matchAll(new RegExp(`\`\`\`${language}\\n([\\s\\S]*?)\\n\`\`\``, "g"))].map(
    (m) => m[1] ?? "",
  );
  const found = blocks.find((text) => text.includes(marker));
  if (found === undefined) throw new Error(`docs/operations.md has no ${language} block with ${marker}`);
  return found;
}

/** Every sample name a process can expose: families and a histogram's series. */
async function exposedNames(): Promise<{ names: Set<string>; openkyt: Set<string> }> {
  const metrics = createMetrics();
  const store = await createSqliteStore({ filename: ":memory:" });
  warmLedgerGauges(metrics, await createWarmLedger(store));
  await store.close();
  // A follower's metrics are registered by `openkyt follow` only: the docs list them too.
  followMetrics(metrics, "ETH");
  const names = new Set<string>();
  const openkyt = new Set<string>();
  for (const metric of await metrics.registry.getMetricsAsJSON()) {
    names.add(metric.name);
    if (metric.name.startsWith("openkyt_")) openkyt.add(metric.name);
    if (String(metric.type) === "histogram")
      for (const suffix of ["_bucket", "_sum", "_count"]) names.add(metric.name + suffix);
  }
  return { names, openkyt };
}

const METRIC = /\b(?:openkyt|process|nodejs)_[a-z0-9_]+\b/g;

describe("docs/operations.md", () => {
  it("the dashboard is Grafana JSON whose queries read only exposed metrics", async () => {
    const { names } = await exposedNames();
    const dashboard = JSON.parse(block("json", '"panels"')) as {
      panels: Array<{ type: string; targets?: Array<{ expr: string }> }>;
    };
    const exprs = dashboard.panels.flatMap((p) => (p.targets ?? []).map((t) => t.expr));
    expect(exprs.length).toBeGreaterThan(20);
    const used = new Set(exprs.flatMap((e) => e.match(METRIC) ?? []));
    expect([...used].filter((name) => !names.has(name))).toEqual([]);
    for (const needed of [
      "openkyt_jobs_oldest_queued_age_seconds",
      "openkyt_transfer_register_to_checked_seconds_bucket",
    ]) {
      expect(used.has(needed), needed).toBe(true);
    }
  });

  it("every alert reads only exposed metrics and has its paragraph of what to do", async () => {
    const { names } = await exposedNames();
    const rules = block("yaml", "groups:");
    const alerts = [...rules.matchAll(/- alert: (\w+)/g)].map((m) => m[1] ?? "");
    const exprs = [...rules.matchAll(/expr: (.+)/g)].map((m) => m[1] ?? "");
    expect(alerts.length).toBe(exprs.length);
    expect(alerts.length).toBeGreaterThanOrEqual(10);
    const used = new Set(exprs.flatMap((e) => e.match(METRIC) ?? []));
    expect([...used].filter((name) => !names.has(name))).toEqual([]);
    for (const expr of exprs) {
      expect(expr.split("(").length, expr).toBe(expr.split(")").length);
    }
    for (const alert of alerts) expect(DOC, alert).toContain(`**${alert}**`);
  });

  it("the table lists every OpenKYT metric, and no other", async () => {
    const { openkyt } = await exposedNames();
    const listed = new Set([...DOC.matchAll(/^\| `(openkyt_[a-z_]+)`/gm)].map((m) => m[1]));
    expect([...listed].sort()).toEqual([...openkyt].sort());
  });
});
