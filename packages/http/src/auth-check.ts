/**
 * Authentication of a request as the interface defines it: the API-KEY-ID, API-TIMESTAMP
 * and API-SIGNATURE headers (names case-insensitive), a timestamp within the window in both
 * directions, a live key, a signature over one of the forms the client may have signed, and
 * no replay of a signed non-GET request. Outcomes are values; nothing is changed on failure.
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

/** An authenticated request, not yet admitted against replay. */
export interface Verified {
  readonly ok: true;
  readonly keyId: string;
  readonly accountId: string;
  /** The signature in canonical Base64 (padded, unused bits zero): one text per digest. */
  readonly signature: string;
  readonly timestamp: number;
  readonly method: string;
}

/** Why a request is refused (the 401 detail; never mentions the secret). */
export interface Refused {
  readonly ok: false;
  readonly detail: string;
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

const refuse = (detail: string, keyId?: string): Refused => ({ ok: false, detail, keyId });

/** Checks the signed headers of requests. */
export function createAuthenticator(options: AuthenticatorOptions) {
  const { keys, windowMs, replay } = options;
  const resolveOptions = { maxAgeMs: options.keyMaxAgeMs ?? 0 };
  return Object.freeze({
    /** Verifies the headers, timestamp, key and signature of a request at time `now`. */
    async verify(req: AuthRequest, now: number): Promise<Verified | Refused> {
      const keyId = req.header("api-key-id")?.trim();
      const stamp = req.header("api-timestamp")?.trim();
      const signature = req.header("api-signature")?.trim();
      if (!keyId || !stamp || !signature) {
        const missing = [
          keyId ? null : "API-KEY-ID",
          stamp ? null : "API-TIMESTAMP",
          signature ? null : "API-SIGNATURE",
        ].filter((h) => h !== null);
        const legacy =
          req.header("x-api-key-secret") !== undefined ? " (X-API-KEY-SECRET is not accepted)" : "";
        return refuse(`missing authentication header(s): ${missing.join(", ")}${legacy}`, keyId);
      }
      if (!TIMESTAMP.test(stamp)) return refuse("API-TIMESTAMP must be the time in milliseconds", keyId);
      const timestamp = Number(stamp);
      if (Math.abs(now - timestamp) > windowMs) {
        return refuse(
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
      if (!key) return refuse("unknown or revoked API key", keyId);
      const candidates: SignedParts[] = [];
      for (const target of targetCandidates(req.targets)) {
        for (const body of signedBodyForms(req.raw, req.parsed)) {
          candidates.push({ method: req.method, target, timestamp: stamp, body });
        }
      }
      if (!matchesAnySignature(key.secret, signature, candidates)) {
        return refuse("the signature does not match the request", keyId);
      }
      // The replay guard keys on the digest, not on the text: the same digest may be written
      // without its `=` or with other values in the last character's unused bits.
      const canonical = Buffer.from(signature, "base64").toString("base64");
      return {
        ok: true,
        keyId,
        accountId: key.accountId,
        signature: canonical,
        timestamp,
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
      return refuse("this signed request was already received (replay)", request.keyId);
    },
  });
}

/** The request authenticator. */
export type Authenticator = ReturnType<typeof createAuthenticator>;
