/**
 * The funds-flow graph of one trace, as plain frozen data: the customer's address, the
 * counterparty (hop 1) and every address of each strongest path, merged by address; the
 * transactions between them as edges in the direction the funds moved; and which nodes are shown
 * for a set of expanded nodes. Pure: no DOM, no layout (flow-graph-layout.ts places it).
 *
 * Edges. Account-model chains: `tx_hashes[n]` links `addresses[n]` and `addresses[n + 1]`. UTXO
 * chains (`tx_hashes` as long as `addresses`): `tx_hashes[n]` is the `txid:vout` of the coin of
 * `addresses[n]`; the coin that the downstream address of a step received is the one the step's
 * transaction made, so that coin names the edge. Incoming transfers: funds flow from the far end
 * of a path towards the customer; outgoing: from the customer outwards.
 */
import type { ExposureWire, InteractionWire, SanctionsWire, TransferWire } from "../api/wire-types.js";

/** What an address is in the trace. */
export type FlowRole = "customer" | "counterparty" | "hop" | "attributed";

/** One category whose strongest path runs through a node or an edge. */
export interface FlowShare {
  readonly category: string;
  /** Share of the traced value (1 for a direct interaction). */
  readonly share: number;
  readonly valueInFiat: number | null;
}

/** An address of the graph. */
export interface FlowNode {
  readonly id: string;
  readonly address: string;
  /** 0: the customer's address; 1: the counterparty; n: met n hops from the customer. */
  readonly hop: number;
  readonly role: FlowRole;
  /** The categories attributed here (a path ends here, or the counterparty is a direct entity). */
  readonly attributed: ReadonlyArray<FlowShare>;
  /** The entity's name, when the counterparty is a named entity (direct interaction). */
  readonly entityName: string | null;
  /** The address's sanctions listings, when it is listed. */
  readonly listed: SanctionsWire | null;
  /** The node one hop nearer the customer through which it was first reached; null for the root. */
  readonly parent: string | null;
  /** The nodes first reached through this one, one hop further. */
  readonly children: ReadonlyArray<string>;
}

/** A transaction between two addresses, in the direction the funds moved. */
export interface FlowEdge {
  readonly id: string;
  readonly from: string;
  readonly to: string;
  /** The hash (account model) or `txid:vout` (UTXO); null when the result recorded none. */
  readonly tx: string | null;
  /** True for the transfer itself (customer and counterparty). */
  readonly transfer: boolean;
  /** The categories whose strongest path takes this edge, largest share first. */
  readonly shares: ReadonlyArray<FlowShare>;
}

/** One strongest path, for the text alternative. */
export interface FlowPath {
  readonly share: FlowShare;
  /** Node ids from the customer (or the counterparty) to the attributed address. */
  readonly nodes: ReadonlyArray<string>;
  /** `edges[n]` links `nodes[n]` and `nodes[n + 1]`. */
  readonly edges: ReadonlyArray<string>;
}

/** The whole graph of a trace. */
export interface FlowGraphModel {
  readonly network: string;
  /** incoming: funds came from the paths to the customer; outgoing: they went out along them. */
  readonly direction: "incoming" | "outgoing";
  /** The root: the customer's address, or the counterparty when the customer's is unknown. */
  readonly root: string;
  readonly nodes: ReadonlyMap<string, FlowNode>;
  readonly edges: ReadonlyArray<FlowEdge>;
  readonly paths: ReadonlyArray<FlowPath>;
}

interface MutableNode {
  id: string;
  address: string;
  hop: number;
  role: FlowRole;
  attributed: FlowShare[];
  entityName: string | null;
  listed: SanctionsWire | null;
  parent: string | null;
  children: string[];
}

function interactions(value: ExposureWire["direct_interaction"]): ReadonlyArray<InteractionWire> {
  if (!value) return [];
  return Array.isArray(value) ? value : [value as InteractionWire];
}

const byShare = (a: FlowShare, b: FlowShare) => b.share - a.share || a.category.localeCompare(b.category);

/**
 * Builds the graph of a transfer's exposure: its direct interaction on the counterparty, and
 * each indirect category's strongest path (the unexplained remainder, `undefined`, is left out:
 * it ends at no entity). Listings come from `sanctions` (the counterparty) and `path_sanctions`.
 */
export function buildFlowGraph(transfer: TransferWire, exposure: ExposureWire): FlowGraphModel {
  const incoming = transfer.direction !== "outgoing";
  const customer = incoming ? transfer.output_address : transfer.input_address;
  const counterparty = incoming ? transfer.input_address : transfer.output_address;
  const listings = new Map<string, SanctionsWire>();
  for (const s of [exposure.sanctions ?? null, ...(exposure.path_sanctions ?? [])]) {
    if (s?.hit && s.listings.length > 0) listings.set(s.address, s);
  }
  const nodes = new Map<string, MutableNode>();
  const node = (address: string, hop: number, role: FlowRole, parent: string | null): MutableNode => {
    const known = nodes.get(address);
    if (known) return known;
    const made: MutableNode = {
      id: address,
      address,
      hop,
      role,
      attributed: [],
      entityName: null,
      listed: listings.get(address) ?? null,
      parent,
      children: [],
    };
    nodes.set(address, made);
    if (parent !== null) nodes.get(parent)?.children.push(address);
    return made;
  };
  const edges = new Map<
    string,
    { from: string; to: string; tx: string | null; transfer: boolean; shares: FlowShare[] }
  >();
  const edge = (near: string, far: string, tx: string | null, transferEdge: boolean, share: FlowShare) => {
    const [from, to] = incoming ? [far, near] : [near, far];
    const id = `${from}>${to}>${tx ?? ""}`;
    let e = edges.get(id);
    if (!e) {
      e = { from, to, tx, transfer: transferEdge, shares: [] };
      edges.set(id, e);
    }
    if (!e.shares.some((s) => s.category === share.category)) e.shares.push(share);
    return id;
  };

  const root = customer ?? counterparty ?? "";
  if (customer) node(customer, 0, "customer", null);
  const paths: FlowPath[] = [];

  for (const d of interactions(exposure.direct_interaction)) {
    if (!counterparty) continue;
    const share: FlowShare = { category: d.entity_category, share: 1, valueInFiat: d.value_in_fiat };
    const c = node(counterparty, 1, "counterparty", customer);
    c.attributed.push(share);
    c.entityName = d.entity_name ?? c.entityName;
    const pathEdges = customer ? [edge(customer, counterparty, transfer.tx_hash, true, share)] : [];
    paths.push({ share, nodes: customer ? [customer, counterparty] : [counterparty], edges: pathEdges });
  }

  for (const i of interactions(exposure.indirect_interaction)) {
    const p = i.strongest_path;
    if (i.entity_category === "undefined" || !p || p.addresses.length === 0) continue;
    const share: FlowShare = {
      category: i.entity_category,
      share: i.value_share ?? 0,
      valueInFiat: i.value_in_fiat,
    };
    const perCoin = p.tx_hashes.length === p.addresses.length;
    const first = p.addresses[0] ?? "";
    const pathNodes: string[] = [];
    const pathEdges: string[] = [];
    if (customer && customer !== first) {
      pathNodes.push(customer);
      pathEdges.push(edge(customer, first, transfer.tx_hash, true, share));
    }
    const firstHop = p.hops - p.addresses.length + 1;
    p.addresses.forEach((address, n) => {
      const previous = n === 0 ? (customer !== first ? customer : null) : (p.addresses[n - 1] ?? null);
      // A UTXO path may start at the customer's own output (hop 0), so the counterparty is not always first.
      const role: FlowRole =
        address === customer ? "customer" : address === counterparty ? "counterparty" : "hop";
      node(address, firstHop + n, role, previous);
      pathNodes.push(address);
      if (n > 0) {
        const near = p.addresses[n - 1] ?? "";
        // UTXO: the coin the downstream address received names the step (see the module's comment).
        const tx = perCoin ? (incoming ? p.tx_hashes[n - 1] : p.tx_hashes[n]) : p.tx_hashes[n - 1];
        pathEdges.push(edge(near, address, tx ?? null, false, share));
      }
    });
    const end = nodes.get(p.addresses[p.addresses.length - 1] ?? "");
    if (end) {
      end.attributed.push(share);
      if (end.role === "hop") end.role = "attributed";
    }
    paths.push({ share, nodes: pathNodes, edges: pathEdges });
  }

  const frozenNodes = new Map<string, FlowNode>();
  for (const [id, n] of nodes) {
    frozenNodes.set(
      id,
      Object.freeze({
        ...n,
        attributed: Object.freeze([...n.attributed].sort(byShare)),
        children: Object.freeze([...n.children]),
      }),
    );
  }
  return Object.freeze({
    network: transfer.network,
    direction: incoming ? ("incoming" as const) : ("outgoing" as const),
    root,
    nodes: frozenNodes,
    edges: Object.freeze(
      [...edges].map(([id, e]) =>
        Object.freeze({ ...e, id, shares: Object.freeze([...e.shares].sort(byShare)) }),
      ),
    ),
    paths: Object.freeze(paths.sort((a, b) => byShare(a.share, b.share))),
  });
}

/** The nodes expanded at first: the root, so the counterparty (hop 1) shows. */
export function initialExpansion(model: FlowGraphModel): ReadonlySet<string> {
  return new Set([model.root]);
}

/** Every node that has children: the graph drawn whole. */
export function fullExpansion(model: FlowGraphModel): ReadonlySet<string> {
  return new Set([...model.nodes.values()].filter((n) => n.children.length > 0).map((n) => n.id));
}

/** The graph as shown: the root, and the children of every shown node that is expanded. */
export interface VisibleFlowGraph {
  readonly nodes: ReadonlyArray<FlowNode>;
  readonly edges: ReadonlyArray<FlowEdge>;
  /** Per shown node, how many addresses lie hidden beyond it (0: nothing to expand). */
  readonly hidden: ReadonlyMap<string, number>;
}

function descendants(model: FlowGraphModel, id: string): number {
  const n = model.nodes.get(id);
  return (n?.children ?? []).reduce((sum, c) => sum + 1 + descendants(model, c), 0);
}

/** The part of `model` shown when the nodes of `expanded` are expanded. */
export function visibleGraph(model: FlowGraphModel, expanded: ReadonlySet<string>): VisibleFlowGraph {
  const shown = new Set<string>();
  const queue = model.nodes.has(model.root) ? [model.root] : [];
  while (queue.length > 0) {
    const id = queue.shift() ?? "";
    if (shown.has(id)) continue;
    shown.add(id);
    if (expanded.has(id)) queue.push(...(model.nodes.get(id)?.children ?? []));
  }
  const hidden = new Map<string, number>();
  for (const id of shown) hidden.set(id, expanded.has(id) ? 0 : descendants(model, id));
  return {
    nodes: [...shown].map((id) => model.nodes.get(id)).filter((n): n is FlowNode => n !== undefined),
    edges: model.edges.filter((e) => shown.has(e.from) && shown.has(e.to)),
    hidden,
  };
}

/** `expanded` with `id` toggled; collapsing a node collapses everything beyond it too. */
export function toggleExpansion(
  model: FlowGraphModel,
  expanded: ReadonlySet<string>,
  id: string,
): ReadonlySet<string> {
  const next = new Set(expanded);
  if (!next.has(id)) {
    next.add(id);
    return next;
  }
  const drop = (n: string) => {
    next.delete(n);
    for (const c of model.nodes.get(n)?.children ?? []) drop(c);
  };
  drop(id);
  return next;
}
