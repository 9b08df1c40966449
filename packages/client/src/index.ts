/**
 * @openkyt/client: a typed client for the KYT interface that signs every request exactly as
 * the interface says, with pagination and polling helpers and typed errors.
 */
export { isKytHttpError, KytHttpError, KytWaitTimeoutError } from "./client-errors.js";
export { eachItem } from "./client-pagination.js";
export { backtestSettled, manualCheckSettled, pollUntil, transferSettled } from "./client-polling.js";
export { type SignRequestInput, signedHeaders, signRequest, stringToSign } from "./client-signing.js";
export {
  type Answer,
  createTransport,
  type FetchLike,
  type QueryValues,
  requestTarget,
  type SendOptions,
  type Transport,
  type TransportOptions,
} from "./client-transport.js";
export * from "./client-types.js";
export { createKytClient, type KytClient, type KytClientOptions } from "./kyt-client.js";
export type { Deleted } from "./kyt-client-workflow.js";
export {
  type VerifyWebhookOptions,
  verifyWebhookSignature,
  WEBHOOK_TOLERANCE_MS,
  type WebhookVerification,
} from "./webhook-signature.js";
