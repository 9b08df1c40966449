/**
 * The funds-flow graph's model and layout, without a browser: a seeded trace gives the customer,
 * the counterparty and each path's addresses with the transactions between them in the direction
 * the funds moved; expanding shows one hop more, collapsing hides everything beyond; and for any
 * trace (fast-check) every shown node's parent is shown and expanded, the full expansion shows
 * every node, and dagre places the shown boxes without overlap.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ExposureWire, TransferWire } from "../src/api/wire-types.js";
import { layoutFlowGraph, NODE_HEIGHT, NODE_WIDTH } from "../src/graph/flow-graph-layout.js";
import {
  buildFlowGraph,
  fullExpansion,
  initialExpansion,
  toggleExpansion,
  visibleGraph,
} from "../src/graph/flow-graph-model.js";

const transfer = (over: Partial<TransferWire> = {}): TransferWire => ({
  id: "t1",
  client_id: null,
  registered_at: "2026-11-01T00:00:00Z",
  risk_level: "severe",
  risk_score: 1,
  network: "ETH",
  token_id: "ETH",
  token_symbol: "ETH",
  tx_status: "confirmed",
  tx_hash: "0xtransfer",
  occurred_at: null,
  input_address: "0xcounterparty",
  output_address: "0xcustomer",
  direction: "incoming",
  amount: 1,
  value_in_fiat: 1000,
  ...over,
});

const exposure: ExposureWire = {
  direct_interaction: null,
  indirect_interaction: [
    {
      entity_category: "sanctions",
      value_share: 0.6,
      value_in_fiat: 600,
      strongest_path: {
        hops: 3,
        addresses: ["0xcounterparty", "0xmiddle", "0xlisted"],
        tx_hashes: ["0xtx-a", "0xtx-b"],
      },
    },
    {
      entity_category: "exchange_licensed",
      value_share: 0.3,
      value_in_fiat: 300,
      strongest_path: { hops: 2, addresses: ["0xcounterparty", "0xexchange"], tx_hashes: ["0xtx-c"] },
    },
    {
      entity_category: "undefined",
      value_share: 0.1,
      value_in_fiat: 100,
      strongest_path: { hops: 2, addresses: ["0xcounterparty", "0xunknown"], tx_hashes: ["0xtx-d"] },
    },
  ],
  path_sanctions: [
    {
      address: "0xlisted",
      hit: true,
      listings: [
        {
          network: "ETH",
          address: "0xlisted",
          list_name: "OFAC SDN",
          program: "CYBER2",
          entity: "X",
          listed_at: null,
          delisted_at: null,
          designated_at: null,
        },
      ],
    },
  ],
};

describe("the funds-flow graph of a trace", () => {
  it("has the customer, the counterparty and each path's addresses, edges in the direction of the funds", () => {
    const m = buildFlowGraph(transfer(), exposure);
    expect(m.root).toBe("0xcustomer");
    expect([...m.nodes.keys()].sort()).toEqual(
      ["0xcounterparty", "0xcustomer", "0xexchange", "0xlisted", "0xmiddle"].sort(),
    );
    expect(m.nodes.get("0xcounterparty")?.role).toBe("counterparty");
    expect(m.nodes.get("0xlisted")).toMatchObject({ role: "attributed", hop: 3, parent: "0xmiddle" });
    expect(m.nodes.get("0xlisted")?.listed?.listings[0]?.list_name).toBe("OFAC SDN");
    expect(m.nodes.get("0xlisted")?.attributed).toEqual([
      { category: "sanctions", share: 0.6, valueInFiat: 600 },
    ]);
    const e = (tx: string) => m.edges.find((x) => x.tx === tx);
    expect(e("0xtransfer")).toMatchObject({ from: "0xcounterparty", to: "0xcustomer", transfer: true });
    expect(e("0xtx-b")).toMatchObject({ from: "0xlisted", to: "0xmiddle" });
    // Both paths take the transfer: the edge carries both categories, largest first.
    expect(e("0xtransfer")?.shares.map((s) => s.category)).toEqual(["sanctions", "exchange_licensed"]);
    expect(m.paths.map((p) => p.share.category)).toEqual(["sanctions", "exchange_licensed"]);
    expect(m.paths[0]?.nodes).toEqual(["0xcustomer", "0xcounterparty", "0xmiddle", "0xlisted"]);
  });

  it("points edges outwards for an outgoing transfer, and names UTXO steps by the coin received", () => {
    const out = buildFlowGraph(
      transfer({ direction: "outgoing", input_address: "0xcustomer", output_address: "0xcounterparty" }),
      exposure,
    );
    expect(out.edges.find((x) => x.tx === "0xtx-b")).toMatchObject({ from: "0xmiddle", to: "0xlisted" });
    const btc = buildFlowGraph(transfer({ network: "BTC", input_address: "bc1a", output_address: "bc1me" }), {
      direct_interaction: null,
      indirect_interaction: [
        {
          entity_category: "darknet_market",
          value_share: 1,
          value_in_fiat: 1000,
          strongest_path: { hops: 2, addresses: ["bc1a", "bc1b"], tx_hashes: ["aa:0", "bb:3"] },
        },
      ],
    });
    // Backward: bc1a's coin aa:0 was made by the transaction that spent bc1b's coin.
    expect(btc.edges.find((x) => !x.transfer)).toMatchObject({ from: "bc1b", to: "bc1a", tx: "aa:0" });
    // A UTXO path may start at the customer's own output (hop 0): no second transfer edge, the
    // customer's coin names the step from the counterparty.
    const hop0 = buildFlowGraph(
      transfer({ network: "BTC", input_address: "bc1a", output_address: "bc1me" }),
      {
        direct_interaction: null,
        indirect_interaction: [
          {
            entity_category: "ransomware",
            value_share: 1,
            value_in_fiat: 1000,
            strongest_path: {
              hops: 2,
              addresses: ["bc1me", "bc1a", "bc1b"],
              tx_hashes: ["tt:1", "aa:0", "bb:3"],
            },
          },
        ],
      },
    );
    expect(hop0.nodes.get("bc1me")).toMatchObject({ role: "customer", hop: 0 });
    expect(hop0.nodes.get("bc1a")).toMatchObject({ role: "counterparty", hop: 1, parent: "bc1me" });
    expect(hop0.nodes.get("bc1b")).toMatchObject({ role: "attributed", hop: 2 });
    expect(hop0.edges.map((x) => `${x.from}>${x.to} ${x.tx}`)).toEqual(["bc1a>bc1me tt:1", "bc1b>bc1a aa:0"]);
    expect(hop0.paths[0]?.nodes).toEqual(["bc1me", "bc1a", "bc1b"]);
  });

  it("shows hop 1 first, one hop more per expansion, and hides everything beyond a collapsed node", () => {
    const m = buildFlowGraph(transfer(), exposure);
    const ids = (set: ReadonlySet<string>) =>
      visibleGraph(m, set)
        .nodes.map((n) => n.id)
        .sort();
    let open = initialExpansion(m);
    expect(ids(open)).toEqual(["0xcounterparty", "0xcustomer"]);
    expect(visibleGraph(m, open).hidden.get("0xcounterparty")).toBe(3);
    open = toggleExpansion(m, open, "0xcounterparty");
    expect(ids(open)).toEqual(["0xcounterparty", "0xcustomer", "0xexchange", "0xmiddle"]);
    open = toggleExpansion(m, open, "0xmiddle");
    expect(ids(open)).toContain("0xlisted");
    open = toggleExpansion(m, open, "0xcounterparty");
    expect(ids(open)).toEqual(["0xcounterparty", "0xcustomer"]);
    expect(open.has("0xmiddle")).toBe(false);
  });

  it("for any trace: parents shown and expanded, the full expansion shows all, dagre places boxes apart", () => {
    const address = fc.constantFrom("a", "b", "c", "d", "e", "f", "g", "h").map((s) => `0x${s}`);
    const path = fc.record({
      category: fc.constantFrom("sanctions", "scam", "mixer", "exchange_licensed"),
      share: fc.double({ min: 0.01, max: 1, noNaN: true }),
      addresses: fc.uniqueArray(address, { minLength: 1, maxLength: 5 }),
    });
    fc.assert(
      fc.property(fc.array(path, { minLength: 1, maxLength: 4 }), fc.boolean(), (paths, incoming) => {
        const m = buildFlowGraph(
          transfer({
            direction: incoming ? "incoming" : "outgoing",
            input_address: incoming ? "0xa" : "0xcustomer",
            output_address: incoming ? "0xcustomer" : "0xa",
          }),
          {
            direct_interaction: null,
            indirect_interaction: paths.map((p) => ({
              entity_category: p.category,
              value_share: p.share,
              value_in_fiat: null,
              strongest_path: {
                hops: p.addresses.length,
                addresses: p.addresses,
                tx_hashes: p.addresses.slice(1).map((a, n) => `tx-${p.addresses[n]}-${a}`),
              },
            })),
          },
        );
        const all = visibleGraph(m, fullExpansion(m));
        expect(all.nodes.length).toBe(m.nodes.size);
        const some = visibleGraph(m, initialExpansion(m));
        const shown = new Set(some.nodes.map((n) => n.id));
        for (const n of some.nodes) {
          if (n.parent !== null) expect(shown.has(n.parent)).toBe(true);
        }
        const placed = layoutFlowGraph(all, incoming ? "LR" : "TB");
        expect(placed.nodes.length).toBe(all.nodes.length);
        for (const [i, a] of placed.nodes.entries()) {
          for (const b of placed.nodes.slice(i + 1)) {
            const apart = Math.abs(a.x - b.x) >= NODE_WIDTH - 0.5 || Math.abs(a.y - b.y) >= NODE_HEIGHT - 0.5;
            expect(apart, `${a.node.id} and ${b.node.id} overlap`).toBe(true);
          }
        }
      }),
      { numRuns: 60 },
    );
  });
});
