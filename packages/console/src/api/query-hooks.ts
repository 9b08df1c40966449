/**
 * TanStack Query (query-core) for Preact: a cache of the API's answers by key, refetched when
 * invalidated after a change. `useApiQuery` subscribes a component to one query.
 */
import { keepPreviousData, QueryClient, QueryObserver, type QueryObserverResult } from "@tanstack/query-core";
import { createContext } from "preact";
import { useContext, useEffect, useState } from "preact/hooks";
import { type ApiClient, createApiClient } from "./api-client.js";
import type { ApiPath } from "./api-path.js";

/** What every screen reads: the API client and the query cache. */
export interface ConsoleServices {
  readonly api: ApiClient;
  readonly queries: QueryClient;
}

/** Creates the services of one console. */
export function createServices(base = ""): ConsoleServices {
  return {
    api: createApiClient(base),
    queries: new QueryClient({
      defaultOptions: { queries: { staleTime: 10_000, retry: false, refetchOnWindowFocus: false } },
    }),
  };
}

/** The services, provided once at the root. */
export const Services = createContext<ConsoleServices | null>(null);

/** The services of the console this component is in. */
export function useServices(): ConsoleServices {
  const services = useContext(Services);
  if (!services) throw new Error("useServices outside <Services.Provider>");
  return services;
}

/**
 * Subscribes to the GET of `path` (null: nothing to fetch yet). One observer per component: a new
 * path (another page, other filters) keeps the previous answer on screen until its own comes.
 */
export function useApiQuery<T>(
  path: ApiPath | null,
  options: { refetchMs?: number } = {},
): QueryObserverResult<T, Error> {
  const { api, queries } = useServices();
  const settings = {
    queryKey: [path] as const,
    queryFn: () => (path === null ? Promise.reject(new Error("no path")) : api.get<T>(path)),
    enabled: path !== null,
    placeholderData: keepPreviousData,
    ...(options.refetchMs ? { refetchInterval: options.refetchMs } : {}),
  };
  const [observer] = useState(() => new QueryObserver(queries, settings));
  const [result, setResult] = useState(() =>
    observer.getOptimisticResult(queries.defaultQueryOptions(settings)),
  );
  useEffect(() => {
    observer.setOptions(settings);
    setResult(observer.getCurrentResult());
  }, [path, options.refetchMs]);
  useEffect(() => observer.subscribe(setResult), [observer]);
  return result as QueryObserverResult<T, Error>;
}

/** Marks every cached answer whose path starts with `prefix` as stale (refetching those shown). */
export function invalidate(queries: QueryClient, prefix: string): Promise<void> {
  return queries.invalidateQueries({
    predicate: (q) => typeof q.queryKey[0] === "string" && q.queryKey[0].startsWith(prefix),
  });
}
