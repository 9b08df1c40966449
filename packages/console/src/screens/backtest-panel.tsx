/**
 * "What would this model have done to last month?" on the model's page: a window and filters,
 * the backtest started (POST /v1/risk-models/{id}/backtest/), its progress polled until it ends,
 * then its report beside the models that actually checked, and the PDF (docs/backtesting.md).
 */
import {
  levelShiftSentence,
  modelLabel,
  movedValue,
  sanctionsWarningSentence,
  signedChange,
  BACKTEST_WORDS as W,
} from "@openkyt/core/wire";
import { useEffect, useState } from "preact/hooks";
import { ApiError } from "../api/api-client.js";
import { apiPath } from "../api/api-path.js";
import { useApiQuery, useServices } from "../api/query-hooks.js";
import type { BacktestReportWire, BacktestWire } from "../api/wire-types.js";
import { href } from "../app/router.js";
import { BarChart } from "../components/bar-chart.js";
import { describedBy, Field, fieldMessages } from "../components/field.js";
import { short, words } from "../components/format.js";
import { Failure } from "../components/states.js";

const DAY = 86_400_000;
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const signed = signedChange;

type LevelRow = { readonly level: string; readonly actual: number; readonly candidate: number };

/** Counts by level as checked and under the candidate, and the change. */
function LevelsTable({ rows, caption }: { rows: ReadonlyArray<LevelRow>; caption: string }) {
  return (
    // Focusable: on a phone the table scrolls sideways, and a keyboard must reach it (axe).
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region needs keyboard access
    <section class="table-wrap" tabIndex={0} aria-label={caption}>
      <table>
        <caption class="sr-only">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">{W.level}</th>
            <th scope="col" class="num">
              {W.asChecked}
            </th>
            <th scope="col" class="num">
              {W.candidateColumn}
            </th>
            <th scope="col" class="num">
              {W.change}
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((l) => (
            <tr key={l.level}>
              <th scope="row">{words(l.level)}</th>
              <td class="num">{l.actual}</td>
              <td class="num">{l.candidate}</td>
              <td class="num">{signed(l.candidate - l.actual)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

/** Alerts each model opens, by risk type and category. */
function AlertsTable({ report }: { report: BacktestReportWire }) {
  if (report.alerts.length === 0) return <p class="state empty">Neither model opens an alert here.</p>;
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region needs keyboard access
    <section class="table-wrap" tabIndex={0} aria-label={W.alertsByCategory}>
      <table>
        <caption class="sr-only">{W.alertsByCategory}</caption>
        <thead>
          <tr>
            <th scope="col">Risk type</th>
            <th scope="col">Category</th>
            <th scope="col" class="num">
              {W.asChecked}
            </th>
            <th scope="col" class="num">
              {W.candidateColumn}
            </th>
            <th scope="col" class="num">
              {W.change}
            </th>
          </tr>
        </thead>
        <tbody>
          {report.alerts.map((a) => (
            <tr key={`${a.risk_type}/${a.category}`}>
              <td>{words(a.risk_type)}</td>
              <td>{words(a.category)}</td>
              <td class="num">{a.actual}</td>
              <td class="num">{a.candidate}</td>
              <td class="num">{signed(a.candidate - a.actual)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

/** The first transfers that move, with hash, value and from -> to level, each a link to its page. */
function MovedTransfers({ report }: { report: BacktestReportWire }) {
  const { shift } = report;
  const total = shift.up + shift.down;
  const moved = report.moved ?? [];
  const [transfer, network, hash, value, from, to] = W.movedColumns;
  const listed = moved.length || shift.up_ids.length + shift.down_ids.length;
  return (
    <section aria-labelledby="bt-moved">
      <h4 id="bt-moved">
        {W.movedTransfers}: {total}
        {listed < total ? ` (the first ${listed}: up ones, then down ones)` : ""}
      </h4>
      {total === 0 ? (
        <p class="hint">No transfer changes level.</p>
      ) : moved.length === 0 ? (
        <p>
          {[...shift.up_ids, ...shift.down_ids].map((id) => (
            <a key={id} class="chip mono" href={href(`/transfers/${id}`)} title={id}>
              {short(id, 6)}
            </a>
          ))}
        </p>
      ) : (
        <div class="table-wrap">
          <table class="moved">
            <caption class="sr-only">{W.movedTransfers}</caption>
            <thead>
              <tr>
                <th scope="col">{transfer}</th>
                <th scope="col">{network}</th>
                <th scope="col">{hash}</th>
                <th scope="col" class="num">
                  {value}
                </th>
                <th scope="col">{from}</th>
                <th scope="col">{to}</th>
              </tr>
            </thead>
            <tbody>
              {moved.map((m) => (
                <tr key={m.id}>
                  <td>
                    <a class="mono" href={href(`/transfers/${m.id}`)} title={m.id}>
                      {short(m.id, 6)}
                    </a>
                  </td>
                  <td>{m.network}</td>
                  <td class="mono" title={m.tx_hash ?? undefined}>
                    {m.tx_hash === null ? W.noHash : short(m.tx_hash, 10)}
                  </td>
                  <td class="num">
                    {movedValue({
                      amount: m.amount,
                      tokenSymbol: m.token_symbol,
                      valueInFiat: m.value_in_fiat,
                    })}
                  </td>
                  <td>
                    <span class={`risk risk-${m.from}`}>{words(m.from)}</span>
                  </td>
                  <td>
                    <span class={`risk risk-${m.to}`}>{words(m.to)}</span>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

/** A done backtest's report, in the words of core's BACKTEST_WORDS (as the PDF and the CLI). */
function BacktestReport({ backtest, report }: { backtest: BacktestWire; report: BacktestReportWire }) {
  const { api } = useServices();
  const { shift } = report;
  const model = report.candidate_model ? modelLabel(report.candidate_model) : report.candidate;
  const warning = sanctionsWarningSentence(report.sanctions_dropped?.count ?? 0);
  return (
    <section aria-labelledby="bt-report" class="card">
      <h3 id="bt-report">
        Report: {model}, {backtest.from.slice(0, 10)} to {backtest.to.slice(0, 10)}
      </h3>
      {warning === null ? null : (
        <div class="warning-box" role="alert">
          <strong>{W.sanctionsWarning}:</strong> {warning}
        </div>
      )}
      <p class="summary">
        {report.evaluated} transfers evaluated, {report.unchecked} {W.neverChecked.toLowerCase()}.{" "}
        {W.checkedBy} {report.actual_models.map((m) => `${m.version} (${m.transfers})`).join(", ") || "–"}
        {report.actual_model_missing ? `; ${report.actual_model_missing} were ${W.modelGone}` : "."}{" "}
        <a href={api.url(apiPath`/v1/backtests/${backtest.id}/report/`)} download>
          PDF report
        </a>
      </p>
      {report.unchecked > 0 ? (
        <p class="hint">
          <strong>{W.neverChecked}:</strong> {W.neverCheckedNote}
        </p>
      ) : null}
      <h4>{W.levelShift}</h4>
      <p>{levelShiftSentence(shift)}</p>
      <BarChart
        title="Transfers by level: as checked and under the candidate"
        bars={report.levels.flatMap((l) => [
          {
            label: `${words(l.level)} checked`,
            parts: [{ label: "checked", value: l.actual, tone: "tone-indirect" }],
          },
          {
            label: `${words(l.level)} candidate`,
            parts: [{ label: "candidate", value: l.candidate, tone: "tone-direct" }],
          },
        ])}
        legend={[
          { label: W.asChecked.toLowerCase(), value: 0, tone: "tone-indirect" },
          { label: W.candidateColumn.toLowerCase(), value: 0, tone: "tone-direct" },
        ]}
      />
      <h4>{W.transfersByLevel}</h4>
      <LevelsTable rows={report.levels} caption={W.transfersByLevel} />
      {report.alert_levels && report.alert_levels.length > 0 ? (
        <>
          <h4>{W.alertsByLevel}</h4>
          <p class="hint">{W.alertsByLevelNote}</p>
          <LevelsTable rows={[...report.alert_levels].reverse()} caption={W.alertsByLevel} />
        </>
      ) : null}
      <h4>{W.alertsByCategory}</h4>
      <p class="hint">{W.alertsByCategoryNote}</p>
      <AlertsTable report={report} />
      <MovedTransfers report={report} />
    </section>
  );
}

/** One backtest followed until it ends. */
function BacktestProgress({ id }: { id: string }) {
  const [settled, setSettled] = useState(false);
  const answer = useApiQuery<BacktestWire>(apiPath`/v1/backtests/${id}/`, settled ? {} : { refetchMs: 700 });
  const b = answer.data;
  useEffect(() => {
    if (b?.status === "done" || b?.status === "error") setSettled(true);
  }, [b?.status]);
  if (answer.error) return <Failure error={answer.error} what="The backtest could not be read" />;
  if (!b) return <p role="status">Starting the backtest…</p>;
  if (b.status === "error")
    return <Failure error={new Error(b.error ?? "unknown reason")} what="The backtest failed" />;
  if (b.status === "done" && b.report) return <BacktestReport backtest={b} report={b.report} />;
  const { scanned, total } = b.progress;
  return (
    <p role="status" aria-live="polite">
      Backtest {words(b.status)}…{" "}
      {total === null ? "waiting for a worker" : `${scanned} of ${total} transfers read`}{" "}
      <progress
        max={total ?? 1}
        value={total === null ? undefined : scanned}
        aria-label="Backtest progress"
      />
    </p>
  );
}

/** The backtest form and its outcome. */
export function BacktestPanel({ modelId }: { modelId: string }) {
  const { api } = useServices();
  const now = Date.now();
  const [from, setFrom] = useState(day(now - 30 * DAY));
  const [to, setTo] = useState(day(now));
  const [network, setNetwork] = useState("");
  const [direction, setDirection] = useState("");
  const [tokenId, setTokenId] = useState("");
  const [started, setStarted] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const errors = error instanceof ApiError ? error.errors : undefined;
  const start = async (event: Event) => {
    event.preventDefault();
    setError(null);
    setStarted(null);
    const filters = {
      ...(network ? { network } : {}),
      ...(direction ? { direction } : {}),
      ...(tokenId ? { token_id: tokenId } : {}),
    };
    try {
      const b = await api.send<BacktestWire>("POST", apiPath`/v1/risk-models/${modelId}/backtest/`, {
        from,
        to,
        ...(Object.keys(filters).length ? { filters } : {}),
      });
      setStarted(b.id);
    } catch (caught) {
      setError(caught);
    }
  };
  const text = (
    id: string,
    label: string,
    name: string,
    value: string,
    set: (v: string) => void,
    type = "text",
  ) => {
    const messages = fieldMessages(errors, name);
    return (
      <Field id={id} label={label} messages={messages}>
        <input
          id={id}
          type={type}
          value={value}
          onInput={(e) => set(e.currentTarget.value)}
          {...describedBy(id, messages)}
        />
      </Field>
    );
  };
  const directionMessages = fieldMessages(errors, "filters.direction");
  return (
    <details class="card backtest">
      <summary>
        <h2 id="bt-title">Backtest: what would this model have done to past transfers?</h2>
      </summary>
      <p class="hint">
        What this model (its latest version) would have done to the transfers registered in a window, beside
        the level each got when it was checked. Nothing is written and no alert is raised.
      </p>
      <form class="filters" onSubmit={start} aria-label="Backtest">
        {text("bt-from", "From", "from", from, setFrom, "date")}
        {text("bt-to", "To", "to", to, setTo, "date")}
        {text("bt-network", "Network (optional)", "filters.network", network, setNetwork)}
        <Field id="bt-direction" label="Direction" messages={directionMessages}>
          <select id="bt-direction" value={direction} onChange={(e) => setDirection(e.currentTarget.value)}>
            <option value="">both</option>
            <option value="incoming">incoming</option>
            <option value="outgoing">outgoing</option>
          </select>
        </Field>
        {text("bt-token", "Token id (optional)", "filters.token_id", tokenId, setTokenId)}
        <div class="actions">
          <button type="submit" class="primary">
            Run the backtest
          </button>
        </div>
      </form>
      {error ? <Failure error={error} what="The backtest was not started" /> : null}
      {started ? <BacktestProgress key={started} id={started} /> : null}
    </details>
  );
}
