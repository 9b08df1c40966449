/**
 * API keys: created per account (the secret is returned once and never again), listed without
 * secrets, revoked at once, and resolved for request signing checks.
 */
import { randomBytes } from "node:crypto";
import type { ApiKeyRecord } from "../domain/records.js";
import { fieldError, isKytError, KytError } from "../errors.js";
import type { Clock } from "../ports/runtime.js";
import type { Store } from "../ports/store.js";
import type { SecretVault } from "./secret-vault.js";

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const KEY_ID = /^[A-Za-z0-9_-]{8,64}$/;
const ACCOUNT = /^[A-Za-z0-9_.@-]{1,64}$/;

/** A random string over letters and digits (rejection sampling: no modulo bias). */
export function randomToken(length: number): string {
  let out = "";
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && out.length < length) out += ALPHABET[byte % 62];
    }
  }
  return out;
}

/** A key as listed: never its secret. */
export interface ApiKeyInfo {
  readonly id: string;
  readonly accountId: string;
  readonly createdAt: number;
  readonly revokedAt: number | null;
}

/** A key just created: the only time its secret is shown. */
export interface CreatedApiKey extends ApiKeyInfo {
  readonly secret: string;
}

const info = (r: ApiKeyRecord): ApiKeyInfo => ({
  id: r.id,
  accountId: r.accountId,
  createdAt: r.createdAt,
  revokedAt: r.revokedAt,
});

function checkAccount(accountId: string): void {
  if (!ACCOUNT.test(accountId)) throw fieldError("account", "1-64 letters, digits or _ . @ -");
}

/** The API key operations over a store. */
export function apiKeyService(store: Store, vault: SecretVault, clock: Clock) {
  return Object.freeze({
    /** True when secrets are encrypted at rest. */
    encryptsSecrets: vault.encrypts,
    /** Creates a key for an account: a 32-character id and a 64-character secret. */
    async create(accountId: string): Promise<CreatedApiKey> {
      checkAccount(accountId);
      const id = randomToken(32);
      const secret = randomToken(64);
      const record: ApiKeyRecord = {
        id,
        accountId,
        secret: vault.seal(id, secret),
        createdAt: clock.now(),
        revokedAt: null,
      };
      await store.putApiKey(record);
      return { ...info(record), secret };
    },
    /**
     * Provisions a key with a given id and secret (scripted setups, `OPENKYT_API_KEYS`).
     * Idempotent for the same id, secret and account; a different secret or account for an
     * existing id is a CONFLICT.
     */
    async provision(id: string, secret: string, accountId: string): Promise<ApiKeyInfo> {
      if (!KEY_ID.test(id)) throw fieldError("id", "8-64 letters, digits, _ or -");
      if (secret.length < 16) throw fieldError("secret", "at least 16 characters");
      checkAccount(accountId);
      const existing = await store.getApiKey(id);
      if (existing) {
        if (
          existing.accountId !== accountId ||
          vault.open(id, existing.secret) !== secret ||
          existing.revokedAt !== null
        ) {
          throw new KytError(
            "CONFLICT",
            `API key ${id} already exists with another secret, account or was revoked`,
          );
        }
        return info(existing);
      }
      const record: ApiKeyRecord = {
        id,
        accountId,
        secret: vault.seal(id, secret),
        createdAt: clock.now(),
        revokedAt: null,
      };
      try {
        await store.putApiKey(record);
      } catch (error) {
        if (!isKytError(error, "CONFLICT")) throw error;
      }
      return info(record);
    },
    /** The keys of an account, oldest first, without secrets. */
    async list(accountId: string): Promise<ApiKeyInfo[]> {
      return (await store.listApiKeys(accountId)).map(info);
    },
    /** Revokes a key; false when unknown or already revoked. It fails authentication at once. */
    revoke(id: string): Promise<boolean> {
      return store.revokeApiKey(id, clock.now());
    },
    /** The account and secret of a live key, or null when unknown or revoked. */
    async resolve(id: string): Promise<{ accountId: string; secret: string } | null> {
      if (!KEY_ID.test(id)) return null;
      const record = await store.getApiKey(id);
      if (!record || record.revokedAt !== null) return null;
      return { accountId: record.accountId, secret: vault.open(id, record.secret) };
    },
  });
}

/** The API key operations. */
export type ApiKeyService = ReturnType<typeof apiKeyService>;
