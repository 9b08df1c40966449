/**
 * Signing a request exactly as the interface says: base64(HMAC-SHA256(secret, METHOD \n
 * PATH?QUERY \n TIMESTAMP [\n BODY])), the body being the compact JSON text that is sent.
 */
import { createHmac } from "node:crypto";

/** What a signature covers. */
export interface SignRequestInput {
  /** The API secret (UTF-8). */
  readonly secret: string;
  /** HTTP method, upper case. */
  readonly method: string;
  /** The path with its query string, exactly as sent (e.g. `/v1/transfers/?page=2`). */
  readonly path: string;
  /** The API-TIMESTAMP value: milliseconds, as a number or its decimal text. */
  readonly timestamp: number | string;
  /** The body text exactly as sent; null, undefined or "" for none. */
  readonly body?: string | null;
}

/** The string the HMAC is computed over. */
export function stringToSign(input: Omit<SignRequestInput, "secret">): string {
  const head = `${input.method}\n${input.path}\n${input.timestamp}`;
  return input.body ? `${head}\n${input.body}` : head;
}

/** The API-SIGNATURE value of a request. */
export function signRequest(input: SignRequestInput): string {
  return createHmac("sha256", Buffer.from(input.secret, "utf8"))
    .update(stringToSign(input), "utf8")
    .digest("base64");
}

/** The three signed headers of a request. */
export function signedHeaders(
  keyId: string,
  input: SignRequestInput,
): { "API-KEY-ID": string; "API-TIMESTAMP": string; "API-SIGNATURE": string } {
  return {
    "API-KEY-ID": keyId,
    "API-TIMESTAMP": String(input.timestamp),
    "API-SIGNATURE": signRequest(input),
  };
}
