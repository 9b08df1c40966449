/**
 * The alert queue (GET /v1/queue/): every filter of the alert list plus mine, unassigned,
 * breached, a search and a sort, kept in the address so a view can be shared or saved; the
 * assignee and SLA of each alert; keyboard navigation (j/k or arrows to move, Enter to open, x to
 * select); and a change of status or assignee for the selected alerts, answered alert by alert.
 */
import { ALERT_STATUSES, type Page, PROXIMITIES, RISK_TYPES, RULE_RISK_LEVELS } from "@openkyt/core/wire";
import { useEffect, useRef, useState } from "preact/hooks";
import { apiPath, queryString } from "../api/api-path.js";
import type { BulkItemWire, QueueItem, SavedViewWire } from "../api/casework-types.js";
import { invalidate, useApiQuery, useServices } from "../api/query-hooks.js";
import { href, navigate } from "../app/router.js";
import { useSession } from "../app/session-context.js";
import { useAssignees } from "../components/assignee-picker.js";
import { DueBadge } from "../components/due-badge.js";
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
  { name: "network", label: "Network" },
  { name: "token_symbol", label: "Token" },
  { name: "client_id", label: "Client ID" },
  { name: "created_from", label: "Created from", type: "date" },
  { name: "created_to", label: "Created to", type: "date" },
  { name: "occurred_from", label: "Occurred from", type: "date" },
  { name: "occurred_to", label: "Occurred to", type: "date" },
];
/** Parameters of the queue beyond the alert list's filters. */
const TRIAGE = ["q", "sort", "mine", "unassigned", "breached", "entity_category"];
const FILTERS = [...SELECTS.map((s) => s.name), ...TEXTS.map((t) => t.name), ...TRIAGE];
const SORTS: ReadonlyArray<readonly [string, string]> = [
  ["newest", "newest first"],
  ["oldest", "oldest first"],
  ["level", "risk level"],
  ["value", "value"],
];
const QUICK: ReadonlyArray<{ label: string; query: Record<string, string> }> = [
  { label: "All", query: {} },
  { label: "Mine", query: { mine: "true" } },
  { label: "Unassigned", query: { unassigned: "true" } },
  { label: "Breached", query: { breached: "true" } },
];
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
  const categories =
    useApiQuery<Page<{ code: string; name: string }>>(apiPath`/v1/basics/entity-categories/?page_size=100`)
      .data?.items ?? [];
  const submit = (event: Event) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget as HTMLFormElement);
    const next: Record<string, string> = {};
    for (const name of FILTERS) {
      const value = String(data.get(name) ?? filters[name] ?? "").trim();
      if (value) next[name] = value;
    }
    if (next.sort === "newest") delete next.sort;
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
      <div class="field">
        <label for="f-entity_category">Entity category</label>
        <select id="f-entity_category" name="entity_category" defaultValue={filters.entity_category ?? ""}>
          <option value="">any</option>
          {categories.map((c) => (
            <option key={c.code} value={c.code}>
              {c.name}
            </option>
          ))}
        </select>
      </div>
      <div class="field">
        <label for="f-sort">Sort by</label>
        <select id="f-sort" name="sort" defaultValue={filters.sort ?? "newest"}>
          {SORTS.map(([v, label]) => (
            <option key={v} value={v}>
              {label}
            </option>
          ))}
        </select>
      </div>
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
  const users = useAssignees();
  const [status, setStatus] = useState("in_progress");
  const [assignee, setAssignee] = useState("keep");
  const [comment, setComment] = useState("");
  const [error, setError] = useState<unknown>(null);
  const [report, setReport] = useState<ReadonlyArray<BulkItemWire> | null>(null);
  const apply = async (event: Event) => {
    event.preventDefault();
    setError(null);
    setReport(null);
    try {
      const { items } = await api.send<{ items: BulkItemWire[] }>("POST", apiPath`/v1/alerts/bulk-change/`, {
        ids,
        ...(status === "keep" ? {} : { alert_status: status }),
        ...(assignee === "keep" ? {} : { assignee: assignee === "nobody" ? null : assignee }),
        ...(comment.trim() ? { comment: comment.trim() } : {}),
      });
      setReport(items);
      setComment("");
      onDone();
      await Promise.all([
        invalidate(queries, apiPath`/v1/queue/`),
        invalidate(queries, apiPath`/v1/alerts/`),
      ]);
    } catch (caught) {
      setError(caught);
    }
  };
  const changed = report?.filter((r) => r.status === 200).length ?? 0;
  const refused = report?.filter((r) => r.status !== 200) ?? [];
  return (
    <form class="bulk" onSubmit={apply} aria-label="Change the selected alerts">
      <span>{ids.length} selected</span>
      <label for="bulk-status">Move to</label>
      <select id="bulk-status" value={status} onChange={(e) => setStatus(e.currentTarget.value)}>
        <option value="keep">keep status</option>
        {ALERT_STATUSES.filter((s) => s !== "done").map((s) => (
          <option key={s} value={s}>
            {words(s)}
          </option>
        ))}
      </select>
      <label for="bulk-assignee">Assign to</label>
      <select id="bulk-assignee" value={assignee} onChange={(e) => setAssignee(e.currentTarget.value)}>
        <option value="keep">keep assignee</option>
        <option value="nobody">nobody</option>
        {users.map((u) => (
          <option key={u.id} value={u.email}>
            {u.email}
          </option>
        ))}
      </select>
      <label for="bulk-comment">Comment</label>
      <input id="bulk-comment" value={comment} onInput={(e) => setComment(e.currentTarget.value)} />
      <button type="submit" class="primary" disabled={ids.length === 0}>
        Apply to selected
      </button>
      {report ? (
        <div role="status" class={refused.length ? "bulk-report" : "ok"}>
          {changed} alert(s) changed{refused.length ? `, ${refused.length} refused:` : "."}
          {refused.length ? (
            <ul>
              {refused.map((r) => (
                <li key={r.id}>
                  <span class="mono">{short(r.id)}</span>: {r.error?.detail ?? `status ${r.status}`}
                </li>
              ))}
            </ul>
          ) : null}
        </div>
      ) : null}
      {error ? <Failure error={error} what="Nothing was changed" /> : null}
    </form>
  );
}

function SavedViews({ current }: { current: Record<string, string> }) {
  const { api, queries } = useServices();
  const path = apiPath`/v1/session/views`;
  const views = useApiQuery<SavedViewWire[]>(path);
  const [name, setName] = useState("");
  const [share, setShare] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const act = async (run: () => Promise<unknown>) => {
    setError(null);
    try {
      await run();
      await invalidate(queries, path);
    } catch (caught) {
      setError(caught);
    }
  };
  const save = (event: Event) => {
    event.preventDefault();
    const query = new URLSearchParams(current).toString();
    void act(async () => {
      await api.send("POST", path, { name: name.trim(), query, shared: share });
      setName("");
      setShare(false);
    });
  };
  const all = views.data ?? [];
  const chip = (v: SavedViewWire) => (
    <span key={v.id} class={v.shared ? "chip shared" : "chip"}>
      <a href={`#/alerts${v.query ? `?${v.query}` : ""}`}>{v.name}</a>
      {v.shared && !v.mine ? <span class="sub"> by {v.owner ?? "a colleague"}</span> : null}
      {v.mine ? (
        <button
          type="button"
          class="small"
          aria-pressed={v.shared}
          onClick={() =>
            act(() => api.send("PATCH", apiPath`/v1/session/views/${v.id}`, { shared: !v.shared }))
          }
        >
          {v.shared ? "Shared" : "Share"}
          <span class="sr-only">
            {v.shared ? `: stop sharing the view ${v.name}` : ` the view ${v.name} with the team`}
          </span>
        </button>
      ) : null}
      {v.can_delete ? (
        <button
          type="button"
          class="small"
          aria-label={`Delete the view ${v.name}`}
          onClick={() => act(() => api.send("DELETE", apiPath`/v1/session/views/${v.id}`))}
        >
          ×
        </button>
      ) : null}
    </span>
  );
  const mine = all.filter((v) => v.mine);
  const team = all.filter((v) => !v.mine);
  return (
    <div class="views">
      <nav aria-label="Saved views">
        <span>My views:</span>
        {mine.length === 0 ? <span class="sub"> none yet</span> : null}
        {mine.map(chip)}
      </nav>
      <nav aria-label="Team views">
        <span>Team views:</span>
        {team.length === 0 ? <span class="sub"> none shared</span> : null}
        {team.map(chip)}
      </nav>
      <form onSubmit={save} aria-label="Save this view">
        <label for="view-name">Save these filters as</label>
        <input
          id="view-name"
          value={name}
          required
          maxLength={80}
          onInput={(e) => setName(e.currentTarget.value)}
        />
        <label class="inline">
          <input type="checkbox" checked={share} onChange={(e) => setShare(e.currentTarget.checked)} /> Share
          with the team
        </label>
        <button type="submit">Save view</button>
      </form>
      {error ? <Failure error={error} what="Not saved" /> : null}
    </div>
  );
}

/** The queue. */
export function AlertQueue({ query }: { query: URLSearchParams }) {
  const me = useSession().user.email;
  const filters = filtersOf(query);
  const page = Math.max(1, Number(query.get("page") ?? "1") || 1);
  const { mine, ...asked } = filters;
  const apiFilters = { ...asked, ...(mine === "true" ? { assignee: me } : {}) };
  const path = apiPath`/v1/queue/${queryString({ ...apiFilters, page, page_size: PAGE_SIZE })}`;
  const alerts = useApiQuery<Page<QueueItem>>(path);
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
    if (event.target instanceof HTMLSelectElement) return;
    if (event.key === "j" || event.key === "ArrowDown") focusRow(cursor + 1);
    else if (event.key === "k" || event.key === "ArrowUp") focusRow(cursor - 1);
    else if (event.key === "Enter" && item) navigate(`/alerts/${item.id}`);
    else if (event.key === "x" && item) toggle(item.id);
    else return;
    event.preventDefault();
  };
  const search = (event: Event) => {
    event.preventDefault();
    const q = String(new FormData(event.currentTarget as HTMLFormElement).get("q") ?? "").trim();
    navigate("/alerts", { ...filters, q: q || undefined });
  };
  const quickActive = (q: Record<string, string>) =>
    ["mine", "unassigned", "breached"].every((k) => (filters[k] ?? "") === (q[k] ?? ""));
  return (
    <section aria-labelledby="queue-title">
      <h1 id="queue-title">Alerts</h1>
      <form class="search" aria-label="Search the queue" onSubmit={search} key={filters.q ?? ""}>
        <label for="queue-q">Search</label>
        <input
          id="queue-q"
          name="q"
          type="search"
          defaultValue={filters.q ?? ""}
          placeholder="address, tx hash (or a part), client id, alert id"
          minLength={3}
        />
        <button type="submit">Search</button>
      </form>
      <nav class="quick" aria-label="Queues">
        {QUICK.map((q) => {
          const { mine: _m, unassigned: _u, breached: _b, ...rest } = filters;
          return (
            <a
              key={q.label}
              class="chip"
              href={href("/alerts", { ...rest, ...q.query })}
              aria-current={quickActive(q.query) ? "page" : undefined}
            >
              {q.label}
            </a>
          );
        })}
      </nav>
      {/* Uncontrolled fields, made anew when the address changes: a refetch never undoes a choice. */}
      <FilterForm key={JSON.stringify(filters)} filters={filters} />
      <SavedViews current={filters} />
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
                <th scope="col">Assignee</th>
                <th scope="col">SLA</th>
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
                  <td>{a.assignee ?? <span class="sub">nobody</span>}</td>
                  <td>
                    <DueBadge due={a.due_at} breached={a.breached} done={a.alert_status === "done"} />
                  </td>
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
