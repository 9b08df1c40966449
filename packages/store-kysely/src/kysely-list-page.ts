/**
 * The one list query of the kysely store: count the rows a filtered selection matches, then read
 * one page of it in a total order (a sort key, ties by a text column), by limit and offset. Every
 * `list*` member of the store port that answers a {@link PageRequest} runs it.
 */
import type { PageRequest, PageResult } from "@openkyt/core";
import type { Expression, SelectQueryBuilder, StringReference } from "kysely";
import { type KyselyContext, orderText } from "./kysely-context.js";
import type { Database } from "./kysely-schema.js";
import { num } from "./kysely-values.js";

/** The order of a list: `key`, then `tie` (a unique text column) in the same direction. */
export interface ListOrder<TB extends keyof Database> {
  /** The sort key: a column, or an expression such as {@link orderText} of a text column. */
  readonly key: StringReference<Database, TB> | Expression<unknown>;
  /** A second sort key before the tie, in the same direction (optional). */
  readonly secondKey?: StringReference<Database, TB> | Expression<unknown>;
  /** The column that breaks ties, compared as text in the dialect's collation ({@link orderText}). */
  readonly tie: StringReference<Database, TB> & string;
  readonly direction: "asc" | "desc";
}

/**
 * The page `page` of `selection` (the rows to list, filtered, unordered) in `order`, each row made
 * an item by `toItem`, with the total count of rows `selection` matches. Two statements: the
 * count (the same FROM and WHERE, selecting `count(*)`), then the page.
 */
export async function listPage<TB extends keyof Database, O, T>(
  ctx: Pick<KyselyContext, "dialect">,
  selection: SelectQueryBuilder<Database, TB, O>,
  order: ListOrder<TB>,
  page: PageRequest,
  toItem: (row: O) => T,
): Promise<PageResult<T>> {
  const { total } = await selection
    .clearSelect()
    .select((eb) => eb.fn.countAll<number | string | bigint>().as("total"))
    .executeTakeFirstOrThrow();
  const ordered = selection.orderBy(order.key, order.direction);
  const rows = await (order.secondKey === undefined
    ? ordered
    : ordered.orderBy(order.secondKey, order.direction)
  )
    .orderBy(orderText(ctx, order.tie), order.direction)
    .limit(page.pageSize)
    .offset((page.page - 1) * page.pageSize)
    .execute();
  return { items: rows.map(toItem), total: num(total) };
}
