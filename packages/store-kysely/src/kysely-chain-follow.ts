/** The followed blocks of the kysely store (see `ChainFollowStoreOps`). */
import { type ChainFollowStoreOps, type FollowedBlock, KytError } from "@openkyt/core";
import type { Selectable } from "kysely";
import { changedRows, type KyselyContext } from "./kysely-context.js";
import { removeAndRecordRewind } from "./kysely-rewinds.js";
import type { FollowedBlocksTable } from "./kysely-schema.js";
import { chunksOf, INSERT_CHUNK, num } from "./kysely-values.js";

/** A row as a followed block. */
function blockFromRow(r: Selectable<FollowedBlocksTable>): FollowedBlock {
  return { network: r.network, height: num(r.height), hash: r.hash };
}

/** Creates the chain-follow members over `ctx`. */
export function kyselyChainFollowOps(ctx: KyselyContext): ChainFollowStoreOps {
  const { db } = ctx;
  return {
    async followedHead(network) {
      const row = await db
        .selectFrom("followed_blocks")
        .selectAll()
        .where("network", "=", network)
        .orderBy("height", "desc")
        .limit(1)
        .executeTakeFirst();
      return row === undefined ? null : blockFromRow(row);
    },
    async followedBlock(network, height) {
      const row = await db
        .selectFrom("followed_blocks")
        .selectAll()
        .where("network", "=", network)
        .where("height", "=", height)
        .executeTakeFirst();
      return row === undefined ? null : blockFromRow(row);
    },
    async recordFollowedBlocks(blocks) {
      if (blocks.length === 0) return;
      await ctx.atomic(async (tx) => {
        for (const chunk of chunksOf(blocks, INSERT_CHUNK)) {
          // A row that exists is skipped, not an error (an error would abort a Postgres
          // transaction); a short count then refuses the whole write.
          const result = await tx
            .insertInto("followed_blocks")
            .values(chunk.map((b) => ({ network: b.network, height: b.height, hash: b.hash })))
            .onConflict((oc) => oc.columns(["network", "height"]).doNothing())
            .executeTakeFirstOrThrow();
          if (changedRows(result) !== chunk.length) {
            const first = chunk[0] as FollowedBlock;
            throw new KytError(
              "CONFLICT",
              `blocks ${first.height}-${first.height + chunk.length - 1} of ${first.network} are already followed (another follower of the network?)`,
            );
          }
        }
      });
    },
    async pruneFollowedBlocks(network, belowHeight) {
      const result = await db
        .deleteFrom("followed_blocks")
        .where("network", "=", network)
        .where("height", "<", belowHeight)
        .executeTakeFirst();
      return changedRows(result);
    },
    async rewindFollowedChain(network, fromHeight) {
      return ctx.atomic(async (tx) => {
        const blocks = await tx
          .deleteFrom("followed_blocks")
          .where("network", "=", network)
          .where("height", ">=", fromHeight)
          .executeTakeFirst();
        const transfers = await removeAndRecordRewind(
          tx,
          ctx.dialect,
          { ledger: "account", network, fromHeight },
          async () =>
            changedRows(
              await tx
                .deleteFrom("ledger_transfers")
                .where("network", "=", network)
                .where("block", ">=", fromHeight)
                .executeTakeFirst(),
            ),
        );
        return { blocks: changedRows(blocks), transfers };
      });
    },
  };
}
