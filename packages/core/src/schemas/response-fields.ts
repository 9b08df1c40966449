/**
 * Building blocks of the response schemas: timestamps in the interface's two formats, enums,
 * money, and the paginated envelope.
 */
import { z } from "zod";
import { FIAT_CURRENCY } from "../domain/enums.js";

/** `2024-04-18T14:17:25.309000+00:00`: registered_at, created_at, occurred_at, updated_at. */
export const OFFSET_TIMESTAMP_PATTERN = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}[+-]\d{2}:\d{2}$/;
/** `2024-04-18T14:17:25.309000Z`: check_state `*_checked_at` and manual check `checked_at`. */
export const UTC_MICROS_PATTERN = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

/** An ISO 8601 timestamp with microseconds and a UTC offset. */
export const offsetTimestamp = z
  .string()
  .regex(OFFSET_TIMESTAMP_PATTERN)
  .describe("ISO 8601 timestamp with microseconds and UTC offset, e.g. 2024-04-18T14:17:25.309000+00:00.");

/** An ISO 8601 UTC timestamp with microseconds, suffixed Z. */
export const utcTimestamp = z
  .string()
  .regex(UTC_MICROS_PATTERN)
  .describe("ISO 8601 UTC timestamp with microseconds, e.g. 2024-04-18T14:17:25.309000Z.");

/** The fiat currency of every value. */
export const fiatCurrency = z.literal(FIAT_CURRENCY).describe("Fiat currency of every value; always USD.");

/** A value in fiat currency. */
export const fiatValue = z.number().describe("Value in fiat_currency.");

/** A share in [0, 1]. */
export const share = z.number().min(0).max(1).describe("Share between 0 and 1.");

/** A risk score in [0, 1]. */
export const riskScore = z
  .number()
  .min(0)
  .max(1)
  .nullable()
  .describe("Risk score from 0 to 1; null when undefined.");

/** The paginated envelope of a list, generic over its items. */
export function pageSchema<T extends z.ZodType>(item: T) {
  return z
    .strictObject({
      page: z.number().int().min(1).describe("Current page, from 1."),
      page_size: z.number().int().min(1).describe("Items per page."),
      total_pages: z.number().int().min(0).describe("Number of pages (0 when nothing matches)."),
      total_items: z.number().int().min(0).describe("Number of items matching the query."),
      items: z.array(item).describe("The items of this page."),
    })
    .describe("A page of a list.");
}

/** The error body of every failed request. */
export const errorBodySchema = z
  .strictObject({
    detail: z.string().describe("Human-readable message naming the fields at fault."),
    code: z.string().describe("Stable UPPER_SNAKE error code, e.g. VALIDATION_ERROR."),
    errors: z
      .record(z.string(), z.array(z.string()))
      .describe("Wire field name (nested as a.b; whole-body problems under non_field_errors) to messages."),
  })
  .describe("Error response.");

/** The error body, as sent. */
export type ErrorBody = z.output<typeof errorBodySchema>;
