/**
 * Hash routes (`#/alerts/ID`): the console works from any static host and from `openkyt serve`
 * without server-side routes. A route is a path and its query.
 */
import { useEffect, useState } from "preact/hooks";

/** The current route. */
export interface Route {
  /** Path segments, e.g. ["alerts", "ID"]. */
  readonly parts: ReadonlyArray<string>;
  readonly query: URLSearchParams;
}

/** A part of the hash decoded; one that is not valid percent-encoding is kept as written. */
function decodedPart(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

function current(): Route {
  const hash = window.location.hash.replace(/^#/, "") || "/";
  const [path = "/", search = ""] = hash.split("?");
  return {
    parts: path
      .split("/")
      .filter((p) => p !== "")
      .map(decodedPart),
    query: new URLSearchParams(search),
  };
}

/** The route, re-rendering on every change. */
export function useRoute(): Route {
  const [route, setRoute] = useState(current);
  useEffect(() => {
    const changed = () => setRoute(current());
    window.addEventListener("hashchange", changed);
    return () => window.removeEventListener("hashchange", changed);
  }, []);
  return route;
}

/** The href of a route. */
export function href(path: string, query?: Readonly<Record<string, string | number | undefined>>): string {
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined && v !== "") search.set(k, String(v));
  const text = search.toString();
  return `#${path}${text ? `?${text}` : ""}`;
}

/** Goes to a route. */
export function navigate(path: string, query?: Readonly<Record<string, string | number | undefined>>): void {
  window.location.hash = href(path, query).slice(1);
}
