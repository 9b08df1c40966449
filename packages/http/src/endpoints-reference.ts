/** The basics: networks, tokens and entity categories. */
import {
  entityCategoryPageSchema,
  networkPageSchema,
  pageQuerySchema,
  tokenListQuerySchema,
  tokenPageSchema,
} from "@openkyt/core";
import { type Endpoint, json } from "./endpoint-types.js";

/** The basics. */
export const REFERENCE_ENDPOINTS: ReadonlyArray<Endpoint> = [
  {
    operationId: "listNetworks",
    method: "GET",
    path: "/v1/basics/networks/",
    summary: "Supported networks.",
    tag: "basics",
    status: 200,
    query: pageQuerySchema,
    response: networkPageSchema,
    errors: [],
    run: async (api, { query }) => json(await api.listNetworks(query)),
  },
  {
    operationId: "listTokens",
    method: "GET",
    path: "/v1/basics/tokens/",
    summary: "Supported tokens (filters network, token_id).",
    tag: "basics",
    status: 200,
    query: tokenListQuerySchema,
    response: tokenPageSchema,
    errors: [],
    run: async (api, { query }) => json(await api.listTokens(query)),
  },
  {
    operationId: "listEntityCategories",
    method: "GET",
    path: "/v1/basics/entity-categories/",
    summary: "Entity categories.",
    tag: "basics",
    status: 200,
    query: pageQuerySchema,
    response: entityCategoryPageSchema,
    errors: [],
    run: async (api, { query }) => json(await api.listEntityCategories(query)),
  },
];
