/**
 * The reports of a case, as links the browser downloads with the session: the case file (PDF:
 * the transfer, findings with paths, decision, history and comments), the goAML XML for the FIU
 * (when the server has a goAML profile) and the CSV export of every alert with its decision.
 */
import { apiPath } from "../api/api-path.js";
import { useServices } from "../api/query-hooks.js";
import { useReportSettings } from "../components/chain-refs.js";

/** The links. */
export function CaseReports({ alertId }: { alertId: string }) {
  const { api } = useServices();
  const settings = useReportSettings();
  return (
    <nav class="reports" aria-label="Reports of this case">
      <span>Reports:</span>
      <a href={api.url(apiPath`/v1/alerts/${alertId}/case-file/`)} download>
        Case file (PDF)
      </a>
      {settings?.goaml_configured ? (
        <a href={api.url(apiPath`/v1/alerts/${alertId}/goaml/`)} download>
          goAML report (XML)
        </a>
      ) : (
        <span class="hint">goAML: not configured on this server (docs/reports.md)</span>
      )}
      <a href={api.url(apiPath`/v1/alerts/export/`)} download>
        All alerts and decisions (CSV)
      </a>
    </nav>
  );
}
