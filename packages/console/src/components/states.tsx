/** The designed empty, loading and failure states, and the risk level badge. */
import type { ComponentChildren } from "preact";
import { ApiError } from "../api/api-client.js";
import { words } from "./format.js";

/** Shown while a query loads. */
export function Loading({ what }: { what: string }) {
  return (
    <p class="state loading" role="status" aria-live="polite">
      Loading {what}…
    </p>
  );
}

/** Shown when a list has nothing. */
export function Empty({ children }: { children: ComponentChildren }) {
  return <p class="state empty">{children}</p>;
}

/** An API error in words, next to what caused it. */
export function Failure({ error, what }: { error: unknown; what?: string }) {
  const message = error instanceof Error ? error.message : String(error);
  const code = error instanceof ApiError ? ` (${error.code})` : "";
  return (
    <p class="state failure" role="alert">
      {what ? `${what}: ` : ""}
      {message}
      {code}
    </p>
  );
}

/** A risk level as a coloured word. */
export function RiskBadge({ level }: { level: string | null | undefined }) {
  const value = level ?? "none";
  return <span class={`badge risk-${value}`}>{words(value)}</span>;
}

/** An alert status as a word in a pill. */
export function StatusBadge({ status }: { status: string }) {
  return <span class={`badge status-${status}`}>{words(status)}</span>;
}
