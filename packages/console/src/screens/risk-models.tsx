/** The account's risk models: the built-in one and the account's own, copy the built-in model (admins). */
import { useState } from "preact/hooks";
import { apiPath } from "../api/api-path.js";
import { invalidate, useApiQuery, useServices } from "../api/query-hooks.js";
import type { RiskModelWire } from "../api/wire-types.js";
import { href, navigate } from "../app/router.js";
import { when } from "../components/format.js";
import { Failure, Loading } from "../components/states.js";

/** The list. */
export function RiskModels({ admin }: { admin: boolean }) {
  const { api, queries } = useServices();
  const models = useApiQuery<RiskModelWire[]>(apiPath`/v1/risk-models/`);
  const [error, setError] = useState<unknown>(null);
  const copy = async () => {
    setError(null);
    try {
      const made = await api.send<RiskModelWire>("POST", apiPath`/v1/risk-models/`, {
        name: "Copy of the built-in model",
        copy_from: "default",
      });
      await invalidate(queries, apiPath`/v1/risk-models/`);
      navigate(`/risk-models/${made.id}`);
    } catch (caught) {
      setError(caught);
    }
  };
  return (
    <section aria-labelledby="models-title">
      <h1 id="models-title">Risk models</h1>
      <p class="hint">
        A change makes a new version; checks made before keep the version that made them. The account's
        default model checks every transfer that names none.
      </p>
      {admin ? (
        <p>
          <button type="button" class="primary" onClick={copy}>
            Copy the built-in model
          </button>
        </p>
      ) : (
        <p class="hint">Only admins change risk models.</p>
      )}
      {error ? <Failure error={error} what="Not copied" /> : null}
      {models.isPending ? <Loading what="risk models" /> : null}
      {models.error ? <Failure error={models.error} /> : null}
      {models.data ? (
        <div class="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Version</th>
                <th scope="col">Rules</th>
                <th scope="col">Default</th>
                <th scope="col">Created</th>
              </tr>
            </thead>
            <tbody>
              {models.data.map((m) => (
                <tr key={m.id}>
                  <td>
                    <a href={href(`/risk-models/${m.id}`)}>{m.name}</a>
                    {m.is_builtin ? <span class="sub"> built-in, read-only</span> : null}
                  </td>
                  <td>{m.version}</td>
                  <td>{m.rules.length}</td>
                  <td>{m.is_default ? "default" : ""}</td>
                  <td>{when(m.created_at)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </section>
  );
}
