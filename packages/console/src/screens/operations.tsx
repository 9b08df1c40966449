/**
 * Operations: open alerts by risk level and by age, the slowest checks of the last transfers,
 * transfers registered per day over the last week (each bar one count from the list endpoints,
 * `page_size=1`, the total), and the account's SLA policy (admins change it).
 */
import { type Page, RULE_RISK_LEVELS } from "@openkyt/core/wire";
import { type ApiPath, apiPath, queryString, withQuery } from "../api/api-path.js";
import { useApiQuery } from "../api/query-hooks.js";
import type { TransferWire } from "../api/wire-types.js";
import { href } from "../app/router.js";
import { BarChart } from "../components/bar-chart.js";
import { Failure, Loading } from "../components/states.js";
import { SlaSettings } from "./sla-settings.js";

const DAY = 86_400_000;

function useTotal(path: ApiPath, filters: Record<string, string>) {
  const answer = useApiQuery<Page<unknown>>(withQuery(path, queryString({ ...filters, page_size: 1 })), {
    refetchMs: 30_000,
  });
  return { total: answer.data?.total_items ?? null, error: answer.error };
}

const iso = (ms: number) => new Date(ms).toISOString();

const CHECKS = ["exposure", "counterparty", "sanctions"] as const;

/** The slowest checks among `transfers`: from registration to each check's result, slowest first. */
function slowestChecks(transfers: ReadonlyArray<TransferWire>, count: number) {
  const found: Array<{ label: string; ms: number; id: string }> = [];
  for (const t of transfers) {
    for (const check of CHECKS) {
      const at = t.check_state?.[`${check}_checked_at`];
      if (!at) continue;
      const ms = new Date(at).getTime() - new Date(t.registered_at).getTime();
      if (Number.isFinite(ms) && ms >= 0)
        found.push({ label: `${check} …${(t.tx_hash ?? t.id).slice(-6)}`, ms, id: t.id });
    }
  }
  return found.sort((a, b) => b.ms - a.ms).slice(0, count);
}

/** "850 ms", "12.5 s", "3.2 min". */
function duration(ms: number): string {
  if (ms < 1_000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1_000).toFixed(1)} s`;
  return `${(ms / 60_000).toFixed(1)} min`;
}

/** The operations screen. */
export function Operations({ admin }: { admin: boolean }) {
  // Whole minutes: the bounds (and so the queries' keys) stay the same from one render to the next.
  const now = Math.floor(Date.now() / 60_000) * 60_000;
  const today = Math.floor(now / DAY) * DAY;
  const byLevel = RULE_RISK_LEVELS.map((level) => ({
    level,
    ...useTotal(apiPath`/v1/alerts/`, { alert_status: "open", risk_level: level }),
  }));
  const ages: ReadonlyArray<{ label: string; filters: Record<string, string> }> = [
    { label: "under a day", filters: { created_from: iso(now - DAY) } },
    { label: "1 to 7 days", filters: { created_from: iso(now - 7 * DAY), created_to: iso(now - DAY) } },
    { label: "over 7 days", filters: { created_to: iso(now - 7 * DAY) } },
  ];
  const byAge = ages.map((a) => ({
    label: a.label,
    ...useTotal(apiPath`/v1/alerts/`, { alert_status: "open", ...a.filters }),
  }));
  const days = [6, 5, 4, 3, 2, 1, 0].map((back) => {
    const day = new Date(today - back * DAY).toISOString().slice(0, 10);
    return { day, ...useTotal(apiPath`/v1/transfers/`, { registered_from: day, registered_to: day }) };
  });
  const recent = useApiQuery<Page<TransferWire>>(apiPath`/v1/transfers/?page_size=100`, {
    refetchMs: 30_000,
  });
  const slowest = slowestChecks(recent.data?.items ?? [], 6);
  const failed = [...byLevel, ...byAge, ...days].find((x) => x.error)?.error ?? recent.error;
  const loading = [...byLevel, ...byAge, ...days].some((x) => x.total === null);
  return (
    <section aria-labelledby="operations-title">
      <h1 id="operations-title">Operations</h1>
      <SlaSettings admin={admin} />
      {failed ? <Failure error={failed} what="The figures could not be read" /> : null}
      {loading && !failed ? <Loading what="the figures" /> : null}
      {!loading ? (
        <div class="charts">
          <div>
            <BarChart
              title="Open alerts by risk level"
              bars={[...byLevel].reverse().map((b) => ({
                label: b.level,
                parts: [{ label: b.level, value: b.total ?? 0, tone: `tone-${b.level}` }],
              }))}
            />
            <p>
              {[...byLevel].reverse().map((b) => (
                <a
                  key={b.level}
                  class="chip"
                  href={href("/alerts", { alert_status: "open", risk_level: b.level })}
                >
                  {b.total} open {b.level}
                </a>
              ))}
            </p>
          </div>
          <BarChart
            title="Open alerts by age"
            bars={byAge.map((a) => ({
              label: a.label,
              parts: [{ label: a.label, value: a.total ?? 0, tone: "tone-indirect" }],
            }))}
          />
          {slowest.length > 0 ? (
            <div>
              <BarChart
                title="Slowest checks of the last 100 transfers (registration to result)"
                bars={slowest.map((c) => ({
                  label: c.label,
                  caption: duration(c.ms),
                  parts: [{ label: c.label, value: c.ms, tone: "tone-high" }],
                }))}
              />
            </div>
          ) : null}
          <BarChart
            title="Transfers registered per day (UTC), last 7 days"
            bars={days.map((d) => ({
              label: d.day,
              parts: [{ label: d.day, value: d.total ?? 0, tone: "tone-direct" }],
            }))}
          />
        </div>
      ) : null}
    </section>
  );
}
