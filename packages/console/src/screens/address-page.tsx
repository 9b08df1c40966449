/**
 * An address page: everything the account knows about one address of a network, namely its
 * entity (label, or its cluster's on a UTXO chain), its sanctions listings, its cluster, the
 * account's transfers from or to it, their alerts, and the manual checks of it.
 */
import { apiPath, queryString } from "../api/api-path.js";
import { useApiQuery } from "../api/query-hooks.js";
import type { AddressProfileWire } from "../api/wire-types.js";
import { href } from "../app/router.js";
import { AddressRef, TxRef } from "../components/chain-refs.js";
import { fiat, short, when, words } from "../components/format.js";
import { Empty, Failure, Loading, RiskBadge, StatusBadge } from "../components/states.js";
import { AddressFlowGraph } from "./flow-graph-section.js";
import { ListingLine } from "./sanctions-view.js";

function Transfers({ p }: { p: AddressProfileWire }) {
  if (p.transfers.length === 0) return <Empty>No transfer of this account touches this address.</Empty>;
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard
    <section class="table-wrap" tabIndex={0} aria-label="Transfers">
      <table>
        <caption class="sr-only">Transfers from or to the address</caption>
        <thead>
          <tr>
            <th scope="col">Registered</th>
            <th scope="col">Side</th>
            <th scope="col">Risk</th>
            <th scope="col">Value</th>
            <th scope="col">Transaction</th>
            <th scope="col">Transfer</th>
          </tr>
        </thead>
        <tbody>
          {p.transfers.map((t) => (
            <tr key={t.id}>
              <td>{when(t.registered_at)}</td>
              <td>{t.input_address === p.address ? "sender" : "recipient"}</td>
              <td>
                <RiskBadge level={t.risk_level} />
              </td>
              <td class="num">{fiat(t.value_in_fiat)}</td>
              <td>{t.tx_hash ? <TxRef network={t.network} hash={t.tx_hash} keep={8} /> : "–"}</td>
              <td>
                <a href={href(`/transfers/${t.id}`)} class="mono">
                  {short(t.id, 6)}
                </a>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

function Alerts({ p }: { p: AddressProfileWire }) {
  if (p.alerts.length === 0) return <Empty>No alert was raised on these transfers.</Empty>;
  return (
    <ul class="plain">
      {p.alerts.map((a) => (
        <li key={a.id}>
          <RiskBadge level={a.risk_level} /> <StatusBadge status={a.alert_status} />{" "}
          <a href={href(`/alerts/${a.id}`)}>
            {words(a.risk_type)}: {words(a.entity_interaction?.entity_category)} (
            {a.entity_interaction?.proximity ?? "–"})
          </a>{" "}
          · {when(a.created_at)}
        </li>
      ))}
    </ul>
  );
}

/** The address page of `address` on `network`. */
export function AddressPage({ network, address }: { network: string; address: string }) {
  const profile = useApiQuery<AddressProfileWire>(
    apiPath`/v1/addresses/${address}/${queryString({ network })}`,
  );
  if (profile.isPending) return <Loading what="the address" />;
  if (profile.error) return <Failure error={profile.error} what="The address could not be read" />;
  const p = profile.data;
  return (
    <article aria-labelledby="address-title">
      <h1 id="address-title">
        Address on {p.network}
        {p.entity ? `: ${p.entity.name}` : ""}
      </h1>
      <p class="summary">
        <AddressRef network={p.network} address={p.address} page={false} />
      </p>
      <div class="columns">
        <section aria-labelledby="addr-entity">
          <h2 id="addr-entity">Entity and labels</h2>
          {p.entity ? (
            <p>
              <strong>{p.entity.name}</strong> ({words(p.entity.category)})
              {p.entity.source ? `, from ${p.entity.source}` : ""}
              {p.entity.attribution === "cluster" && p.entity.defining_address ? (
                <>
                  , found through its cluster: the label is on{" "}
                  <AddressRef network={p.network} address={p.entity.defining_address} />
                </>
              ) : null}
            </p>
          ) : (
            <p>No label: the address is not attributed to a known entity.</p>
          )}
          <h2>Sanctions listings</h2>
          {p.listings.length > 0 ? (
            <ListingLine sanctions={{ address: p.address, hit: true, listings: p.listings }} />
          ) : (
            <p>On no sanctions list.</p>
          )}
        </section>
        <section aria-labelledby="addr-cluster">
          <h2 id="addr-cluster">Cluster</h2>
          {p.cluster ? (
            <p>
              Common-input cluster of {p.cluster.size.toLocaleString("en-US")} addresses, founded by{" "}
              <AddressRef network={p.network} address={p.cluster.cluster_id} />
            </p>
          ) : (
            <p>
              {["BTC", "LTC"].includes(p.network)
                ? "In no cluster yet."
                : "Clusters apply to UTXO chains (BTC, LTC) only."}
            </p>
          )}
          <h2>Manual checks</h2>
          {p.manual_checks.length === 0 ? (
            <Empty>No manual check of this address.</Empty>
          ) : (
            <ul class="plain">
              {p.manual_checks.map((c) => (
                <li key={c.id}>
                  <a href={href(`/checks/${c.id}`)}>{words(c.check_type)}</a> ·{" "}
                  <RiskBadge level={c.risk_level} /> · {when(c.created_at)}
                </li>
              ))}
            </ul>
          )}
        </section>
      </div>
      <section aria-labelledby="addr-transfers">
        <h2 id="addr-transfers">
          Transfers ({p.transfers.length < p.transfers_total ? `newest ${p.transfers.length} of ` : ""}
          {p.transfers_total})
        </h2>
        <Transfers p={p} />
      </section>
      <section aria-labelledby="addr-flow">
        <h2 id="addr-flow">Funds flow</h2>
        <AddressFlowGraph address={p.address} transfers={p.transfers} />
      </section>
      <section aria-labelledby="addr-alerts">
        <h2 id="addr-alerts">Alerts on these transfers</h2>
        <Alerts p={p} />
      </section>
    </article>
  );
}
