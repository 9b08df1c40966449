/**
 * A node's URL as the chain packages send requests to it: `user:password@` taken out of the URL
 * and sent as HTTP Basic authentication (fetch refuses a URL that carries credentials; Bitcoin
 * Core's rpcuser/rpcpassword and proxies in front of EVM and Tron nodes take them this way).
 * Pure: URL, TextEncoder and btoa are globals of every runtime core supports.
 */
import { fieldError } from "../errors.js";

/** The URL without credentials, and the Authorization header they make (null without any). */
export interface NodeUrl {
  readonly url: string;
  readonly authorization: string | null;
}

/** Basic authentication of `user` and `password`, UTF-8 encoded as RFC 7617 recommends. */
export function basicAuthorization(user: string, password: string): string {
  const bytes = new TextEncoder().encode(`${user}:${password}`);
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return `Basic ${btoa(binary)}`;
}

/**
 * Splits `url` (field `field` in errors) into the URL to fetch and its Basic authorization.
 * Refuses what is not an absolute http(s) URL, naming the field.
 */
export function nodeUrl(url: string, field = "url"): NodeUrl {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw fieldError(field, "must be an absolute http(s) URL");
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:")
    throw fieldError(field, `must be an http(s) URL, not ${parsed.protocol}`);
  if (parsed.username === "" && parsed.password === "") return { url, authorization: null };
  const user = decodeURIComponent(parsed.username);
  const password = decodeURIComponent(parsed.password);
  parsed.username = "";
  parsed.password = "";
  return { url: parsed.toString(), authorization: basicAuthorization(user, password) };
}
