/** The sealed secrets of API keys and webhooks in the kysely store, for re-sealing them all. */
import type { SealedSecret, SecretStore } from "@openkyt/core";
import { changedRows, type KyselyContext, orderText } from "./kysely-context.js";

/** The sealed-secret members of the store port. */
export type SecretOps = SecretStore;

/** Creates the sealed-secret members over `ctx`. */
export function kyselySecretOps(ctx: KyselyContext): SecretOps {
  const { db } = ctx;
  return {
    async listSealedSecrets() {
      const keys = await db
        .selectFrom("api_keys")
        .select(["id", "secret"])
        .orderBy(orderText(ctx, "id"), "asc")
        .execute();
      const hooks = await db
        .selectFrom("webhooks")
        .select(["id", "secret"])
        .orderBy(orderText(ctx, "id"), "asc")
        .execute();
      return [
        ...keys.map((r): SealedSecret => ({ owner: "api_key", id: r.id, sealed: r.secret })),
        ...hooks.map((r): SealedSecret => ({ owner: "webhook", id: r.id, sealed: r.secret })),
      ];
    },
    async replaceSealedSecret(owner, id, expected, sealed) {
      const table = owner === "api_key" ? "api_keys" : "webhooks";
      const result = await db
        .updateTable(table)
        .set({ secret: sealed })
        .where("id", "=", id)
        .where("secret", "=", expected)
        .executeTakeFirstOrThrow();
      return changedRows(result) === 1;
    },
  };
}
