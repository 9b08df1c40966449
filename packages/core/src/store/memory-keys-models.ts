/** Risk models and API keys of the in-memory store. */
import { KytError } from "../errors.js";
import type { StoreOps } from "../ports/store.js";
import { type Journal, setEntry } from "./memory-journal.js";
import { copy, keyOf, type MemoryTables, oldestFirst } from "./memory-state.js";

/** The risk model and API key members of the store port. */
export type KeyModelOps = Pick<
  StoreOps,
  "putRiskModel" | "getRiskModel" | "putApiKey" | "getApiKey" | "listApiKeys" | "revokeApiKey"
>;

/** Creates the risk model and API key members over `tables`, writing through `journal`. */
export function memoryKeyModelOps(tables: MemoryTables, journal: Journal): KeyModelOps {
  const { riskModels, apiKeys } = tables;
  return {
    async putRiskModel(accountId, model) {
      const key = keyOf(accountId, model.id);
      const versions = riskModels.get(key) ?? [];
      if (versions.some((m) => m.version === model.version)) {
        throw new KytError("CONFLICT", `risk model ${model.id} version ${model.version} exists`);
      }
      setEntry(journal, riskModels, key, [...versions, copy(model)]);
    },
    async getRiskModel(accountId, id, version) {
      const versions = riskModels.get(keyOf(accountId, id)) ?? [];
      let found = null;
      for (const model of versions) {
        if (version === undefined ? !found || model.version > found.version : model.version === version) {
          found = model;
        }
      }
      return found ? copy(found) : null;
    },
    async putApiKey(record) {
      if (apiKeys.has(record.id)) throw new KytError("CONFLICT", `api key ${record.id} exists`);
      setEntry(journal, apiKeys, record.id, copy(record));
    },
    async getApiKey(id) {
      const record = apiKeys.get(id);
      return record ? copy(record) : null;
    },
    async listApiKeys(accountId) {
      const keys = [...apiKeys.values()].filter((k) => k.accountId === accountId);
      return keys.sort(oldestFirst((k) => k.createdAt)).map(copy);
    },
    async revokeApiKey(id, at) {
      const record = apiKeys.get(id);
      if (!record || record.revokedAt !== null) return false;
      setEntry(journal, apiKeys, id, { ...record, revokedAt: at });
      return true;
    },
  };
}
