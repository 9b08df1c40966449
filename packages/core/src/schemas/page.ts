/**
 * The envelope of every list as sent. A plain type with no zod, so that the browser entry
 * (`@openkyt/core/wire`) can offer it; its schema is `pageSchema` (response-fields.ts).
 */

/** A page of items, as sent. */
export interface Page<T> {
  readonly page: number;
  readonly page_size: number;
  readonly total_pages: number;
  readonly total_items: number;
  readonly items: ReadonlyArray<T>;
}
