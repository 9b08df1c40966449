/** Every endpoint of the interface, in routing order (static paths before `{id}` paths). */
import type { Endpoint } from "./endpoint-types.js";
import { MANUAL_CHECK_ENDPOINTS } from "./endpoints-manual-checks.js";
import { REFERENCE_ENDPOINTS } from "./endpoints-reference.js";
import { TRANSFER_ENDPOINTS } from "./endpoints-transfers.js";

/** The endpoints served under /v1. */
export const ENDPOINTS: ReadonlyArray<Endpoint> = Object.freeze([
  ...TRANSFER_ENDPOINTS,
  ...MANUAL_CHECK_ENDPOINTS,
  ...REFERENCE_ENDPOINTS,
]);

/** The Hono route of an interface path: `/v1/transfers/{id}/` -> `/v1/transfers/:id`. */
export function honoPath(path: string): string {
  return path.replace(/\{(\w+)\}/g, ":$1").replace(/\/$/, "");
}
