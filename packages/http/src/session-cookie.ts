/**
 * The console's session cookie and CSRF header: `openkyt_session`, HttpOnly, SameSite=Strict,
 * Path=/, Secure when served over TLS; every write of a session carries the session's CSRF
 * token in `X-CSRF-Token`.
 */

/** The cookie's name. */
export const SESSION_COOKIE = "openkyt_session";
/** The header every write of a session carries. */
export const CSRF_HEADER = "X-CSRF-Token";

const TOKEN = /^[A-Za-z0-9_-]{16,128}$/;

/** The session token of a Cookie header, or undefined when it has none (or a malformed one). */
export function sessionTokenOf(cookieHeader: string | undefined): string | undefined {
  if (!cookieHeader) return undefined;
  for (const part of cookieHeader.split(";")) {
    const eq = part.indexOf("=");
    if (eq === -1 || part.slice(0, eq).trim() !== SESSION_COOKIE) continue;
    const value = part.slice(eq + 1).trim();
    return TOKEN.test(value) ? value : undefined;
  }
  return undefined;
}

/** A Set-Cookie value that sets the session (`maxAgeMs` > 0) or clears it (0). */
export function sessionCookie(token: string, maxAgeMs: number, secure: boolean): string {
  const parts = [
    `${SESSION_COOKIE}=${token}`,
    "Path=/",
    "HttpOnly",
    "SameSite=Strict",
    `Max-Age=${Math.max(0, Math.floor(maxAgeMs / 1000))}`,
  ];
  if (secure) parts.push("Secure");
  return parts.join("; ");
}
