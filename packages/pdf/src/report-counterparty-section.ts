/**
 * The counterparty (sender of an incoming, recipient of an outgoing transfer) or the checked
 * address: its entity when identified, else the shares of its funds per category.
 */
import { type AddressExposureResponse, UNDEFINED_CATEGORY } from "@openkyt/core";
import type { Content } from "pdfmake/interfaces";
import { facts, paragraph, section } from "./report-blocks.js";
import { checkLine } from "./report-checks.js";
import { exposureChart } from "./report-exposure-chart.js";
import { categoryName, UNKNOWN } from "./report-format.js";

/** What the section is about. */
export interface CounterpartyInput {
  readonly counterparty: AddressExposureResponse;
  /** Heading, e.g. "Counterparty (sender)" or "Address exposure". */
  readonly title: string;
  /** Name of the check that produced it, e.g. "Counterparty check". */
  readonly checkLabel: string;
}

function shares(exposure: NonNullable<AddressExposureResponse["exposure"]>): Content[] {
  const ordered = [
    ...exposure.filter((e) => e.entity_category !== UNDEFINED_CATEGORY),
    ...exposure.filter((e) => e.entity_category === UNDEFINED_CATEGORY),
  ];
  const label = (code: string) =>
    code === UNDEFINED_CATEGORY ? "Unexplained remainder" : categoryName(code);
  return [
    paragraph("The address is not identified. Its funds, by category of the entities they trace to:"),
    exposureChart(
      ordered.map((e) => ({
        category: e.entity_category,
        share: e.value_share,
        label: label(e.entity_category),
      })),
    ),
  ];
}

/** The counterparty or address-exposure section. */
export function counterpartySection({ counterparty: cp, title, checkLabel }: CounterpartyInput): Content[] {
  const lead: Content[] = [
    checkLine(checkLabel, cp.check_status, cp.checked_at),
    facts([{ label: "Address", value: cp.address ?? "not known yet", token: cp.address !== null }]),
  ];
  if (cp.entity_name !== null || cp.entity_category !== null) {
    const entity = facts([
      { label: "Identified entity", value: cp.entity_name ?? UNKNOWN },
      { label: "Category", value: cp.entity_category ? categoryName(cp.entity_category) : UNKNOWN },
    ]);
    return [section(title, [...lead, entity])];
  }
  if (cp.exposure !== null && cp.exposure.length > 0)
    return [section(title, [...lead, ...shares(cp.exposure)])];
  const why =
    cp.check_status === "checked"
      ? "the address is not identified and has no traced funds."
      : "the check has not finished.";
  return [section(title, [...lead, paragraph(`No entity or exposure is available: ${why}`)])];
}
