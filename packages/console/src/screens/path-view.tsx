/**
 * A strongest path drawn whole: from the customer's address, through the transfer itself to the
 * counterparty, then hop by hop (each with the transaction that links it) to the address the
 * share was credited to, with that address's entity and, when it is listed, its sanctions
 * listing. "Direct" means the counterparty itself is the entity; "indirect" means the funds
 * reached it through one or more addresses in between.
 */
import type { InteractionWire, SanctionsWire, TransferWire } from "../api/wire-types.js";
import { AddressRef, TxRef } from "../components/chain-refs.js";
import { fiat, share, words } from "../components/format.js";
import { ListingLine } from "./sanctions-view.js";

/** The customer's address and the counterparty's, by the transfer's direction. */
export function sides(t: TransferWire): { customer: string | null; counterparty: string | null } {
  return t.direction === "incoming"
    ? { customer: t.output_address, counterparty: t.input_address }
    : { customer: t.input_address, counterparty: t.output_address };
}

/** A coin's value in its network's coin, always with 8 decimals (the wire's number is exact to them). */
export function coinValue(value: number, network: string): string {
  return `${value.toFixed(8)} ${network.toUpperCase()}`;
}

/** The taint rule a UTXO trace used, said once above its paths. */
export function UtxoRuleNote({ rule }: { rule: "haircut" | "fifo" }) {
  return (
    <p class="rule-note">
      Traced coin by coin by the <strong>{rule === "fifo" ? "FIFO" : "haircut"} rule</strong>:{" "}
      {rule === "fifo"
        ? "a transaction's inputs and outputs are laid end to end in order; each output takes the inputs its range overlaps."
        : "every output of a transaction carries the composition of all its inputs, pro rata to their values."}
    </p>
  );
}

/** One path, whole. */
export function PathView({
  interaction: i,
  transfer,
  network,
  pathSanctions,
}: {
  interaction: InteractionWire;
  transfer?: TransferWire | undefined;
  network: string;
  pathSanctions: ReadonlyArray<SanctionsWire>;
}) {
  const path = i.strongest_path;
  if (!path || path.addresses.length === 0) return null;
  const incoming = transfer?.direction !== "outgoing";
  const perCoin = path.tx_hashes.length === path.addresses.length;
  const last = path.addresses.length - 1;
  // A UTXO deposit's path starts at its own output (hop 0), paying the customer.
  const first = path.hops - last;
  const customer = transfer && first > 0 ? sides(transfer).customer : null;
  const listed = (address: string) => pathSanctions.find((s) => s.address === address);
  return (
    <div class="path">
      <p>
        <strong>{words(i.entity_category)}</strong> (indirect): {share(i.value_share ?? 1)} (
        {fiat(i.value_in_fiat)}), met {path.hops} {path.hops === 1 ? "hop" : "hops"} from the{" "}
        {incoming ? "sender" : "recipient"}. {incoming ? "Where the funds came from" : "Where the funds went"}
        , step by step:
      </p>
      <ol class="hops" aria-label={`Path to ${words(i.entity_category)}`}>
        {customer && transfer ? (
          <li>
            <span class="hop-role">Your customer ({incoming ? "recipient" : "sender"})</span>{" "}
            <AddressRef network={network} address={customer} />
            {transfer.tx_hash ? (
              <div class="hop-tx">
                {incoming ? "received it in" : "sent it in"} this transfer{" "}
                <TxRef network={network} hash={transfer.tx_hash} />
              </div>
            ) : null}
          </li>
        ) : null}
        {path.addresses.map((address, n) => {
          const tx = perCoin ? path.tx_hashes[n] : n < last ? path.tx_hashes[n] : undefined;
          const value = perCoin ? path.coin_values?.[n] : undefined;
          const hop = first + n;
          const hit = listed(address);
          return (
            <li key={`${address}-${n}`} class={n === last ? "hop-end" : undefined}>
              <span class="hop-role">
                {hop === 0
                  ? transfer
                    ? `Your customer (${incoming ? "recipient" : "sender"}): this transfer's output`
                    : "Start (hop 0)"
                  : hop === 1
                    ? `Counterparty (${incoming ? "sender" : "recipient"}, hop 1)`
                    : n === last
                      ? `${words(i.entity_category)} (hop ${hop})`
                      : `Hop ${hop}`}
              </span>{" "}
              <AddressRef network={network} address={address} />
              {hit ? <ListingLine sanctions={hit} /> : null}
              {tx ? (
                <div class="hop-tx">
                  {perCoin ? "its coin" : incoming ? "funded by" : "paid to the next in"}{" "}
                  <TxRef network={network} hash={tx} />
                  {value !== undefined ? <span class="coin-value"> {coinValue(value, network)}</span> : null}
                </div>
              ) : null}
            </li>
          );
        })}
      </ol>
    </div>
  );
}
