/**
 * `openkyt keys seal`: re-seals every stored secret (API keys and webhooks, revoked and deleted
 * ones too) that is not in the vault's current form, `plain:` and `enc:v1:` alike, in one
 * transaction: all of them are re-sealed or none is.
 */
import { KytError } from "../../errors.js";
import type { Store } from "../../ports/store.js";
import type { SecretVault } from "./secret-vault.js";

/** What a sealing run did. */
export interface SealOutcome {
  /** Secrets re-sealed in the current form. */
  readonly sealed: number;
  /** Secrets stored in all (the others were already in the current form). */
  readonly total: number;
}

/** Re-seals every stored secret under `vault`'s key; the vault must encrypt. */
export async function sealStoredSecrets(store: Store, vault: SecretVault): Promise<SealOutcome> {
  if (!vault.encrypts)
    throw new KytError("NOT_CONFIGURED", "sealing secrets needs a vault key (OPENKYT_VAULT_KEY)");
  return store.transaction(async (tx) => {
    const all = await tx.listSealedSecrets();
    let sealed = 0;
    for (const secret of all) {
      if (!vault.needsSealing(secret.sealed)) continue;
      const next = vault.reseal(secret.id, secret.sealed);
      if (!(await tx.replaceSealedSecret(secret.owner, secret.id, secret.sealed, next)))
        throw new KytError("CONFLICT", `the secret of ${secret.id} changed while sealing: run it again`);
      sealed += 1;
    }
    return { sealed, total: all.length };
  });
}
