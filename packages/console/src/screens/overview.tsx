/**
 * The analyst's overview, built around the work: my open alerts and their breaches, unassigned
 * work and every SLA breach, each a count that opens the queue filtered, then my queue (severe
 * first) and the oldest breaches. The operations figures are on the Operations page.
 */
import type { Page } from "@openkyt/core/wire";
import { apiPath, queryString } from "../api/api-path.js";
import type { QueueItem, SummaryWire } from "../api/casework-types.js";
import { useApiQuery } from "../api/query-hooks.js";
import { href } from "../app/router.js";
import { useSession } from "../app/session-context.js";
import { DueBadge } from "../components/due-badge.js";
import { age, fiat, words } from "../components/format.js";
import { Empty, Failure, Loading, RiskBadge, StatusBadge } from "../components/states.js";

function QueueTable({ items, label }: { items: ReadonlyArray<QueueItem>; label: string }) {
  if (items.length === 0) return <Empty>Nothing here.</Empty>;
  return (
    <div class="table-wrap">
      <table aria-label={label}>
        <thead>
          <tr>
            <th scope="col">Risk</th>
            <th scope="col">Alert</th>
            <th scope="col">Status</th>
            <th scope="col">Value</th>
            <th scope="col">SLA</th>
            <th scope="col">Age</th>
          </tr>
        </thead>
        <tbody>
          {items.map((a) => (
            <tr key={a.id}>
              <td>
                <RiskBadge level={a.risk_level} />
              </td>
              <td>
                <a href={href(`/alerts/${a.id}`)}>
                  {words(a.risk_type)}: {words(a.entity_interaction?.entity_category)}
                </a>
              </td>
              <td>
                <StatusBadge status={a.alert_status} />
              </td>
              <td class="num">{fiat(a.transfer.value_in_fiat)}</td>
              <td>
                <DueBadge due={a.due_at} breached={a.breached} done={a.alert_status === "done"} />
              </td>
              <td>{age(a.created_at)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The overview screen. */
export function Overview() {
  const me = useSession().user.email;
  const summary = useApiQuery<SummaryWire>(apiPath`/v1/queue/summary/${queryString({ assignee: me })}`, {
    refetchMs: 30_000,
  });
  const mine = useApiQuery<Page<QueueItem>>(
    apiPath`/v1/queue/${queryString({ assignee: me, active: "true", sort: "level", page_size: 10 })}`,
  );
  const breaches = useApiQuery<Page<QueueItem>>(
    apiPath`/v1/queue/${queryString({ breached: "true", sort: "oldest", page_size: 5 })}`,
  );
  const s = summary.data;
  const cards: ReadonlyArray<{
    label: string;
    value: number | undefined;
    to: Record<string, string>;
    alarm?: boolean;
  }> = [
    { label: "My open alerts", value: s?.mine, to: { mine: "true" } },
    { label: "Mine past due", value: s?.mine_breached, to: { mine: "true", breached: "true" }, alarm: true },
    { label: "Unassigned", value: s?.unassigned, to: { unassigned: "true" } },
    { label: "SLA breaches", value: s?.breached, to: { breached: "true" }, alarm: true },
    { label: "Open in total", value: s?.active, to: {} },
  ];
  return (
    <section aria-labelledby="overview-title">
      <h1 id="overview-title">Overview</h1>
      {summary.error ? <Failure error={summary.error} what="The figures could not be read" /> : null}
      {summary.isPending ? <Loading what="the figures" /> : null}
      {s ? (
        <ul class="cards" aria-label="My work">
          {cards.map((c) => (
            <li key={c.label} class={c.alarm && (c.value ?? 0) > 0 ? "card alarm" : "card"}>
              <a href={href("/alerts", c.to)}>
                <span class="figure">{c.value ?? "–"}</span> {c.label}
              </a>
            </li>
          ))}
        </ul>
      ) : null}
      <div class="columns">
        <section aria-labelledby="mine-title">
          <h2 id="mine-title">My queue</h2>
          {mine.data ? <QueueTable items={mine.data.items} label="My queue" /> : <Loading what="my queue" />}
        </section>
        <section aria-labelledby="breaches-title">
          <h2 id="breaches-title">Oldest breaches</h2>
          {breaches.data ? (
            <QueueTable items={breaches.data.items} label="Oldest breaches" />
          ) : (
            <Loading what="the breaches" />
          )}
        </section>
      </div>
    </section>
  );
}
