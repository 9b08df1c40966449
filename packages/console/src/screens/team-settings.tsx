/**
 * The account's team settings (admins change them, everyone reads them): whether a second
 * admin must approve risk model versions, and the account's own block explorers, per network
 * an address and a transaction URL template (https, with `{address}` and `{tx}`) that every
 * explorer link of the console then uses. Both changes are audited by the server.
 */
import { useState } from "preact/hooks";
import { ApiError } from "../api/api-client.js";
import { apiPath } from "../api/api-path.js";
import type { ApprovalSettingWire, ExplorerSettingsWire } from "../api/casework-types.js";
import { invalidate, useApiQuery, useServices } from "../api/query-hooks.js";
import { useReportSettings } from "../components/chain-refs.js";
import { when } from "../components/format.js";
import { Failure, Loading } from "../components/states.js";

const APPROVAL = apiPath`/v1/model-approval/`;
const EXPLORERS = apiPath`/v1/explorer-settings/`;

/** The approval switch. */
function ApprovalSetting({ admin }: { admin: boolean }) {
  const { api, queries } = useServices();
  const setting = useApiQuery<ApprovalSettingWire>(APPROVAL);
  const [error, setError] = useState<unknown>(null);
  const [saved, setSaved] = useState(false);
  if (setting.isPending) return <Loading what="the approval setting" />;
  if (setting.error) return <Failure error={setting.error} what="The approval setting could not be read" />;
  const s = setting.data;
  const toggle = async (required: boolean) => {
    setError(null);
    setSaved(false);
    try {
      await api.send("PUT", APPROVAL, { required });
      setSaved(true);
      await invalidate(queries, APPROVAL);
    } catch (caught) {
      setError(caught);
    }
  };
  return (
    <section aria-labelledby="approval-title" class="card">
      <h2 id="approval-title">Risk model approval</h2>
      <p>
        {s.required
          ? "On: every new risk model version waits for a second admin's approval before it checks transfers. Its author cannot approve it."
          : "Off: a new risk model version checks transfers as soon as it is saved."}
      </p>
      <p class="hint">
        {s.updated_at
          ? `Set ${when(s.updated_at)} by ${s.updated_by ?? "an API key"}.`
          : "Never set (off by default)."}
      </p>
      {admin ? (
        <div class="actions">
          <button type="button" class={s.required ? "" : "primary"} onClick={() => toggle(!s.required)}>
            {s.required ? "Stop requiring approval" : "Require a second admin's approval"}
          </button>
        </div>
      ) : null}
      {saved ? (
        <p role="status" class="ok">
          Saved.
        </p>
      ) : null}
      {error ? <Failure error={error} what="Not saved" /> : null}
    </section>
  );
}

/** The explorer templates, a row per network. */
function ExplorerSettings({ admin }: { admin: boolean }) {
  const { api, queries } = useServices();
  const own = useApiQuery<ExplorerSettingsWire>(EXPLORERS);
  const inForce = useReportSettings();
  const [error, setError] = useState<unknown>(null);
  const [saved, setSaved] = useState(false);
  if (own.isPending) return <Loading what="the explorers" />;
  if (own.error) return <Failure error={own.error} what="The explorers could not be read" />;
  const mine = own.data.explorers;
  const networks = [...new Set([...Object.keys(inForce?.explorers ?? {}), ...Object.keys(mine)])].sort();
  const fieldErrors = error instanceof ApiError ? error.errors : {};
  const save = async (event: Event) => {
    event.preventDefault();
    setError(null);
    setSaved(false);
    const data = new FormData(event.currentTarget as HTMLFormElement);
    const explorers: Record<string, { address: string; tx: string }> = {};
    for (const network of networks) {
      const address = String(data.get(`${network}-address`) ?? "").trim();
      const tx = String(data.get(`${network}-tx`) ?? "").trim();
      if (address !== "" || tx !== "") explorers[network] = { address, tx };
    }
    try {
      await api.send("PUT", EXPLORERS, { explorers });
      setSaved(true);
      await Promise.all([
        invalidate(queries, EXPLORERS),
        invalidate(queries, apiPath`/v1/basics/report-settings/`),
      ]);
    } catch (caught) {
      setError(caught);
      const first = caught instanceof ApiError ? Object.keys(caught.errors)[0] : undefined;
      if (first)
        document.getElementById(`explorer-${first.replace(/^explorers\./, "").replace(".", "-")}`)?.focus();
    }
  };
  const input = (network: string, kind: "address" | "tx") => {
    const key = `explorers.${network}.${kind}`;
    const problems = fieldErrors[key] ?? fieldErrors[`explorers.${network}`];
    const id = `explorer-${network}-${kind}`;
    return (
      <td>
        <label class="sr-only" for={id}>
          {network} {kind === "address" ? "address" : "transaction"} URL template
        </label>
        <input
          id={id}
          name={`${network}-${kind}`}
          type="url"
          disabled={!admin}
          defaultValue={mine[network]?.[kind] ?? ""}
          placeholder={inForce?.explorers[network]?.[kind] ?? ""}
          aria-invalid={problems ? "true" : undefined}
          aria-describedby={problems ? `${id}-error` : undefined}
        />
        {problems ? (
          <span id={`${id}-error`} class="field-error">
            {problems.join("; ")}
          </span>
        ) : null}
      </td>
    );
  };
  return (
    <section aria-labelledby="explorers-title" class="card">
      <h2 id="explorers-title">Block explorers</h2>
      <p class="hint">
        The account's own explorer for a network replaces the server's in every address and transaction link.
        Leave a row empty for the server's (shown greyed). Templates are https URLs with {"{address}"} and{" "}
        {"{tx}"}.{" "}
        {own.data.updated_at
          ? `Set ${when(own.data.updated_at)} by ${own.data.updated_by ?? "an API key"}.`
          : "Never set."}
      </p>
      <form onSubmit={save} aria-label="Block explorers" noValidate>
        {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region needs keyboard access */}
        <section class="table-wrap" aria-label="Explorer templates" tabIndex={0}>
          <table class="explorers">
            <thead>
              <tr>
                <th scope="col">Network</th>
                <th scope="col">Address URL ({"{address}"})</th>
                <th scope="col">Transaction URL ({"{tx}"})</th>
              </tr>
            </thead>
            <tbody>
              {networks.map((network) => (
                <tr key={network}>
                  <th scope="row">{network}</th>
                  {input(network, "address")}
                  {input(network, "tx")}
                </tr>
              ))}
            </tbody>
          </table>
        </section>
        {admin ? (
          <div class="actions">
            <button type="submit" class="primary">
              Save the explorers
            </button>
          </div>
        ) : null}
      </form>
      {saved ? (
        <p role="status" class="ok">
          Saved: links use them now.
        </p>
      ) : null}
      {error ? <Failure error={error} what="Not saved" /> : null}
    </section>
  );
}

/** The team settings page. */
export function TeamSettings({ admin }: { admin: boolean }) {
  return (
    <article aria-labelledby="team-title">
      <h1 id="team-title">Team settings</h1>
      <ApprovalSetting admin={admin} />
      <ExplorerSettings admin={admin} />
    </article>
  );
}
