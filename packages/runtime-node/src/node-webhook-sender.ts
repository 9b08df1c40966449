/**
 * The Node webhook sender: one POST over `node:http` / `node:https`, connected only to an
 * address the target policy allowed. The host is resolved once, inside the connection's own
 * `lookup`, every address is checked, and the socket connects to those checked addresses (the
 * Host header and TLS SNI keep the name), so there is no second resolution a rebinding DNS
 * server could answer differently. Redirects are not followed (a 3xx is the receiver's answer
 * and counts as a failed delivery), no connection is reused, and the answer's body is not read.
 */

import { lookup as dnsLookup } from "node:dns/promises";
import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import { isIP, type LookupFunction } from "node:net";
import {
  type HostLookup,
  TARGET_REFUSED,
  type WebhookSender,
  type WebhookSendResult,
  type WebhookTargetPolicy,
  type WebhookTransport,
} from "@openkyt/core";

/** The system resolver (getaddrinfo, as Node's own connections use). */
export const systemHostLookup: HostLookup = async (hostname) =>
  (await dnsLookup(hostname, { all: true, verbatim: true })).map((a) => ({
    address: a.address,
    family: a.family === 6 ? 6 : 4,
  }));

/** Webhooks over Node: the system resolver and {@link createNodeWebhookSender}. */
export const nodeWebhookTransport: WebhookTransport = Object.freeze({
  lookup: systemHostLookup,
  createSender: (policy: WebhookTargetPolicy) => createNodeWebhookSender(policy),
});

/** A sender that delivers only to targets `policy` allows. */
export function createNodeWebhookSender(policy: WebhookTargetPolicy): WebhookSender {
  return Object.freeze({
    async post(
      url: string,
      headers: Readonly<Record<string, string>>,
      body: string,
      timeoutMs: number,
    ): Promise<WebhookSendResult> {
      const target = new URL(url);
      if (target.protocol !== "http:" && target.protocol !== "https:")
        return { kind: "refused", reason: `scheme ${target.protocol} is not http or https` };
      // A literal address is decided here: Node connects to it without a lookup.
      const literal = isIP(unbracket(target.hostname)) !== 0;
      if (literal) {
        const reason = policy.refusedAddress(target.hostname);
        if (reason !== null) return { kind: "refused", reason };
      }
      let refusal: string | null = null;
      // For a name: resolve and check again as the socket connects, and connect to what was checked.
      const lookup: LookupFunction = (hostname, options, callback) => {
        policy.checkHost(hostname).then(
          (verdict) => {
            if (verdict.kind === "refused") {
              refusal = verdict.reason;
              callback(new Error(TARGET_REFUSED), "", 4);
            } else if (verdict.kind === "unresolved") {
              callback(verdict.error as NodeJS.ErrnoException, "", 4);
            } else if (options.all) {
              callback(
                null,
                verdict.addresses.map((a) => ({ address: a.address, family: a.family })),
              );
            } else {
              const a = verdict.addresses[0] as { address: string; family: number };
              callback(null, a.address, a.family);
            }
          },
          (error: unknown) => callback(error as NodeJS.ErrnoException, "", 4),
        );
      };
      const send = target.protocol === "https:" ? httpsRequest : httpRequest;
      return new Promise<WebhookSendResult>((resolve, reject) => {
        const req = send(target, {
          method: "POST",
          headers: { ...headers, "content-length": String(Buffer.byteLength(body, "utf8")) },
          agent: false,
          ...(literal ? {} : { lookup }),
          signal: AbortSignal.timeout(timeoutMs),
        });
        req.on("response", (res) => {
          resolve({ kind: "answered", status: res.statusCode ?? 0 });
          res.destroy();
        });
        req.on("error", (error) => {
          if (refusal !== null) resolve({ kind: "refused", reason: refusal });
          else reject(error);
        });
        req.end(body);
      });
    },
  });
}

function unbracket(host: string): string {
  return host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host;
}
