/**
 * Reference data of the kysely store: attributions, sanctions listings, tokens and prices.
 * Writes are upserts in chunks; rows repeating a key within one call count once (the last wins),
 * since Postgres refuses to update one row twice in a statement.
 */
import type {
  Attribution,
  PriceRow,
  ReferenceStore,
  SanctionsListing,
  SettingsStore,
  TokenInfo,
} from "@openkyt/core";
import { type Expression, type Selectable, type SqlBool, sql } from "kysely";
import { keepLabelledAddresses } from "./kysely-cluster-labels.js";
import { type KyselyContext, orderText } from "./kysely-context.js";
import { listPage } from "./kysely-list-page.js";
import { type SanctionsListingsTable, type TokensTable, UNDATED_LISTING } from "./kysely-schema.js";
import { chunksOf, IN_LIST_CHUNK, INSERT_CHUNK, num, numOrNull } from "./kysely-values.js";

/** The attribution, sanctions, token and price members of the store port. */
export type ReferenceOps = ReferenceStore & SettingsStore;

/** A stored listing as a record (the undated marker back to null). */
function listingOf(r: Selectable<SanctionsListingsTable>): SanctionsListing {
  const listedAt = num(r.listed_at);
  const designatedAt = numOrNull(r.designated_at);
  return {
    network: r.network,
    address: r.address,
    listName: r.list_name,
    program: r.program,
    entity: r.entity,
    listedAt: listedAt === UNDATED_LISTING ? null : listedAt,
    delistedAt: numOrNull(r.delisted_at),
    // An unknown designation date is no field at all (see SanctionsListing.designatedAt).
    ...(designatedAt === null ? {} : { designatedAt }),
  };
}

/** A stored token as a record. */
function tokenOf(r: Selectable<TokensTable>): TokenInfo {
  return {
    network: r.network,
    tokenId: r.token_id,
    symbol: r.symbol,
    decimals: num(r.decimals),
    name: r.name,
  };
}

/** `rows` with one row per key, the last one given winning. */
function lastPerKey<T>(rows: ReadonlyArray<T>, key: (row: T) => string): T[] {
  const byKey = new Map<string, T>();
  for (const row of rows) byKey.set(key(row), row);
  return [...byKey.values()];
}

/** Creates the reference data members over `ctx`. */
export function kyselyReferenceOps(ctx: KyselyContext): ReferenceOps {
  const { db } = ctx;
  return {
    async putAttributions(rows) {
      const unique = lastPerKey(rows, (r: Attribution) => JSON.stringify([r.network, r.address]));
      await ctx.atomic(async (tx) => {
        for (const chunk of chunksOf(unique, INSERT_CHUNK)) {
          await tx
            .insertInto("attributions")
            .values(
              chunk.map((r) => ({
                network: r.network,
                address: r.address,
                entity_name: r.entityName,
                entity_category: r.entityCategory,
                source: r.source,
              })),
            )
            .onConflict((oc) =>
              oc.columns(["network", "address"]).doUpdateSet((eb) => ({
                entity_name: eb.ref("excluded.entity_name"),
                entity_category: eb.ref("excluded.entity_category"),
                source: eb.ref("excluded.source"),
              })),
            )
            .execute();
        }
        const byNetwork = new Map<string, string[]>();
        for (const r of unique) {
          const list = byNetwork.get(r.network);
          if (list) list.push(r.address);
          else byNetwork.set(r.network, [r.address]);
        }
        for (const [network, addresses] of byNetwork) await keepLabelledAddresses(tx, network, addresses);
      });
      return unique.length;
    },
    async getAttributions(network, addresses) {
      const out: Attribution[] = [];
      for (const chunk of chunksOf([...new Set(addresses)], IN_LIST_CHUNK)) {
        const rows = await db
          .selectFrom("attributions")
          .selectAll()
          .where("network", "=", network)
          .where("address", "in", chunk)
          .execute();
        for (const r of rows) {
          out.push({
            network: r.network,
            address: r.address,
            entityName: r.entity_name,
            entityCategory: r.entity_category,
            source: r.source,
          });
        }
      }
      return out;
    },
    async putSanctions(rows) {
      const unique = lastPerKey(rows, (r: SanctionsListing) =>
        JSON.stringify([r.address, r.listName, r.listedAt]),
      );
      await ctx.atomic(async (tx) => {
        for (const chunk of chunksOf(unique, INSERT_CHUNK)) {
          await tx
            .insertInto("sanctions_listings")
            .values(
              chunk.map((r) => ({
                address: r.address,
                list_name: r.listName,
                listed_at: r.listedAt ?? UNDATED_LISTING,
                network: r.network,
                program: r.program,
                entity: r.entity,
                delisted_at: r.delistedAt,
                designated_at: r.designatedAt ?? null,
              })),
            )
            .onConflict((oc) =>
              oc.columns(["address", "list_name", "listed_at"]).doUpdateSet((eb) => ({
                network: eb.ref("excluded.network"),
                program: eb.ref("excluded.program"),
                entity: eb.ref("excluded.entity"),
                delisted_at: eb.ref("excluded.delisted_at"),
                designated_at: eb.ref("excluded.designated_at"),
              })),
            )
            .execute();
        }
        await keepLabelledAddresses(
          tx,
          null,
          unique.map((r) => r.address),
        );
      });
      return unique.length;
    },
    async getSanctions(addresses) {
      const out: SanctionsListing[] = [];
      for (const chunk of chunksOf([...new Set(addresses)], IN_LIST_CHUNK)) {
        const rows = await db
          .selectFrom("sanctions_listings")
          .selectAll()
          .where("address", "in", chunk)
          .execute();
        out.push(...rows.map(listingOf));
      }
      return out;
    },
    async listSanctionsOfList(listName) {
      const rows = await db
        .selectFrom("sanctions_listings")
        .selectAll()
        .where("list_name", "=", listName)
        .orderBy(orderText(ctx, "address"))
        .orderBy("listed_at")
        .execute();
      return rows.map(listingOf);
    },
    async scanAttributions(after, limit) {
      // Row values compare in the columns' own collation, the one ORDER BY uses: pages never skip.
      let query = db.selectFrom("attributions").selectAll();
      if (after !== null)
        query = query.where(
          sql<SqlBool>`(${sql.ref("network")}, ${sql.ref("address")}) > (${after.network}, ${after.address})`,
        );
      const rows = await query.orderBy("network").orderBy("address").limit(limit).execute();
      return rows.map((r) => ({
        network: r.network,
        address: r.address,
        entityName: r.entity_name,
        entityCategory: r.entity_category,
        source: r.source,
      }));
    },
    async scanSanctions(after, limit) {
      let query = db.selectFrom("sanctions_listings").selectAll();
      if (after !== null) {
        const listedAt = after.listedAt ?? UNDATED_LISTING;
        query = query.where(
          sql<SqlBool>`(${sql.ref("address")}, ${sql.ref("list_name")}, ${sql.ref("listed_at")}) > (${after.address}, ${after.listName}, ${listedAt})`,
        );
      }
      const rows = await query
        .orderBy("address")
        .orderBy("list_name")
        .orderBy("listed_at")
        .limit(limit)
        .execute();
      return rows.map(listingOf);
    },
    async getSetting(key) {
      const row = await db.selectFrom("settings").select("value").where("key", "=", key).executeTakeFirst();
      return row?.value ?? null;
    },
    async putSetting(key, value) {
      await db
        .insertInto("settings")
        .values({ key, value })
        .onConflict((oc) => oc.column("key").doUpdateSet({ value }))
        .execute();
    },
    async putTokens(rows) {
      const unique = lastPerKey(rows, (r: TokenInfo) => JSON.stringify([r.network, r.tokenId]));
      await ctx.atomic(async (tx) => {
        for (const chunk of chunksOf(unique, INSERT_CHUNK)) {
          await tx
            .insertInto("tokens")
            .values(
              chunk.map((r) => ({
                network: r.network,
                token_id: r.tokenId,
                symbol: r.symbol,
                decimals: r.decimals,
                name: r.name,
              })),
            )
            .onConflict((oc) =>
              oc.columns(["network", "token_id"]).doUpdateSet((eb) => ({
                symbol: eb.ref("excluded.symbol"),
                decimals: eb.ref("excluded.decimals"),
                name: eb.ref("excluded.name"),
              })),
            )
            .execute();
        }
      });
      return unique.length;
    },
    async getToken(network, tokenId) {
      const r = await db
        .selectFrom("tokens")
        .selectAll()
        .where("network", "=", network)
        .where("token_id", "=", tokenId)
        .executeTakeFirst();
      return r ? tokenOf(r) : null;
    },
    async listTokens(filter, page) {
      const matching = db
        .selectFrom("tokens")
        .selectAll()
        .where((eb) => {
          const c: Expression<SqlBool>[] = [];
          if (filter.network !== undefined) c.push(eb("network", "=", filter.network));
          if (filter.tokenId !== undefined) c.push(eb("token_id", "=", filter.tokenId));
          if (filter.symbol !== undefined)
            c.push(eb(eb.fn("lower", ["symbol"]), "=", filter.symbol.toLowerCase()));
          return eb.and(c);
        });
      const order = { key: orderText(ctx, "network"), tie: "token_id", direction: "asc" } as const;
      return listPage(ctx, matching, order, page, tokenOf);
    },
    async putPrices(rows) {
      const unique = lastPerKey(rows, (r: PriceRow) => JSON.stringify([r.network, r.tokenId, r.day]));
      await ctx.atomic(async (tx) => {
        for (const chunk of chunksOf(unique, INSERT_CHUNK)) {
          await tx
            .insertInto("prices")
            .values(chunk.map((r) => ({ network: r.network, token_id: r.tokenId, day: r.day, usd: r.usd })))
            .onConflict((oc) =>
              oc
                .columns(["network", "token_id", "day"])
                .doUpdateSet((eb) => ({ usd: eb.ref("excluded.usd") })),
            )
            .execute();
        }
      });
      return unique.length;
    },
    async getPrice(network, tokenId, day) {
      const row = await db
        .selectFrom("prices")
        .select("usd")
        .where("network", "=", network)
        .where("token_id", "=", tokenId)
        .where("day", "<=", day)
        .orderBy("day", "desc")
        .limit(1)
        .executeTakeFirst();
      return row ? num(row.usd) : null;
    },
  };
}
