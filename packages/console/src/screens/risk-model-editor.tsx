/**
 * The rules of a risk model as a table an admin edits and saves as a new version (PUT). With
 * about 190 rules it can be searched (category, type, level or rule number) and grouped (by what
 * the rule looks at, its category or its level); rules keep their numbers ("Rule 4") whatever is
 * shown, the same numbers the API's messages use. A save needs a change reason; the rules added,
 * removed and changed against the saved version are shown before saving. A refused save lists
 * every field error at once above the table, each a link to its field, and moves the focus to the
 * first one (revealing it when the search hid it).
 */
import { diffRiskModelRules, RULE_RISK_LEVELS, RULE_SUB_TYPES, RULE_TYPES } from "@openkyt/core/wire";
import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import { ApiError } from "../api/api-client.js";
import { apiPath } from "../api/api-path.js";
import { invalidate, useServices } from "../api/query-hooks.js";
import type { RiskModelWire, RuleWire } from "../api/wire-types.js";
import { describedBy, Field, fieldMessages } from "../components/field.js";
import { words } from "../components/format.js";
import { Failure } from "../components/states.js";
import { DiffList, diffRule, diffSummary, wireDiff } from "./risk-model-diff-view.js";

/** A rule as edited: numbers as the text typed. */
interface RuleDraft {
  rule_type: string;
  rule_sub_type: string;
  entity_category: string;
  min_value_in_fiat: string;
  min_value_share: string;
  risk_level: string;
}
type RuleField = keyof RuleDraft;

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

/** A draft as the API takes it. */
const bodyRule = (r: RuleDraft) => ({
  ...r,
  min_value_in_fiat: numberOf(r.min_value_in_fiat),
  min_value_share: numberOf(r.min_value_share),
});

/** The ways the table can be grouped. */
const GROUPS = {
  none: { label: "no grouping", key: null },
  rule_type: {
    label: "what it looks at",
    key: (r: RuleDraft) => `${words(r.rule_type)}, ${r.rule_sub_type}`,
  },
  entity_category: { label: "entity category", key: (r: RuleDraft) => words(r.entity_category) },
  risk_level: { label: "level raised", key: (r: RuleDraft) => r.risk_level },
} as const;
type GroupBy = keyof typeof GROUPS;

/** The element id of the control an API field key names, or null (the message stays in the summary). */
export function controlOf(field: string): string | null {
  if (field === "name") return "model-name";
  if (field === "change_reason") return "model-change-reason";
  const m = /^rules\[(\d+)\](?:\.(\w+))?$/.exec(field);
  if (!m) return null;
  return `rule-${m[1]}-${m[2] ?? "entity_category"}`;
}

/** An API field key as the editor labels it: `rules[3].min_value_share` is "Rule 4 min value share". */
export function fieldLabel(field: string): string {
  if (field === "name") return "Name";
  if (field === "change_reason") return "Change reason";
  const m = /^rules\[(\d+)\](?:\.(\w+))?$/.exec(field);
  if (!m) return field;
  return `Rule ${Number(m[1]) + 1}${m[2] ? ` ${words(m[2])}` : ""}`;
}

/** True when rule `i` matches the search text (its number, category, type, proximity or level). */
function matches(r: RuleDraft, i: number, query: string): boolean {
  const q = query.trim().toLowerCase();
  if (q === "") return true;
  const number = /^(?:rule\s*)?(\d+)$/.exec(q);
  if (number) return Number(number[1]) === i + 1;
  return [
    r.entity_category,
    words(r.entity_category),
    r.rule_type,
    words(r.rule_type),
    r.rule_sub_type,
    r.risk_level,
  ]
    .join(" ")
    .toLowerCase()
    .includes(q);
}

/** Every field error of a refused save, each a link to its field. */
function ErrorSummary({ errors }: { errors: Readonly<Record<string, ReadonlyArray<string>>> }) {
  const entries = Object.entries(errors);
  return (
    <div class="error-summary" role="alert" aria-labelledby="error-summary-title">
      <h2 id="error-summary-title" class="error-summary-title">
        Not saved: {entries.length} {entries.length === 1 ? "problem" : "problems"}
      </h2>
      <ul>
        {entries.map(([field, messages]) => {
          const target = controlOf(field);
          const text = `${fieldLabel(field)}: ${messages.join("; ")}`;
          return <li key={field}>{target ? <a href={`#${target}`}>{text}</a> : text}</li>;
        })}
      </ul>
    </div>
  );
}

/** The rules editor of one model. */
export function RulesEditor({ model, readOnly }: { model: RiskModelWire; readOnly: boolean }) {
  const { api, queries } = useServices();
  const [name, setName] = useState(model.name);
  const [rules, setRules] = useState<RuleDraft[]>(() => model.rules.map(draftOf));
  const [reason, setReason] = useState("");
  const [query, setQuery] = useState("");
  const [groupBy, setGroupBy] = useState<GroupBy>("none");
  const [error, setError] = useState<unknown>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const focusFirst = useRef(false);
  useEffect(() => {
    setName(model.name);
    setRules(model.rules.map(draftOf));
    setReason("");
  }, [model.id, model.version]);
  const errors = error instanceof ApiError ? error.errors : undefined;
  const fieldKeys = errors ? Object.keys(errors) : [];
  // After a refused save: the first invalid field takes the focus, in view (the summary lists all).
  useEffect(() => {
    if (!focusFirst.current) return;
    focusFirst.current = false;
    const first = fieldKeys.map(controlOf).find((id): id is string => id !== null);
    const control = first ? document.getElementById(first) : document.getElementById("error-summary-title");
    control?.scrollIntoView({ block: "center" });
    control?.focus();
  });
  const edit = (i: number, field: RuleField, value: string) =>
    setRules(rules.map((r, n) => (n === i ? { ...r, [field]: value } : r)));
  const diff = useMemo(
    () =>
      wireDiff(
        diffRiskModelRules(
          model.rules.map(diffRule),
          rules.map((r) => diffRule(bodyRule(r) as RuleWire)),
        ),
      ),
    [model.rules, rules],
  );
  const changedRules = diff.added.length + diff.removed.length + diff.changed.length;
  const save = async (isDefault: boolean) => {
    setError(null);
    setSaved(null);
    try {
      const body = {
        name,
        rules: rules.map(bodyRule),
        ...(reason.trim() ? { change_reason: reason.trim() } : {}),
        ...(isDefault ? { is_default: true } : {}),
      };
      const next = await api.send<RiskModelWire>("PUT", apiPath`/v1/risk-models/${model.id}/`, body);
      setSaved(`Saved as version ${next.version}${next.is_default ? ", the account's default" : ""}.`);
      await invalidate(queries, apiPath`/v1/risk-models/`);
    } catch (caught) {
      // A hidden field cannot take the focus: show every rule again.
      if (caught instanceof ApiError && Object.keys(caught.errors).some((k) => k.startsWith("rules[")))
        setQuery("");
      focusFirst.current = true;
      setError(caught);
    }
  };
  const messagesOf = (i: number, field: RuleField) => [
    ...fieldMessages(errors, `rules[${i}].${field}`),
    ...(field === "entity_category" ? fieldMessages(errors, `rules[${i}]`) : []),
  ];
  const cell = (i: number, field: RuleField, options?: ReadonlyArray<string>) => {
    const id = `rule-${i}-${field}`;
    const messages = messagesOf(i, field);
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
  const row = (i: number) => (
    <tr key={i}>
      <th scope="row" class="num rule-number">
        {i + 1}
      </th>
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
  );
  const shown = rules.map((r, i) => ({ r, i })).filter(({ r, i }) => matches(r, i, query));
  const columns = readOnly ? 7 : 8;
  const groupKey = GROUPS[groupBy].key;
  const groups: Array<[string | null, number[]]> = [];
  if (groupKey === null) groups.push([null, shown.map((s) => s.i)]);
  else {
    const byKey = new Map<string, number[]>();
    for (const { r, i } of shown) {
      const k = groupKey(r);
      const list = byKey.get(k);
      if (list) list.push(i);
      else byKey.set(k, [i]);
    }
    for (const [k, list] of [...byKey].sort((a, b) => a[0].localeCompare(b[0]))) groups.push([k, list]);
  }
  const nameMessages = fieldMessages(errors, "name");
  const reasonMessages = fieldMessages(errors, "change_reason");
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        save(false);
      }}
      aria-label="Rules"
    >
      {errors && fieldKeys.length > 0 ? <ErrorSummary errors={errors} /> : null}
      <Field id="model-name" label="Name" messages={nameMessages}>
        <input
          id="model-name"
          value={name}
          readOnly={readOnly}
          onInput={(e) => setName(e.currentTarget.value)}
          {...describedBy("model-name", nameMessages)}
        />
      </Field>
      <div class="filters rule-tools">
        <div class="field">
          <label for="rule-search">Search rules</label>
          <input
            id="rule-search"
            type="search"
            value={query}
            placeholder="category, type, level or number"
            onInput={(e) => setQuery(e.currentTarget.value)}
          />
        </div>
        <div class="field">
          <label for="rule-group">Group by</label>
          <select
            id="rule-group"
            value={groupBy}
            onChange={(e) => setGroupBy(e.currentTarget.value as GroupBy)}
          >
            {Object.entries(GROUPS).map(([k, g]) => (
              <option key={k} value={k}>
                {g.label}
              </option>
            ))}
          </select>
        </div>
        <p class="hint" role="status">
          Showing {shown.length} of {rules.length} rules.
        </p>
      </div>
      <div class="table-wrap">
        <table class="rules">
          <caption class="sr-only">Rules of {model.name}</caption>
          <thead>
            <tr>
              <th scope="col" class="num">
                Rule
              </th>
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
          {groups.map(([label, list]) => (
            <tbody key={label ?? "all"}>
              {label === null ? null : (
                <tr class="group-row">
                  <th scope="rowgroup" colSpan={columns}>
                    {words(label)} ({list.length})
                  </th>
                </tr>
              )}
              {list.map(row)}
            </tbody>
          ))}
        </table>
      </div>
      {readOnly ? null : (
        <>
          <section aria-labelledby="pending-title" class="pending-changes">
            <h2 id="pending-title" class="pending-title">
              Unsaved changes: {diffSummary(diff)}
            </h2>
            {changedRules > 0 ? <DiffList diff={diff} label="Changes not saved yet" /> : null}
          </section>
          <Field
            id="model-change-reason"
            label="Change reason (required for a new version)"
            messages={reasonMessages}
          >
            <textarea
              id="model-change-reason"
              rows={2}
              maxLength={1000}
              value={reason}
              onInput={(e) => setReason(e.currentTarget.value)}
              {...describedBy("model-change-reason", reasonMessages)}
            />
          </Field>
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
        </>
      )}
      {saved ? (
        <p role="status" class="ok">
          {saved}
        </p>
      ) : null}
      {error && fieldKeys.length === 0 ? <Failure error={error} what="Not saved" /> : null}
    </form>
  );
}
