/**
 * How API and webhook secrets are kept at rest. HMAC verification needs the secret itself, so
 * secrets cannot be hashed: with a vault key they are encrypted (AES-256-GCM, a fresh IV per
 * secret, the owner's id bound as additional data); without one they are kept as given and the
 * caller is told so. The vault key never reaches the store.
 *
 * Stored forms:
 * - `enc:v2:` base64 of salt (16) | IV (12) | tag (16) | ciphertext. The AES key is
 *   HKDF-SHA256(vault key, salt, "openkyt secret vault v2"): a fresh salt per secret, so no two
 *   secrets share a key. This is what `seal` writes.
 * - `enc:v1:` base64 of IV (12) | tag (16) | ciphertext, under SHA-256(vault key). Still opened,
 *   never written; `openkyt keys seal` turns it into v2.
 * - `plain:` the secret as given: written and opened only without a vault key. With one it is
 *   refused (whoever can write the database could otherwise plant a secret of their choosing);
 *   `openkyt keys seal` encrypts such secrets.
 */
import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from "node:crypto";
import { KytError } from "../../errors.js";

const ENCRYPTED_V1 = "enc:v1:";
const ENCRYPTED_V2 = "enc:v2:";
const PLAIN = "plain:";
const SALT_BYTES = 16;
const IV_BYTES = 12;
/** GCM tag length: always the full 16 bytes, checked on open. */
const TAG_BYTES = 16;
const HKDF_INFO = Buffer.from("openkyt secret vault v2", "utf8");

/** The command that re-seals stored secrets under the current vault key. */
export const SEAL_COMMAND = "openkyt keys seal";

/** Seals and opens secrets. */
export interface SecretVault {
  /** True when secrets are encrypted at rest. */
  readonly encrypts: boolean;
  /** The stored form of a secret of `ownerId` (an API key or webhook id). */
  seal(ownerId: string, secret: string): string;
  /**
   * The secret of a stored form. A form sealed with another vault key, tampered with, too short
   * to hold its IV and tag, or `plain:` while a vault key is set, is an error.
   */
  open(ownerId: string, stored: string): string;
  /**
   * True when a stored form is not in the form `seal` writes now (`plain:` or `enc:v1:` under a
   * vault key): `openkyt keys seal` re-seals it.
   */
  needsSealing(stored: string): boolean;
  /**
   * Re-seals a stored form in the current format: opens it (`plain:` too, for this migration
   * only) and seals the secret again. Errors as `open` for a form it cannot open.
   */
  reseal(ownerId: string, stored: string): string;
}

/** Splits `raw` into its parts after `head` bytes of prefix, refusing a form too short to hold them. */
function gcmParts(ownerId: string, raw: Buffer, head: number) {
  if (raw.length < head + IV_BYTES + TAG_BYTES)
    throw new KytError(
      "STORE_ERROR",
      `the stored secret of ${ownerId} is truncated: shorter than its IV and ${TAG_BYTES}-byte tag`,
    );
  return {
    prefix: raw.subarray(0, head),
    iv: raw.subarray(head, head + IV_BYTES),
    tag: raw.subarray(head + IV_BYTES, head + IV_BYTES + TAG_BYTES),
    body: raw.subarray(head + IV_BYTES + TAG_BYTES),
  };
}

/** AES-256-GCM decryption with the owner's id as additional data and a 16-byte tag. */
function decrypt(ownerId: string, key: Buffer, iv: Buffer, tag: Buffer, body: Buffer): string {
  try {
    const decipher = createDecipheriv("aes-256-gcm", key, iv, { authTagLength: TAG_BYTES }).setAAD(
      Buffer.from(ownerId, "utf8"),
    );
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(body), decipher.final()]).toString("utf8");
  } catch (error) {
    throw new KytError(
      "NOT_CONFIGURED",
      `the stored secret of ${ownerId} cannot be opened with the configured vault key`,
      { cause: error },
    );
  }
}

/** The pass-through vault of a deployment without a vault key. */
function plainVault(): SecretVault {
  const open = (id: string, stored: string): string => {
    if (stored.startsWith(PLAIN)) return stored.slice(PLAIN.length);
    throw new KytError(
      "NOT_CONFIGURED",
      `the secret of ${id} is encrypted: configure the vault key to use it`,
    );
  };
  return {
    encrypts: false,
    seal: (_id, secret) => `${PLAIN}${secret}`,
    open,
    needsSealing: () => false,
    reseal: (id, stored) => `${PLAIN}${open(id, stored)}`,
  };
}

/**
 * A vault from a key (any string of at least 32 characters, meant to be random: see
 * docs/security.md), or a pass-through vault when `key` is undefined or empty.
 */
export function createSecretVault(key: string | undefined): SecretVault {
  if (key === undefined || key === "") return plainVault();
  if (key.length < 32)
    throw new KytError("VALIDATION_ERROR", "the API key vault key must be at least 32 characters");
  const ikm = Buffer.from(key, "utf8");
  const legacyKey = createHash("sha256").update(key, "utf8").digest();
  const derive = (salt: Buffer) => Buffer.from(hkdfSync("sha256", ikm, salt, HKDF_INFO, 32));

  const seal = (id: string, secret: string): string => {
    const salt = randomBytes(SALT_BYTES);
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv("aes-256-gcm", derive(salt), iv, { authTagLength: TAG_BYTES }).setAAD(
      Buffer.from(id, "utf8"),
    );
    const body = Buffer.concat([cipher.update(secret, "utf8"), cipher.final()]);
    return `${ENCRYPTED_V2}${Buffer.concat([salt, iv, cipher.getAuthTag(), body]).toString("base64")}`;
  };
  const openEncrypted = (id: string, stored: string): string => {
    if (stored.startsWith(ENCRYPTED_V2)) {
      const raw = Buffer.from(stored.slice(ENCRYPTED_V2.length), "base64");
      const { prefix, iv, tag, body } = gcmParts(id, raw, SALT_BYTES);
      return decrypt(id, derive(prefix), iv, tag, body);
    }
    if (stored.startsWith(ENCRYPTED_V1)) {
      const raw = Buffer.from(stored.slice(ENCRYPTED_V1.length), "base64");
      const { iv, tag, body } = gcmParts(id, raw, 0);
      return decrypt(id, legacyKey, iv, tag, body);
    }
    throw new KytError("STORE_ERROR", `the stored secret of ${id} is in an unknown format`);
  };
  return {
    encrypts: true,
    seal,
    open(id, stored) {
      if (stored.startsWith(PLAIN))
        throw new KytError(
          "NOT_CONFIGURED",
          `the secret of ${id} is stored unencrypted (plain:) but a vault key is set: ` +
            `run \`${SEAL_COMMAND}\` with the vault key to encrypt stored secrets`,
        );
      return openEncrypted(id, stored);
    },
    needsSealing: (stored) => !stored.startsWith(ENCRYPTED_V2),
    reseal(id, stored) {
      const secret = stored.startsWith(PLAIN) ? stored.slice(PLAIN.length) : openEncrypted(id, stored);
      return seal(id, secret);
    },
  };
}
