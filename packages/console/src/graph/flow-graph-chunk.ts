/** The graph's lazily loaded chunk: what screens/flow-graph-section.tsx imports on demand. */
export { AddressFlowGraph } from "./address-flow-graph.js";
export { FlowGraphPanel } from "./flow-graph-panel.js";
