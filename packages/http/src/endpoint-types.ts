/**
 * One endpoint of the interface as data: method, path, schemas and the account operation it
 * runs. The router, the OpenAPI document and the docs all read the same table.
 */
import { type AccountApi, parseInput, type RenderedReport } from "@openkyt/core";
import { z } from "zod";

/** What an endpoint answers. */
export type EndpointResult =
  | {
      readonly kind: "json";
      readonly status: 200 | 201;
      readonly body: unknown;
      readonly headers?: Readonly<Record<string, string>>;
    }
  | { readonly kind: "pdf"; readonly report: RenderedReport };

/** The parsed parts of a request an endpoint gets. */
export interface EndpointInput {
  /** The `{id}` path parameter ("" when the path has none). */
  readonly id: string;
  /** The parsed JSON body; undefined when the request had none. */
  readonly body: unknown;
  /** The query string (list endpoints only; other endpoints ignore their query). */
  readonly query: Readonly<Record<string, string>>;
}

/** One endpoint. */
export interface Endpoint {
  readonly operationId: string;
  readonly method: "GET" | "POST";
  /** The path as the interface writes it, e.g. `/v1/transfers/{id}/`. */
  readonly path: string;
  readonly summary: string;
  readonly tag: "transfers" | "manual-checks" | "alerts" | "basics";
  /** The success status. */
  readonly status: 200 | 201;
  /** Request body schema (its input side is documented); absent: no body. */
  readonly body?: z.ZodType;
  /** Query schema of a list endpoint; absent: the query string is ignored. */
  readonly query?: z.ZodType;
  /** Response schema, or "pdf" for application/pdf bytes. */
  readonly response: z.ZodType | "pdf";
  /** Error statuses the endpoint can answer besides 400/401/413/429/500. */
  readonly errors: ReadonlyArray<404 | 409 | 503>;
  readonly run: (api: AccountApi, input: EndpointInput) => Promise<EndpointResult>;
}

/** A 200 (or 201) JSON result. */
export function json(body: unknown, status: 200 | 201 = 200): EndpointResult {
  return { kind: "json", status, body };
}

/** A PDF result. */
export function pdf(report: RenderedReport): EndpointResult {
  return { kind: "pdf", report };
}

/** The body of endpoints that take none: nothing, `{}` or `null`. */
export const noBodySchema = z
  .strictObject({})
  .nullable()
  .optional()
  .describe("No body; an empty JSON object is accepted.");

/** Refuses a body with fields on an endpoint that takes none. */
export function expectNoBody(body: unknown): void {
  parseInput(noBodySchema, body, "request body");
}
