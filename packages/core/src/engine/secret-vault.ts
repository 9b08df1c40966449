/**
 * How API secrets are kept at rest. HMAC verification needs the secret itself, so secrets
 * cannot be hashed: with a vault key they are encrypted (AES-256-GCM, a fresh IV per secret,
 * the key id bound as additional data); without one they are kept as given and the caller is
 * told so. The vault key never reaches the store.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import { KytError } from "../errors.js";

const ENCRYPTED = "enc:v1:";
const PLAIN = "plain:";

/** Seals and opens secrets. */
export interface SecretVault {
  /** True when secrets are encrypted at rest. */
  readonly encrypts: boolean;
  /** The stored form of a key's secret. */
  seal(keyId: string, secret: string): string;
  /** The secret of a stored form; a form sealed with another vault key or tampered with is an error. */
  open(keyId: string, stored: string): string;
}

/**
 * A vault from a key (any string of at least 32 characters; it is hashed to 256 bits), or a
 * pass-through vault when `key` is undefined.
 */
export function createSecretVault(key: string | undefined): SecretVault {
  if (key === undefined || key === "") {
    return {
      encrypts: false,
      seal: (_id, secret) => `${PLAIN}${secret}`,
      open: (id, stored) => {
        if (stored.startsWith(PLAIN)) return stored.slice(PLAIN.length);
        throw new KytError("NOT_CONFIGURED", `API key ${id} is encrypted: configure the vault key to use it`);
      },
    };
  }
  if (key.length < 32)
    throw new KytError("VALIDATION_ERROR", "the API key vault key must be at least 32 characters");
  const aesKey = createHash("sha256").update(key, "utf8").digest();
  return {
    encrypts: true,
    seal(id, secret) {
      const iv = randomBytes(12);
      const cipher = createCipheriv("aes-256-gcm", aesKey, iv).setAAD(Buffer.from(id, "utf8"));
      const body = Buffer.concat([cipher.update(secret, "utf8"), cipher.final()]);
      return `${ENCRYPTED}${Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64")}`;
    },
    open(id, stored) {
      if (stored.startsWith(PLAIN)) return stored.slice(PLAIN.length);
      if (!stored.startsWith(ENCRYPTED))
        throw new KytError("STORE_ERROR", `API key ${id}: unknown secret format`);
      const raw = Buffer.from(stored.slice(ENCRYPTED.length), "base64");
      try {
        const decipher = createDecipheriv("aes-256-gcm", aesKey, raw.subarray(0, 12)).setAAD(
          Buffer.from(id, "utf8"),
        );
        decipher.setAuthTag(raw.subarray(12, 28));
        return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString("utf8");
      } catch (error) {
        throw new KytError("NOT_CONFIGURED", `API key ${id} cannot be opened with the configured vault key`, {
          cause: error,
        });
      }
    },
  };
}
