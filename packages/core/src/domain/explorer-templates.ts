/**
 * An account's own block explorers: per network, a URL template for an address (with
 * `{address}`) and one for a transaction (with `{tx}`), which the console's links fill in. They
 * override the server's explorers (its defaults and `serve --reports-config FILE`) for that
 * account only. Pure: validation answers field errors, it never throws.
 */

/** One network's explorer templates. */
export interface ExplorerTemplates {
  /** With `{address}`, e.g. `https://etherscan.io/address/{address}`. */
  readonly address: string;
  /** With `{tx}`, e.g. `https://etherscan.io/tx/{tx}`. */
  readonly tx: string;
}

/** An account's explorers by network code (ETH, BTC, ...). */
export type AccountExplorers = Readonly<Record<string, ExplorerTemplates>>;

/** Longest template accepted. */
export const EXPLORER_TEMPLATE_MAX = 500;

/** The problems of one template (none: valid): https only, a host, the placeholder present. */
export function explorerTemplateProblems(template: string, placeholder: "{address}" | "{tx}"): string[] {
  const problems: string[] = [];
  if (template.length > EXPLORER_TEMPLATE_MAX)
    problems.push(`must be at most ${EXPLORER_TEMPLATE_MAX} characters`);
  let url: URL | null = null;
  try {
    url = new URL(template.replaceAll(placeholder, "x"));
  } catch {
    problems.push("must be a URL");
  }
  if (url !== null && url.protocol !== "https:") problems.push("must be an https URL");
  if (url !== null && (url.username !== "" || url.password !== ""))
    problems.push("must not carry a user name or password");
  if (!template.includes(placeholder)) problems.push(`must contain ${placeholder}`);
  return problems;
}

/**
 * The field errors of an account's explorers (`explorers.ETH.tx`: [...]), for the networks
 * `known` names; empty when every template is valid.
 */
export function explorerProblems(
  explorers: AccountExplorers,
  known: ReadonlyArray<string>,
): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  for (const [network, t] of Object.entries(explorers)) {
    if (!known.includes(network)) {
      errors[`explorers.${network}`] = [`unknown network ${network}`];
      continue;
    }
    const address = explorerTemplateProblems(t.address, "{address}");
    const tx = explorerTemplateProblems(t.tx, "{tx}");
    if (address.length) errors[`explorers.${network}.address`] = address;
    if (tx.length) errors[`explorers.${network}.tx`] = tx;
  }
  return errors;
}

/** The explorers in force for an account: the server's, with the account's over them. */
export function explorersInForce(
  server: AccountExplorers,
  account: AccountExplorers,
): Readonly<Record<string, ExplorerTemplates>> {
  return Object.freeze({ ...server, ...account });
}
