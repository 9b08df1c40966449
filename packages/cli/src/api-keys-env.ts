/**
 * `OPENKYT_API_KEYS="id:secret:account,..."`: keys provisioned at start for scripted setups.
 * Provisioning is idempotent; the same id with another secret or account is refused.
 */
import type { Engine } from "@openkyt/core";
import { UsageError } from "./cli-command.js";

/** One key of OPENKYT_API_KEYS. */
export interface EnvApiKey {
  readonly id: string;
  readonly secret: string;
  readonly account: string;
}

/** Parses the variable; a malformed entry is a usage error naming its position (never its secret). */
export function parseApiKeysEnv(value: string | undefined): EnvApiKey[] {
  if (value === undefined || value.trim() === "") return [];
  return value.split(",").map((entry, index) => {
    const parts = entry.trim().split(":");
    const [id, secret, account] = parts;
    if (parts.length !== 3 || !id || !secret || !account) {
      throw new UsageError(`OPENKYT_API_KEYS entry ${index + 1} is not id:secret:account`);
    }
    return { id, secret, account };
  });
}

/** Provisions the keys; returns their ids. */
export async function provisionEnvKeys(engine: Engine, keys: ReadonlyArray<EnvApiKey>): Promise<string[]> {
  for (const key of keys) await engine.apiKeys.provision(key.id, key.secret, key.account);
  return keys.map((k) => k.id);
}
