/**
 * One endpoint of the interface as data: method, path, schemas and the account operation it
 * runs. The router, the OpenAPI document and the docs all read the same table.
 */
import {
  type AccountApi,
  type JobOrigin,
  MAX_WAIT_SECONDS,
  parseInput,
  type RenderedReport,
} from "@openkyt/core";
import { z } from "zod";
import type { ReportSettings } from "./report-settings.js";

/** What an endpoint answers. */
export type EndpointResult =
  | {
      readonly kind: "json";
      readonly status: 200 | 201;
      readonly body: unknown;
      readonly headers?: Readonly<Record<string, string>>;
    }
  | { readonly kind: "pdf"; readonly report: RenderedReport }
  | {
      readonly kind: "file";
      /** e.g. `text/csv; charset=utf-8`. */
      readonly contentType: string;
      /** The name the download is saved under. */
      readonly fileName: string;
      readonly text: string;
    };

/** The parsed parts of a request an endpoint gets. */
export interface EndpointInput {
  /** The `{id}` path parameter ("" when the path has none). */
  readonly id: string;
  /** The parsed JSON body; undefined when the request had none. */
  readonly body: unknown;
  /** The query string (endpoints with a query schema only; others ignore their query). */
  readonly query: Readonly<Record<string, string>>;
  /** The authenticated API key id (the actor of alert changes). */
  readonly keyId: string;
  /** The server's report settings (explorers, goAML profile). */
  readonly settings: ReportSettings;
  /**
   * The request as the origin of the jobs the call enqueues (its request id, its span): an
   * endpoint that writes passes it with the call (`{ origin }`); undefined on a GET.
   */
  readonly origin: JobOrigin | undefined;
}

/**
 * A request body as the request type of the operation it is passed to (inferred from that
 * operation's parameter). The operation validates it with the same zod schema the type comes
 * from, so a malformed body is still a 400 naming the field: the type claims nothing unchecked.
 */
export function wireBody<T>(body: unknown): T {
  return body as T;
}

/** One endpoint. */
export interface Endpoint {
  readonly operationId: string;
  readonly method: "GET" | "POST" | "PATCH" | "PUT" | "DELETE";
  /** The path as the interface writes it, e.g. `/v1/transfers/{id}/`. */
  readonly path: string;
  readonly summary: string;
  readonly tag: "transfers" | "manual-checks" | "alerts" | "cases" | "basics" | "risk-models" | "webhooks";
  /** The success status. */
  readonly status: 200 | 201;
  /** Request body schema (its input side is documented); absent: no body. */
  readonly body?: z.ZodType;
  /** Query schema (lists, and `wait` on creation); absent: the query string is ignored. */
  readonly query?: z.ZodType;
  /** Response schema, or "pdf" (application/pdf), "csv" (text/csv) or "xml" (application/xml) for a file. */
  readonly response: z.ZodType | "pdf" | "csv" | "xml";
  /**
   * The body limit that applies: `default` (the app's `limits.bodyBytes`) or `batch` (the larger
   * `limits.batchBodyBytes`, for endpoints that take many items). Default `default`.
   */
  readonly bodyLimit?: "default" | "batch";
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

/** A file result (CSV, XML) saved under `fileName`. */
export function file(contentType: string, fileName: string, text: string): EndpointResult {
  return { kind: "file", contentType, fileName, text };
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

/**
 * The `body` and `run` of an endpoint that takes no body: a body with fields is refused before
 * `call` runs; `call`'s answer is the JSON body of the success status.
 */
export function bodiless(
  call: (api: AccountApi, input: EndpointInput) => Promise<unknown>,
): Pick<Endpoint, "body" | "run"> {
  return {
    body: noBodySchema,
    run: async (api, input) => {
      expectNoBody(input.body);
      return json(await call(api, input));
    },
  };
}

/** The answer of a DELETE. */
export const deletedResponseSchema = z
  .strictObject({ id: z.string(), deleted: z.literal(true) })
  .describe("The id of what was deleted.");

/**
 * The query of the creation endpoints that can wait for their result. Documentation only: the
 * engine validates `wait` and names the field; other parameters are ignored, as on every
 * endpoint that is not a list.
 */
export const waitQuerySchema = z
  .object({
    wait: z
      .number()
      .min(0)
      .max(MAX_WAIT_SECONDS)
      .optional()
      .describe(
        `Seconds (0 to ${MAX_WAIT_SECONDS}, decimals allowed) to hold the request for the finished result; ` +
          "the in-progress object when the checks do not finish in time.",
      ),
  })
  .describe("Waiting for the result.");

/** The `wait` option of a request's query, as the engine takes it. */
export function waitOf(query: Readonly<Record<string, string>>): { wait?: string } {
  return query.wait === undefined ? {} : { wait: query.wait };
}
