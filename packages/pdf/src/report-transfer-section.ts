/**
 * What was screened: the registered transfer with its checks, or the subject of a manual check
 * (its transfer, or its single address).
 */

import type { ManualCheckResponse, TransferResponse } from "@openkyt/core";
import type { Content } from "pdfmake/interfaces";
import { type Fact, facts, section } from "./report-blocks.js";
import { checkStateText, checksTable, txStatusText } from "./report-checks.js";
import { capitalised, formatAmount, formatTime, formatUsd, UNKNOWN } from "./report-format.js";

type TransferFields = NonNullable<ManualCheckResponse["transfer"]>;

function tokenLabel(symbol: string | null, tokenId: string | null): string {
  if (tokenId === null || tokenId === "native") return `${symbol ?? UNKNOWN} (native)`;
  return symbol ? `${symbol} (${tokenId})` : tokenId;
}

function directionLabel(direction: string): string {
  return direction === "incoming"
    ? "Incoming (a deposit to the client)"
    : "Outgoing (a withdrawal by the client)";
}

/** The fields a registered transfer and a transfer check share. */
function transferFacts(t: TransferFields | TransferResponse): Fact[] {
  return [
    { label: "Network", value: t.network },
    { label: "Token", value: tokenLabel(t.token_symbol, t.token_id), token: true },
    { label: "Direction", value: directionLabel(t.direction) },
    { label: "Transaction hash", value: t.tx_hash ?? "not known yet", token: t.tx_hash !== null },
    { label: "Sender (input address)", value: t.input_address ?? "not known yet", token: true },
    { label: "Recipient (output address)", value: t.output_address ?? "not known yet", token: true },
    { label: "Amount", value: formatAmount(t.amount, t.token_symbol) },
    { label: "Value", value: formatUsd(t.value_in_fiat) },
    { label: "On-chain time", value: formatTime(t.occurred_at) },
  ];
}

/** The transfer of a transfer report, then the state of its checks. */
export function transferSection(t: TransferResponse): Content[] {
  const rows: Fact[] = [
    { label: "Transfer ID", value: t.id, token: true },
    ...(t.client_id ? [{ label: "Client ID", value: t.client_id, token: true }] : []),
    ...(t.attempt_id ? [{ label: "Attempt ID", value: t.attempt_id, token: true }] : []),
    ...transferFacts(t),
    { label: "Registered at", value: formatTime(t.registered_at) },
    { label: "Transaction status", value: txStatusText(t.tx_status) },
  ];
  return [section("Transfer", [facts(rows)]), section("Checks", [checksTable(t)])];
}

/** The subject of a manual check: its transfer or its address, with the check's own state. */
export function manualCheckSection(c: ManualCheckResponse): Content[] {
  const head: Fact[] = [
    { label: "Manual check ID", value: c.id, token: true },
    { label: "Check type", value: capitalised(c.check_type.replaceAll("_", " ")) },
    { label: "Created at", value: formatTime(c.created_at) },
  ];
  const subject: Fact[] = c.transfer
    ? [
        ...transferFacts(c.transfer),
        { label: "Transaction status", value: txStatusText(c.transfer.tx_status) },
      ]
    : c.address
      ? [
          { label: "Network", value: c.address.network },
          { label: "Address", value: c.address.address ?? UNKNOWN, token: true },
        ]
      : [];
  const status: Fact = {
    label: "Check status",
    value: { text: checkStateText(c.check_status, c.checked_at) },
  };
  return [
    section(c.transfer ? "Checked transfer" : "Checked address", [facts([...head, status, ...subject])]),
  ];
}
