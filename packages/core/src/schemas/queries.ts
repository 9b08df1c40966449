/**
 * Query strings of the list endpoints: transfers, manual checks, tokens, and the plain page
 * query of the reference lists (alerts: queries-alerts.ts). Output is `{ page, pageSize, filter }` for the store.
 */
import { z } from "zod";
import { DIRECTIONS, RISK_LEVELS, TX_STATUSES } from "../domain/enums.js";
import type { PageRequest, TokenFilter, TransferFilter } from "../ports/store.js";
import { type FieldProblem, reportProblems } from "./network-fields.js";
import { dateFilter, dropEmptyValues, filterNormalizer, textFilter } from "./query-fields.js";
import { checkRange, compact, pageFields, symbolFilter } from "./query-filters.js";
import { networkField } from "./wire-fields.js";

/** A page of a list: page from 1, pageSize 1..100. */
export type PageQuery = PageRequest;

/** Query of GET /v1/transfers/. */
export interface TransferListQuery extends PageQuery {
  readonly filter: TransferFilter;
}

/** Query of GET /v1/basics/tokens/. */
export interface TokenListQuery extends PageQuery {
  readonly filter: TokenFilter;
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
      tx_status: z
        .enum(TX_STATUSES)
        .optional()
        .describe(
          "Binding status: none, binding, bound, not_found, error (an OpenKYT addition: finds stuck or unmatched transfers).",
        ),
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
        txStatus: q.tx_status,
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
