/**
 * One risk model: its rules as a table; admins edit them and save a new version (PUT), with the
 * API's validation errors shown at the field they name (`rules[3].min_value_share`), or make it
 * the account's default. The built-in model is read-only. Anyone may backtest it on past transfers.
 */
import { RULE_RISK_LEVELS, RULE_SUB_TYPES, RULE_TYPES } from "@openkyt/core/wire";
import { useEffect, useState } from "preact/hooks";
import { ApiError } from "../api/api-client.js";
import { apiPath } from "../api/api-path.js";
import { invalidate, useApiQuery, useServices } from "../api/query-hooks.js";
import type { RiskModelWire, RuleWire } from "../api/wire-types.js";
import { href } from "../app/router.js";
import { describedBy, Field, fieldMessages } from "../components/field.js";
import { words } from "../components/format.js";
import { Failure, Loading } from "../components/states.js";
import { BacktestPanel } from "./backtest-panel.js";

/** A rule as edited: numbers as the text typed. */
interface RuleDraft {
  rule_type: string;
  rule_sub_type: string;
  entity_category: string;
  min_value_in_fiat: string;
  min_value_share: string;
  risk_level: string;
}

const draftOf = (r: RuleWire): RuleDraft => ({
  rule_type: r.rule_type,
  rule_sub_type: r.rule_sub_type,
  entity_category: r.entity_category,
  min_value_in_fiat: r.min_value_in_fiat === null ? "" : String(r.min_value_in_fiat),
  min_value_share: r.min_value_share === null ? "" : String(r.min_value_share),
  risk_level: r.risk_level ?? "high",
});

/** A number field as the API takes it: empty is null, anything else a number (NaN is sent as text so the API names it). */
const numberOf = (text: string): number | string | null => {
  if (text.trim() === "") return null;
  const n = Number(text);
  return Number.isFinite(n) ? n : text;
};

function RulesEditor({ model, readOnly }: { model: RiskModelWire; readOnly: boolean }) {
  const { api, queries } = useServices();
  const [name, setName] = useState(model.name);
  const [rules, setRules] = useState<RuleDraft[]>(() => model.rules.map(draftOf));
  const [error, setError] = useState<unknown>(null);
  const [saved, setSaved] = useState<string | null>(null);
  useEffect(() => {
    setName(model.name);
    setRules(model.rules.map(draftOf));
  }, [model.id, model.version]);
  const errors = error instanceof ApiError ? error.errors : undefined;
  const edit = (i: number, field: keyof RuleDraft, value: string) =>
    setRules(rules.map((r, n) => (n === i ? { ...r, [field]: value } : r)));
  const save = async (isDefault: boolean) => {
    setError(null);
    setSaved(null);
    try {
      const body = {
        name,
        rules: rules.map((r) => ({
          ...r,
          min_value_in_fiat: numberOf(r.min_value_in_fiat),
          min_value_share: numberOf(r.min_value_share),
        })),
        ...(isDefault ? { is_default: true } : {}),
      };
      const next = await api.send<RiskModelWire>("PUT", apiPath`/v1/risk-models/${model.id}/`, body);
      setSaved(`Saved as version ${next.version}${next.is_default ? ", the account's default" : ""}.`);
      await invalidate(queries, apiPath`/v1/risk-models/`);
    } catch (caught) {
      setError(caught);
    }
  };
  const cell = (i: number, field: keyof RuleDraft, options?: ReadonlyArray<string>) => {
    const id = `rule-${i}-${field}`;
    const messages = fieldMessages(errors, `rules[${i}].${field}`);
    const label = `Rule ${i + 1} ${words(field)}`;
    return (
      <td class={messages.length ? "invalid" : undefined}>
        {options ? (
          <select
            id={id}
            aria-label={label}
            disabled={readOnly}
            value={rules[i]?.[field]}
            onChange={(e) => edit(i, field, e.currentTarget.value)}
            {...describedBy(id, messages)}
          >
            {options.map((o) => (
              <option key={o} value={o}>
                {words(o)}
              </option>
            ))}
          </select>
        ) : (
          <input
            id={id}
            aria-label={label}
            readOnly={readOnly}
            value={rules[i]?.[field]}
            onInput={(e) => edit(i, field, e.currentTarget.value)}
            {...describedBy(id, messages)}
          />
        )}
        {messages.length ? (
          <span class="field-error" id={`${id}-error`}>
            {messages.join("; ")}
          </span>
        ) : null}
      </td>
    );
  };
  const nameMessages = fieldMessages(errors, "name");
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        save(false);
      }}
      aria-label="Rules"
    >
      <Field id="model-name" label="Name" messages={nameMessages}>
        <input
          id="model-name"
          value={name}
          readOnly={readOnly}
          onInput={(e) => setName(e.currentTarget.value)}
          {...describedBy("model-name", nameMessages)}
        />
      </Field>
      <div class="table-wrap">
        <table class="rules">
          <thead>
            <tr>
              <th scope="col">Looks at</th>
              <th scope="col">Proximity</th>
              <th scope="col">Entity category</th>
              <th scope="col">Min value (USD)</th>
              <th scope="col">Min share (0–1)</th>
              <th scope="col">Raises</th>
              {readOnly ? null : (
                <th scope="col">
                  <span class="sr-only">Remove</span>
                </th>
              )}
            </tr>
          </thead>
          <tbody>
            {rules.map((_, i) => (
              <tr key={i}>
                {cell(i, "rule_type", RULE_TYPES)}
                {cell(i, "rule_sub_type", RULE_SUB_TYPES)}
                {cell(i, "entity_category")}
                {cell(i, "min_value_in_fiat")}
                {cell(i, "min_value_share")}
                {cell(i, "risk_level", RULE_RISK_LEVELS)}
                {readOnly ? null : (
                  <td>
                    <button
                      type="button"
                      aria-label={`Remove rule ${i + 1}`}
                      onClick={() => setRules(rules.filter((__, n) => n !== i))}
                    >
                      Remove
                    </button>
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {readOnly ? null : (
        <div class="actions sticky-actions">
          <button
            type="button"
            onClick={() =>
              setRules([
                ...rules,
                {
                  rule_type: "entity",
                  rule_sub_type: "direct",
                  entity_category: "",
                  min_value_in_fiat: "",
                  min_value_share: "",
                  risk_level: "high",
                },
              ])
            }
          >
            Add a rule
          </button>
          <button type="submit" class="primary">
            Save as a new version
          </button>
          {model.is_default ? null : (
            <button type="button" onClick={() => save(true)}>
              Save and make default
            </button>
          )}
        </div>
      )}
      {saved ? (
        <p role="status" class="ok">
          {saved}
        </p>
      ) : null}
      {error ? <Failure error={error} what="Not saved" /> : null}
    </form>
  );
}

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
      </p>
      {admin ? (
        <BacktestPanel modelId={m.id} />
      ) : (
        <p class="hint">Backtests of a model are run by an admin.</p>
      )}
      <RulesEditor model={m} readOnly={m.is_builtin || !admin} />
    </article>
  );
}
