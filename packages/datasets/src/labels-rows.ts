/**
 * Rows of the label formats decoded into attributions: the generic CSV, dawsbot/eth-labels and
 * GraphSense TagPack tags (flat CSV rows and YAML tags share {@link decodeTag}).
 */
import { type Attribution, checkAddress, isEntityCategory } from "@openkyt/core";
import { columnIndex, fieldAt } from "./csv-table.js";
import type { RowResult } from "./import-rows.js";
import { ETH_LABELS_CATEGORIES, TAGPACK_ABUSES, TAGPACK_CATEGORIES } from "./labels-categories.js";
import {
  ETH_LABELS_CHAINS,
  inferNetwork,
  networkCode,
  TAGPACK_CURRENCIES,
  TOKEN_ASSETS,
} from "./network-mappings.js";
import { freeTextProblem } from "./row-values.js";

/** `source` of attributions from dawsbot/eth-labels. */
export const ETH_LABELS_SOURCE = "dawsbot/eth-labels";
/** `source` of attributions from GraphSense TagPacks. */
export const TAGPACK_SOURCE = "graphsense-tagpacks";

/** The trimmed text, or "" when absent. */
const text = (value: string | undefined): string => value?.trim() ?? "";

/** An attribution of `raw` on `network`, or the address problem. */
function attribution(
  network: string,
  raw: string,
  entityName: string,
  entityCategory: string,
  source: string | null,
): RowResult<Attribution> {
  if (raw === "") return { reject: "address is missing" };
  const check = checkAddress(network, raw);
  if (!check.ok) return { reject: `address "${raw}": ${check.problem}` };
  const unstorable = freeTextProblem({ entity_name: entityName, source });
  if (unstorable !== null) return { reject: unstorable };
  return { value: { network, address: check.value, entityName, entityCategory, source } };
}

const GENERIC_COLUMNS = ["network", "address", "entity_name", "entity_category", "source"] as const;

/** Decoder of the generic labels CSV `network,address,entity_name,entity_category[,source]`. */
export function genericLabelDecoder(header: ReadonlyArray<string>) {
  const at = columnIndex(header, GENERIC_COLUMNS);
  return (fields: ReadonlyArray<string>): RowResult<Attribution> => {
    const rawNetwork = text(fieldAt(fields, at.network));
    const network = networkCode(rawNetwork);
    if (network === null) return { reject: `unknown network "${rawNetwork}"` };
    const name = text(fieldAt(fields, at.entity_name));
    if (name === "") return { reject: "entity_name is missing" };
    const category = text(fieldAt(fields, at.entity_category)).toLowerCase();
    if (!isEntityCategory(category)) return { reject: `unknown entity_category "${category}"` };
    const source = text(fieldAt(fields, at.source));
    return attribution(
      network,
      text(fieldAt(fields, at.address)),
      name,
      category,
      source === "" ? null : source,
    );
  };
}

const ETH_LABELS_COLUMNS = ["chain", "address", "label", "name_tag"] as const;

/** Decoder of dawsbot/eth-labels `chain,address,label,name_tag`. */
export function ethLabelsDecoder(header: ReadonlyArray<string>) {
  const at = columnIndex(header, ETH_LABELS_COLUMNS);
  return (fields: ReadonlyArray<string>): RowResult<Attribution> => {
    const chain = text(fieldAt(fields, at.chain)).toLowerCase();
    const network = ETH_LABELS_CHAINS[chain];
    if (network === undefined) return { skip: `chain ${chain || "(none)"}` };
    const label = text(fieldAt(fields, at.label)).toLowerCase();
    const category = ETH_LABELS_CATEGORIES[label];
    if (category === undefined) return { skip: `label ${label || "(none)"}` };
    const name = text(fieldAt(fields, at.name_tag)) || label;
    return attribution(network, text(fieldAt(fields, at.address)), name, category, ETH_LABELS_SOURCE);
  };
}

/** One GraphSense tag: its own fields with the pack's header fields filled in. */
export interface TagFields {
  readonly address: string;
  readonly currency: string;
  readonly label: string;
  readonly category: string;
  readonly abuse: string;
  readonly actor: string;
  /** Newer packs name categories as `concepts`; tried after `category`. */
  readonly concepts: ReadonlyArray<string>;
}

/** The network of a TagPack currency for `raw`, or the skip reason. */
function tagNetwork(currency: string, raw: string): { network: string } | { skip: string } {
  const code = currency.toUpperCase();
  const network = TAGPACK_CURRENCIES[code];
  if (network !== undefined) return { network };
  const inferred = TOKEN_ASSETS.has(code) ? inferNetwork(raw) : null;
  return inferred ? { network: inferred.network } : { skip: `currency ${code || "(none)"}` };
}

/**
 * A tag as an attribution: a mapped `abuse` wins, else the first mapped `category` or concept;
 * a tag with neither is skipped under its abuse, else its category.
 */
export function decodeTag(tag: TagFields): RowResult<Attribution> {
  const placed = tagNetwork(tag.currency, tag.address);
  if ("skip" in placed) return placed;
  const abuse = tag.abuse.toLowerCase();
  const categories = [tag.category, ...tag.concepts].map((c) => c.toLowerCase()).filter((c) => c !== "");
  const category =
    TAGPACK_ABUSES[abuse] ?? categories.map((c) => TAGPACK_CATEGORIES[c]).find((c) => c !== undefined);
  if (category === undefined) {
    if (abuse !== "") return { skip: `abuse ${abuse}` };
    return { skip: categories[0] ? `category ${categories[0]}` : "no category or abuse" };
  }
  const name = tag.label || tag.actor || category;
  return attribution(placed.network, tag.address, name, category, TAGPACK_SOURCE);
}

const TAGPACK_COLUMNS = ["address", "currency", "label", "category", "abuse", "actor"] as const;

/** Decoder of the flat TagPack CSV `address,currency,label,category,abuse,actor,...`. */
export function tagpackCsvDecoder(header: ReadonlyArray<string>) {
  const at = columnIndex(header, TAGPACK_COLUMNS);
  return (fields: ReadonlyArray<string>): RowResult<Attribution> =>
    decodeTag({
      address: text(fieldAt(fields, at.address)),
      currency: text(fieldAt(fields, at.currency)),
      label: text(fieldAt(fields, at.label)),
      category: text(fieldAt(fields, at.category)),
      abuse: text(fieldAt(fields, at.abuse)),
      actor: text(fieldAt(fields, at.actor)),
      concepts: [],
    });
}
