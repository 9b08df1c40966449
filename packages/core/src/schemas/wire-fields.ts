/**
 * Field schemas shared by the request bodies: their wire (input) shape carries the OpenAPI
 * description; their output is the normalised engine value.
 */
import { z } from "zod";
import { DIRECTIONS } from "../domain/enums.js";
import { isNetworkCode, NETWORK_CODES } from "../domain/networks.js";
import { wireString } from "./wire-text.js";

/** Longest client_id (interface limits). */
export const CLIENT_ID_MAX = 40;
/** Longest attempt_id (interface limits). */
export const ATTEMPT_ID_MAX = 100;
/** Longest risk_model id we accept. */
export const RISK_MODEL_MAX = 100;

/** A network code, accepted in any case, upper-cased; unknown codes are refused. */
export const networkField = wireString()
  .transform((raw, ctx) => {
    const code = raw.trim().toUpperCase();
    if (isNetworkCode(code)) return code;
    ctx.issues.push({
      code: "custom",
      input: raw,
      message: `unknown network "${raw}" (known: ${NETWORK_CODES.join(", ")})`,
    });
    return z.NEVER;
  })
  .describe(`Network code, e.g. ETH, TRX, BTC (any case). Known: ${NETWORK_CODES.join(", ")}.`);

/** incoming or outgoing. */
export const directionField = z
  .enum(DIRECTIONS)
  .describe("incoming or outgoing, relative to the client's address.");

/** An optional, nullable string of at most `max` characters; output null when omitted. */
export function optionalText(max: number, description: string) {
  return wireString()
    .max(max)
    .nullable()
    .optional()
    .transform((v) => v ?? null)
    .describe(description);
}

/** A raw string validated later against the network (addresses, hashes). */
export function rawText(description: string) {
  return wireString().describe(description);
}

/** A raw optional, nullable string validated later against the network. */
export function rawOptionalText(description: string) {
  return wireString().nullable().optional().describe(description);
}

/** An optional boolean; omitted or null is false. */
export function flagField(description: string) {
  return z
    .boolean()
    .nullable()
    .optional()
    .transform((v) => v ?? false)
    .describe(description);
}

const DECIMAL = /^\d+(\.\d+)?([eE][+-]?\d+)?$/;

/** The message of an amount neither branch took: the string's own problem (NUL), else the shapes allowed. */
function amountProblem(issue: z.core.$ZodRawIssue): string {
  const nested = issue.code === "invalid_union" ? issue.errors.flat() : [];
  return nested.find((i) => i.code === "custom")?.message ?? "must be a number, a numeric string or null";
}

/** An asset amount: a finite number >= 0, a numeric string, or null. */
export const amountField = z
  .union([z.number(), wireString()], { error: amountProblem })
  .nullable()
  .optional()
  .transform((raw, ctx) => {
    if (raw === null || raw === undefined) return null;
    const text = typeof raw === "string" ? raw.trim() : null;
    const value = text === null ? raw : DECIMAL.test(text) ? Number(text) : Number.NaN;
    if (Number.isFinite(value) && (value as number) >= 0) return value as number;
    ctx.issues.push({ code: "custom", input: raw, message: "must be a finite number >= 0" });
    return z.NEVER;
  })
  .describe("Asset amount in token units (a number, or a numeric string), or null.");

/** A risk model id, or null (the account's default model); an empty string means null. */
export const riskModelField = wireString()
  .max(RISK_MODEL_MAX)
  .nullable()
  .optional()
  .transform((v) => (v === undefined || v === null || v.trim() === "" ? null : v.trim()))
  .describe("ID of the risk model to apply; null or omitted for the default model.");
