/**
 * Everything an account knows about one address of a network, for the console's address page:
 * its entity (label, or the label of its cluster on a UTXO chain), its sanctions listings, its
 * cluster, the account's transfers that touch it (either side, newest first), their alerts, and
 * the account's manual checks of it. Bounded: the newest transfers and checks only.
 */
import { normalizeAddress } from "../../domain/addresses.js";
import { isNetworkCode } from "../../domain/networks.js";
import type { TransferRecord } from "../../domain/records.js";
import { isUtxoNetwork } from "../../domain/utxo-binding.js";
import { fieldError } from "../../errors.js";
import {
  addressProfileQuerySchema,
  parseInput,
  presentAlert,
  presentManualCheck,
  presentTransfer,
} from "../../schemas/index.js";
import { presentListings } from "../../schemas/sanctions-details.js";
import type { EngineContext } from "../engine-context.js";

/** Most transfers (per side) and manual checks an address page lists. */
export const ADDRESS_PAGE_LIMIT = 50;
/** Manual checks scanned for the address (the newest). */
const CHECKS_SCANNED = 500;

/** The address page's data for `address` on `network` (a 400 naming the field when either is not valid). */
export async function addressProfile(ctx: EngineContext, accountId: string, network: string, raw: string) {
  const query = parseInput(addressProfileQuerySchema, { network }, "address query");
  const code = query.network.trim().toUpperCase();
  if (!isNetworkCode(code)) throw fieldError("network", `unknown network "${network}"`);
  const address = normalizeAddress(code, raw);
  const now = ctx.clock.now();
  const [entities, listings] = await Promise.all([
    ctx.resolver.resolve(code, [address], { from: now, to: now }),
    ctx.sanctions.listings([address]),
  ]);
  const entity = entities.get(address) ?? null;
  const clusters = isUtxoNetwork(code) ? await ctx.store.addressClusters(code, [address]) : [];
  const cluster = clusters[0] ?? null;
  const page = { page: 1, pageSize: ADDRESS_PAGE_LIMIT };
  const [sent, received] = await Promise.all([
    ctx.store.listTransfers(accountId, { network: code, inputAddress: address }, page),
    ctx.store.listTransfers(accountId, { network: code, outputAddress: address }, page),
  ]);
  const byId = new Map<string, TransferRecord>();
  for (const t of [...sent.items, ...received.items]) byId.set(t.id, t);
  const transfers = [...byId.values()].sort(
    (a, b) => b.registeredAt - a.registeredAt || (a.id < b.id ? 1 : -1),
  );
  const alerts = (await Promise.all(transfers.map((t) => ctx.store.listAlertsOfTransfer(t.id)))).flatMap(
    (list, n) => list.map((a) => presentAlert(a, transfers[n] ?? null, { single: false })),
  );
  const checks = await ctx.store.listManualChecks(accountId, { page: 1, pageSize: CHECKS_SCANNED });
  const touching = checks.items
    .filter(
      (c) =>
        c.network === code &&
        [c.address, c.counterpartyAddress, c.inputAddress, c.outputAddress].includes(address),
    )
    .slice(0, ADDRESS_PAGE_LIMIT);
  return {
    network: code,
    address,
    entity: entity
      ? {
          name: entity.name,
          category: entity.category,
          source: entity.source,
          attribution: entity.cluster ? ("cluster" as const) : ("address" as const),
          ...(entity.cluster ? { defining_address: entity.cluster.definingAddress } : {}),
        }
      : null,
    listings: presentListings(listings),
    cluster: cluster ? { cluster_id: cluster.clusterId, size: cluster.size } : null,
    transfers: transfers.slice(0, ADDRESS_PAGE_LIMIT).map(presentTransfer),
    transfers_total: sent.total + received.total,
    alerts,
    manual_checks: touching.map(presentManualCheck),
  };
}
