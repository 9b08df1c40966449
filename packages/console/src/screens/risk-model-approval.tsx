/**
 * A risk model version waiting for a second admin's approval (or rejected): who proposed it,
 * why, what it changes against the version in force, and, for an admin other than its author,
 * Approve; for any admin, Reject with a reason (its author's rejection is a withdrawal). The
 * server decides who may (core's `decideApproval`); the buttons only follow it.
 */
import { useState } from "preact/hooks";
import { apiPath } from "../api/api-path.js";
import { invalidate, useApiQuery, useServices } from "../api/query-hooks.js";
import type { RiskModelVersionWire, RiskModelWire } from "../api/wire-types.js";
import { useSession } from "../app/session-context.js";
import { when } from "../components/format.js";
import { Failure } from "../components/states.js";
import { DiffList, diffSummary } from "./risk-model-diff-view.js";

/** The approval banner of a model whose newest version is pending or rejected; nothing otherwise. */
export function ApprovalPanel({ model, admin }: { model: RiskModelWire; admin: boolean }) {
  const { api, queries } = useServices();
  const me = `user:${useSession().user.email}`;
  const versions = useApiQuery<RiskModelVersionWire[]>(apiPath`/v1/risk-models/${model.id}/versions/`);
  const [reason, setReason] = useState("");
  const [error, setError] = useState<unknown>(null);
  const a = model.approval;
  if (!a || a.state === "approved") return null;
  const decide = async (verb: "approve" | "reject") => {
    setError(null);
    try {
      const body = verb === "approve" ? { version: model.version } : { version: model.version, reason };
      await api.send(
        "POST",
        verb === "approve"
          ? apiPath`/v1/risk-models/${model.id}/approve/`
          : apiPath`/v1/risk-models/${model.id}/reject/`,
        body,
      );
      setReason("");
      await invalidate(queries, apiPath`/v1/risk-models/`);
    } catch (caught) {
      setError(caught);
    }
  };
  if (a.state === "rejected")
    return (
      <section class="approval rejected" aria-labelledby="approval-state">
        <h2 id="approval-state">Version {model.version} was rejected</h2>
        <p>
          Rejected by {a.decided_by ?? "an admin"} {when(a.decided_at)}: {a.reason}. The version before it
          stays in force; save the rules again to propose a new version.
        </p>
      </section>
    );
  const diff = versions.data?.find((v) => v.version === model.version)?.diff ?? null;
  const mine = a.proposed_by === me;
  return (
    <section class="approval" aria-labelledby="approval-state">
      <h2 id="approval-state">Version {model.version} waits for approval</h2>
      <p>
        Proposed by <strong>{a.proposed_by ?? "an unknown author"}</strong> {when(model.created_at)}. Why:{" "}
        {model.change_reason ?? "no reason given"}.{" "}
        {a.make_default ? "Approving it also makes this model the account's default. " : ""}
        Until a second admin approves it, it checks nothing: the version before it stays in force.
      </p>
      {diff ? (
        <details open>
          <summary>What it changes: {diffSummary(diff)}</summary>
          <DiffList diff={diff} label={`Changes proposed in version ${model.version}`} />
        </details>
      ) : (
        <p class="hint">A new model: {model.rules.length} rules.</p>
      )}
      {admin ? (
        <form
          class="actions"
          aria-label="Decide on this version"
          onSubmit={(event) => {
            event.preventDefault();
            void decide("reject");
          }}
        >
          {mine ? (
            <p class="hint">You proposed it: another admin approves it. You can withdraw it with a reason.</p>
          ) : (
            <button type="button" class="primary" onClick={() => decide("approve")}>
              Approve version {model.version}
            </button>
          )}
          <label for="reject-reason">Reason to reject</label>
          <textarea
            id="reject-reason"
            required
            maxLength={2000}
            value={reason}
            onInput={(e) => setReason(e.currentTarget.value)}
          />
          <button type="submit">
            {mine ? "Withdraw" : "Reject"} version {model.version}
          </button>
        </form>
      ) : (
        <p class="hint">An admin approves or rejects it.</p>
      )}
      {error ? <Failure error={error} what="Not decided" /> : null}
    </section>
  );
}
