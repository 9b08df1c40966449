/** Risk models and API keys of the in-memory store. */

import { versionInForce } from "../domain/model-approval.js";
import type { StoredRiskModel } from "../domain/records.js";
import { KytError } from "../errors.js";
import type { ApiKeyStore, RiskModelStore } from "../ports/store.js";
import { type Journal, setEntry } from "./memory-journal.js";
import { compareStrings, copy, keyOf, type MemoryTables, oldestFirst } from "./memory-state.js";

/** The newest version, or undefined. */
function latest(versions: ReadonlyArray<StoredRiskModel>): StoredRiskModel | undefined {
  let found: StoredRiskModel | undefined;
  for (const m of versions) if (!found || m.version > found.version) found = m;
  return found;
}

/** The risk model and API key members of the store port. */
export type KeyModelOps = RiskModelStore & ApiKeyStore;

/** Creates the risk model and API key members over `tables`, writing through `journal`. */
export function memoryKeyModelOps(tables: MemoryTables, journal: Journal): KeyModelOps {
  const { riskModels, apiKeys } = tables;
  return {
    async putRiskModel(accountId, model, createdAt, details) {
      const key = keyOf(accountId, model.id);
      const versions = riskModels.get(key) ?? [];
      if (versions.some((m) => m.version === model.version)) {
        throw new KytError("CONFLICT", `risk model ${model.id} version ${model.version} exists`);
      }
      const stored: StoredRiskModel = {
        id: model.id,
        name: model.name,
        version: model.version,
        rules: copy(model.rules),
        accountId,
        createdAt: createdAt ?? 0,
        deletedAt: versions[0]?.deletedAt ?? null,
        changeReason: details?.changeReason ?? null,
        approval: details?.approval ? copy(details.approval) : null,
      };
      setEntry(journal, riskModels, key, [...versions, stored]);
    },
    async getRiskModel(accountId, id, version) {
      const versions = riskModels.get(keyOf(accountId, id)) ?? [];
      const found =
        version === undefined
          ? versionInForce(versions.filter((m) => m.deletedAt === null))
          : versions.find((m) => m.version === version);
      return found
        ? { id: found.id, name: found.name, version: found.version, rules: copy(found.rules) }
        : null;
    },
    async decideRiskModelVersion(accountId, id, version, approval) {
      const key = keyOf(accountId, id);
      const versions = riskModels.get(key) ?? [];
      const found = versions.find((m) => m.version === version);
      if (!found || found.deletedAt !== null || found.approval?.state !== "pending") return false;
      setEntry(
        journal,
        riskModels,
        key,
        versions.map((m) => (m === found ? { ...m, approval: copy(approval) } : m)),
      );
      return true;
    },
    async listRiskModels(accountId) {
      const out: StoredRiskModel[] = [];
      for (const versions of riskModels.values()) {
        const newest = latest(versions);
        if (newest && newest.accountId === accountId && newest.deletedAt === null) out.push(copy(newest));
      }
      return out.sort((a, b) => compareStrings(a.name, b.name) || compareStrings(a.id, b.id));
    },
    async listRiskModelVersions(accountId, id) {
      const versions = riskModels.get(keyOf(accountId, id)) ?? [];
      return [...versions].sort((a, b) => a.version - b.version).map(copy);
    },
    async deleteRiskModel(accountId, id, at) {
      const key = keyOf(accountId, id);
      const versions = riskModels.get(key) ?? [];
      if (versions.length === 0 || versions.some((m) => m.deletedAt !== null)) return false;
      setEntry(
        journal,
        riskModels,
        key,
        versions.map((m) => ({ ...m, deletedAt: at })),
      );
      return true;
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
