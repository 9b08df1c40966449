/**
 * Manual checks: a form for an address or a transaction (the answer waits up to 10 s for the
 * result, `?wait=10`), the result with its risks and PDF report, and the account's past checks.
 */
import type { Page } from "@openkyt/core/wire";
import { useState } from "preact/hooks";
import { ApiError } from "../api/api-client.js";
import { apiPath, queryString } from "../api/api-path.js";
import { invalidate, useApiQuery, useServices } from "../api/query-hooks.js";
import type { ManualCheckWire, RiskWire } from "../api/wire-types.js";
import { href, navigate } from "../app/router.js";
import { describedBy, Field, fieldMessages } from "../components/field.js";
import { short, when, words } from "../components/format.js";
import { Pager } from "../components/pager.js";
import { Empty, Failure, Loading, RiskBadge } from "../components/states.js";
import { RiskTable } from "./alert-page.js";

type Kind = "address" | "transfer";

function CheckForm() {
  const { api, queries } = useServices();
  const [kind, setKind] = useState<Kind>("address");
  const [values, setValues] = useState<Record<string, string>>({ network: "ETH", direction: "incoming" });
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const set = (name: string) => (e: Event) =>
    setValues({ ...values, [name]: (e.currentTarget as HTMLInputElement).value });
  const errors = error instanceof ApiError ? error.errors : undefined;
  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    const body =
      kind === "address"
        ? { network: values.network, address: values.address ?? "" }
        : {
            network: values.network,
            tx_hash: values.tx_hash ?? "",
            output_address: values.output_address ?? "",
            direction: values.direction,
          };
    try {
      const check = await api.send<ManualCheckWire>(
        "POST",
        apiPath`/v1/manual-checks/check-${kind}/?wait=10`,
        body,
      );
      await invalidate(queries, apiPath`/v1/manual-checks/`);
      navigate(`/checks/${check.id}`);
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };
  const input = (name: string, label: string) => {
    const messages = fieldMessages(errors, name);
    return (
      <Field id={`mc-${name}`} label={label} messages={messages}>
        <input
          id={`mc-${name}`}
          value={values[name] ?? ""}
          onInput={set(name)}
          required
          {...describedBy(`mc-${name}`, messages)}
        />
      </Field>
    );
  };
  return (
    <form class="check-form" onSubmit={submit} aria-label="New manual check">
      <fieldset>
        <legend>Check</legend>
        <label>
          <input type="radio" name="kind" checked={kind === "address"} onChange={() => setKind("address")} />{" "}
          an address
        </label>
        <label>
          <input
            type="radio"
            name="kind"
            checked={kind === "transfer"}
            onChange={() => setKind("transfer")}
          />{" "}
          a transaction
        </label>
      </fieldset>
      {input("network", "Network")}
      {kind === "address" ? input("address", "Address") : null}
      {kind === "transfer" ? input("tx_hash", "Transaction hash") : null}
      {kind === "transfer" ? input("output_address", "Client-side address") : null}
      {kind === "transfer" ? (
        <Field id="mc-direction" label="Direction">
          <select id="mc-direction" value={values.direction} onChange={set("direction")}>
            <option value="incoming">incoming (deposit)</option>
            <option value="outgoing">outgoing (withdrawal)</option>
          </select>
        </Field>
      ) : null}
      {error ? <Failure error={error} what="The check was not made" /> : null}
      <button type="submit" class="primary" disabled={busy}>
        {busy ? "Checking…" : "Run the check"}
      </button>
    </form>
  );
}

function CheckResult({ id }: { id: string }) {
  const { api } = useServices();
  const check = useApiQuery<ManualCheckWire>(apiPath`/v1/manual-checks/${id}/`, { refetchMs: 2_000 });
  const done = check.data?.check_status === "checked";
  const risks = useApiQuery<RiskWire[]>(done ? apiPath`/v1/manual-checks/${id}/risks/` : null);
  if (check.isPending) return <Loading what="the check" />;
  if (check.error) return <Failure error={check.error} what="The check could not be read" />;
  const c = check.data;
  const subject = c.address ? `address ${c.address.address}` : `transaction ${c.transfer?.tx_hash ?? ""}`;
  return (
    <section aria-labelledby="result-title" class="result">
      <h2 id="result-title">
        Result: <RiskBadge level={c.risk_level} />
      </h2>
      <p>
        {c.address?.network ?? c.transfer?.network} {subject}: {words(c.check_status)}
        {c.checked_at ? ` at ${when(c.checked_at)}` : ""}.{" "}
        {done ? (
          <a href={api.url(apiPath`/v1/manual-checks/${c.id}/pdf-report/`)} download>
            PDF report
          </a>
        ) : null}
      </p>
      {c.check_status === "checking" ? <Loading what="the result (the check is still running)" /> : null}
      {risks.data ? <RiskTable risks={risks.data} /> : null}
    </section>
  );
}

/** The manual checks screen; `selected` is the check whose result is shown. */
export function ManualChecks({ selected }: { selected: string | null }) {
  const [page, setPage] = useState(1);
  const list = useApiQuery<Page<ManualCheckWire>>(
    apiPath`/v1/manual-checks/${queryString({ page, page_size: 10 })}`,
  );
  return (
    <section aria-labelledby="checks-title">
      <h1 id="checks-title">Manual checks</h1>
      <div class="columns">
        <CheckForm />
        {selected ? <CheckResult id={selected} /> : <p class="hint">The result of a check shows here.</p>}
      </div>
      <h2>Past checks</h2>
      {list.isPending ? <Loading what="checks" /> : null}
      {list.error ? <Failure error={list.error} /> : null}
      {list.data && list.data.items.length === 0 ? <Empty>No manual check yet.</Empty> : null}
      {list.data && list.data.items.length > 0 ? (
        <ul class="plain">
          {list.data.items.map((c) => (
            <li key={c.id}>
              <a href={href(`/checks/${c.id}`)}>
                {when(c.created_at)}{" "}
                {c.address ? `address ${short(c.address.address)}` : `tx ${short(c.transfer?.tx_hash)}`}
              </a>{" "}
              <RiskBadge level={c.risk_level} /> {words(c.check_status)}
            </li>
          ))}
        </ul>
      ) : null}
      {list.data ? (
        <Pager
          page={list.data.page}
          totalPages={list.data.total_pages}
          totalItems={list.data.total_items}
          onPage={setPage}
        />
      ) : null}
    </section>
  );
}
