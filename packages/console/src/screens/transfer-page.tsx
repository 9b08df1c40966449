/** One transfer: its facts, the state of each check with recheck actions, its risks, exposure, alerts and report. */
import { useState } from "preact/hooks";
import { apiPath } from "../api/api-path.js";
import { invalidate, useApiQuery, useServices } from "../api/query-hooks.js";
import type { ExposureWire, RiskWire, TransferWire } from "../api/wire-types.js";
import { href } from "../app/router.js";
import { when, words } from "../components/format.js";
import { Failure, Loading } from "../components/states.js";
import { RiskTable } from "./alert-page.js";
import { CasePanel } from "./case-panel.js";
import { ExposureView } from "./exposure-view.js";
import { FlowGraphSection } from "./flow-graph-section.js";
import { ModelVersion, SanctionsView } from "./sanctions-view.js";
import { TransferFacts } from "./transfer-facts.js";

const CHECKS = ["exposure", "counterparty", "sanctions"] as const;

/** The transfer page. */
export function TransferPage({ id }: { id: string }) {
  const { api, queries } = useServices();
  const transfer = useApiQuery<TransferWire>(apiPath`/v1/transfers/${id}/`, { refetchMs: 3_000 });
  const risks = useApiQuery<RiskWire[]>(apiPath`/v1/transfers/${id}/risks/`);
  const exposure = useApiQuery<ExposureWire>(apiPath`/v1/transfers/${id}/exposure/`);
  const [message, setMessage] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  if (transfer.isPending) return <Loading what="the transfer" />;
  if (transfer.error) return <Failure error={transfer.error} what="The transfer could not be read" />;
  const t = transfer.data;
  const recheck = async (what: "exposure" | "counterparty") => {
    setError(null);
    setMessage(null);
    try {
      await api.send("POST", apiPath`/v1/transfers/${id}/recheck-${what}/`);
      setMessage(`A new ${what} check is queued.`);
      await invalidate(queries, apiPath`/v1/transfers/${id}/`);
    } catch (caught) {
      setError(caught);
    }
  };
  return (
    <article aria-labelledby="transfer-title">
      <p>
        <a href={href("/transfers")}>← Transfers</a>
      </p>
      <h1 id="transfer-title">Transfer {t.tx_hash ? "" : "attempt"}</h1>
      <p class="summary">
        <a href={api.url(apiPath`/v1/transfers/${id}/pdf-report/`)} download>
          PDF report
        </a>
      </p>
      <div class="columns">
        <section aria-labelledby="tf-facts">
          <h2 id="tf-facts">Facts</h2>
          <TransferFacts transfer={t} />
        </section>
        <section aria-labelledby="tf-checks">
          <h2 id="tf-checks">Checks</h2>
          <dl class="facts">
            {CHECKS.map((c) => (
              <div key={c}>
                <dt>{words(c)}</dt>
                <dd>
                  {words(t.check_state?.[c] ?? "none")}
                  {t.check_state?.[`${c}_checked_at`] ? ` at ${when(t.check_state[`${c}_checked_at`])}` : ""}
                </dd>
              </div>
            ))}
          </dl>
          <div class="actions">
            <button type="button" onClick={() => recheck("exposure")}>
              Recheck exposure
            </button>
            <button type="button" onClick={() => recheck("counterparty")}>
              Recheck counterparty and sanctions
            </button>
          </div>
          {message ? (
            <p role="status" class="ok">
              {message}
            </p>
          ) : null}
          {error ? <Failure error={error} what="Not queued" /> : null}
        </section>
      </div>
      <section aria-labelledby="tf-case">
        <h2 id="tf-case">Case: the alerts of this transfer</h2>
        <CasePanel id={id} />
      </section>
      <section aria-labelledby="tf-risks">
        <h2 id="tf-risks">Risks</h2>
        <ModelVersion version={exposure.data?.risk_model} />
        {risks.data ? (
          <RiskTable risks={risks.data} />
        ) : risks.error ? (
          <Failure error={risks.error} />
        ) : (
          <Loading what="risks" />
        )}
      </section>
      <section aria-labelledby="tf-sanctions">
        <h2 id="tf-sanctions">Sanctions</h2>
        {exposure.data ? (
          <SanctionsView
            sanctions={exposure.data.sanctions}
            pathSanctions={exposure.data.path_sanctions ?? []}
            network={t.network}
          />
        ) : null}
      </section>
      <section aria-labelledby="tf-exposure">
        <h2 id="tf-exposure">Exposure</h2>
        {exposure.data ? (
          <ExposureView exposure={exposure.data} transfer={t} />
        ) : exposure.error ? (
          <Failure error={exposure.error} what="No exposure" />
        ) : (
          <Loading what="exposure" />
        )}
      </section>
      {exposure.data && t.tx_hash ? (
        <section aria-labelledby="tf-flow">
          <h2 id="tf-flow">Funds flow</h2>
          <FlowGraphSection transfer={t} exposure={exposure.data} />
        </section>
      ) : null}
    </article>
  );
}
