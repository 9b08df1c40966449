/**
 * The one way the console writes a path of the API: the `apiPath` tag, which percent-encodes
 * every value put into the path as exactly one segment, so text from the address bar or from an
 * answer (an id) can never add segments, a query or a fragment, nor reach another endpoint.
 * A value that would be a dot segment (`.`, `..`, in any spelling) or empty, which the URL
 * parser would resolve away whatever its encoding, is refused. A query string made by
 * {@link queryString} is the only value kept as it is. The API client and the query hooks take
 * only an {@link ApiPath}, so a path built any other way does not compile.
 */

declare const API_PATH: unique symbol;

/** A path of the API built by {@link apiPath}. */
export type ApiPath = string & { readonly [API_PATH]: true };

/** A query string (`?a=1&b=2`, or empty), made by {@link queryString}: a value of its own kind. */
export class QueryString {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

/** A segment the URL parser treats as `.` or `..`, whatever the case of its encoding. */
const DOT_SEGMENT = /^(?:\.|%2e){1,2}$/i;

/** Thrown for a value that cannot be a path segment. */
export class UnsafePathValue extends Error {
  constructor(value: string) {
    super(`not a valid id in a path: ${JSON.stringify(value.slice(0, 80))}`);
    this.name = "UnsafePathValue";
  }
}

/** Whether `value` can be one segment of an API path (not empty, not a dot segment). */
export function isPathValue(value: string): boolean {
  return value !== "" && !DOT_SEGMENT.test(value);
}

/** One value as one path segment. */
export function pathSegment(value: string | number): string {
  const text = String(value);
  if (!isPathValue(text)) throw new UnsafePathValue(text);
  return encodeURIComponent(text);
}

/** A query string of the non-empty values: `?a=1&b=2`, or empty. */
export function queryString(
  params: Readonly<Record<string, string | number | undefined | null>>,
): QueryString {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== null && value !== "") search.set(key, String(value));
  }
  const text = search.toString();
  return new QueryString(text === "" ? "" : `?${text}`);
}

/**
 * The tag: `apiPath\`/v1/transfers/${id}/risks/\`` with every value encoded as one segment; a
 * {@link QueryString} (only as the last value, with nothing after it) is kept as it is.
 */
export function apiPath(
  strings: TemplateStringsArray,
  ...values: ReadonlyArray<string | number | QueryString>
): ApiPath {
  let path = strings[0] ?? "";
  values.forEach((value, i) => {
    if (value instanceof QueryString) {
      if (i !== values.length - 1 || (strings[i + 1] ?? "") !== "") {
        throw new Error("a query string goes at the end of an API path");
      }
      path += value.text;
    } else {
      path += pathSegment(value);
    }
    path += strings[i + 1] ?? "";
  });
  return path as ApiPath;
}

/** The path of a screen's own query: `path` followed by a query string. */
export function withQuery(path: ApiPath, query: QueryString): ApiPath {
  if (path.includes("?")) throw new Error("the path has a query already");
  return `${path}${query.text}` as ApiPath;
}
