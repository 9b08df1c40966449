/**
 * An address or a transaction hash as the console shows it everywhere: the value (shortened,
 * whole on hover and for screen readers), a copy button, a link to the network's block explorer
 * (the server's URL templates: `openkyt serve --reports-config`, docs/reports.md) and, for an
 * address, a link to its address page.
 */

import { apiPath } from "../api/api-path.js";
import { useApiQuery } from "../api/query-hooks.js";
import type { ReportSettingsWire } from "../api/wire-types.js";
import { href } from "../app/router.js";
import { CopyButton } from "./copy-button.js";
import { short } from "./format.js";

/** The server's report settings (explorers; whether goAML is configured), fetched once. */
export function useReportSettings(): ReportSettingsWire | undefined {
  return useApiQuery<ReportSettingsWire>(apiPath`/v1/basics/report-settings/`).data;
}

/** The explorer URL of a value, or null when the network has none or the URL is not http(s). */
export function explorerUrl(
  settings: ReportSettingsWire | undefined,
  network: string,
  kind: "address" | "tx",
  value: string,
): string | null {
  const template = settings?.explorers[network.toUpperCase()]?.[kind];
  if (!template || !/^https?:\/\//i.test(template)) return null;
  // A UTXO coin is written txid:vout: the explorer shows the transaction.
  const plain = kind === "tx" ? value.replace(/:\d+$/, "") : value;
  return template.replace(kind === "tx" ? "{tx}" : "{address}", encodeURIComponent(plain));
}

/** The address page's route. */
export function addressHref(network: string, address: string): string {
  return href(`/addresses/${encodeURIComponent(network.toUpperCase())}/${encodeURIComponent(address)}`);
}

/** An address: shortened, copy, explorer, address page. */
export function AddressRef({
  network,
  address,
  keep = 10,
  page = true,
}: {
  network: string;
  address: string;
  keep?: number;
  page?: boolean;
}) {
  const settings = useReportSettings();
  const explorer = explorerUrl(settings, network, "address", address);
  return (
    <span class="ref">
      {page ? (
        <a
          class="mono address-link"
          href={addressHref(network, address)}
          title={`Address page of ${address}`}
        >
          {short(address, keep)}
        </a>
      ) : (
        <span class="mono break">{address}</span>
      )}
      <CopyButton text={address} label={`Copy address ${short(address, 6)}`} />
      {explorer ? (
        <a class="explorer" href={explorer} target="_blank" rel="noopener noreferrer">
          Explorer
          <span class="sr-only">
            : open {short(address, 6)} in the {network} explorer (new tab)
          </span>
        </a>
      ) : null}
    </span>
  );
}

/** A transaction hash: shortened, copy, explorer. */
export function TxRef({ network, hash, keep = 10 }: { network: string; hash: string; keep?: number }) {
  const settings = useReportSettings();
  const explorer = explorerUrl(settings, network, "tx", hash);
  return (
    <span class="ref">
      <span class="mono" title={hash}>
        <span aria-hidden="true">{short(hash, keep)}</span>
        <span class="sr-only">{hash}</span>
      </span>
      <CopyButton text={hash} label={`Copy transaction ${short(hash, 6)}`} />
      {explorer ? (
        <a class="explorer" href={explorer} target="_blank" rel="noopener noreferrer">
          Explorer
          <span class="sr-only">
            : open transaction {short(hash, 6)} in the {network} explorer (new tab)
          </span>
        </a>
      ) : null}
    </span>
  );
}
