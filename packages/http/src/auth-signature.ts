/**
 * The interface's request signature: base64(HMAC-SHA256(secret, METHOD \n PATH?QUERY \n
 * TIMESTAMP [\n BODY])), and the constant-time check of a presented signature against every
 * form of the request a client may have signed.
 */
import { createHmac, timingSafeEqual } from "node:crypto";

/** What a signature covers. `body` null means no body line (GET, or an empty payload). */
export interface SignedParts {
  readonly method: string;
  /** The path with its query string, as the client signed it. */
  readonly target: string;
  readonly timestamp: string;
  readonly body: Uint8Array | null;
}

/** The raw HMAC-SHA256 digest of a request's string to sign. */
export function signatureDigest(secret: string, parts: SignedParts): Buffer {
  const hmac = createHmac("sha256", Buffer.from(secret, "utf8"));
  hmac.update(`${parts.method}\n${parts.target}\n${parts.timestamp}`, "utf8");
  if (parts.body !== null) {
    hmac.update("\n", "utf8");
    hmac.update(parts.body);
  }
  return hmac.digest();
}

/** The signature header value (standard Base64) of a request. */
export function computeSignature(secret: string, parts: SignedParts): string {
  return signatureDigest(secret, parts).toString("base64");
}

const BASE64_DIGEST = /^[A-Za-z0-9+/]{43}=?$/;

/**
 * True when `presented` (the API-SIGNATURE value) is the signature of one of `candidates`.
 * Every candidate is compared, each with `timingSafeEqual` on 32-byte buffers.
 */
export function matchesAnySignature(
  secret: string,
  presented: string,
  candidates: ReadonlyArray<SignedParts>,
): boolean {
  if (!BASE64_DIGEST.test(presented)) return false;
  const given = Buffer.from(presented, "base64");
  if (given.length !== 32) return false;
  let matched = false;
  for (const parts of candidates) {
    if (timingSafeEqual(given, signatureDigest(secret, parts))) matched = true;
  }
  return matched;
}

/**
 * The request targets a signature may cover: the target as sent (raw and as the URL parser
 * normalised it) and, when its path has no trailing slash, the same with the slash added.
 */
export function targetCandidates(targets: ReadonlyArray<string>): string[] {
  const out = new Set<string>();
  for (const target of targets) {
    out.add(target);
    const q = target.indexOf("?");
    const path = q === -1 ? target : target.slice(0, q);
    if (!path.endsWith("/")) out.add(`${path}/${q === -1 ? "" : target.slice(q)}`);
  }
  return [...out];
}
