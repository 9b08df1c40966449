import { describe, expect, it } from "vitest";
import { createSecretVault } from "../../src/engine/secrets/secret-vault.js";
import { apiKeyService } from "../../src/engine/use-cases/api-keys.js";
import type { Store } from "../../src/ports/store.js";
import { createMemoryStore } from "../../src/store/index.js";

const SECRET = "a-cached-secret-0123456789abcdef";

/** A memory store counting key reads, whose reads can be held until released. */
function countingStore() {
  const inner = createMemoryStore();
  let reads = 0;
  let hold: Promise<void> | null = null;
  const store: Store = {
    ...inner,
    async getApiKey(id) {
      reads += 1;
      const record = await inner.getApiKey(id);
      if (hold) await hold;
      return record;
    },
  };
  return {
    store,
    reads: () => reads,
    /** Holds the next reads (after they read the record) until the returned function is called. */
    holdReads(): () => void {
      let release = () => {};
      hold = new Promise<void>((resolve) => {
        release = () => {
          hold = null;
          resolve();
        };
      });
      return release;
    },
  };
}

function manualClock(start = 1_000_000) {
  let t = start;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

describe("API key lookups are remembered", () => {
  it("reads the key on every lookup by default, opening the secret only when its stored form changed", async () => {
    const s = countingStore();
    let opened = 0;
    const plain = createSecretVault(undefined);
    const vault = {
      ...plain,
      open: (id: string, stored: string) => {
        opened += 1;
        return plain.open(id, stored);
      },
    };
    const keys = apiKeyService(s.store, vault, manualClock());
    await keys.provision("cached-key-00", SECRET, "acme");
    const [reads, opens] = [s.reads(), opened];
    expect(await keys.resolve("cached-key-00")).toEqual({ accountId: "acme", secret: SECRET });
    expect(await keys.resolve("cached-key-00")).toEqual({ accountId: "acme", secret: SECRET });
    expect(s.reads() - reads).toBe(2);
    expect(opened - opens).toBe(1);
  });

  it("with maxAgeMs serves a live key from memory that long, then reads the store again", async () => {
    const s = countingStore();
    const clock = manualClock();
    const keys = apiKeyService(s.store, createSecretVault(undefined), clock);
    await keys.provision("cached-key-01", SECRET, "acme");
    const before = s.reads();
    expect(await keys.resolve("cached-key-01", { maxAgeMs: 1_000 })).toEqual({
      accountId: "acme",
      secret: SECRET,
    });
    expect(await keys.resolve("cached-key-01", { maxAgeMs: 1_000 })).toEqual({
      accountId: "acme",
      secret: SECRET,
    });
    expect(s.reads() - before).toBe(1);
    await keys.resolve("cached-key-01");
    expect(s.reads() - before, "without maxAgeMs the store is read").toBe(2);
    clock.advance(1_000);
    await keys.resolve("cached-key-01", { maxAgeMs: 1_000 });
    expect(s.reads() - before).toBe(3);
  });

  it("a revocation through the service fails the key at once, though it was remembered", async () => {
    const s = countingStore();
    const keys = apiKeyService(s.store, createSecretVault(undefined), manualClock());
    await keys.provision("cached-key-02", SECRET, "acme");
    expect(await keys.resolve("cached-key-02", { maxAgeMs: 60_000 })).not.toBeNull();
    expect(await keys.revoke("cached-key-02")).toBe(true);
    expect(await keys.resolve("cached-key-02", { maxAgeMs: 60_000 })).toBeNull();
  });

  it("a revocation by another process counts on the next lookup, or after maxAgeMs for one that accepts it", async () => {
    const s = countingStore();
    const clock = manualClock();
    const server = apiKeyService(s.store, createSecretVault(undefined), clock);
    const cli = apiKeyService(s.store, createSecretVault(undefined), clock);
    await cli.provision("cached-key-03", SECRET, "acme");
    expect(await server.resolve("cached-key-03", { maxAgeMs: 1_000 })).not.toBeNull();
    expect(await cli.revoke("cached-key-03")).toBe(true);
    clock.advance(999);
    expect(await server.resolve("cached-key-03", { maxAgeMs: 1_000 }), "within maxAgeMs").not.toBeNull();
    expect(await server.resolve("cached-key-03"), "a lookup without maxAgeMs reads the store").toBeNull();
    expect(await server.resolve("cached-key-03", { maxAgeMs: 1_000 }), "and forgets the key").toBeNull();
  });

  it("a lookup that overlapped a revocation is not remembered", async () => {
    const s = countingStore();
    const keys = apiKeyService(s.store, createSecretVault(undefined), manualClock());
    await keys.provision("cached-key-04", SECRET, "acme");
    const release = s.holdReads();
    const racing = keys.resolve("cached-key-04", { maxAgeMs: 60_000 }); // reads the live record, then waits
    await new Promise((resolve) => setImmediate(resolve));
    expect(await keys.revoke("cached-key-04")).toBe(true);
    release(); // the lookup ends after the revocation, with the record it read before it
    expect(await racing, "the racing request read the key before the revocation").not.toBeNull();
    expect(await keys.resolve("cached-key-04", { maxAgeMs: 60_000 })).toBeNull();
  });

  it("does not remember unknown ids and keeps at most maxEntries keys", async () => {
    const s = countingStore();
    const keys = apiKeyService(s.store, createSecretVault(undefined), manualClock(), { maxEntries: 2 });
    const fresh = { maxAgeMs: 1_000 };
    expect(await keys.resolve("later-key-0001", fresh)).toBeNull();
    await keys.provision("later-key-0001", SECRET, "acme");
    expect(await keys.resolve("later-key-0001", fresh), "a miss is not remembered").not.toBeNull();

    await keys.provision("later-key-0002", SECRET, "acme");
    await keys.provision("later-key-0003", SECRET, "acme");
    await keys.resolve("later-key-0002", fresh);
    await keys.resolve("later-key-0003", fresh); // drops later-key-0001, the oldest
    const before = s.reads();
    await keys.resolve("later-key-0003", fresh);
    await keys.resolve("later-key-0002", fresh);
    expect(s.reads() - before).toBe(0);
    await keys.resolve("later-key-0001", fresh);
    expect(s.reads() - before).toBe(1);
  });
});
