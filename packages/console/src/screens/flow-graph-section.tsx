/**
 * Where a page shows a funds-flow graph. The graph's code (dagre, the drawing, the export, its
 * styles) is a chunk of its own, imported when the first graph is shown, so the first screen's
 * bundle carries only this loader.
 */
import type { FunctionComponent } from "preact";
import { useEffect, useState } from "preact/hooks";
import type { ExposureWire, TransferWire } from "../api/wire-types.js";
import { Failure, Loading } from "../components/states.js";

type TransferGraphProps = { transfer: TransferWire; exposure: ExposureWire };
type AddressGraphProps = { address: string; transfers: ReadonlyArray<TransferWire> };

/** The graph's chunk, imported once. */
let chunk: Promise<typeof import("../graph/flow-graph-chunk.js")> | null = null;

function useChunk<P>(pick: (m: typeof import("../graph/flow-graph-chunk.js")) => FunctionComponent<P>) {
  const [component, setComponent] = useState<FunctionComponent<P> | null>(null);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    chunk ??= import("../graph/flow-graph-chunk.js");
    chunk.then(
      (m) => setComponent(() => pick(m)),
      (caught) => {
        chunk = null;
        setError(caught);
      },
    );
  }, []);
  return { component, error };
}

function Lazy<P>({ pick, props }: { pick: Parameters<typeof useChunk<P>>[0]; props: P }) {
  const { component: Component, error } = useChunk(pick);
  if (error) return <Failure error={error} what="The graph could not be loaded" />;
  if (!Component) return <Loading what="the graph" />;
  return <Component {...(props as P & object)} />;
}

/** The funds-flow graph of a transfer's exposure. */
export function FlowGraphSection(props: TransferGraphProps) {
  return <Lazy pick={(m) => m.FlowGraphPanel} props={props} />;
}

/** An address page's graph: the trace of one of the transfers that touch `address`. */
export function AddressFlowGraph(props: AddressGraphProps) {
  return <Lazy pick={(m) => m.AddressFlowGraph} props={props} />;
}
