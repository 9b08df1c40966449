/**
 * Wire objects of the reference lists: networks, tokens and entity categories.
 */
import { z } from "zod";
import { ADDRESS_FAMILIES } from "../domain/networks.js";
import { offsetTimestamp, pageSchema } from "./response-fields.js";

/** A network. */
export const networkInfoResponseSchema = z
  .strictObject({
    code: z.string().describe("Network code, e.g. ETH."),
    name: z.string().describe("Display name."),
    address_family: z.enum(ADDRESS_FAMILIES).describe("How addresses look and are normalised."),
    native_symbol: z.string().describe("Symbol of the native asset."),
    native_decimals: z.number().int().describe("Decimals of the native asset."),
  })
  .describe("A supported network.");

/** How completely a kind of check is supported for a token. */
export const CHECK_LEVELS = ["full", "none"] as const;

/** A token. */
export const tokenInfoResponseSchema = z
  .strictObject({
    network: z.string().describe("Network code."),
    token_id: z.string().describe('"native" or the token contract.'),
    symbol: z.string().describe("Ticker."),
    name: z.string().nullable().describe("Display name, when known."),
    decimals: z.number().int().describe("Decimals."),
    check_levels: z
      .strictObject({
        transfer_exposure: z.enum(CHECK_LEVELS).describe("Support of transfer exposure checks."),
        transfer_counterparty: z.enum(CHECK_LEVELS).describe("Support of counterparty checks."),
        address_exposure: z.enum(CHECK_LEVELS).describe("Support of address exposure checks."),
      })
      .describe("Which checks are supported for this token (not none = supported)."),
  })
  .describe("A supported token.");

/** ENTITY_CATEGORY_INFO. */
export const entityCategoryInfoResponseSchema = z
  .strictObject({
    id: z.string().describe("Stable UUID of the category, derived from its code."),
    code: z.string().describe("Category code, e.g. sanctions."),
    name: z.string().describe("Display name."),
    description: z.string().describe("What the category covers."),
    color: z
      .string()
      .regex(/^#[0-9A-Fa-f]{6}$/)
      .describe("Display colour, #RRGGBB."),
    is_custom: z.boolean().describe("True when created by the account."),
    created_at: offsetTimestamp.describe("Creation time."),
  })
  .describe("An entity category (ENTITY_CATEGORY_INFO).");

/** The paginated reference lists. */
export const networkPageSchema = pageSchema(networkInfoResponseSchema);
export const tokenPageSchema = pageSchema(tokenInfoResponseSchema);
export const entityCategoryPageSchema = pageSchema(entityCategoryInfoResponseSchema);

/** A network, as sent. */
export type NetworkInfoResponse = z.output<typeof networkInfoResponseSchema>;
/** A token, as sent. */
export type TokenInfoResponse = z.output<typeof tokenInfoResponseSchema>;
/** An entity category, as sent. */
export type EntityCategoryInfoResponse = z.output<typeof entityCategoryInfoResponseSchema>;
