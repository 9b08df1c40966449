/**
 * Labels extended to clusters (UTXO chains): an address with no label of its own resolves to the
 * entity of a labelled address of its cluster (common-input ownership), and says so
 * (`cluster`: the defining address, the cluster's size). A cluster holding two or more entities
 * (a conflict, reported when it formed) resolves to the riskiest of them, flagged `conflict`.
 * Other networks resolve as the wrapped resolver does. See docs/risk-model.md, "Bitcoin".
 */
import { isUtxoNetwork } from "../domain/utxo-binding.js";
import type { UtxoClusterStore } from "../ports/utxo-clusters.js";

/** What the resolver reads of the clusters. */
type ClusterReads = Pick<UtxoClusterStore, "addressClusters" | "clusterLabelledMembers">;

import { categoryRiskRank, type EntityResolver, type ResolvedEntity } from "./entity-resolver.js";

/** Labelled members read per cluster. */
export const CLUSTER_LABEL_LIMIT = 100;

/** `base`, with labels extended to the clusters `clusters` keeps. */
export function clusterResolver(base: EntityResolver, clusters: ClusterReads): EntityResolver {
  return Object.freeze({
    /** The base's screen off UTXO networks; none on them (a cluster's label reaches any member). */
    addressScreen(network: string) {
      return isUtxoNetwork(network) ? null : (base.addressScreen?.(network) ?? null);
    },
    async resolve(
      network: string,
      addresses: ReadonlyArray<string>,
      span: Parameters<EntityResolver["resolve"]>[2],
    ) {
      const direct = await base.resolve(network, addresses, span);
      if (!isUtxoNetwork(network)) return direct;
      const rest = addresses.filter((a) => !direct.has(a));
      if (rest.length === 0) return direct;
      const joined = (await clusters.addressClusters(network, rest)).filter((c) => c.size > 1);
      if (joined.length === 0) return direct;
      const ids = [...new Set(joined.map((c) => c.clusterId))];
      const members = await clusters.clusterLabelledMembers(network, ids, CLUSTER_LABEL_LIMIT);
      if (members.length === 0) return direct;
      const entities = await base.resolve(
        network,
        members.map((m) => m.address),
        span,
      );
      // Per cluster: its entities (by name) and the riskiest one with its defining address.
      const found = new Map<string, { best: ResolvedEntity; address: string; names: Set<string> }>();
      for (const m of members) {
        const e = entities.get(m.address);
        if (!e) continue;
        const seen = found.get(m.clusterId);
        if (!seen) {
          found.set(m.clusterId, { best: e, address: m.address, names: new Set([e.name]) });
          continue;
        }
        seen.names.add(e.name);
        const riskier = categoryRiskRank(e.category) - categoryRiskRank(seen.best.category);
        if (riskier < 0 || (riskier === 0 && e.name < seen.best.name)) {
          seen.best = e;
          seen.address = m.address;
        }
      }
      const out = new Map(direct);
      for (const c of joined) {
        const f = found.get(c.clusterId);
        if (!f) continue;
        out.set(
          c.address,
          Object.freeze({
            name: f.best.name,
            category: f.best.category,
            source: f.best.source,
            cluster: Object.freeze({
              clusterId: c.clusterId,
              definingAddress: f.address,
              size: c.size,
              conflict: f.names.size > 1,
            }),
          }),
        );
      }
      return out;
    },
  });
}
