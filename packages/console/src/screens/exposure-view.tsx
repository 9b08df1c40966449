/**
 * A transfer's exposure: the share of its value by entity category as a chart with the direct
 * and indirect parts, and the strongest path of each indirect category drawn whole (path-view.tsx).
 */
import type { ExposureWire, InteractionWire, TransferWire } from "../api/wire-types.js";
import { BarChart, type BarPart } from "../components/bar-chart.js";
import { fiat, share, words } from "../components/format.js";
import { PathView, UtxoRuleNote } from "./path-view.js";

const LEGEND: ReadonlyArray<BarPart> = [
  { label: "direct", value: 0, tone: "tone-direct" },
  { label: "indirect", value: 0, tone: "tone-indirect" },
];

function list(value: ExposureWire["direct_interaction"]): ReadonlyArray<InteractionWire> {
  if (!value) return [];
  return Array.isArray(value) ? value : [value as InteractionWire];
}

/** The chart and the paths of one exposure. */
export function ExposureView({
  exposure,
  transfer,
  network = transfer?.network ?? "ETH",
}: {
  exposure: ExposureWire;
  transfer?: TransferWire;
  network?: string;
}) {
  const direct = list(exposure.direct_interaction);
  const indirect = list(exposure.indirect_interaction);
  const categories = [...new Set([...direct, ...indirect].map((i) => i.entity_category))];
  if (categories.length === 0) {
    const state = exposure.check_status ?? "checked";
    return (
      <p class="state empty">
        {state === "checked"
          ? "No exposure to any known entity."
          : `The exposure has not been checked (state: ${words(state)}).`}
      </p>
    );
  }
  const shareOf = (of: ReadonlyArray<InteractionWire>, category: string) =>
    of.filter((i) => i.entity_category === category).reduce((sum, i) => sum + (i.value_share ?? 1), 0);
  const bars = categories
    .map((category) => {
      const d = shareOf(direct, category);
      const n = shareOf(indirect, category);
      return {
        label: words(category),
        caption: `${share(d + n)}${d > 0 && n > 0 ? ` (${share(d)} direct)` : d > 0 ? " direct" : " indirect"}`,
        parts: [
          { label: "direct", value: d, tone: "tone-direct" },
          { label: "indirect", value: n, tone: "tone-indirect" },
        ],
      };
    })
    .sort((a, b) => b.parts[0]!.value + b.parts[1]!.value - (a.parts[0]!.value + a.parts[1]!.value));
  const named = direct.filter((i) => i.entity_name);
  const paths = indirect.filter((i) => i.strongest_path && i.strongest_path.addresses.length > 0);
  return (
    <div>
      <BarChart
        title="Exposure by entity category (share of the transfer's value)"
        bars={bars}
        legend={LEGEND}
      />
      {named.map((i) => (
        <p key={i.entity_category}>
          Direct: the counterparty is <strong>{i.entity_name}</strong> ({words(i.entity_category)},{" "}
          {fiat(i.value_in_fiat)})
        </p>
      ))}
      {paths.length > 0 ? (
        <div>
          <h3>Strongest paths</h3>
          {exposure.utxo_rule ? <UtxoRuleNote rule={exposure.utxo_rule} /> : null}
          {paths.map((i) => (
            <PathView
              key={i.entity_category}
              interaction={i}
              transfer={transfer}
              network={network}
              pathSanctions={exposure.path_sanctions ?? []}
            />
          ))}
        </div>
      ) : null}
    </div>
  );
}
