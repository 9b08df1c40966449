/**
 * The account's audit log (admins): who did what and when, newest first, filtered by action,
 * actor, subject and dates (kept in the address), with a CSV export of what the filters keep.
 */
import type { Page } from "@openkyt/core/wire";
import { AUDIT_ACTIONS } from "@openkyt/core/wire";
import { apiPath, queryString } from "../api/api-path.js";
import type { AuditWire } from "../api/casework-types.js";
import { useApiQuery, useServices } from "../api/query-hooks.js";
import { href, navigate } from "../app/router.js";
import { when, words } from "../components/format.js";
import { Pager } from "../components/pager.js";
import { Empty, Failure, Loading } from "../components/states.js";

const FILTERS = ["action", "actor", "subject", "from", "to"] as const;

/** The audit log screen. */
export function AuditLog({ query }: { query: URLSearchParams }) {
  const { api } = useServices();
  const filters: Record<string, string> = {};
  for (const name of FILTERS) {
    const value = query.get(name);
    if (value) filters[name] = value;
  }
  const page = Math.max(1, Number(query.get("page") ?? "1") || 1);
  const log = useApiQuery<Page<AuditWire>>(
    apiPath`/v1/session/audit${queryString({ ...filters, page, page_size: 50 })}`,
  );
  const submit = (event: Event) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget as HTMLFormElement);
    const next: Record<string, string> = {};
    for (const name of FILTERS) {
      const value = String(data.get(name) ?? "").trim();
      if (value) next[name] = value;
    }
    navigate("/audit", next);
  };
  return (
    <section aria-labelledby="audit-title">
      <h1 id="audit-title">Audit log</h1>
      <p class="hint">
        Every sign-in, decision, alert change, model, key, webhook, user and SLA change. Entries are never
        changed.
      </p>
      <form class="filters" onSubmit={submit} aria-label="Audit filters" key={JSON.stringify(filters)}>
        <div class="field">
          <label for="a-action">Action</label>
          <select id="a-action" name="action" defaultValue={filters.action ?? ""}>
            <option value="">any</option>
            {AUDIT_ACTIONS.map((a) => (
              <option key={a} value={a}>
                {words(a.replace(".", " "))}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="a-actor">Actor</label>
          <input
            id="a-actor"
            name="actor"
            defaultValue={filters.actor ?? ""}
            placeholder="user:name@example.com"
          />
        </div>
        <div class="field">
          <label for="a-subject">Subject id</label>
          <input id="a-subject" name="subject" defaultValue={filters.subject ?? ""} />
        </div>
        <div class="field">
          <label for="a-from">From</label>
          <input id="a-from" name="from" type="date" defaultValue={filters.from ?? ""} />
        </div>
        <div class="field">
          <label for="a-to">To</label>
          <input id="a-to" name="to" type="date" defaultValue={filters.to ?? ""} />
        </div>
        <div class="actions">
          <button type="submit" class="primary">
            Search
          </button>
          <a class="button" href={href("/audit")}>
            Clear
          </a>
          <a class="button" href={api.url(apiPath`/v1/session/audit.csv${queryString(filters)}`)} download>
            Export CSV
          </a>
        </div>
      </form>
      {log.isPending ? <Loading what="the audit log" /> : null}
      {log.error ? <Failure error={log.error} what="The audit log could not be read" /> : null}
      {log.data && log.data.items.length === 0 ? <Empty>No entry matches.</Empty> : null}
      {log.data && log.data.items.length > 0 ? (
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard
        <section class="table-wrap" tabIndex={0} aria-label="Audit entries">
          <table>
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Who</th>
                <th scope="col">Action</th>
                <th scope="col">Subject</th>
                <th scope="col">Details</th>
              </tr>
            </thead>
            <tbody>
              {log.data.items.map((e) => (
                <tr key={e.id}>
                  <td>{when(e.at)}</td>
                  <td>{e.actor ?? "–"}</td>
                  <td>{e.action}</td>
                  <td class="mono">{e.subject ?? "–"}</td>
                  <td class="details">{Object.keys(e.details).length ? JSON.stringify(e.details) : ""}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      ) : null}
      {log.data ? (
        <Pager
          page={log.data.page}
          totalPages={log.data.total_pages}
          totalItems={log.data.total_items}
          onPage={(p) => navigate("/audit", { ...filters, page: p })}
        />
      ) : null}
    </section>
  );
}
