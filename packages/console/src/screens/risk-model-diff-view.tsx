/**
 * What changed in a risk model: the rules added, removed and changed (by their 1-based numbers,
 * as the editor labels them), shown before a save and for every version in the model's history
 * (GET /v1/risk-models/{id}/versions/). The diff itself is core's, the same on both sides.
 */
import { type DiffRule, describeDiffRule, diffBaseOf, type RiskModelDiff } from "@openkyt/core/wire";
import { apiPath } from "../api/api-path.js";
import { useApiQuery } from "../api/query-hooks.js";
import type { RiskModelDiffWire, RiskModelVersionWire, RuleWire } from "../api/wire-types.js";
import { when, words } from "../components/format.js";
import { Failure, Loading } from "../components/states.js";

/** A rule as the diff compares it. */
export const diffRule = (r: RuleWire): DiffRule => ({ ...r, risk_level: r.risk_level ?? "" });

const line = (r: RuleWire) => describeDiffRule(diffRule(r));

/** Core's diff in the API's shape (`previous_number`), as the version history answers it. */
export function wireDiff(d: RiskModelDiff): RiskModelDiffWire {
  return {
    added: d.added,
    removed: d.removed,
    changed: d.changed.map((c) => ({
      number: c.number,
      previous_number: c.previousNumber,
      before: c.before,
      after: c.after,
      fields: c.fields,
    })),
    unchanged: d.unchanged,
  };
}

/** The counts of a diff in words: "1 added, 0 removed, 2 changed". */
export function diffSummary(d: RiskModelDiffWire): string {
  return `${d.added.length} added, ${d.removed.length} removed, ${d.changed.length} changed`;
}

/** The rules a diff adds, removes and changes, one line each. */
export function DiffList({ diff, label }: { diff: RiskModelDiffWire; label: string }) {
  if (diff.added.length + diff.removed.length + diff.changed.length === 0)
    return <p class="hint">No rule changes.</p>;
  return (
    <ul class="diff" aria-label={label}>
      {diff.added.map((a) => (
        <li key={`a${a.number}`} class="diff-added">
          <span class="diff-tag">Added</span> rule {a.number}: {line(a.rule)}
        </li>
      ))}
      {diff.removed.map((r) => (
        <li key={`r${r.number}`} class="diff-removed">
          <span class="diff-tag">Removed</span> rule {r.number} of the previous version: {line(r.rule)}
        </li>
      ))}
      {diff.changed.map((c) => (
        <li key={`c${c.number}`} class="diff-changed">
          <span class="diff-tag">Changed</span> rule {c.number}
          {c.previous_number === c.number ? "" : ` (rule ${c.previous_number} before)`}:{" "}
          {c.fields.map((f) => words(f)).join(", ")}: {line(c.before)} → {line(c.after)}
        </li>
      ))}
    </ul>
  );
}

/** Every version of a model, newest first, with why it was written and what it changed. */
export function VersionHistory({ modelId }: { modelId: string }) {
  const versions = useApiQuery<RiskModelVersionWire[]>(apiPath`/v1/risk-models/${modelId}/versions/`);
  if (versions.isPending) return <Loading what="the version history" />;
  if (versions.error) return <Failure error={versions.error} what="The version history could not be read" />;
  return (
    <section aria-labelledby="history-title" class="card">
      <h2 id="history-title">Version history</h2>
      <ol class="versions" reversed>
        {versions.data.map((v) => (
          <li key={v.version}>
            <h3>
              Version {v.version} <span class="hint">{when(v.created_at)}</span>
              {v.approval ? (
                <span class={`badge approval-${v.approval.state}`}>{words(v.approval.state)}</span>
              ) : null}
            </h3>
            {v.approval ? (
              <p class="hint">
                Proposed by {v.approval.proposed_by ?? "an unknown author"}
                {v.approval.decided_by
                  ? `; ${v.approval.state} by ${v.approval.decided_by} ${when(v.approval.decided_at)}${v.approval.reason ? `: ${v.approval.reason}` : ""}`
                  : "; waiting for a second admin"}
                .
              </p>
            ) : null}
            <p>
              <strong>Reason:</strong> {v.change_reason ?? <span class="hint">none given</span>}
            </p>
            {v.diff === null ? (
              <p class="hint">The first version: {v.rule_count} rules.</p>
            ) : (
              <details>
                <summary>
                  Changes against version {diffBaseOf(versions.data, v.version)?.version ?? v.version - 1}:{" "}
                  {diffSummary(v.diff)}
                </summary>
                <DiffList diff={v.diff} label={`Changes in version ${v.version}`} />
              </details>
            )}
          </li>
        ))}
      </ol>
    </section>
  );
}
