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
 *
 * The primitives are the audited pure-JavaScript @noble ones (core imports no `node:` builtin):
 * the formats are the standard AES-GCM and HKDF, so what Node's crypto sealed opens here and the
 * other way round (test/engine/secret-vault.test.ts holds them to node:crypto).
 */
import { gcm } from "@noble/ciphers/aes.js";
import { hkdf } from "@noble/hashes/hkdf.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { concatBytes, randomBytes, utf8ToBytes } from "@noble/hashes/utils.js";
import { base64 } from "@scure/base";
import { KytError } from "../../errors.js";

const ENCRYPTED_V1 = "enc:v1:";
const ENCRYPTED_V2 = "enc:v2:";
const PLAIN = "plain:";
const SALT_BYTES = 16;
const IV_BYTES = 12;
/** GCM tag length: always the full 16 bytes, checked on open. */
const TAG_BYTES = 16;
const HKDF_INFO = utf8ToBytes("openkyt secret vault v2");

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
function gcmParts(ownerId: string, raw: Uint8Array, head: number) {
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

/** The bytes of a stored form's base64 part; a form that is not base64 is a store error. */
function decodeStored(ownerId: string, text: string): Uint8Array {
  try {
    return base64.decode(text);
  } catch (error) {
    throw new KytError("STORE_ERROR", `the stored secret of ${ownerId} is not valid base64`, {
      cause: error,
    });
  }
}

const UTF8 = new TextDecoder("utf-8", { fatal: true });

/** AES-256-GCM decryption with the owner's id as additional data and a 16-byte tag. */
function decrypt(
  ownerId: string,
  key: Uint8Array,
  iv: Uint8Array,
  tag: Uint8Array,
  body: Uint8Array,
): string {
  try {
    // noble's GCM takes the tag after the ciphertext, as it writes it.
    return UTF8.decode(gcm(key, iv, utf8ToBytes(ownerId)).decrypt(concatBytes(body, tag)));
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
  const ikm = utf8ToBytes(key);
  const legacyKey = sha256(ikm);
  const derive = (salt: Uint8Array) => hkdf(sha256, ikm, salt, HKDF_INFO, 32);

  const seal = (id: string, secret: string): string => {
    const salt = randomBytes(SALT_BYTES);
    const iv = randomBytes(IV_BYTES);
    const sealed = gcm(derive(salt), iv, utf8ToBytes(id)).encrypt(utf8ToBytes(secret));
    const body = sealed.subarray(0, sealed.length - TAG_BYTES);
    const tag = sealed.subarray(sealed.length - TAG_BYTES);
    return `${ENCRYPTED_V2}${base64.encode(concatBytes(salt, iv, tag, body))}`;
  };
  const openEncrypted = (id: string, stored: string): string => {
    if (stored.startsWith(ENCRYPTED_V2)) {
      const raw = decodeStored(id, stored.slice(ENCRYPTED_V2.length));
      const { prefix, iv, tag, body } = gcmParts(id, raw, SALT_BYTES);
      return decrypt(id, derive(prefix), iv, tag, body);
    }
    if (stored.startsWith(ENCRYPTED_V1)) {
      const raw = decodeStored(id, stored.slice(ENCRYPTED_V1.length));
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
