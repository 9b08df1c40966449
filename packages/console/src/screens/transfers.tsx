/** Transfers: search by hash or address and the list's filters, newest first. */
import type { Page } from "@openkyt/core/wire";
import { apiPath, queryString } from "../api/api-path.js";
import { useApiQuery } from "../api/query-hooks.js";
import type { TransferWire } from "../api/wire-types.js";
import { href, navigate } from "../app/router.js";
import { fiat, short, when, words } from "../components/format.js";
import { Pager } from "../components/pager.js";
import { Empty, Failure, Loading, RiskBadge } from "../components/states.js";

const FILTERS: ReadonlyArray<{ name: string; label: string; values?: ReadonlyArray<string>; type?: string }> =
  [
    { name: "tx_hash", label: "Transaction hash" },
    { name: "input_address", label: "Sender address" },
    { name: "output_address", label: "Recipient address" },
    {
      name: "risk_level",
      label: "Risk level",
      values: ["none", "low", "medium", "high", "severe", "undefined"],
    },
    { name: "direction", label: "Direction", values: ["incoming", "outgoing"] },
    { name: "network", label: "Network" },
    { name: "token_symbol", label: "Token" },
    { name: "client_id", label: "Client ID" },
    { name: "counterparty_category", label: "Counterparty category" },
    { name: "registered_from", label: "Registered from", type: "date" },
    { name: "registered_to", label: "Registered to", type: "date" },
  ];

/** The transfer list. */
export function Transfers({ query }: { query: URLSearchParams }) {
  const filters: Record<string, string> = {};
  for (const f of FILTERS) {
    const v = query.get(f.name);
    if (v) filters[f.name] = v;
  }
  const page = Math.max(1, Number(query.get("page") ?? "1") || 1);
  const list = useApiQuery<Page<TransferWire>>(
    apiPath`/v1/transfers/${queryString({ ...filters, page, page_size: 25 })}`,
  );
  const submit = (event: Event) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget as HTMLFormElement);
    const next: Record<string, string> = {};
    for (const f of FILTERS) {
      const v = String(data.get(f.name) ?? "").trim();
      if (v) next[f.name] = v;
    }
    navigate("/transfers", next);
  };
  return (
    <section aria-labelledby="transfers-title">
      <h1 id="transfers-title">Transfers</h1>
      <form class="filters" key={JSON.stringify(filters)} onSubmit={submit} aria-label="Transfer filters">
        {FILTERS.map((f) => (
          <div class="field" key={f.name}>
            <label for={`t-${f.name}`}>{f.label}</label>
            {f.values ? (
              <select id={`t-${f.name}`} name={f.name} defaultValue={filters[f.name] ?? ""}>
                <option value="">any</option>
                {f.values.map((v) => (
                  <option key={v} value={v}>
                    {words(v)}
                  </option>
                ))}
              </select>
            ) : (
              <input
                id={`t-${f.name}`}
                name={f.name}
                type={f.type ?? "text"}
                defaultValue={filters[f.name] ?? ""}
              />
            )}
          </div>
        ))}
        <div class="actions">
          <button type="submit" class="primary">
            Search
          </button>
          <a class="button" href={href("/transfers")}>
            Clear
          </a>
        </div>
      </form>
      {list.isPending ? <Loading what="transfers" /> : null}
      {list.error ? <Failure error={list.error} what="The transfers could not be read" /> : null}
      {list.data && list.data.items.length === 0 ? <Empty>No transfer matches.</Empty> : null}
      {list.data && list.data.items.length > 0 ? (
        <div class="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">Risk</th>
                <th scope="col">Direction</th>
                <th scope="col">Transaction</th>
                <th scope="col">Value</th>
                <th scope="col">Binding</th>
                <th scope="col">Registered</th>
              </tr>
            </thead>
            <tbody>
              {list.data.items.map((t) => (
                <tr key={t.id}>
                  <td>
                    <RiskBadge level={t.risk_level} />
                  </td>
                  <td>{t.direction}</td>
                  <td class="mono">
                    <a href={href(`/transfers/${t.id}`)}>
                      {t.network} {t.tx_hash ? short(t.tx_hash) : "attempt (no hash yet)"}
                    </a>
                  </td>
                  <td class="num">{fiat(t.value_in_fiat)}</td>
                  <td>{words(t.tx_status)}</td>
                  <td>{when(t.registered_at)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {list.data ? (
        <Pager
          page={list.data.page}
          totalPages={list.data.total_pages}
          totalItems={list.data.total_items}
          onPage={(p) => navigate("/transfers", { ...filters, page: p })}
        />
      ) : null}
    </section>
  );
}
