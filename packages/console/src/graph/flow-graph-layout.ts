/**
 * Places the shown part of a funds-flow graph with dagre (a layered layout: each hop a rank, in
 * the direction the funds moved, crossings reduced, edge labels given room). Nothing here picks a
 * coordinate by hand: the sizes of the boxes go in, dagre's positions come out.
 */
import { Graph, layout } from "@dagrejs/dagre";
import type { FlowEdge, FlowNode, VisibleFlowGraph } from "./flow-graph-model.js";

/** A node's box, and an edge label's. */
export const NODE_WIDTH = 210;
export const NODE_HEIGHT = 74;
export const LABEL_WIDTH = 176;
export const LABEL_HEIGHT = 36;

/** A placed node: its centre. */
export interface PlacedNode {
  readonly node: FlowNode;
  readonly x: number;
  readonly y: number;
}

/** A placed edge: the points of its line and the centre of its label. */
export interface PlacedEdge {
  readonly edge: FlowEdge;
  readonly points: ReadonlyArray<{ readonly x: number; readonly y: number }>;
  readonly labelX: number;
  readonly labelY: number;
}

/** The placed graph and the size it needs. */
export interface FlowLayout {
  readonly width: number;
  readonly height: number;
  readonly nodes: ReadonlyArray<PlacedNode>;
  readonly edges: ReadonlyArray<PlacedEdge>;
}

/** Lays out `shown`: left to right (`LR`) on a wide screen, top to bottom (`TB`) on a narrow one. */
export function layoutFlowGraph(shown: VisibleFlowGraph, rankdir: "LR" | "TB"): FlowLayout {
  const g = new Graph({ multigraph: true });
  g.setGraph({
    rankdir,
    nodesep: 28,
    ranksep: rankdir === "LR" ? 60 : 40,
    edgesep: 16,
    marginx: 12,
    marginy: 12,
  });
  g.setDefaultEdgeLabel(() => ({}));
  for (const n of shown.nodes) g.setNode(n.id, { width: NODE_WIDTH, height: NODE_HEIGHT });
  for (const e of shown.edges) {
    g.setEdge(e.from, e.to, { width: LABEL_WIDTH, height: LABEL_HEIGHT, labelpos: "c" }, e.id);
  }
  layout(g);
  const size = g.graph();
  const byId = new Map(shown.edges.map((e) => [e.id, e]));
  return {
    width: Math.ceil(size.width ?? 0),
    height: Math.ceil(size.height ?? 0),
    nodes: shown.nodes.map((node) => {
      const placed = g.node(node.id);
      return { node, x: placed.x ?? 0, y: placed.y ?? 0 };
    }),
    edges: g.edges().flatMap((ref) => {
      const edge = ref.name === undefined ? undefined : byId.get(ref.name);
      const placed = g.edge(ref);
      if (!edge || !placed) return [];
      return [{ edge, points: placed.points ?? [], labelX: placed.x ?? 0, labelY: placed.y ?? 0 }];
    }),
  };
}
