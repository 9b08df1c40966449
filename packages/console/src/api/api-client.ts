/**
 * The console's one way to the server: fetch with the session cookie (same origin), the CSRF
 * token on every write, and the API's error body turned into an {@link ApiError} whose field
 * errors the forms show next to their fields. Paths are {@link ApiPath}s: every value in them
 * encoded as one segment (api-path.ts).
 */
import type { ApiPath } from "./api-path.js";

/** An error answer of the API (or of the network), in words. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  /** Field name (as the API names it, e.g. `rules[0].min_value_share`) to its messages. */
  readonly errors: Readonly<Record<string, ReadonlyArray<string>>>;
  /** The allowed next states of a refused alert transition. */
  readonly allowed: ReadonlyArray<string>;

  constructor(status: number, body: Record<string, unknown>) {
    super(typeof body.detail === "string" ? body.detail : `the server answered ${status}`);
    this.name = "ApiError";
    this.status = status;
    this.code = typeof body.code === "string" ? body.code : `HTTP_${status}`;
    this.errors = (body.errors as ApiError["errors"] | undefined) ?? {};
    this.allowed = Array.isArray(body.allowed) ? (body.allowed as string[]) : [];
  }
}

/** The signed-in user, as `/v1/session` answers. */
export interface SessionInfo {
  readonly user: {
    readonly id: string;
    readonly email: string;
    readonly role: "analyst" | "admin";
    readonly account: string;
  };
  readonly actor: string;
  readonly csrf_token: string;
  readonly expires_at: string;
}

/** Called when the server says the session is gone (401), so the app can show the sign-in. */
export type SignedOutListener = () => void;

/** The API client of one console. */
export interface ApiClient {
  /** The base URL (empty: same origin). */
  readonly base: string;
  get<T>(path: ApiPath): Promise<T>;
  send<T>(method: "POST" | "PUT" | "PATCH" | "DELETE", path: ApiPath, body?: unknown): Promise<T>;
  /** Remembers the CSRF token of the current session (null after sign-out). */
  setCsrf(token: string | null): void;
  onSignedOut(listener: SignedOutListener): void;
  /** The URL of a file (a PDF report) to open with the session cookie. */
  url(path: ApiPath): string;
}

/** Creates the client; `base` is the server's origin, "" for the one that served the console. */
export function createApiClient(base = ""): ApiClient {
  let csrf: string | null = null;
  let signedOut: SignedOutListener = () => {};
  async function request<T>(method: string, path: string, body?: unknown): Promise<T> {
    const headers: Record<string, string> = { accept: "application/json" };
    if (body !== undefined) headers["content-type"] = "application/json";
    if (method !== "GET" && csrf) headers["x-csrf-token"] = csrf;
    let response: Response;
    try {
      response = await fetch(`${base}${path}`, {
        method,
        headers,
        credentials: "same-origin",
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    } catch (error) {
      throw new ApiError(0, {
        detail: `the server cannot be reached (${(error as Error).message})`,
        code: "NETWORK",
      });
    }
    const text = await response.text();
    let parsed: unknown = null;
    try {
      parsed = text === "" ? null : JSON.parse(text);
    } catch {
      parsed = { detail: `the server answered ${response.status} with something that is not JSON` };
    }
    if (!response.ok) {
      const error = new ApiError(response.status, (parsed ?? {}) as Record<string, unknown>);
      if (response.status === 401 && path !== "/v1/session") signedOut();
      throw error;
    }
    return parsed as T;
  }
  return {
    base,
    get: (path) => request("GET", path),
    send: (method, path, body) => request(method, path, body),
    setCsrf(token) {
      csrf = token;
    },
    onSignedOut(listener) {
      signedOut = listener;
    },
    url: (path) => `${base}${path}`,
  };
}
