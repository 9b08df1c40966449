/** The account's SLA policy: hours an alert of each level may stay open; admins change them. */
import { RULE_RISK_LEVELS } from "@openkyt/core/wire";
import { useState } from "preact/hooks";
import { apiPath } from "../api/api-path.js";
import type { SlaWire } from "../api/casework-types.js";
import { invalidate, useApiQuery, useServices } from "../api/query-hooks.js";
import { when, words } from "../components/format.js";
import { Failure, Loading } from "../components/states.js";

const PATH = apiPath`/v1/sla-policy/`;

/** The SLA panel. */
export function SlaSettings({ admin }: { admin: boolean }) {
  const { api, queries } = useServices();
  const policy = useApiQuery<SlaWire>(PATH);
  const [error, setError] = useState<unknown>(null);
  const [saved, setSaved] = useState(false);
  if (policy.isPending) return <Loading what="the SLA policy" />;
  if (policy.error) return <Failure error={policy.error} what="The SLA policy could not be read" />;
  const p = policy.data;
  const save = async (event: Event) => {
    event.preventDefault();
    setError(null);
    setSaved(false);
    const data = new FormData(event.currentTarget as HTMLFormElement);
    const hours = Object.fromEntries(
      RULE_RISK_LEVELS.map((level) => {
        const raw = String(data.get(level) ?? "").trim();
        return [level, raw === "" ? null : Number(raw)];
      }),
    );
    try {
      await api.send("PUT", PATH, hours);
      setSaved(true);
      await Promise.all([invalidate(queries, PATH), invalidate(queries, apiPath`/v1/queue/`)]);
    } catch (caught) {
      setError(caught);
    }
  };
  return (
    <section aria-labelledby="sla-title" class="card">
      <h2 id="sla-title">SLA: hours an alert may stay open</h2>
      <p class="hint">
        {p.updated_at
          ? `Set ${when(p.updated_at)} by ${p.updated_by ?? "an API key"}.`
          : "The defaults: never set."}
        {admin ? " Leave a level empty for no due time." : ""}
      </p>
      <form class="filters" onSubmit={save} aria-label="SLA policy">
        {[...RULE_RISK_LEVELS].reverse().map((level) => (
          <div class="field" key={level}>
            <label for={`sla-${level}`}>{words(level)} (hours)</label>
            <input
              id={`sla-${level}`}
              name={level}
              type="number"
              min="0.01"
              step="0.01"
              disabled={!admin}
              defaultValue={p.hours[level] === null ? "" : String(p.hours[level])}
            />
          </div>
        ))}
        {admin ? (
          <div class="actions">
            <button type="submit" class="primary">
              Save the SLA
            </button>
          </div>
        ) : null}
      </form>
      {saved ? (
        <p role="status" class="ok">
          Saved.
        </p>
      ) : null}
      {error ? <Failure error={error} what="Not saved" /> : null}
    </section>
  );
}
