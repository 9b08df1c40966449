/**
 * Authentication of a request as the interface defines it: the API-KEY-ID, API-TIMESTAMP
 * and API-SIGNATURE headers (names case-insensitive), a timestamp within the window in both
 * directions, a live key, a signature over one of the forms the client may have signed, and
 * no replay of a signed non-GET request. Outcomes are values; nothing is changed on failure.
 * The headers, timestamp and key are checked before the body is read (`precheck`), the
 * signature after (`checkSignature`).
 */
import { KytError, type ReplayGuardPort } from "@openkyt/core";
import { matchesAnySignature, type SignedParts, targetCandidates } from "./auth-signature.js";
import { type ParsedBody, signedBodyForms } from "./body-forms.js";

/** The parts of a request authentication reads. */
export interface AuthRequest {
  readonly method: string;
  /** The request target (path and query) as sent, in every form the server saw it. */
  readonly targets: ReadonlyArray<string>;
  /** Reads a header (case-insensitive). */
  readonly header: (name: string) => string | undefined;
  readonly raw: Uint8Array;
  readonly parsed: ParsedBody;
}

/** What a signature check reads besides the headers: method, targets and body. */
export type SignedRequest = Pick<AuthRequest, "method" | "targets" | "raw" | "parsed">;

/** A request whose headers, timestamp and key passed, its signature not yet checked. */
export interface Prechecked {
  readonly ok: true;
  readonly keyId: string;
  readonly accountId: string;
  readonly secret: string;
  /** API-TIMESTAMP as sent. */
  readonly stamp: string;
  readonly timestamp: number;
  /** API-SIGNATURE as sent. */
  readonly signature: string;
}

/** An authenticated request, not yet admitted against replay. */
export interface Verified {
  readonly ok: true;
  readonly keyId: string;
  readonly accountId: string;
  /**
   * The signature the replay guard keys on: for a request admitted against replay (not GET or
   * HEAD), canonical Base64 (padded, unused bits zero), one text per digest; for GET and HEAD,
   * which are not admitted, the text as sent (canonicalising it would be work for nothing).
   */
  readonly signature: string;
  readonly timestamp: number;
  readonly method: string;
}

/**
 * Why authentication refused a request, as a closed set (the metrics' label): headers missing, a
 * timestamp not in milliseconds or outside the window, a bad signature (also an unknown or
 * revoked key: the answer does not tell them apart), a replay, a console session not valid.
 */
export const AUTH_REFUSAL_REASONS = [
  "missing_headers",
  "bad_timestamp",
  "timestamp_window",
  "bad_signature",
  "replay",
  "session",
] as const;

/** One of {@link AUTH_REFUSAL_REASONS}. */
export type AuthRefusalReason = (typeof AUTH_REFUSAL_REASONS)[number];

/** Why a request is refused (the 401 detail; never mentions the secret). */
export interface Refused {
  readonly ok: false;
  readonly detail: string;
  /** The reason as a closed set, for metrics. */
  readonly reason: AuthRefusalReason;
  /** The key id presented, for the log. */
  readonly keyId?: string;
}

/**
 * Resolves a key id to its account and secret (null: unknown or revoked); with `maxAgeMs` it
 * may answer from a lookup made at most that long ago.
 */
export interface KeyResolver {
  resolve(
    keyId: string,
    options?: { maxAgeMs?: number },
  ): Promise<{ accountId: string; secret: string } | null>;
}

/** Options of {@link createAuthenticator}. */
export interface AuthenticatorOptions {
  readonly keys: KeyResolver;
  /** Accepted distance between API-TIMESTAMP and the server clock, ms, both directions. */
  readonly windowMs: number;
  /** Where admitted non-GET requests are recorded (see `createReplayGuard`). */
  readonly replay: ReplayGuardPort;
  /** How old (ms) a key lookup may be reused; 0 (the default) reads the key on every request. */
  readonly keyMaxAgeMs?: number;
}

const TIMESTAMP = /^\d{1,16}$/;
const SAFE_METHODS = new Set(["GET", "HEAD"]);

const refuse = (reason: AuthRefusalReason, detail: string, keyId?: string): Refused => ({
  ok: false,
  detail,
  reason,
  keyId,
});

/**
 * The one detail of an unknown key, a revoked key and a bad signature: the answer does not tell
 * whether a key id exists.
 */
export const BAD_SIGNATURE = "the request signature is not valid for this API key";

/**
 * The signed forms of a request, lazily and most likely first: the raw body under each target
 * before the other body forms are even built, so a client that signs what it sends costs one
 * HMAC and no re-serialisation.
 */
function* signatureCandidates(pre: Prechecked, req: SignedRequest): Generator<SignedParts> {
  const targets = targetCandidates(req.targets);
  const first = req.raw.length === 0 ? null : req.raw;
  for (const target of targets) yield { method: req.method, target, timestamp: pre.stamp, body: first };
  for (const body of signedBodyForms(req.raw, req.parsed).slice(1)) {
    for (const target of targets) yield { method: req.method, target, timestamp: pre.stamp, body };
  }
}

/** Checks the signed headers of requests. */
export function createAuthenticator(options: AuthenticatorOptions) {
  const { keys, windowMs, replay } = options;
  const resolveOptions = { maxAgeMs: options.keyMaxAgeMs ?? 0 };
  return Object.freeze({
    /**
     * Checks what can be checked before the body is read: the headers, the timestamp and the
     * key. A refusal of an unknown or revoked key has the same detail as a bad signature.
     */
    async precheck(header: AuthRequest["header"], now: number): Promise<Prechecked | Refused> {
      const keyId = header("api-key-id")?.trim();
      const stamp = header("api-timestamp")?.trim();
      const signature = header("api-signature")?.trim();
      if (!keyId || !stamp || !signature) {
        const missing = [
          keyId ? null : "API-KEY-ID",
          stamp ? null : "API-TIMESTAMP",
          signature ? null : "API-SIGNATURE",
        ].filter((h) => h !== null);
        const legacy = header("x-api-key-secret") !== undefined ? " (X-API-KEY-SECRET is not accepted)" : "";
        return refuse(
          "missing_headers",
          `missing authentication header(s): ${missing.join(", ")}${legacy}`,
          keyId,
        );
      }
      if (!TIMESTAMP.test(stamp))
        return refuse("bad_timestamp", "API-TIMESTAMP must be the time in milliseconds", keyId);
      const timestamp = Number(stamp);
      if (Math.abs(now - timestamp) > windowMs) {
        return refuse(
          "timestamp_window",
          `API-TIMESTAMP is outside the accepted window of ${Math.round(windowMs / 1000)} s (milliseconds expected)`,
          keyId,
        );
      }
      let key: Awaited<ReturnType<KeyResolver["resolve"]>>;
      try {
        key = await keys.resolve(keyId, resolveOptions);
      } catch (error) {
        // A store failure or a secret the vault cannot open is the server's fault, not the client's.
        throw new KytError("INTERNAL_ERROR", "API key resolution failed", { cause: error });
      }
      if (!key) return refuse("bad_signature", BAD_SIGNATURE, keyId);
      return {
        ok: true,
        keyId,
        accountId: key.accountId,
        secret: key.secret,
        stamp,
        timestamp,
        signature,
      };
    },
    /**
     * Checks the signature of a prechecked request over its body: the forms are tried most
     * likely first and the first match ends the search (a refusal tries each distinct form once).
     */
    checkSignature(pre: Prechecked, req: SignedRequest): Verified | Refused {
      if (!matchesAnySignature(pre.secret, pre.signature, signatureCandidates(pre, req))) {
        return refuse("bad_signature", BAD_SIGNATURE, pre.keyId);
      }
      // The replay guard keys on the digest, not on the text: the same digest may be written
      // without its `=` or with other values in the last character's unused bits. GET and HEAD
      // are not admitted against replay, so their signature is not canonicalised.
      const signature = SAFE_METHODS.has(req.method)
        ? pre.signature
        : Buffer.from(pre.signature, "base64").toString("base64");
      return {
        ok: true,
        keyId: pre.keyId,
        accountId: pre.accountId,
        signature,
        timestamp: pre.timestamp,
        method: req.method,
      };
    },
    /**
     * Admits a verified request: a non-GET request whose signature was admitted before within
     * the window is refused as a replay (null: admitted). A guard with no room throws
     * REPLAY_GUARD_FULL (503 with Retry-After; nothing recorded, the same request may be sent
     * again). Call after rate limiting, so a refused request can be sent again.
     */
    async admit(request: Verified, now: number): Promise<Refused | null> {
      if (SAFE_METHODS.has(request.method)) return null;
      // Remembered until the timestamp check refuses the request anyway, on any node: each
      // node compares its own clock with the same bound.
      const expiresAt = request.timestamp + windowMs;
      const admission = await replay.admit(request.keyId, request.signature, expiresAt, now);
      if (admission.outcome === "fresh") return null;
      if (admission.outcome === "full") {
        throw new KytError(
          "REPLAY_GUARD_FULL",
          "too many signed requests in flight to guard against replay; retry later",
          { details: { retryAfterMs: admission.retryAfterMs } },
        );
      }
      return refuse("replay", "this signed request was already received (replay)", request.keyId);
    },
  });
}

/** The request authenticator. */
export type Authenticator = ReturnType<typeof createAuthenticator>;
