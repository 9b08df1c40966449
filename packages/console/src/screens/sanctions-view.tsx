/**
 * OpenKYT's additions to a transfer's exposure answer, as the alert and transfer pages show
 * them: the sanctions check's listings (list, program, entity, dates) and the model version
 * that made the risks, which stays the same when the model is edited later.
 */
import type { SanctionsWire } from "../api/wire-types.js";
import { href } from "../app/router.js";
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

/** The sanctions check's result. */
export function SanctionsView({ sanctions }: { sanctions: SanctionsWire | null | undefined }) {
  if (sanctions === undefined) return null;
  if (sanctions === null) return <Empty>The sanctions check has not finished.</Empty>;
  if (sanctions.listings.length === 0)
    return (
      <p>
        <span class="mono break">{sanctions.address}</span> is on no sanctions list.
      </p>
    );
  return (
    <>
      <p>
        <span class="mono break">{sanctions.address}</span>{" "}
        {sanctions.hit ? "is listed at the transfer's time:" : "was listed, but not at the transfer's time:"}
      </p>
      <div class="table-wrap">
        <table>
          <caption class="sr-only">Sanctions listings</caption>
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
      </div>
    </>
  );
}
