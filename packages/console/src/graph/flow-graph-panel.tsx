/**
 * The funds-flow graph of one trace with its controls: expand hop by hop (each node's +/-, or
 * everything at once), collapse back to hop 1, download it as SVG or PNG, and the same paths as a
 * table (the graph's text alternative, with copy buttons and explorer links). This module and all
 * it imports (dagre included) are loaded only when a page shows a graph (flow-graph-section.tsx).
 */

import type { Page } from "@openkyt/core/wire";
import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import { apiPath } from "../api/api-path.js";
import { useApiQuery } from "../api/query-hooks.js";
import type { ExposureWire, TransferWire } from "../api/wire-types.js";
import { AddressRef, TxRef } from "../components/chain-refs.js";
import { short } from "../components/format.js";
import { Failure } from "../components/states.js";
import { downloadPng, downloadSvg } from "./flow-graph-export.js";
import { layoutFlowGraph } from "./flow-graph-layout.js";
import {
  buildFlowGraph,
  type FlowGraphModel,
  fullExpansion,
  initialExpansion,
  toggleExpansion,
  visibleGraph,
} from "./flow-graph-model.js";
import { FlowGraphSvg, roleWords, shareWords } from "./flow-graph-svg.js";

/** Narrow screens lay the graph out top to bottom. */
const NARROW = "(max-width: 700px)";

function useNarrow(): boolean {
  const [narrow, setNarrow] = useState(() => window.matchMedia(NARROW).matches);
  useEffect(() => {
    const query = window.matchMedia(NARROW);
    const changed = () => setNarrow(query.matches);
    query.addEventListener("change", changed);
    return () => query.removeEventListener("change", changed);
  }, []);
  return narrow;
}

let graphs = 0;

/** The paths of the graph as a table: one group of rows per path, a row per address. */
function PathTable({ model, id }: { model: FlowGraphModel; id: string }) {
  const incoming = model.direction === "incoming";
  const edges = new Map(model.edges.map((e) => [e.id, e]));
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard
    <section class="table-wrap" tabIndex={0} aria-labelledby={`${id}-table`}>
      <table class="flow-table">
        <caption id={`${id}-table`}>The graph's paths as a table, each from your customer's address</caption>
        <thead>
          <tr>
            <th scope="col">Path (share of the value)</th>
            <th scope="col">Address</th>
            <th scope="col">{incoming ? "Funds came in" : "Funds went out in"}</th>
          </tr>
        </thead>
        {model.paths.map((path) => (
          <tbody key={path.share.category}>
            {path.nodes.map((nodeId, n) => {
              const node = model.nodes.get(nodeId);
              if (!node) return null;
              const edge = n < path.edges.length ? edges.get(path.edges[n] ?? "") : undefined;
              return (
                <tr key={nodeId}>
                  {n === 0 ? (
                    <th scope="rowgroup" rowSpan={path.nodes.length}>
                      {shareWords(path.share)}
                    </th>
                  ) : null}
                  <td>
                    <span class="hop-role">{roleWords(node, incoming)}</span>{" "}
                    <AddressRef network={model.network} address={node.address} />
                    {node.listed ? (
                      <span class="badge risk-severe">
                        listed: {node.listed.listings.map((l) => l.list_name).join(", ")}
                      </span>
                    ) : null}
                    {node.entityName ? ` ${node.entityName}` : ""}
                  </td>
                  <td>
                    {edge?.tx ? (
                      <>
                        {edge.transfer
                          ? "this transfer "
                          : `${incoming ? "from" : "to"} hop ${node.hop + 1} in `}
                        <TxRef network={model.network} hash={edge.tx} keep={8} />
                      </>
                    ) : n < path.edges.length ? (
                      "no hash recorded"
                    ) : (
                      "–"
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        ))}
      </table>
    </section>
  );
}

/** The graph of `exposure` (a transfer's), with `focus` (an address page's address) marked. */
export function FlowGraphPanel({
  transfer,
  exposure,
  focus = null,
}: {
  transfer: TransferWire;
  exposure: ExposureWire;
  focus?: string | null;
}) {
  const [id] = useState(() => `flow-${++graphs}`);
  // The transfer page refetches the transfer every few seconds: the graph (and what the analyst
  // expanded) is kept while the trace (the transfer and its exposure answer) is the same.
  const model = useMemo(() => buildFlowGraph(transfer, exposure), [transfer.id, exposure]);
  const [expanded, setExpanded] = useState(() => initialExpansion(model));
  useEffect(() => setExpanded(initialExpansion(model)), [model]);
  const narrow = useNarrow();
  const shown = useMemo(() => visibleGraph(model, expanded), [model, expanded]);
  const placed = useMemo(() => layoutFlowGraph(shown, narrow ? "TB" : "LR"), [shown, narrow]);
  const canvas = useRef<HTMLElement | null>(null);
  const [error, setError] = useState<unknown>(null);
  // The same query as the queue's category list: one request, cached.
  const categories = useApiQuery<Page<{ code: string; color: string }>>(
    apiPath`/v1/basics/entity-categories/?page_size=100`,
  ).data?.items;
  const colors = useMemo(() => new Map((categories ?? []).map((c) => [c.code, c.color])), [categories]);
  if (model.paths.length === 0) {
    return <p class="state empty">No path to draw: the trace met no attributed entity.</p>;
  }
  const total = model.nodes.size;
  const name = `openkyt-flow-${model.network}-${short(transfer.tx_hash ?? transfer.id, 6).replace("…", "-")}`;
  const save = async (kind: "svg" | "png") => {
    setError(null);
    const element = canvas.current?.querySelector("svg");
    if (!element) return;
    try {
      if (kind === "svg") downloadSvg(element, name);
      else await downloadPng(element, name);
    } catch (caught) {
      setError(caught);
    }
  };
  const title = `Funds-flow graph: ${shown.nodes.length} of ${total} addresses shown, ${
    model.direction === "incoming"
      ? "funds flowing towards your customer"
      : "funds flowing out from your customer"
  }`;
  return (
    <div class="flow-graph">
      <div class="actions" role="toolbar" aria-label="Funds-flow graph">
        <button type="button" onClick={() => setExpanded(fullExpansion(model))}>
          Expand all
        </button>
        <button type="button" onClick={() => setExpanded(initialExpansion(model))}>
          Collapse to hop 1
        </button>
        <button type="button" onClick={() => save("svg")}>
          Download SVG
        </button>
        <button type="button" onClick={() => save("png")}>
          Download PNG
        </button>
        <span class="hint" role="status" aria-live="polite">
          {shown.nodes.length} of {total} addresses shown
        </span>
      </div>
      {error ? <Failure error={error} what="Not exported" /> : null}
      <p class="hint">
        Each box is an address (it opens its address page); each arrow a transaction, in the direction the
        funds moved, coloured by the category of the largest share it carries. The + of a box shows the next
        hop.
      </p>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard */}
      <section class="flow-canvas" ref={canvas} tabIndex={0} aria-label="Funds-flow graph (scrolls)">
        <FlowGraphSvg
          id={id}
          layout={placed}
          network={model.network}
          incoming={model.direction === "incoming"}
          focus={focus}
          hidden={shown.hidden}
          expanded={expanded}
          transferValue={transfer.value_in_fiat}
          onToggle={(node) => setExpanded((now) => toggleExpansion(model, now, node))}
          title={title}
          colors={colors}
        />
      </section>
      <PathTable model={model} id={id} />
    </div>
  );
}
