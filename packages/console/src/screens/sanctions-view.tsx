/**
 * OpenKYT's additions to a transfer's exposure answer, as the alert and transfer pages show
 * them: the sanctions check's listings (list, program, entity, dates) and the model version
 * that made the risks, which stays the same when the model is edited later.
 */
import type { SanctionsWire } from "../api/wire-types.js";
import { href } from "../app/router.js";
import { AddressRef } from "../components/chain-refs.js";
import { short, when } from "../components/format.js";
import { Empty } from "../components/states.js";

/** "Made by risk model ID, version N", linking to the model. */
export function ModelVersion({ version }: { version: string | null | undefined }) {
  if (version === undefined) return null;
  if (version === null) return <p class="hint">No check has finished: no risk model has judged it yet.</p>;
  const at = version.lastIndexOf("@");
  const id = at < 0 ? version : version.slice(0, at);
  return (
    <p class="model-version">
      Judged by risk model{" "}
      <a href={href(`/risk-models/${encodeURIComponent(id)}`)} class="mono">
        {id === "default" ? "built-in" : short(id)}
      </a>{" "}
      <span class="version">version {at < 0 ? "?" : version.slice(at + 1)}</span>, the version kept with these
      results.
    </p>
  );
}

/** A date of a listing, or what its absence means. */
const dated = (iso: string | null, none: string) => (iso === null ? none : when(iso).slice(0, 10));

/** One listing in a line: "OFAC SDN · CYBER2 · Bad Actor · since 2022-08-08". */
export function ListingLine({ sanctions }: { sanctions: SanctionsWire }) {
  return (
    <ul class="listing-line" aria-label={`Sanctions listings of ${sanctions.address}`}>
      {sanctions.listings.map((l) => (
        <li key={`${l.list_name}/${l.listed_at}`}>
          <span class="badge risk-severe">{sanctions.hit ? "listed" : "was listed"}</span> {l.list_name}
          {l.program ? ` · ${l.program}` : ""}
          {l.entity ? ` · ${l.entity}` : ""} ·{" "}
          {l.designated_at
            ? `designated ${dated(l.designated_at, "")}`
            : `since ${dated(l.listed_at, "the list began")}`}
          {l.delisted_at ? ` · delisted ${dated(l.delisted_at, "")}` : ""}
        </li>
      ))}
    </ul>
  );
}

function ListingsTable({ sanctions }: { sanctions: SanctionsWire }) {
  return (
    // Focusable: on a narrow screen the table scrolls sideways, by keyboard too.
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard
    <section class="table-wrap" tabIndex={0} aria-label={`Listings of ${sanctions.address}`}>
      <table>
        <caption class="sr-only">Sanctions listings of {sanctions.address}</caption>
        <thead>
          <tr>
            <th scope="col">List</th>
            <th scope="col">Program</th>
            <th scope="col">Entity</th>
            <th scope="col">Listed</th>
            <th scope="col">Delisted</th>
            <th scope="col">Designated</th>
          </tr>
        </thead>
        <tbody>
          {sanctions.listings.map((l) => (
            <tr key={`${l.list_name}/${l.listed_at}`}>
              <td>{l.list_name}</td>
              <td>{l.program ?? "–"}</td>
              <td>{l.entity ?? "–"}</td>
              <td>{dated(l.listed_at, "since the list began")}</td>
              <td>{dated(l.delisted_at, "still listed")}</td>
              <td>{dated(l.designated_at, "not given")}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

/**
 * The sanctions check's result (the direct counterparty) and the listings of the sanctioned
 * addresses met on the strongest paths (indirect), each with list, program, entity and dates.
 */
export function SanctionsView({
  sanctions,
  pathSanctions = [],
  network,
}: {
  sanctions: SanctionsWire | null | undefined;
  pathSanctions?: ReadonlyArray<SanctionsWire>;
  network: string;
}) {
  if (sanctions === undefined) return null;
  const onPath =
    pathSanctions.length === 0 ? null : (
      <>
        <h3>Indirect: listed addresses on the paths</h3>
        {pathSanctions.map((p) => (
          <div key={p.address} class="path-listing">
            <p>
              <AddressRef network={network} address={p.address} />{" "}
              {p.hit ? "is listed at the transfer's time:" : "was listed, but not at the transfer's time:"}
            </p>
            <ListingsTable sanctions={p} />
          </div>
        ))}
      </>
    );
  if (sanctions === null)
    return (
      <>
        <Empty>The sanctions check has not finished.</Empty>
        {onPath}
      </>
    );
  if (sanctions.listings.length === 0)
    return (
      <>
        <p>
          Direct: the counterparty <AddressRef network={network} address={sanctions.address} /> is on no
          sanctions list.
          {pathSanctions.some((p) => p.hit)
            ? " The funds were traced to a sanctioned address further along the path (indirect):"
            : ""}
        </p>
        {onPath}
      </>
    );
  return (
    <>
      <p>
        Direct: the counterparty <AddressRef network={network} address={sanctions.address} />{" "}
        {sanctions.hit ? "is listed at the transfer's time:" : "was listed, but not at the transfer's time:"}
      </p>
      <ListingsTable sanctions={sanctions} />
      {onPath}
    </>
  );
}
