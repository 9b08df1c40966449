/** A transfer's facts as a definition list. */
import type { TransferWire } from "../api/wire-types.js";
import { fiat, when, words } from "../components/format.js";
import { RiskBadge } from "../components/states.js";

/** The facts. */
export function TransferFacts({ transfer: t }: { transfer: TransferWire }) {
  const rows: Array<[string, preact.ComponentChildren]> = [
    ["Risk", <RiskBadge key="r" level={t.risk_level} />],
    ["Direction", t.direction === "incoming" ? "incoming (deposit)" : "outgoing (withdrawal)"],
    ["Network / token", `${t.network} / ${t.token_symbol ?? t.token_id}`],
    ["Amount", t.amount === null ? "–" : `${t.amount} ${t.token_symbol ?? ""}`],
    ["Value", fiat(t.value_in_fiat)],
    [
      "Transaction",
      <span key="h" class="mono break">
        {t.tx_hash ?? "not known yet"}
      </span>,
    ],
    [
      "From",
      <span key="i" class="mono break">
        {t.input_address ?? "–"}
      </span>,
    ],
    [
      "To",
      <span key="o" class="mono break">
        {t.output_address ?? "–"}
      </span>,
    ],
    ["Occurred", when(t.occurred_at)],
    ["Registered", when(t.registered_at)],
    ["Binding", words(t.tx_status)],
    ["Client ID", t.client_id ?? "–"],
  ];
  return (
    <dl class="facts">
      {rows.map(([label, value]) => (
        <div key={label}>
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}
