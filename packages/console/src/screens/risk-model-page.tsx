/**
 * One risk model: its rules (risk-model-editor.tsx: search, grouping, every error at once, a
 * change reason and the diff before saving), its version history with each version's reason and
 * diff, and its backtest (admins). The built-in model is read-only.
 */
import { apiPath } from "../api/api-path.js";
import { useApiQuery } from "../api/query-hooks.js";
import type { RiskModelWire } from "../api/wire-types.js";
import { href } from "../app/router.js";
import { Failure, Loading } from "../components/states.js";
import { BacktestPanel } from "./backtest-panel.js";
import { ApprovalPanel } from "./risk-model-approval.js";
import { VersionHistory } from "./risk-model-diff-view.js";
import { RulesEditor } from "./risk-model-editor.js";

/** The model page. */
export function RiskModelPage({ id, admin }: { id: string; admin: boolean }) {
  const model = useApiQuery<RiskModelWire>(apiPath`/v1/risk-models/${id}/`);
  if (model.isPending) return <Loading what="the risk model" />;
  if (model.error) return <Failure error={model.error} what="The risk model could not be read" />;
  const m = model.data;
  return (
    <article aria-labelledby="model-title">
      <p>
        <a href={href("/risk-models")}>← Risk models</a>
      </p>
      <h1 id="model-title">
        {m.name} <span class="version">version {m.version}</span>
      </h1>
      <p class="summary">
        {m.is_builtin ? "The built-in model: read-only; copy it to change it. " : ""}
        {m.is_default ? "The account's default model. " : ""}
        {m.rules.length} rules.
        {m.change_reason ? ` Why this version: ${m.change_reason}` : ""}
      </p>
      <ApprovalPanel model={m} admin={admin} />
      {admin ? (
        <BacktestPanel modelId={m.id} />
      ) : (
        <p class="hint">Backtests of a model are run by an admin.</p>
      )}
      <RulesEditor model={m} readOnly={m.is_builtin || !admin || m.approval?.state === "pending"} />
      {m.is_builtin ? null : <VersionHistory modelId={m.id} />}
    </article>
  );
}
