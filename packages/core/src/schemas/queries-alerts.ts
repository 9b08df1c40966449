/**
 * Query string of GET /v1/alerts/, with the deprecated `type`, `interaction` and `status`.
 */
import { z } from "zod";
import { ALERT_STATUSES, PROXIMITIES, RISK_TYPES, RULE_RISK_LEVELS } from "../domain/enums.js";
import type { AlertFilter } from "../ports/store.js";
import { type FieldProblem, reportProblems } from "./network-fields.js";
import type { PageQuery } from "./queries.js";
import { dateFilter, dropEmptyValues, filterNormalizer, textFilter } from "./query-fields.js";
import { checkRange, compact, pageFields, symbolFilter } from "./query-filters.js";
import { networkField } from "./wire-fields.js";

/** Query of GET /v1/alerts/. */
export interface AlertListQuery extends PageQuery {
  readonly filter: AlertFilter;
}

/** A deprecated alert parameter and its replacement: the same value, or an error naming both. */
function merged<T>(
  problems: FieldProblem[],
  name: string,
  value?: T,
  oldName?: string,
  old?: T,
): T | undefined {
  if (old !== undefined && value !== undefined && old !== value) {
    const message = `${oldName} (deprecated) and ${name} disagree: ${String(old)} vs ${String(value)}`;
    problems.push({ field: name, message }, { field: oldName ?? name, message });
  }
  return value ?? old;
}

/** The fields of GET /v1/alerts/'s query (the queue's query adds its own to them). */
export function alertListFields() {
  return {
    ...pageFields,
    client_id: textFilter("Client ID of the alert's transfer."),
    risk_type: z.enum(RISK_TYPES).optional().describe("Risk type, e.g. origin_of_funds."),
    risk_level: z.enum(RULE_RISK_LEVELS).optional().describe("low, medium, high, severe."),
    alert_status: z.enum(ALERT_STATUSES).optional().describe("open, in_progress, awaiting_response, done."),
    created_from: dateFilter("from", "Created at or after."),
    created_to: dateFilter("to", "Created at or before."),
    occurred_from: dateFilter("from", "Risk occurred at or after."),
    occurred_to: dateFilter("to", "Risk occurred at or before."),
    network: networkField.optional(),
    token_id: textFilter("Token id of the alert's transfer."),
    token_symbol: textFilter("Token ticker, e.g. USDT."),
    entity_category: textFilter("Risky entity category code."),
    proximity: z.enum(PROXIMITIES).optional().describe("direct or indirect."),
    type: z.enum(RISK_TYPES).optional().describe("Deprecated: use risk_type."),
    interaction: z.enum(PROXIMITIES).optional().describe("Deprecated: use proximity."),
    status: z.enum(ALERT_STATUSES).optional().describe("Deprecated: use alert_status."),
  };
}

/** Query of GET /v1/alerts/, deprecated type/interaction/status included. */
export const alertListQuerySchema = z.preprocess(
  dropEmptyValues,
  z
    .strictObject({
      ...alertListFields(),
    })
    .transform((q, ctx): AlertListQuery => {
      const f = filterNormalizer(q.network);
      const token = f.token("token_id", q.token_id);
      const problems: FieldProblem[] = [];
      const filter = compact<AlertFilter>({
        clientId: q.client_id,
        riskType: merged(problems, "risk_type", q.risk_type, "type", q.type),
        riskLevel: q.risk_level,
        alertStatus: merged(problems, "alert_status", q.alert_status, "status", q.status),
        createdFrom: q.created_from,
        createdTo: q.created_to,
        occurredFrom: q.occurred_from,
        occurredTo: q.occurred_to,
        network: q.network,
        tokenId: token.tokenId,
        tokenSymbol: symbolFilter(problems, token.symbol, q.token_symbol),
        entityCategory: q.entity_category,
        proximity: merged(problems, "proximity", q.proximity, "interaction", q.interaction),
      });
      checkRange(problems, "created_from", "created_to", q.created_from, q.created_to);
      checkRange(problems, "occurred_from", "occurred_to", q.occurred_from, q.occurred_to);
      return reportProblems(ctx, [...f.problems(), ...problems])
        ? z.NEVER
        : { page: q.page, pageSize: q.page_size, filter };
    })
    .describe("Filters of the alert list."),
);
