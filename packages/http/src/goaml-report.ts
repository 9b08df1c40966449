/**
 * A case as a goAML report (schema 5.0.1; docs/reports.md): the reporting entity and person
 * from the FIU profile, the transfer as one transaction between the customer's address (the
 * reporting entity's client) and the on-chain counterparty, the findings, paths and listings as
 * the reason, and the decision with the case's comments as the action. Built with xmlbuilder2,
 * which escapes every value; elements are written in the schema's order. Only elements of
 * schema 5.0 and earlier are used (none marked supportedIn 5.1 or later).
 */
import type { CaseFileReportData, SanctionsResult } from "@openkyt/core";
import { create } from "xmlbuilder2";
import type { XMLBuilder } from "xmlbuilder2/lib/interfaces.js";
import type { GoamlProfile } from "./goaml-profile.js";

/** The schema version the report targets. */
export const GOAML_SCHEMA_VERSION = "5.0.1";

/** Longest text of a comments_type element. */
const COMMENTS_MAX = 8000;

/** An epoch or offset timestamp as goAML's sql_date (xs:dateTime, UTC, no fraction). */
export function sqlDate(at: string | number): string {
  return new Date(at).toISOString().slice(0, 19);
}

/** A fiat value as sql_decimal (at most 13 decimals; 2 are kept). */
function decimal(value: number | null): string {
  return (value ?? 0).toFixed(2);
}

/** Text cut to `max` characters, marked when cut. */
function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 12)} [truncated]`;
}

function listingLine(s: SanctionsResult): string {
  const listings = s.listings
    .map((l) => `${l.listName}${l.program ? ` ${l.program}` : ""}${l.entity ? ` (${l.entity})` : ""}`)
    .join("; ");
  return `${s.address}: ${listings}${s.hit ? "" : " (not in force at the transfer's time)"}`;
}

/** The findings, their strongest paths and the listings found, in words. */
export function reasonText(d: CaseFileReportData): string {
  const lines: string[] = [];
  const a = d.alert;
  const i = a.entity_interaction;
  lines.push(
    `OpenKYT alert ${a.id}: ${a.risk_level} ${a.risk_type.replaceAll("_", " ")}` +
      (i ? `, ${i.entity_category} (${i.proximity}), share ${((i.value_share ?? 1) * 100).toFixed(1)}%` : ""),
  );
  for (const r of d.risks) {
    lines.push(
      `Finding: ${r.risk_level} ${r.risk_type} ${r.entity_category} (${r.proximity})` +
        `${r.entity_name ? ` ${r.entity_name}` : ""}, share ${((r.value_share ?? 1) * 100).toFixed(1)}%`,
    );
  }
  for (const x of d.exposure.indirect_interaction ?? []) {
    const p = x.strongest_path;
    if (!p || p.addresses.length === 0) continue;
    lines.push(`Path (${x.entity_category}, ${p.hops} hops): ${p.addresses.join(" -> ")}`);
  }
  if (d.sanctions?.hit) lines.push(`Sanctions (counterparty): ${listingLine(d.sanctions)}`);
  for (const s of d.pathSanctions) lines.push(`Sanctions (on the path): ${listingLine(s)}`);
  return clip(lines.join("\n"), COMMENTS_MAX);
}

/** The decision and the comments of the case, in words. */
export function actionText(d: CaseFileReportData): string {
  const dec = d.decision;
  const lines = [
    dec.decidedAt === null
      ? `Status: ${dec.status.replaceAll("_", " ")} (not decided)`
      : `Decision: closed${dec.outcome ? ` (${dec.outcome})` : ""} by ${dec.decidedBy ?? "unknown"} at ${dec.decidedAt}`,
    ...d.history.filter((e) => e.comment).map((e) => `${e.at} ${e.actor ?? "OpenKYT"}: ${e.comment}`),
  ];
  return clip(lines.join("\n"), COMMENTS_MAX);
}

function address(parent: XMLBuilder, name: string, a: GoamlProfile["location"]): void {
  parent
    .ele(name)
    .ele("address_type")
    .txt(a.address_type)
    .up()
    .ele("address")
    .txt(a.address)
    .up()
    .ele("city")
    .txt(a.city)
    .up()
    .ele("country_code")
    .txt(a.country_code);
}

/**
 * An account of the transfer: the customer's address at the reporting entity, or the on-chain
 * counterparty's address (named by its network). Both are t_account: OpenKYT keeps no customer
 * identification (the t_*_my_client types require it), which the reporting entity adds.
 */
function account(
  parent: XMLBuilder,
  name: string,
  institution: { name: string; code: string },
  address: string,
) {
  parent
    .ele(name)
    .ele("institution_name")
    .txt(institution.name)
    .up()
    .ele("institution_code")
    .txt(institution.code)
    .up()
    .ele("non_bank_institution")
    .txt("true")
    .up()
    .ele("account")
    .txt(address);
}

/** The goAML XML of a case, for the FIU of `profile`. */
export function goamlReport(d: CaseFileReportData, profile: GoamlProfile, now: number): string {
  const t = d.transfer;
  const root = create({ version: "1.0", encoding: "UTF-8" }).ele("report");
  root.ele("rentity_id").txt(String(profile.rentity_id));
  root.ele("rentity_branch").txt(profile.rentity_branch);
  root.ele("submission_code").txt(profile.submission_code);
  root.ele("report_code").txt(profile.report_code);
  root.ele("entity_reference").txt(`openkyt-alert-${d.alert.id}`);
  root.ele("submission_date").txt(sqlDate(now));
  root.ele("currency_code_local").txt(profile.currency_code_local);
  const person = root.ele("reporting_person");
  person.ele("first_name").txt(profile.reporting_person.first_name);
  person.ele("last_name").txt(profile.reporting_person.last_name);
  if (profile.reporting_person.passport_number)
    person.ele("passport_number").txt(profile.reporting_person.passport_number);
  if (profile.reporting_person.email) person.ele("email").txt(profile.reporting_person.email);
  if (profile.reporting_person.occupation) person.ele("occupation").txt(profile.reporting_person.occupation);
  address(root, "location", profile.location);
  root.ele("reason").txt(reasonText(d));
  root.ele("action").txt(actionText(d));
  const tx = root.ele("transaction");
  tx.ele("transactionnumber").txt(clip(t.tx_hash ?? `openkyt-transfer-${t.id}`, 100));
  tx.ele("internal_ref_number").txt(t.id);
  tx.ele("transaction_location").txt(`${t.network} blockchain`);
  tx.ele("transaction_description").txt(
    clip(
      `${t.direction} transfer of ${t.amount ?? "?"} ${t.token_symbol ?? t.token_id} on ${t.network}` +
        `${t.tx_hash ? `, transaction ${t.tx_hash}` : ""}, screened by OpenKYT (risk ${t.risk_level})`,
      COMMENTS_MAX,
    ),
  );
  tx.ele("date_transaction").txt(sqlDate(t.occurred_at ?? t.registered_at));
  tx.ele("transmode_code").txt(profile.transmode_code);
  tx.ele("amount_local").txt(decimal(t.value_in_fiat));
  const incoming = t.direction === "incoming";
  const customer = (incoming ? t.output_address : t.input_address) ?? "unknown";
  const counterparty = (incoming ? t.input_address : t.output_address) ?? "unknown";
  const own = { name: profile.institution_name, code: profile.institution_code };
  const chain = { name: `${t.network} blockchain (self-hosted or unknown custodian)`, code: t.network };
  const from = tx.ele("t_from");
  from.ele("from_funds_code").txt(profile.funds_code);
  account(from, "from_account", incoming ? chain : own, incoming ? counterparty : customer);
  from.ele("from_country").txt(incoming ? profile.counterparty_country_code : profile.country_code);
  const to = tx.ele("t_to");
  to.ele("to_funds_code").txt(profile.funds_code);
  account(to, "to_account", incoming ? own : chain, incoming ? customer : counterparty);
  to.ele("to_country").txt(incoming ? profile.country_code : profile.counterparty_country_code);
  if (t.client_id)
    tx.ele("comments").txt(clip(`Customer reference (client_id): ${t.client_id}`, COMMENTS_MAX));
  const indicators = root.ele("report_indicators");
  for (const code of profile.indicators) indicators.ele("indicator").txt(code);
  return root.end({ prettyPrint: true });
}
