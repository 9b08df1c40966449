/**
 * A transfer's case: its alerts side by side (level, type, status, assignee, SLA), one decision
 * for all of them (an outcome and a required comment; each alert walks to done through the alert
 * machine on the server), and the decisions made so far.
 */
import { useState } from "preact/hooks";
import { apiPath } from "../api/api-path.js";
import { type CaseWire, OUTCOMES } from "../api/casework-types.js";
import { invalidate, useApiQuery, useServices } from "../api/query-hooks.js";
import { href } from "../app/router.js";
import { DueBadge } from "../components/due-badge.js";
import { when, words } from "../components/format.js";
import { Empty, Failure, Loading, RiskBadge, StatusBadge } from "../components/states.js";

/** An outcome in words. */
export function outcomeWords(outcome: string): string {
  return outcome === "reported_to_fiu" ? "reported to the FIU" : words(outcome);
}

function DecisionForm({ id, onDecided }: { id: string; onDecided: () => Promise<void> }) {
  const { api } = useServices();
  const [outcome, setOutcome] = useState("");
  const [comment, setComment] = useState("");
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const decide = async (event: Event) => {
    event.preventDefault();
    setError(null);
    if (!outcome || !comment.trim()) {
      setError(new Error("a decision needs an outcome and a comment"));
      return;
    }
    setBusy(true);
    try {
      await api.send("POST", apiPath`/v1/cases/${id}/decision/`, { outcome, comment: comment.trim() });
      setOutcome("");
      setComment("");
      await onDecided();
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="workflow" onSubmit={decide} aria-label="Decide the case">
      <div class="field">
        <label for="case-outcome">Outcome</label>
        <select
          id="case-outcome"
          value={outcome}
          aria-required="true"
          onChange={(e) => setOutcome(e.currentTarget.value)}
        >
          <option value="">choose…</option>
          {OUTCOMES.map((o) => (
            <option key={o} value={o}>
              {outcomeWords(o)}
            </option>
          ))}
        </select>
      </div>
      <div class="field wide">
        <label for="case-comment">Reason (required)</label>
        <textarea
          id="case-comment"
          rows={3}
          aria-required="true"
          value={comment}
          onInput={(e) => setComment(e.currentTarget.value)}
        />
      </div>
      {error ? <Failure error={error} what="Not decided" /> : null}
      <button type="submit" class="primary" disabled={busy}>
        Close the case's open alerts
      </button>
    </form>
  );
}

/** The case of transfer `id`. */
export function CasePanel({ id }: { id: string }) {
  const { queries } = useServices();
  const found = useApiQuery<CaseWire>(apiPath`/v1/cases/${id}/`);
  if (found.isPending) return <Loading what="the case" />;
  if (found.error) return <Failure error={found.error} what="The case could not be read" />;
  const c = found.data;
  const decided = async () => {
    await Promise.all([
      invalidate(queries, apiPath`/v1/cases/`),
      invalidate(queries, apiPath`/v1/queue/`),
      invalidate(queries, apiPath`/v1/alerts/`),
    ]);
  };
  return (
    <div class="case">
      <p class="summary">
        {c.alerts.length} alert(s) · case {c.status}
        {c.outcome ? ` · last decision: ${outcomeWords(c.outcome)}` : ""}
      </p>
      {c.alerts.length === 0 ? <Empty>No alert was raised for this transfer.</Empty> : null}
      {c.alerts.length > 0 ? (
        <div class="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">Risk</th>
                <th scope="col">Alert</th>
                <th scope="col">Status</th>
                <th scope="col">Assignee</th>
                <th scope="col">SLA</th>
              </tr>
            </thead>
            <tbody>
              {c.alerts.map((a) => (
                <tr key={a.id}>
                  <td>
                    <RiskBadge level={a.risk_level} />
                  </td>
                  <td>
                    <a href={href(`/alerts/${a.id}`)}>
                      {words(a.risk_type)}: {words(a.entity_interaction?.entity_category)} (
                      {a.entity_interaction?.proximity ?? "–"})
                    </a>
                  </td>
                  <td>
                    <StatusBadge status={a.alert_status} />
                  </td>
                  <td>{a.assignee ?? "nobody"}</td>
                  <td>
                    <DueBadge due={a.due_at} breached={a.breached} done={a.alert_status === "done"} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {c.status === "open" ? <DecisionForm id={c.id} onDecided={decided} /> : null}
      {c.decisions.length > 0 ? (
        <ol class="timeline" aria-label="Decisions">
          {c.decisions.map((d) => (
            <li key={d.id}>
              <time dateTime={d.decided_at}>{when(d.decided_at)}</time>
              <span class="actor">{d.actor ?? "OpenKYT"}</span>
              <span>
                {outcomeWords(d.outcome)} ({d.alert_ids.length} alert(s))
              </span>
              <blockquote>{d.comment}</blockquote>
            </li>
          ))}
        </ol>
      ) : null}
    </div>
  );
}
