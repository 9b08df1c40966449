/** A transfer's facts as a definition list. */
import type { TransferWire } from "../api/wire-types.js";
import { AddressRef, TxRef } from "../components/chain-refs.js";
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
      t.tx_hash ? <TxRef key="h" network={t.network} hash={t.tx_hash} keep={14} /> : "not known yet",
    ],
    [
      t.direction === "incoming" ? "From (counterparty)" : "From (your customer)",
      t.input_address ? <AddressRef key="i" network={t.network} address={t.input_address} keep={14} /> : "–",
    ],
    [
      t.direction === "incoming" ? "To (your customer)" : "To (counterparty)",
      t.output_address ? (
        <AddressRef key="o" network={t.network} address={t.output_address} keep={14} />
      ) : (
        "–"
      ),
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
