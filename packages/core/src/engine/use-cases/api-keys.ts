/**
 * API keys: created per account (the secret is returned once and never again), listed without
 * secrets, revoked at once, and resolved for request signing checks. Resolved live keys are
 * remembered in memory: by default a lookup still reads the key's row (so a revocation made by
 * another process, the CLI, counts on the next request) and only skips opening the secret when
 * the stored form is unchanged; a caller may accept a remembered key up to `maxAgeMs` old and
 * skip the read. A revocation through this service forgets the key at once.
 */
import { randomBytes } from "@noble/hashes/utils.js";
import type { ApiKeyRecord } from "../../domain/records.js";
import { fieldError, isKytError, KytError } from "../../errors.js";
import type { Clock } from "../../ports/runtime.js";
import type { Store } from "../../ports/store.js";
import { textProblem } from "../../schemas/wire-text.js";
import type { SecretVault } from "../secrets/secret-vault.js";

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
  /** What the key is for; null when unnamed. */
  readonly name: string | null;
}

/** Longest key name. */
export const API_KEY_NAME_MAX = 100;

/** A key just created: the only time its secret is shown. */
export interface CreatedApiKey extends ApiKeyInfo {
  readonly secret: string;
}

/** The account and secret of a live key. */
export interface ResolvedApiKey {
  readonly accountId: string;
  readonly secret: string;
}

/** Options of {@link ApiKeyService.resolve}. */
export interface ResolveOptions {
  /**
   * Accept a key this service resolved at most this many ms ago without reading the store:
   * a revocation made by another process is then seen up to this late (one made through this
   * service still counts at once). Default 0: the key's row is read on every lookup.
   */
  readonly maxAgeMs?: number;
}

/** The memory of resolved keys. */
export interface ApiKeyCacheOptions {
  /** Most keys remembered (the oldest are dropped first); default 10,000. */
  readonly maxEntries?: number;
}

/** Defaults of {@link ApiKeyCacheOptions}. */
export const API_KEY_CACHE_DEFAULTS = Object.freeze({ maxEntries: 10_000 });

/** A remembered live key: what it resolved to, from which stored form, and when it was read. */
interface Remembered {
  readonly key: ResolvedApiKey;
  readonly accountId: string;
  readonly sealed: string;
  readonly readAt: number;
}

const info = (r: ApiKeyRecord): ApiKeyInfo => ({
  id: r.id,
  accountId: r.accountId,
  createdAt: r.createdAt,
  revokedAt: r.revokedAt,
  name: r.name ?? null,
});

function checkAccount(accountId: string): void {
  if (!ACCOUNT.test(accountId)) throw fieldError("account", "1-64 letters, digits or _ . @ -");
}

/** The API key operations over a store. */
export function apiKeyService(
  store: Store,
  vault: SecretVault,
  clock: Clock,
  cacheOptions: ApiKeyCacheOptions = {},
) {
  const maxEntries = cacheOptions.maxEntries ?? API_KEY_CACHE_DEFAULTS.maxEntries;
  // Live keys only: an unknown id is never remembered, so random ids cannot fill the memory.
  const memory = new Map<string, Remembered>();
  // Bumped before and after every revocation: a lookup that overlapped one is not remembered.
  let generation = 0;

  /** A live key as stored: its secret sealed, created now. */
  function newKey(id: string, secret: string, accountId: string): ApiKeyRecord {
    return { id, accountId, secret: vault.seal(id, secret), createdAt: clock.now(), revokedAt: null };
  }

  function remember(id: string, entry: Remembered): void {
    if (maxEntries <= 0) return;
    memory.delete(id);
    for (const oldest of memory.keys()) {
      if (memory.size < maxEntries) break;
      memory.delete(oldest);
    }
    memory.set(id, entry);
  }

  return Object.freeze({
    /** True when secrets are encrypted at rest. */
    encryptsSecrets: vault.encrypts,
    /** Creates a key for an account: a 32-character id and a 64-character secret. */
    async create(accountId: string, name?: string): Promise<CreatedApiKey> {
      checkAccount(accountId);
      const named = name?.trim();
      if (
        named !== undefined &&
        (named.length === 0 || named.length > API_KEY_NAME_MAX || textProblem(named) !== null)
      )
        throw fieldError("name", `1-${API_KEY_NAME_MAX} characters of plain text`);
      const id = randomToken(32);
      const secret = randomToken(64);
      const record = { ...newKey(id, secret, accountId), ...(named === undefined ? {} : { name: named }) };
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
      const record = newKey(id, secret, accountId);
      try {
        await store.putApiKey(record);
      } catch (error) {
        if (!isKytError(error, "CONFLICT")) throw error;
      }
      return info(record);
    },
    /** The keys of an account, oldest first, without secrets. */
    async list(accountId: string): Promise<ApiKeyInfo[]> {
      // No key belongs to a name `create` refuses (a NUL would also fail a Postgres query).
      if (!ACCOUNT.test(accountId)) return [];
      return (await store.listApiKeys(accountId)).map(info);
    },
    /**
     * Revokes a key; false when unknown or already revoked. It fails authentication at once
     * (this service forgets the key; other processes read it on their next lookup, or when a
     * key they accepted with `maxAgeMs` gets that old).
     */
    async revoke(id: string): Promise<boolean> {
      if (!KEY_ID.test(id)) return false;
      generation += 1;
      memory.delete(id);
      try {
        return await store.revokeApiKey(id, clock.now());
      } finally {
        generation += 1;
        memory.delete(id);
      }
    },
    /** The account and secret of a live key, or null when unknown or revoked. */
    async resolve(id: string, options: ResolveOptions = {}): Promise<ResolvedApiKey | null> {
      const now = clock.now();
      const known = memory.get(id);
      const maxAgeMs = options.maxAgeMs ?? 0;
      if (known !== undefined && maxAgeMs > 0 && now >= known.readAt && now - known.readAt < maxAgeMs)
        return known.key;
      if (!KEY_ID.test(id)) return null;
      const started = generation;
      const record = await store.getApiKey(id);
      if (!record || record.revokedAt !== null) {
        memory.delete(id);
        return null;
      }
      const key =
        known !== undefined && known.sealed === record.secret && known.accountId === record.accountId
          ? known.key
          : Object.freeze({ accountId: record.accountId, secret: vault.open(id, record.secret) });
      if (generation === started)
        remember(id, { key, accountId: record.accountId, sealed: record.secret, readAt: now });
      return key;
    },
  });
}

/** The API key operations. */
export type ApiKeyService = ReturnType<typeof apiKeyService>;
