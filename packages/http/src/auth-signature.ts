/**
 * The interface's request signature: base64(HMAC-SHA256(secret, METHOD \n PATH?QUERY \n
 * TIMESTAMP [\n BODY])), and the constant-time check of a presented signature against the
 * forms of the request a client may have signed.
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
  // A string key is its UTF-8 bytes, as Buffer.from(secret, "utf8") is, without the copy.
  const hmac = createHmac("sha256", secret);
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
 * True when `presented` (the API-SIGNATURE value) is the signature of one of `candidates`,
 * each compared with `timingSafeEqual` on 32-byte buffers. The search stops at the first match
 * (which form matched tells nothing to whoever holds the secret); a candidate equal to one
 * already tried (same method, target, timestamp and body bytes) is not computed again.
 */
export function matchesAnySignature(
  secret: string,
  presented: string,
  candidates: Iterable<SignedParts>,
): boolean {
  if (!BASE64_DIGEST.test(presented)) return false;
  const given = Buffer.from(presented, "base64");
  if (given.length !== 32) return false;
  const tried: SignedParts[] = [];
  for (const parts of candidates) {
    if (tried.some((t) => sameParts(t, parts))) continue;
    tried.push(parts);
    if (timingSafeEqual(given, signatureDigest(secret, parts))) return true;
  }
  return false;
}

function sameParts(a: SignedParts, b: SignedParts): boolean {
  if (a.method !== b.method || a.target !== b.target || a.timestamp !== b.timestamp) return false;
  if (a.body === null || b.body === null) return a.body === b.body;
  if (a.body === b.body) return true;
  if (a.body.byteLength !== b.body.byteLength) return false;
  return Buffer.from(a.body.buffer, a.body.byteOffset, a.body.byteLength).equals(b.body);
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
