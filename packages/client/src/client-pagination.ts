/** Walking every page of a paginated list. */
import type { Page } from "@openkyt/core";
import type { PageParams } from "./client-types.js";

/**
 * Yields every item of a list, page after page (page_size 100 unless the query sets one),
 * from the query's `page` (default 1) until a page comes back short or the last page is read.
 */
export async function* eachItem<T, Q extends PageParams>(
  list: (query: Q) => Promise<Page<T>>,
  query: Q,
): AsyncGenerator<T, void, undefined> {
  let page = query.page ?? 1;
  const pageSize = query.page_size ?? 100;
  for (;;) {
    const result = await list({ ...query, page, page_size: pageSize });
    yield* result.items;
    if (page >= result.total_pages || result.items.length < pageSize) return;
    page += 1;
  }
}
