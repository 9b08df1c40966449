/**
 * One alert: the transfer's facts, its risks and the rule that raised each, its exposure, the
 * workflow (only the next states the alert machine allows, assignee, comment) with the history as
 * a timeline, and the transfer's PDF report.
 */
import { ALERT_STATUS_MACHINE, allowedNext } from "@openkyt/core/wire";
import { useState } from "preact/hooks";
import { ApiError } from "../api/api-client.js";
import { apiPath } from "../api/api-path.js";
import { invalidate, useApiQuery, useServices } from "../api/query-hooks.js";
import type { AlertWire, ExposureWire, HistoryEntry, RiskWire, RuleWire } from "../api/wire-types.js";
import { href } from "../app/router.js";
import { fiat, share, when, words } from "../components/format.js";
import { Empty, Failure, Loading, RiskBadge, StatusBadge } from "../components/states.js";
import { CaseReports } from "./case-reports.js";
import { ExposureView } from "./exposure-view.js";
import { ModelVersion, SanctionsView } from "./sanctions-view.js";
import { TransferFacts } from "./transfer-facts.js";

/** A rule in words: "origin of funds, indirect, sanctions, at least 20.0% and $10.00". */
export function ruleText(rule: RuleWire): string {
  const limits = [
    rule.min_value_share === null ? null : `at least ${share(rule.min_value_share)}`,
    rule.min_value_in_fiat === null ? null : `at least ${fiat(rule.min_value_in_fiat)}`,
  ].filter((x) => x !== null);
  return `${words(rule.rule_type)}, ${rule.rule_sub_type}, ${words(rule.entity_category)}${limits.length ? `, ${limits.join(" and ")}` : ""}`;
}

/** The risks of a transfer or check, each with the rule that raised it. */
export function RiskTable({ risks }: { risks: ReadonlyArray<RiskWire> }) {
  if (risks.length === 0) return <Empty>No risk was found.</Empty>;
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard
    <section class="table-wrap" tabIndex={0} aria-label="Risks">
      <table>
        <thead>
          <tr>
            <th scope="col">Level</th>
            <th scope="col">Risk type</th>
            <th scope="col">Entity</th>
            <th scope="col">Share / value</th>
            <th scope="col">Rule that raised it</th>
          </tr>
        </thead>
        <tbody>
          {risks.map((r) => (
            <tr key={r.id}>
              <td>
                <RiskBadge level={r.risk_level} />
              </td>
              <td>{words(r.risk_type)}</td>
              <td>
                {words(r.entity_category)} ({r.proximity})
                {r.entity_name ? <div class="sub">{r.entity_name}</div> : null}
              </td>
              <td class="num">
                {share(r.value_share)} / {fiat(r.value_in_fiat)}
              </td>
              <td>{ruleText(r.rule)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

function Workflow({
  alert,
  assigned,
  onChanged,
}: {
  alert: AlertWire;
  assigned: string | null;
  onChanged: () => Promise<void>;
}) {
  const { api } = useServices();
  const next = allowedNext(ALERT_STATUS_MACHINE, alert.alert_status);
  const [status, setStatus] = useState<string>("");
  const [assignee, setAssignee] = useState("");
  const [comment, setComment] = useState("");
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const save = async (event: Event) => {
    event.preventDefault();
    const body = {
      ...(status ? { alert_status: status } : {}),
      ...(assignee.trim() ? { assignee: assignee.trim() } : {}),
      ...(comment.trim() ? { comment: comment.trim() } : {}),
    };
    if (Object.keys(body).length === 0) {
      setError(new Error("choose a new status, an assignee or write a comment"));
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await api.send("PATCH", apiPath`/v1/alerts/${alert.id}/`, body);
      setStatus("");
      setComment("");
      setAssignee("");
      await onChanged();
    } catch (caught) {
      setError(caught);
      // Refused because the alert moved meanwhile: show it as it is now, beside the refusal.
      if (caught instanceof ApiError && caught.status === 409) {
        setStatus("");
        await onChanged();
      }
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="workflow" onSubmit={save} aria-label="Work this alert">
      <div class="field">
        <label for="wf-status">New status</label>
        <select id="wf-status" value={status} onChange={(e) => setStatus(e.currentTarget.value)}>
          <option value="">keep {words(alert.alert_status)}</option>
          {next.map((s) => (
            <option key={s} value={s}>
              {words(s)}
            </option>
          ))}
        </select>
      </div>
      <div class="field">
        <label for="wf-assignee">Assignee</label>
        <input
          id="wf-assignee"
          value={assignee}
          placeholder={assigned ?? "nobody"}
          onInput={(e) => setAssignee(e.currentTarget.value)}
        />
      </div>
      <div class="field wide">
        <label for="wf-comment">Comment</label>
        <textarea
          id="wf-comment"
          rows={3}
          value={comment}
          onInput={(e) => setComment(e.currentTarget.value)}
        />
      </div>
      {error ? <Failure error={error} what="Not saved" /> : null}
      <button type="submit" class="primary" disabled={busy}>
        Save
      </button>
    </form>
  );
}

function Timeline({ entries }: { entries: ReadonlyArray<HistoryEntry> }) {
  return (
    <ol class="timeline" aria-label="History">
      {entries.map((e) => (
        <li key={e.id}>
          <time dateTime={e.at}>{when(e.at)}</time>
          <span class="actor">{e.actor ?? "OpenKYT"}</span>
          <span>
            {e.from === null
              ? `opened as ${words(e.to)}`
              : e.from === e.to
                ? "commented"
                : `${words(e.from)} → ${words(e.to)}`}
          </span>
          {e.assignee ? <span class="sub"> assigned to {e.assignee}</span> : null}
          {e.comment ? <blockquote>{e.comment}</blockquote> : null}
        </li>
      ))}
    </ol>
  );
}

/** The alert page. */
export function AlertPage({ id }: { id: string }) {
  const { api, queries } = useServices();
  const alert = useApiQuery<AlertWire>(apiPath`/v1/alerts/${id}/`);
  const transferId = alert.data?.transfer.id ?? null;
  const history = useApiQuery<HistoryEntry[]>(apiPath`/v1/alerts/${id}/history/`);
  const risks = useApiQuery<RiskWire[]>(transferId ? apiPath`/v1/transfers/${transferId}/risks/` : null);
  const exposure = useApiQuery<ExposureWire>(
    transferId ? apiPath`/v1/transfers/${transferId}/exposure/` : null,
  );
  if (alert.isPending) return <Loading what="the alert" />;
  if (alert.error) return <Failure error={alert.error} what="The alert could not be read" />;
  const a = alert.data;
  // The published ALERT has no assignee: the history's latest assignment is the current one.
  const assigned =
    a.assignee ?? [...(history.data ?? [])].reverse().find((e) => e.assignee)?.assignee ?? null;
  const changed = async () => {
    await invalidate(queries, apiPath`/v1/alerts/`);
  };
  return (
    <article aria-labelledby="alert-title">
      <p>
        <a href={href("/alerts")}>← Alerts</a>
      </p>
      <h1 id="alert-title">
        <RiskBadge level={a.risk_level} /> {words(a.risk_type)}:{" "}
        {words(a.entity_interaction?.entity_category)}
      </h1>
      <p class="summary">
        Status <StatusBadge status={a.alert_status} /> · opened {when(a.created_at)}
        {assigned ? ` · assigned to ${assigned}` : ""} ·{" "}
        <a href={api.url(apiPath`/v1/transfers/${a.transfer.id}/pdf-report/`)} download>
          PDF report
        </a>
      </p>
      <CaseReports alertId={a.id} />
      <div class="columns">
        <section aria-labelledby="facts-title">
          <h2 id="facts-title">The transfer</h2>
          <TransferFacts transfer={a.transfer} />
          <p>
            <a href={href(`/transfers/${a.transfer.id}`)}>Transfer page (check states, rechecks)</a>
          </p>
        </section>
        <section aria-labelledby="work-title">
          <h2 id="work-title">Decision</h2>
          <Workflow alert={a} assigned={assigned} onChanged={changed} />
          <h2>History</h2>
          {history.data ? (
            <Timeline entries={history.data} />
          ) : history.error ? (
            <Failure error={history.error} />
          ) : (
            <Loading what="the history" />
          )}
        </section>
      </div>
      <section aria-labelledby="risks-title">
        <h2 id="risks-title">Risks and the rules that raised them</h2>
        {a.entity_interaction ? (
          <p>
            This alert: {words(a.entity_interaction.entity_category)} ({a.entity_interaction.proximity}),{" "}
            {share(a.entity_interaction.value_share)} of the value ({fiat(a.entity_interaction.value_in_fiat)}
            ); rule: {ruleText(a.entity_interaction.rule)}.
          </p>
        ) : null}
        <ModelVersion version={exposure.data?.risk_model} />
        {risks.data ? (
          <RiskTable risks={risks.data} />
        ) : risks.error ? (
          <Failure error={risks.error} />
        ) : (
          <Loading what="the risks" />
        )}
      </section>
      <section aria-labelledby="sanctions-title">
        <h2 id="sanctions-title">Sanctions</h2>
        {exposure.data ? (
          <SanctionsView
            sanctions={exposure.data.sanctions}
            pathSanctions={exposure.data.path_sanctions ?? []}
            network={a.transfer.network}
          />
        ) : exposure.error ? null : (
          <Loading what="the sanctions check" />
        )}
      </section>
      <section aria-labelledby="exposure-title">
        <h2 id="exposure-title">Exposure</h2>
        {exposure.data ? (
          <ExposureView exposure={exposure.data} transfer={a.transfer} />
        ) : exposure.error ? (
          <Failure error={exposure.error} what="No exposure" />
        ) : (
          <Loading what="the exposure" />
        )}
      </section>
    </article>
  );
}
