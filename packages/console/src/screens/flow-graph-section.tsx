/**
 * Where a page shows a funds-flow graph. The graph's code (dagre, the drawing, the export) is a
 * chunk of its own, imported when the first graph is shown, so the first screen's bundle does
 * not carry it. On an address page the trace is that of one of the transfers that touch the
 * address (the newest with a finding first), chosen from a list.
 */
import type { FunctionComponent } from "preact";
import { useEffect, useState } from "preact/hooks";
import { apiPath } from "../api/api-path.js";
import { useApiQuery } from "../api/query-hooks.js";
import type { ExposureWire, TransferWire } from "../api/wire-types.js";
import { short, when, words } from "../components/format.js";
import { Empty, Failure, Loading } from "../components/states.js";

type PanelProps = { transfer: TransferWire; exposure: ExposureWire; focus?: string | null };

let loading: Promise<FunctionComponent<PanelProps>> | null = null;

/** The graph's chunk, imported once. */
function loadPanel(): Promise<FunctionComponent<PanelProps>> {
  loading ??= import("../graph/flow-graph-panel.js").then((m) => m.FlowGraphPanel);
  return loading;
}

/** The funds-flow graph of a transfer's exposure. */
export function FlowGraphSection(props: PanelProps) {
  const [Panel, setPanel] = useState<FunctionComponent<PanelProps> | null>(null);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    loadPanel().then(
      (component) => setPanel(() => component),
      (caught) => {
        loading = null;
        setError(caught);
      },
    );
  }, []);
  if (error) return <Failure error={error} what="The graph could not be loaded" />;
  if (!Panel) return <Loading what="the graph" />;
  return <Panel {...props} />;
}

/** An address page's graph: the trace of one of the transfers that touch `address`. */
export function AddressFlowGraph({
  address,
  transfers,
}: {
  address: string;
  transfers: ReadonlyArray<TransferWire>;
}) {
  const traced = transfers.filter((t) => t.tx_hash);
  const first = traced.find((t) => t.risk_level && t.risk_level !== "none") ?? traced[0];
  const [chosen, setChosen] = useState(first?.id ?? "");
  const transfer = traced.find((t) => t.id === chosen) ?? first;
  const exposure = useApiQuery<ExposureWire>(
    transfer ? apiPath`/v1/transfers/${transfer.id}/exposure/` : null,
  );
  if (!transfer)
    return <Empty>No transfer with a transaction touches this address: there is no trace to draw.</Empty>;
  return (
    <div>
      {traced.length > 1 ? (
        <p>
          <label for="flow-transfer">Trace of the transfer</label>{" "}
          <select id="flow-transfer" value={transfer.id} onChange={(e) => setChosen(e.currentTarget.value)}>
            {traced.map((t) => (
              <option key={t.id} value={t.id}>
                {when(t.registered_at)} · {words(t.direction)} · {words(t.risk_level ?? "none")} ·{" "}
                {short(t.tx_hash, 6)}
              </option>
            ))}
          </select>
        </p>
      ) : null}
      {exposure.data ? (
        <FlowGraphSection transfer={transfer} exposure={exposure.data} focus={address} />
      ) : exposure.error ? (
        <Failure error={exposure.error} what="No exposure" />
      ) : (
        <Loading what="the trace" />
      )}
    </div>
  );
}
