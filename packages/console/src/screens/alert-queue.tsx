/**
 * The alert queue: every filter of GET /v1/alerts/ (kept in the address, so a view can be shared),
 * pages of the server's order (newest first), keyboard navigation (j/k or arrows to move, Enter to
 * open, x to select) and a status change with a comment for the selected alerts, all or none.
 */
import { ALERT_STATUSES, type Page, PROXIMITIES, RISK_TYPES, RULE_RISK_LEVELS } from "@openkyt/core/wire";
import { useEffect, useRef, useState } from "preact/hooks";
import { apiPath, queryString } from "../api/api-path.js";
import { invalidate, useApiQuery, useServices } from "../api/query-hooks.js";
import type { AlertWire } from "../api/wire-types.js";
import { href, navigate } from "../app/router.js";
import { age, fiat, short, words } from "../components/format.js";
import { Pager } from "../components/pager.js";
import { Empty, Failure, Loading, RiskBadge, StatusBadge } from "../components/states.js";

const SELECTS: ReadonlyArray<{ name: string; label: string; values: ReadonlyArray<string> }> = [
  { name: "risk_level", label: "Risk level", values: RULE_RISK_LEVELS },
  { name: "alert_status", label: "Status", values: ALERT_STATUSES },
  { name: "risk_type", label: "Risk type", values: RISK_TYPES },
  { name: "proximity", label: "Proximity", values: PROXIMITIES },
];
const TEXTS: ReadonlyArray<{ name: string; label: string; type?: string }> = [
  { name: "entity_category", label: "Entity category" },
  { name: "network", label: "Network" },
  { name: "token_symbol", label: "Token" },
  { name: "client_id", label: "Client ID" },
  { name: "created_from", label: "Created from", type: "date" },
  { name: "created_to", label: "Created to", type: "date" },
  { name: "occurred_from", label: "Occurred from", type: "date" },
  { name: "occurred_to", label: "Occurred to", type: "date" },
];
const FILTERS = [...SELECTS.map((s) => s.name), ...TEXTS.map((t) => t.name)];
const PAGE_SIZE = 25;

/** The filters of the address as the API's query. */
function filtersOf(query: URLSearchParams): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of FILTERS) {
    const value = query.get(name);
    if (value) out[name] = value;
  }
  return out;
}

function FilterForm({ filters }: { filters: Record<string, string> }) {
  const submit = (event: Event) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget as HTMLFormElement);
    const next: Record<string, string> = {};
    for (const name of FILTERS) {
      const value = String(data.get(name) ?? "").trim();
      if (value) next[name] = value;
    }
    navigate("/alerts", next);
  };
  return (
    <form class="filters" onSubmit={submit} aria-label="Alert filters">
      {SELECTS.map((s) => (
        <div class="field" key={s.name}>
          <label for={`f-${s.name}`}>{s.label}</label>
          <select id={`f-${s.name}`} name={s.name} defaultValue={filters[s.name] ?? ""}>
            <option value="">any</option>
            {s.values.map((v) => (
              <option key={v} value={v}>
                {words(v)}
              </option>
            ))}
          </select>
        </div>
      ))}
      {TEXTS.map((t) => (
        <div class="field" key={t.name}>
          <label for={`f-${t.name}`}>{t.label}</label>
          <input
            id={`f-${t.name}`}
            name={t.name}
            type={t.type ?? "text"}
            defaultValue={filters[t.name] ?? ""}
          />
        </div>
      ))}
      <div class="actions">
        <button type="submit" class="primary">
          Filter
        </button>
        <a class="button" href={href("/alerts")}>
          Clear
        </a>
      </div>
    </form>
  );
}

function BulkChange({ ids, onDone }: { ids: ReadonlyArray<string>; onDone: () => void }) {
  const { api, queries } = useServices();
  const [status, setStatus] = useState("in_progress");
  const [comment, setComment] = useState("");
  const [error, setError] = useState<unknown>(null);
  const [done, setDone] = useState<string | null>(null);
  const apply = async (event: Event) => {
    event.preventDefault();
    setError(null);
    try {
      const changed = await api.send<unknown[]>("POST", apiPath`/v1/alerts/bulk-update/`, {
        ids,
        alert_status: status,
        ...(comment.trim() ? { comment: comment.trim() } : {}),
      });
      setDone(`${changed.length} alert(s) moved to ${words(status)}`);
      setComment("");
      onDone();
      await invalidate(queries, apiPath`/v1/alerts/`);
    } catch (caught) {
      setError(caught);
    }
  };
  return (
    <form class="bulk" onSubmit={apply} aria-label="Change the selected alerts">
      <span>{ids.length} selected</span>
      <label for="bulk-status">Move to</label>
      <select id="bulk-status" value={status} onChange={(e) => setStatus(e.currentTarget.value)}>
        {ALERT_STATUSES.map((s) => (
          <option key={s} value={s}>
            {words(s)}
          </option>
        ))}
      </select>
      <label for="bulk-comment">Comment</label>
      <input id="bulk-comment" value={comment} onInput={(e) => setComment(e.currentTarget.value)} />
      <button type="submit" class="primary" disabled={ids.length === 0}>
        Apply to selected
      </button>
      {done ? (
        <span role="status" class="ok">
          {done}
        </span>
      ) : null}
      {error ? <Failure error={error} what="Nothing was changed" /> : null}
    </form>
  );
}

/** The queue. */
export function AlertQueue({ query }: { query: URLSearchParams }) {
  const filters = filtersOf(query);
  const page = Math.max(1, Number(query.get("page") ?? "1") || 1);
  const path = apiPath`/v1/alerts/${queryString({ ...filters, page, page_size: PAGE_SIZE })}`;
  const alerts = useApiQuery<Page<AlertWire>>(path);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [cursor, setCursor] = useState(0);
  const rows = useRef<HTMLTableSectionElement>(null);
  const items = alerts.data?.items ?? [];
  useEffect(() => setCursor(0), [path]);
  const toggle = (id: string) => {
    const next = new Set(selected);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    setSelected(next);
  };
  const focusRow = (i: number) => {
    const clamped = Math.max(0, Math.min(items.length - 1, i));
    setCursor(clamped);
    rows.current?.querySelectorAll<HTMLTableRowElement>("tr")[clamped]?.focus();
  };
  const onKey = (event: KeyboardEvent) => {
    const item = items[cursor];
    if (event.target instanceof HTMLInputElement && event.key !== "ArrowDown" && event.key !== "ArrowUp")
      return;
    if (event.key === "j" || event.key === "ArrowDown") focusRow(cursor + 1);
    else if (event.key === "k" || event.key === "ArrowUp") focusRow(cursor - 1);
    else if (event.key === "Enter" && item) navigate(`/alerts/${item.id}`);
    else if (event.key === "x" && item) toggle(item.id);
    else return;
    event.preventDefault();
  };
  return (
    <section aria-labelledby="queue-title">
      <h1 id="queue-title">Alerts</h1>
      {/* Uncontrolled fields, made anew when the address changes: a refetch never undoes a choice. */}
      <FilterForm key={JSON.stringify(filters)} filters={filters} />
      <BulkChange ids={[...selected]} onDone={() => setSelected(new Set())} />
      <p class="hint">Keys: j/k or arrows move, Enter opens, x selects.</p>
      {alerts.isPending ? <Loading what="alerts" /> : null}
      {alerts.error ? <Failure error={alerts.error} what="The alerts could not be read" /> : null}
      {alerts.data && items.length === 0 ? <Empty>No alert matches these filters.</Empty> : null}
      {items.length > 0 ? (
        <div class="table-wrap">
          <table class="queue">
            <thead>
              <tr>
                <th scope="col">
                  <span class="sr-only">Selected</span>
                </th>
                <th scope="col">Risk</th>
                <th scope="col">Status</th>
                <th scope="col">Risk type</th>
                <th scope="col">Entity</th>
                <th scope="col">Value</th>
                <th scope="col">Transfer</th>
                <th scope="col">Age</th>
              </tr>
            </thead>
            <tbody ref={rows} onKeyDown={onKey}>
              {items.map((a, i) => (
                <tr
                  key={a.id}
                  tabIndex={i === cursor ? 0 : -1}
                  class={selected.has(a.id) ? "selected" : undefined}
                  onFocus={() => setCursor(i)}
                >
                  <td>
                    <input
                      type="checkbox"
                      aria-label={`Select alert ${a.id}`}
                      checked={selected.has(a.id)}
                      onChange={() => toggle(a.id)}
                    />
                  </td>
                  <td>
                    <RiskBadge level={a.risk_level} />
                  </td>
                  <td>
                    <StatusBadge status={a.alert_status} />
                  </td>
                  <td>
                    <a href={href(`/alerts/${a.id}`)}>{words(a.risk_type)}</a>
                  </td>
                  <td>
                    {words(a.entity_interaction?.entity_category)} ({a.entity_interaction?.proximity ?? "–"})
                  </td>
                  <td class="num">{fiat(a.transfer.value_in_fiat)}</td>
                  <td class="mono">
                    {a.transfer.network} {short(a.transfer.tx_hash)}
                  </td>
                  <td>{age(a.created_at)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {alerts.data ? (
        <Pager
          page={alerts.data.page}
          totalPages={alerts.data.total_pages}
          totalItems={alerts.data.total_items}
          onPage={(p) => navigate("/alerts", { ...filters, page: p })}
        />
      ) : null}
    </section>
  );
}
