/**
 * Query strings of the list endpoints: transfers, alerts, manual checks, tokens, and the plain
 * page query of the reference lists. Output is `{ page, pageSize, filter }` for the store.
 */
import { z } from "zod";
import {
  ALERT_STATUSES,
  DIRECTIONS,
  PROXIMITIES,
  RISK_LEVELS,
  RISK_TYPES,
  RULE_RISK_LEVELS,
} from "../domain/enums.js";
import type { AlertFilter, PageRequest, TokenFilter, TransferFilter } from "../ports/store.js";
import { type FieldProblem, reportProblems } from "./network-fields.js";
import {
  dateFilter,
  dropEmptyValues,
  filterNormalizer,
  pageField,
  pageSizeField,
  textFilter,
} from "./query-fields.js";
import { networkField } from "./wire-fields.js";

/** A page of a list: page from 1, pageSize 1..100. */
export type PageQuery = PageRequest;

/** Query of GET /v1/transfers/. */
export interface TransferListQuery extends PageQuery {
  readonly filter: TransferFilter;
}

/** Query of GET /v1/alerts/. */
export interface AlertListQuery extends PageQuery {
  readonly filter: AlertFilter;
}

/** Query of GET /v1/basics/tokens/. */
export interface TokenListQuery extends PageQuery {
  readonly filter: TokenFilter;
}

const pageFields = { page: pageField, page_size: pageSizeField };

/** Drops undefined values so filters only hold what was asked for. */
function compact<T extends object>(filter: T): T {
  return Object.fromEntries(Object.entries(filter).filter(([, v]) => v !== undefined)) as T;
}

/** Adds a problem under both names when a range's start is after its end. */
function checkRange(problems: FieldProblem[], from: string, to: string, a?: number, b?: number): void {
  if (a === undefined || b === undefined || a <= b) return;
  problems.push(
    { field: from, message: `${from} is after ${to}` },
    { field: to, message: `${from} is after ${to}` },
  );
}

/** Query of plain paginated lists (manual checks, networks, entity categories). */
export const pageQuerySchema = z.preprocess(
  dropEmptyValues,
  z
    .strictObject(pageFields)
    .transform((q): PageQuery => ({ page: q.page, pageSize: q.page_size }))
    .describe("Pagination: page and page_size."),
);

/** Query of GET /v1/manual-checks/ (page and page_size only). */
export const manualCheckListQuerySchema = pageQuerySchema;

/** Query of GET /v1/transfers/. */
export const transferListQuerySchema = z.preprocess(
  dropEmptyValues,
  z
    .strictObject({
      ...pageFields,
      client_id: textFilter("External client ID."),
      direction: z.enum(DIRECTIONS).optional().describe("incoming or outgoing."),
      network: networkField.optional(),
      token_id: textFilter('Token id; "native" for native coins; a symbol filters by token_symbol.'),
      token_symbol: textFilter("Token ticker, e.g. USDT."),
      tx_hash: textFilter("Exact transaction hash."),
      input_address: textFilter("Sender address."),
      output_address: textFilter("Recipient address."),
      registered_from: dateFilter("from", "Registered at or after."),
      registered_to: dateFilter("to", "Registered at or before."),
      occurred_from: dateFilter("from", "Occurred at or after."),
      occurred_to: dateFilter("to", "Occurred at or before."),
      risk_level: z.enum(RISK_LEVELS).optional().describe("none, low, medium, high, severe, undefined."),
      counterparty_name: textFilter("Counterparty entity name."),
      counterparty_category: textFilter("Counterparty entity category code."),
    })
    .transform((q, ctx): TransferListQuery => {
      const f = filterNormalizer(q.network);
      const token = f.token("token_id", q.token_id);
      const problems: FieldProblem[] = [];
      const filter = compact<TransferFilter>({
        clientId: q.client_id,
        direction: q.direction,
        network: q.network,
        tokenId: token.tokenId,
        tokenSymbol: symbolFilter(problems, token.symbol, q.token_symbol),
        txHash: f.txHash("tx_hash", q.tx_hash),
        inputAddress: f.address("input_address", q.input_address),
        outputAddress: f.address("output_address", q.output_address),
        registeredFrom: q.registered_from,
        registeredTo: q.registered_to,
        occurredFrom: q.occurred_from,
        occurredTo: q.occurred_to,
        riskLevel: q.risk_level,
        counterpartyName: q.counterparty_name,
        counterpartyCategory: q.counterparty_category,
      });
      checkRange(problems, "registered_from", "registered_to", q.registered_from, q.registered_to);
      checkRange(problems, "occurred_from", "occurred_to", q.occurred_from, q.occurred_to);
      return reportProblems(ctx, [...f.problems(), ...problems])
        ? z.NEVER
        : { page: q.page, pageSize: q.page_size, filter };
    })
    .describe("Filters of the transfer list."),
);

/** A symbol given as token_id becomes the symbol filter; it must agree with token_symbol. */
function symbolFilter(
  problems: FieldProblem[],
  fromTokenId?: string,
  tokenSymbol?: string,
): string | undefined {
  if (fromTokenId === undefined) return tokenSymbol;
  if (tokenSymbol !== undefined && tokenSymbol.toUpperCase() !== fromTokenId) {
    problems.push({
      field: "token_id",
      message: `symbol ${fromTokenId} disagrees with token_symbol ${tokenSymbol}`,
    });
  }
  return fromTokenId;
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

/** Query of GET /v1/alerts/, deprecated type/interaction/status included. */
export const alertListQuerySchema = z.preprocess(
  dropEmptyValues,
  z
    .strictObject({
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

/** Query of GET /v1/basics/tokens/. A symbol given as token_id filters by symbol. */
export const tokenListQuerySchema = z.preprocess(
  dropEmptyValues,
  z
    .strictObject({
      ...pageFields,
      network: networkField.optional(),
      token_id: textFilter('Token id, "native", or a symbol.'),
    })
    .transform((q, ctx): TokenListQuery => {
      const f = filterNormalizer(q.network);
      const token = f.token("token_id", q.token_id);
      const filter = compact<TokenFilter>({
        network: q.network,
        tokenId: token.tokenId,
        symbol: token.symbol,
      });
      return reportProblems(ctx, f.problems()) ? z.NEVER : { page: q.page, pageSize: q.page_size, filter };
    })
    .describe("Filters of the token list."),
);
