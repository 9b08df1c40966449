/**
 * The network side of webhook delivery, injected into the engine: the core decides what is sent
 * and where it may go; a transport resolves names and sends. `@openkyt/runtime-node` provides
 * the Node implementation (`nodeWebhookTransport`); tests inject their own.
 */

/** An address a name resolved to. */
export interface ResolvedAddress {
  readonly address: string;
  readonly family: 4 | 6;
}

/** Resolves a host name to every address it has (the DNS of the webhook sender). */
export type HostLookup = (hostname: string) => Promise<ReadonlyArray<ResolvedAddress>>;

/** What a send came to: the receiver's answer, or a target the policy refused (nothing was sent). */
export type WebhookSendResult =
  | { readonly kind: "answered"; readonly status: number }
  | { readonly kind: "refused"; readonly reason: string };

/**
 * Sends one HTTP POST. An implementation connects only to addresses the webhook target policy
 * allows, resolving a name once per delivery and connecting to the addresses it checked (no
 * second resolution), and follows no redirect.
 */
export interface WebhookSender {
  /** Resolves with the answer's status or the refusal; rejects on timeout or network failure. */
  post(
    url: string,
    headers: Readonly<Record<string, string>>,
    body: string,
    timeoutMs: number,
  ): Promise<WebhookSendResult>;
}

/** The verdict on a target: the addresses to connect to, or why it is refused. */
export type TargetVerdict =
  | { readonly kind: "allowed"; readonly addresses: ReadonlyArray<ResolvedAddress> }
  | { readonly kind: "refused"; readonly reason: string }
  /** The name did not resolve (a delivery fails; at creation it is accepted, checked at delivery). */
  | { readonly kind: "unresolved"; readonly error: unknown };

/** Decides where webhooks may be delivered (built by the engine from its settings). */
export interface WebhookTargetPolicy {
  /** True when every address is allowed. */
  readonly allowPrivate: boolean;
  /** Why an address is refused, or null when it is allowed. */
  refusedAddress(address: string): string | null;
  /**
   * Checks a host as the URL parser gave it (`url.hostname`): a literal address is checked as
   * is; a name is resolved once and allowed only when every address it has is allowed.
   */
  checkHost(hostname: string): Promise<TargetVerdict>;
}

/** A webhook transport: the resolver the policy uses and the sender bound to that policy. */
export interface WebhookTransport {
  /** Resolves webhook host names, at creation and at each delivery. */
  readonly lookup: HostLookup;
  /** A sender that delivers only to targets `policy` allows. */
  createSender(policy: WebhookTargetPolicy): WebhookSender;
}
