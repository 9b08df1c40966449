/**
 * The funds-flow graph drawn as SVG from dagre's layout: addresses as boxes (each a link to its
 * address page, with its role and hop, its attributed category and share, and a badge when it is
 * listed), transactions as arrows in the direction the funds moved, coloured by the category of
 * the largest share they carry, labelled with the shortened hash and that share. A node with
 * hidden addresses beyond it has a +/- button (click, Enter or Space). Colours, fonts and sizes
 * are SVG attributes, not CSS, so the exported file looks the same on its own.
 */
import { addressHref } from "../components/chain-refs.js";
import { fiat, share, short, words } from "../components/format.js";
import { type FlowLayout, LABEL_HEIGHT, LABEL_WIDTH, NODE_HEIGHT, NODE_WIDTH } from "./flow-graph-layout.js";
import type { FlowEdge, FlowNode, FlowShare } from "./flow-graph-model.js";

const INK = "#1a1f2b";
const MUTED = "#4a5263";
const NEUTRAL = "#5f6b7d";
const LISTED = "#a3121f";

/** The colours of the categories by code (the server's, GET /v1/basics/entity-categories/). */
export type CategoryColors = ReadonlyMap<string, string>;

/** The colour of a category; a neutral grey for none or one not (yet) known. */
export function categoryColor(colors: CategoryColors, category: string | undefined): string {
  const color = category === undefined ? undefined : colors.get(category);
  return color && /^#[0-9a-f]{6}$/i.test(color) ? color : NEUTRAL;
}

/** A node's role in words: "Your customer", "Counterparty (hop 1)", "Hop 3". */
export function roleWords(n: FlowNode, incoming: boolean): string {
  if (n.role === "customer") return `Your customer (${incoming ? "recipient" : "sender"})`;
  if (n.role === "counterparty") return `Counterparty (hop ${n.hop})`;
  return `Hop ${n.hop}`;
}

/** `text` cut to `max` characters with an ellipsis: SVG text does not wrap. */
function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

const wholeDollars = new Intl.NumberFormat("en-US", {
  style: "currency",
  currency: "USD",
  maximumFractionDigits: 0,
});

/** An edge's share in few words: "sanctions 42.0% · $1,234". */
function edgeShareWords(s: FlowShare): string {
  return `${words(s.category)} ${share(s.share)}${s.valueInFiat === null ? "" : ` · ${wholeDollars.format(s.valueInFiat)}`}`;
}

/** A share in words: "sanctions 42.0% ($1,234.00)". */
export function shareWords(s: FlowShare): string {
  return `${words(s.category)} ${share(s.share)}${s.valueInFiat === null ? "" : ` (${fiat(s.valueInFiat)})`}`;
}

/** A hash shortened; a UTXO coin keeps its output index: "3f2a1b…9c:1". */
export function shortTx(tx: string): string {
  const coin = /^(.*):(\d+)$/.exec(tx);
  return coin ? `${short(coin[1], 6)}:${coin[2]}` : short(tx, 7);
}

function edgeWords(e: FlowEdge): string {
  const top = e.shares[0];
  const more = e.shares.length > 1 ? ` and ${e.shares.length - 1} more` : "";
  return top ? `${shareWords(top)}${more}` : "";
}

function Node({
  node,
  x,
  y,
  network,
  incoming,
  focus,
  hidden,
  expanded,
  onToggle,
  colors,
}: {
  colors: CategoryColors;
  node: FlowNode;
  x: number;
  y: number;
  network: string;
  incoming: boolean;
  focus: boolean;
  hidden: number;
  expanded: boolean;
  onToggle: (id: string) => void;
}) {
  const left = x - NODE_WIDTH / 2;
  const top = y - NODE_HEIGHT / 2;
  const main = node.attributed[0];
  const color = main ? categoryColor(colors, main.category) : node.listed ? LISTED : NEUTRAL;
  const role = roleWords(node, incoming);
  const entity = node.entityName ? `${node.entityName}, ` : "";
  const detail = main ? `${entity}${shareWords(main)}` : node.role === "customer" ? "" : "no entity";
  const toggle = () => onToggle(node.id);
  const canToggle = hidden > 0 || (expanded && node.children.length > 0);
  return (
    <g data-address={node.address} data-hop={node.hop}>
      <a href={addressHref(network, node.address)}>
        <rect
          x={left}
          y={top}
          width={NODE_WIDTH}
          height={NODE_HEIGHT}
          rx={8}
          fill={focus ? "#eef3ff" : "#ffffff"}
          stroke={color}
          stroke-width={focus || main ? 2.5 : 1.5}
        />
        <text x={left + 10} y={top + 18} font-weight="600" fill={INK}>
          {role}
        </text>
        <text x={left + 10} y={top + 38} font-family="ui-monospace, monospace" fill={INK}>
          {short(node.address, 10)}
        </text>
        <text x={left + 10} y={top + 58} fill={main ? color : MUTED} font-weight={main ? "600" : "400"}>
          {clip(focus ? `this address${detail ? ` · ${detail}` : ""}` : detail, 29)}
        </text>
        {node.listed ? (
          <g>
            <rect x={left + NODE_WIDTH - 92} y={top - 9} width={86} height={18} rx={9} fill={LISTED} />
            <text
              x={left + NODE_WIDTH - 49}
              y={top + 4}
              text-anchor="middle"
              font-size="10"
              font-weight="700"
              fill="#ffffff"
            >
              SANCTIONED
            </text>
          </g>
        ) : null}
      </a>
      {canToggle ? (
        // biome-ignore lint/a11y/useSemanticElements: an SVG has no <button>; this is its button
        <g
          role="button"
          // Lowercase: an SVG attribute is case-sensitive, and Preact sets SVG props as attributes.
          tabindex={0}
          class="flow-toggle"
          aria-expanded={expanded && hidden === 0}
          aria-label={
            hidden > 0
              ? `Expand ${short(node.address, 6)}: ${hidden} more ${hidden === 1 ? "address" : "addresses"} beyond hop ${node.hop}`
              : `Collapse what lies beyond ${short(node.address, 6)} (hop ${node.hop})`
          }
          onClick={toggle}
          onKeyDown={(event) => {
            if (event.key === "Enter" || event.key === " ") {
              event.preventDefault();
              toggle();
            }
          }}
        >
          <circle cx={left + NODE_WIDTH - 14} cy={top + NODE_HEIGHT - 14} r={11} fill="#1f4fbf" />
          <text
            x={left + NODE_WIDTH - 14}
            y={top + NODE_HEIGHT - 9.5}
            text-anchor="middle"
            font-size="15"
            font-weight="700"
            fill="#ffffff"
          >
            {hidden > 0 ? "+" : "−"}
          </text>
          {hidden > 0 ? (
            <text
              x={left + NODE_WIDTH - 30}
              y={top + NODE_HEIGHT - 9}
              text-anchor="end"
              font-size="11"
              fill={MUTED}
            >
              {hidden} more
            </text>
          ) : null}
        </g>
      ) : null}
    </g>
  );
}

/** The graph as an SVG element of the layout's size; `id` prefixes its marker ids. */
export function FlowGraphSvg({
  id,
  layout,
  network,
  incoming,
  focus,
  hidden,
  expanded,
  transferValue,
  onToggle,
  title,
  colors,
}: {
  colors: CategoryColors;
  id: string;
  layout: FlowLayout;
  network: string;
  incoming: boolean;
  focus: string | null;
  hidden: ReadonlyMap<string, number>;
  expanded: ReadonlySet<string>;
  transferValue: number | null;
  onToggle: (id: string) => void;
  title: string;
}) {
  const strokes = [...new Set(layout.edges.map((e) => categoryColor(colors, e.edge.shares[0]?.category)))];
  const marker = (color: string) => `${id}-arrow-${strokes.indexOf(color)}`;
  return (
    // biome-ignore lint/a11y/useSemanticElements: an SVG's group of links and buttons, named by its title
    <svg
      xmlns="http://www.w3.org/2000/svg"
      width={layout.width}
      height={layout.height}
      viewBox={`0 0 ${layout.width} ${layout.height}`}
      font-family="system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif"
      font-size="12"
      role="group"
      aria-labelledby={`${id}-title`}
    >
      <title id={`${id}-title`}>{title}</title>
      <defs>
        {strokes.map((color) => (
          <marker
            key={color}
            id={marker(color)}
            viewBox="0 0 10 10"
            refX="9"
            refY="5"
            markerWidth="7"
            markerHeight="7"
            orient="auto-start-reverse"
          >
            <path d="M0,0 L10,5 L0,10 z" fill={color} />
          </marker>
        ))}
      </defs>
      <rect width={layout.width} height={layout.height} fill="#ffffff" />
      {layout.edges.map(({ edge, points, labelX, labelY }) => {
        const color = categoryColor(colors, edge.shares[0]?.category);
        const weight =
          1.5 +
          4 *
            Math.min(
              1,
              edge.shares.reduce((s, x) => s + x.share, 0),
            );
        const d = points.map((p, n) => `${n === 0 ? "M" : "L"}${p.x.toFixed(1)},${p.y.toFixed(1)}`).join(" ");
        const top = edge.shares[0];
        const caption = edge.transfer
          ? `this transfer${transferValue === null ? "" : ` · ${wholeDollars.format(transferValue)}`}`
          : top
            ? `${edgeShareWords(top)}${edge.shares.length > 1 ? ` +${edge.shares.length - 1}` : ""}`
            : "";
        return (
          <g key={edge.id} data-tx={edge.tx ?? ""}>
            <path
              d={d}
              fill="none"
              stroke={color}
              stroke-width={weight}
              marker-end={`url(#${marker(color)})`}
            />
            <g>
              <title>
                {edge.tx ? `Transaction ${edge.tx}` : "Transaction not recorded"}:{" "}
                {edge.transfer ? "this transfer" : edgeWords(edge)}
              </title>
              <rect
                x={labelX - LABEL_WIDTH / 2}
                y={labelY - LABEL_HEIGHT / 2}
                width={LABEL_WIDTH}
                height={LABEL_HEIGHT}
                rx={4}
                fill="#ffffff"
                stroke={color}
              />
              <text
                x={labelX}
                y={labelY - 3}
                text-anchor="middle"
                font-family="ui-monospace, monospace"
                font-size="11"
                fill={INK}
              >
                {edge.tx ? shortTx(edge.tx) : "no hash recorded"}
              </text>
              <text x={labelX} y={labelY + 12} text-anchor="middle" font-size="11" fill={MUTED}>
                {clip(caption, 30)}
              </text>
            </g>
          </g>
        );
      })}
      {layout.nodes.map(({ node, x, y }) => (
        <Node
          key={node.id}
          node={node}
          x={x}
          y={y}
          network={network}
          incoming={incoming}
          focus={node.address === focus}
          hidden={hidden.get(node.id) ?? 0}
          expanded={expanded.has(node.id)}
          onToggle={onToggle}
          colors={colors}
        />
      ))}
    </svg>
  );
}
