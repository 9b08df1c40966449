import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { sealStoredSecrets } from "../../src/engine/secrets/secret-sealing.js";
import { createSecretVault } from "../../src/engine/secrets/secret-vault.js";
import { isKytError } from "../../src/errors.js";
import { createMemoryStore } from "../../src/store/index.js";

const VAULT_KEY = "a-test-vault-key-that-is-long-enough-1234";

/** A v1 form as the previous vault wrote it: AES key = SHA-256(vault key), no salt. */
function sealV1(key: string, id: string, secret: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", createHash("sha256").update(key).digest(), iv).setAAD(
    Buffer.from(id),
  );
  const body = Buffer.concat([cipher.update(secret, "utf8"), cipher.final()]);
  return `enc:v1:${Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64")}`;
}

const raw = (stored: string, prefix: string) => Buffer.from(stored.slice(prefix.length), "base64");

describe("secret vault v2: HKDF-SHA256 with a salt per secret", () => {
  it("round-trips, with a fresh salt per seal and the key derived from it", () => {
    const vault = createSecretVault(VAULT_KEY);
    const a = vault.seal("key-1", "s3cret");
    const b = vault.seal("key-1", "s3cret");
    expect(a).toMatch(/^enc:v2:/);
    expect(vault.open("key-1", a)).toBe("s3cret");
    expect(vault.open("key-1", b)).toBe("s3cret");
    const [ra, rb] = [raw(a, "enc:v2:"), raw(b, "enc:v2:")];
    expect(ra.length).toBe(16 + 12 + 16 + "s3cret".length);
    expect(ra.subarray(0, 16).equals(rb.subarray(0, 16))).toBe(false);
    // The AES key is HKDF(vault key, salt), not SHA-256(vault key): decrypting by hand proves it.
    const key = Buffer.from(
      hkdfSync("sha256", Buffer.from(VAULT_KEY), ra.subarray(0, 16), "openkyt secret vault v2", 32),
    );
    const d = createDecipheriv("aes-256-gcm", key, ra.subarray(16, 28), { authTagLength: 16 }).setAAD(
      Buffer.from("key-1"),
    );
    d.setAuthTag(ra.subarray(28, 44));
    expect(Buffer.concat([d.update(ra.subarray(44)), d.final()]).toString()).toBe("s3cret");
    expect(() => vault.open("key-2", a)).toThrow(/cannot be opened/);
    expect(() => createSecretVault(`${VAULT_KEY}-other`).open("key-1", a)).toThrow(/cannot be opened/);
  });

  it("opens v2 forms sealed with node:crypto, as the vault sealed them before it went pure JavaScript", () => {
    const salt = randomBytes(16);
    const iv = randomBytes(12);
    const key = Buffer.from(hkdfSync("sha256", Buffer.from(VAULT_KEY), salt, "openkyt secret vault v2", 32));
    const cipher = createCipheriv("aes-256-gcm", key, iv, { authTagLength: 16 }).setAAD(Buffer.from("key-1"));
    const body = Buffer.concat([cipher.update("sealed-by-node ✓", "utf8"), cipher.final()]);
    const stored = `enc:v2:${Buffer.concat([salt, iv, cipher.getAuthTag(), body]).toString("base64")}`;
    expect(createSecretVault(VAULT_KEY).open("key-1", stored)).toBe("sealed-by-node ✓");
    expect(() => createSecretVault(VAULT_KEY).open("key-1", "enc:v2:not base64!")).toThrow(
      /not valid base64/,
    );
  });

  it("still opens v1 forms written by the previous vault", () => {
    const v1 = sealV1(VAULT_KEY, "key-1", "legacy-secret");
    const vault = createSecretVault(VAULT_KEY);
    expect(vault.open("key-1", v1)).toBe("legacy-secret");
    expect(vault.needsSealing(v1)).toBe(true);
    expect(vault.needsSealing(vault.seal("key-1", "x"))).toBe(false);
    expect(() => vault.open("key-2", v1)).toThrow(/cannot be opened/);
  });

  it("refuses plain: secrets when a vault key is set, naming the owner and the migration command", () => {
    const error = (() => {
      try {
        createSecretVault(VAULT_KEY).open("planted-key-01", "plain:chosen-by-attacker");
      } catch (e) {
        return e;
      }
      return null;
    })();
    expect(isKytError(error, "NOT_CONFIGURED")).toBe(true);
    expect((error as Error).message).toContain("planted-key-01");
    expect((error as Error).message).toContain("openkyt keys seal");
  });

  it("refuses a stored form too short to hold its IV and 16-byte tag, and a shortened tag", () => {
    const vault = createSecretVault(VAULT_KEY);
    const good = raw(vault.seal("key-1", "s3cret"), "enc:v2:");
    // Shorter than salt + IV + tag: refused before any decryption.
    for (const length of [0, 16, 16 + 12, 16 + 12 + 15]) {
      const cut = `enc:v2:${good.subarray(0, length).toString("base64")}`;
      expect(() => vault.open("key-1", cut), `length ${length}`).toThrow(/truncated/);
    }
    const v1 = raw(sealV1(VAULT_KEY, "key-1", ""), "enc:v1:");
    expect(v1.length).toBe(28);
    expect(vault.open("key-1", `enc:v1:${v1.toString("base64")}`)).toBe("");
    expect(() => vault.open("key-1", `enc:v1:${v1.subarray(0, 27).toString("base64")}`)).toThrow(/truncated/);
    // A 4-byte tag (GCM would accept one if the length were taken from the input) is refused:
    // the form keeps its length, so the tag bytes read are 4 tag bytes and 12 ciphertext bytes.
    const secret = "0123456789abcdef";
    const sealed = raw(vault.seal("key-1", secret), "enc:v2:");
    const shortTag = Buffer.concat([sealed.subarray(0, 28), sealed.subarray(28, 32), sealed.subarray(44)]);
    expect(() => vault.open("key-1", `enc:v2:${shortTag.toString("base64")}`)).toThrow(/cannot be opened/);
  });

  it("refuses an unknown format", () => {
    expect(() => createSecretVault(VAULT_KEY).open("key-1", "enc:v9:abc")).toThrow(/unknown format/);
  });
});

describe("sealing stored secrets (openkyt keys seal)", () => {
  it("re-seals plain and v1 secrets of keys and webhooks under v2 in one transaction, and says how many", async () => {
    const store = createMemoryStore();
    const vault = createSecretVault(VAULT_KEY);
    await store.putApiKey({
      id: "k-plain",
      accountId: "a",
      secret: "plain:p1",
      createdAt: 1,
      revokedAt: null,
    });
    await store.putApiKey({
      id: "k-v1",
      accountId: "a",
      secret: sealV1(VAULT_KEY, "k-v1", "p2"),
      createdAt: 1,
      revokedAt: 5,
    });
    const v2 = vault.seal("k-v2", "p3");
    await store.putApiKey({ id: "k-v2", accountId: "a", secret: v2, createdAt: 1, revokedAt: null });
    await store.putWebhook({
      id: "w-plain",
      accountId: "a",
      url: "https://example.com/hook",
      events: ["alert.created"],
      secret: "plain:whsec",
      createdAt: 1,
      deletedAt: null,
      state: "active",
      pausedAt: null,
      pausedReason: null,
      consecutiveFailures: 0,
    });
    expect(await sealStoredSecrets(store, vault)).toEqual({ sealed: 3, total: 4 });
    for (const [id, secret] of [
      ["k-plain", "p1"],
      ["k-v1", "p2"],
    ] as const) {
      const stored = (await store.getApiKey(id))?.secret ?? "";
      expect(stored).toMatch(/^enc:v2:/);
      expect(vault.open(id, stored)).toBe(secret);
    }
    expect((await store.getApiKey("k-v2"))?.secret).toBe(v2);
    const hook = (await store.getWebhook("w-plain"))?.secret ?? "";
    expect(vault.open("w-plain", hook)).toBe("whsec");
    expect(await sealStoredSecrets(store, vault)).toEqual({ sealed: 0, total: 4 });
  });

  it("seals nothing when one secret cannot be opened (all or none), and needs a vault key", async () => {
    const store = createMemoryStore();
    const vault = createSecretVault(VAULT_KEY);
    await store.putApiKey({ id: "k-1", accountId: "a", secret: "plain:p1", createdAt: 1, revokedAt: null });
    const foreign = sealV1(`${VAULT_KEY}-other`, "k-2", "p2");
    await store.putApiKey({ id: "k-2", accountId: "a", secret: foreign, createdAt: 1, revokedAt: null });
    await expect(sealStoredSecrets(store, vault)).rejects.toThrow(/k-2 cannot be opened/);
    expect((await store.getApiKey("k-1"))?.secret).toBe("plain:p1");
    await expect(sealStoredSecrets(store, createSecretVault(undefined))).rejects.toThrow(/vault key/);
  });
});
