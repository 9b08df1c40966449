/**
 * Login CSRF defence of `POST /v1/session`: a sign-in is accepted only as
 * `Content-Type: application/json` (no HTML form can send it; a cross-site script that tries
 * needs a CORS preflight, which this server never grants) and only when the browser says it
 * comes from the console's own origin: `Sec-Fetch-Site`, when sent, is `same-origin`, and
 * `Origin`, when sent, names the host the request was sent to. A client that is not a browser
 * (the CLI, a test) sends neither header and is judged by its credentials alone.
 */
import { KytError } from "@openkyt/core";

/** The headers the check reads, lower-case names to values (absent: undefined). */
export interface SignInHeaders {
  readonly contentType: string | undefined;
  readonly origin: string | undefined;
  readonly secFetchSite: string | undefined;
  /** The Host header (the host and port the client addressed). */
  readonly host: string | undefined;
}

/** `application/json`, with parameters (`; charset=utf-8`) or none. */
const JSON_TYPE = /^application\/json\s*(?:;|$)/i;

function crossSite(detail: string, header: string): KytError {
  return new KytError("FORBIDDEN", `sign-in must come from the console's own origin: ${detail}`, {
    errors: { [header]: [detail] },
  });
}

/** The host (and port) of an Origin value; null when it is not a URL (`null`, garbage). */
function originHost(origin: string): string | null {
  try {
    return new URL(origin).host.toLowerCase();
  } catch {
    return null;
  }
}

/**
 * Throws UNSUPPORTED_MEDIA_TYPE (415) for a body that is not JSON by its content type, and
 * FORBIDDEN (403) for a request a browser marks as cross-site or cross-origin.
 */
export function checkSignInRequest(headers: SignInHeaders): void {
  if (headers.contentType === undefined || !JSON_TYPE.test(headers.contentType.trim())) {
    throw new KytError("UNSUPPORTED_MEDIA_TYPE", "sign-in takes a body of Content-Type: application/json", {
      errors: { "Content-Type": ["must be application/json"] },
    });
  }
  const site = headers.secFetchSite?.trim().toLowerCase();
  if (site !== undefined && site !== "same-origin") {
    throw crossSite(`Sec-Fetch-Site is ${JSON.stringify(site)}`, "Sec-Fetch-Site");
  }
  if (headers.origin !== undefined) {
    const host = headers.host?.trim().toLowerCase();
    if (host === undefined || originHost(headers.origin) !== host) {
      throw crossSite("the Origin header names another site", "Origin");
    }
  }
}
