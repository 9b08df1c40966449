import { describe, expect, it } from "vitest";
import { createEngine } from "../../src/engine/create-engine.js";
import { createSecretVault } from "../../src/engine/secrets/secret-vault.js";
import { isKytError } from "../../src/errors.js";
import { createMemoryStore } from "../../src/store/index.js";

const VAULT_KEY = "a-test-vault-key-that-is-long-enough-1234";

describe("API keys", () => {
  it("creates a key whose secret is shown once, lists it without the secret, resolves and revokes it", async () => {
    const store = createMemoryStore();
    const engine = createEngine({ store, apiKeyVaultKey: VAULT_KEY });
    const key = await engine.apiKeys.create("acme");
    expect(key.id).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(key.secret).toMatch(/^[A-Za-z0-9]{64}$/);
    const listed = await engine.apiKeys.list("acme");
    expect(listed).toEqual([
      { id: key.id, accountId: "acme", createdAt: key.createdAt, revokedAt: null, name: null },
    ]);
    expect(JSON.stringify(listed)).not.toContain(key.secret);
    const stored = await store.getApiKey(key.id);
    expect(stored?.secret.startsWith("enc:v2:")).toBe(true);
    expect(stored?.secret).not.toContain(key.secret);
    expect(await engine.apiKeys.resolve(key.id)).toEqual({ accountId: "acme", secret: key.secret });
    // A key may be named; a blank or overlong name is refused.
    expect((await engine.apiKeys.create("acme", "  payments  ")).name).toBe("payments");
    await expect(engine.apiKeys.create("acme", " ")).rejects.toMatchObject({ code: "VALIDATION_ERROR" });
    await expect(engine.apiKeys.create("acme", "x".repeat(101))).rejects.toMatchObject({
      code: "VALIDATION_ERROR",
    });
    expect(await engine.apiKeys.revoke(key.id)).toBe(true);
    expect(await engine.apiKeys.resolve(key.id)).toBeNull();
    expect(await engine.apiKeys.revoke(key.id)).toBe(false);
  });

  it("provisions given keys idempotently and refuses a different secret for the same id", async () => {
    const engine = createEngine({ store: createMemoryStore() });
    await engine.apiKeys.provision("demo-key-1", "a-demo-secret-0123456789", "demo");
    await engine.apiKeys.provision("demo-key-1", "a-demo-secret-0123456789", "demo");
    expect(await engine.apiKeys.list("demo")).toHaveLength(1);
    const error = await engine.apiKeys
      .provision("demo-key-1", "another-secret-0123456789", "demo")
      .catch((e) => e);
    expect(isKytError(error, "CONFLICT")).toBe(true);
    const bad = await engine.apiKeys.provision("short", "a-demo-secret-0123456789", "demo").catch((e) => e);
    expect(isKytError(bad, "VALIDATION_ERROR")).toBe(true);
    expect(Object.keys(bad.errors)).toEqual(["id"]);
  });

  it("resolves nothing for unknown or malformed ids", async () => {
    const engine = createEngine({ store: createMemoryStore() });
    expect(await engine.apiKeys.resolve("nope-nope-nope")).toBeNull();
    expect(await engine.apiKeys.resolve("../../etc/passwd")).toBeNull();
  });
});

describe("secret vault", () => {
  it("encrypts with a fresh IV, binds the key id, and refuses another vault key", () => {
    const vault = createSecretVault(VAULT_KEY);
    const a = vault.seal("key-1", "s3cret");
    expect(vault.seal("key-1", "s3cret")).not.toBe(a);
    expect(vault.open("key-1", a)).toBe("s3cret");
    expect(() => vault.open("key-2", a)).toThrow(/cannot be opened/);
    expect(() => createSecretVault(`${VAULT_KEY}-other`).open("key-1", a)).toThrow(/cannot be opened/);
    expect(() => createSecretVault(undefined).open("key-1", a)).toThrow(/encrypted/);
    expect(() => createSecretVault("short")).toThrow(/32 characters/);
  });

  it("keeps secrets as given without a vault key; with one, plain secrets are refused (see secret-vault.test.ts)", () => {
    const plain = createSecretVault(undefined).seal("key-1", "s3cret");
    expect(plain).toBe("plain:s3cret");
    expect(createSecretVault(undefined).open("key-1", plain)).toBe("s3cret");
    expect(() => createSecretVault(VAULT_KEY).open("key-1", plain)).toThrow(/keys seal/);
  });
});
