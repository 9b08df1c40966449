/**
 * An address page's funds-flow graph: the trace of one of the transfers that touch the address
 * (the newest with a finding first, the others to choose from a list), with the address marked.
 * Part of the graph's lazily loaded chunk.
 */
import { useState } from "preact/hooks";
import { apiPath } from "../api/api-path.js";
import { useApiQuery } from "../api/query-hooks.js";
import type { ExposureWire, TransferWire } from "../api/wire-types.js";
import { short, when, words } from "../components/format.js";
import { Empty, Failure, Loading } from "../components/states.js";
import { FlowGraphPanel } from "./flow-graph-panel.js";

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
        <FlowGraphPanel transfer={transfer} exposure={exposure.data} focus={address} />
      ) : exposure.error ? (
        <Failure error={exposure.error} what="No exposure" />
      ) : (
        <Loading what="the trace" />
      )}
    </div>
  );
}
