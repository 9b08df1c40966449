/**
 * Password hashing for console users: scrypt (node:crypto) with a random 16-byte salt, kept as
 * `scrypt$N$r$p$salt$hash` (Base64), so the cost can be raised later and old hashes still verify.
 * Verification compares in constant time.
 */
import { randomBytes, scrypt, timingSafeEqual } from "node:crypto";

/** scrypt cost parameters. */
export interface ScryptCost {
  /** CPU/memory cost, a power of two. */
  readonly N: number;
  readonly r: number;
  readonly p: number;
}

/** The default cost: N=2^15, r=8, p=1 (32 MiB, tens of milliseconds per hash). */
export const DEFAULT_SCRYPT_COST: ScryptCost = Object.freeze({ N: 32_768, r: 8, p: 1 });

const KEY_BYTES = 32;
const SALT_BYTES = 16;

function derive(password: string, salt: Buffer, cost: ScryptCost): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(
      password.normalize("NFKC"),
      salt,
      KEY_BYTES,
      { N: cost.N, r: cost.r, p: cost.p, maxmem: 256 * cost.N * cost.r },
      (error, key) => (error ? reject(error) : resolve(key)),
    );
  });
}

/** The hash text of a password. */
export async function hashPassword(
  password: string,
  cost: ScryptCost = DEFAULT_SCRYPT_COST,
): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(password, salt, cost);
  return ["scrypt", cost.N, cost.r, cost.p, salt.toString("base64"), key.toString("base64")].join("$");
}

const FORMAT = /^scrypt\$(\d{1,8})\$(\d{1,3})\$(\d{1,3})\$([A-Za-z0-9+/=]+)\$([A-Za-z0-9+/=]+)$/;

/** True when `password` matches `hash`; false for a wrong password or a hash of another format. */
export async function verifyPassword(password: string, hash: string): Promise<boolean> {
  const m = FORMAT.exec(hash);
  if (!m) return false;
  const cost = { N: Number(m[1]), r: Number(m[2]), p: Number(m[3]) };
  const expected = Buffer.from(m[5] ?? "", "base64");
  if (expected.length !== KEY_BYTES) return false;
  const key = await derive(password, Buffer.from(m[4] ?? "", "base64"), cost);
  return timingSafeEqual(key, expected);
}

/** A random password a person can copy: 20 characters of Base64url (120 bits). */
export function generatePassword(): string {
  return randomBytes(15).toString("base64url");
}
