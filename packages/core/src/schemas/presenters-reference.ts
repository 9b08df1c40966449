/**
 * Presenters of the reference lists: networks, tokens and entity categories.
 */
import type { EntityCategoryInfo } from "../domain/entity-categories.js";
import type { NetworkInfo } from "../domain/networks.js";
import type { Millis, TokenInfo } from "../domain/records.js";
import { BUILTIN_CATEGORIES_CREATED_AT, entityCategoryId } from "./entity-category-ids.js";
import type {
  EntityCategoryInfoResponse,
  NetworkInfoResponse,
  TokenInfoResponse,
} from "./responses-reference.js";
import { formatOffsetTimestamp } from "./timestamps.js";

/** A network. */
export function presentNetwork(n: NetworkInfo): NetworkInfoResponse {
  return {
    code: n.code,
    name: n.name,
    address_family: n.family,
    native_symbol: n.nativeSymbol,
    native_decimals: n.nativeDecimals,
  };
}

/** A token; every check is fully supported for every known token. */
export function presentToken(t: TokenInfo): TokenInfoResponse {
  return {
    network: t.network,
    token_id: t.tokenId,
    symbol: t.symbol,
    name: t.name,
    decimals: t.decimals,
    check_levels: { transfer_exposure: "full", transfer_counterparty: "full", address_exposure: "full" },
  };
}

/** A category row, optionally an account's own (custom) one with its id and creation time. */
export type EntityCategoryInput = Pick<EntityCategoryInfo, "code" | "name" | "description" | "color"> & {
  readonly id?: string;
  readonly isCustom?: boolean;
  readonly createdAt?: Millis;
};

/**
 * ENTITY_CATEGORY_INFO. A built-in category gets the stable UUID derived from its code and
 * the fixed creation time of the built-in table.
 */
export function presentEntityCategory(c: EntityCategoryInput): EntityCategoryInfoResponse {
  return {
    id: c.id ?? entityCategoryId(c.code),
    code: c.code,
    name: c.name,
    description: c.description,
    color: c.color,
    is_custom: c.isCustom ?? false,
    created_at: formatOffsetTimestamp(c.createdAt ?? BUILTIN_CATEGORIES_CREATED_AT),
  };
}
