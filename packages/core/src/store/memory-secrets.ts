/** The sealed secrets of API keys and webhooks in the in-memory store, for re-sealing them all. */
import type { SealedSecret } from "../domain/records.js";
import type { SecretStore } from "../ports/store.js";
import { type Journal, setEntry } from "./memory-journal.js";
import { compareStrings, type MemoryTables } from "./memory-state.js";

/** The sealed-secret members of the store port. */
export type SecretOps = SecretStore;

/** Creates the sealed-secret members over `tables`, writing through `journal`. */
export function memorySecretOps(tables: MemoryTables, journal: Journal): SecretOps {
  const { apiKeys, webhooks } = tables;
  return {
    async listSealedSecrets() {
      const keys = [...apiKeys.values()].map(
        (k): SealedSecret => ({ owner: "api_key", id: k.id, sealed: k.secret }),
      );
      const hooks = [...webhooks.values()].map(
        (w): SealedSecret => ({ owner: "webhook", id: w.id, sealed: w.secret }),
      );
      const byId = (a: SealedSecret, b: SealedSecret) => compareStrings(a.id, b.id);
      return [...keys.sort(byId), ...hooks.sort(byId)];
    },
    async replaceSealedSecret(owner, id, expected, sealed) {
      if (owner === "api_key") {
        const key = apiKeys.get(id);
        if (!key || key.secret !== expected) return false;
        setEntry(journal, apiKeys, id, { ...key, secret: sealed });
        return true;
      }
      const hook = webhooks.get(id);
      if (!hook || hook.secret !== expected) return false;
      setEntry(journal, webhooks, id, { ...hook, secret: sealed });
      return true;
    },
  };
}
