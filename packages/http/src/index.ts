/**
 * @openkyt/http: the published KYT interface over HMAC-signed requests, as a Hono app over an
 * engine (`createHttpApp`), served on Node by `serveHttp`.
 */

export { ALERT_CSV_COLUMNS, alertsCsv, csvField } from "./alerts-csv.js";
export type { AppEnv, AppVariables } from "./app-env.js";
export {
  AUTH_REFUSAL_REASONS,
  type Authenticator,
  type AuthRefusalReason,
  type AuthRequest,
  createAuthenticator,
  type KeyResolver,
} from "./auth-check.js";
export { type AuthFailureBudget, type AuthFailureLimit, createAuthFailureBudget } from "./auth-failures.js";
export { computeSignature, type SignedParts, signatureDigest, targetCandidates } from "./auth-signature.js";
export {
  escapeNonAscii,
  type ParsedBody,
  parseBody,
  signedBodyForms,
  stripJsonWhitespace,
} from "./body-forms.js";
export {
  type ConnectionLimiter,
  type ConnectionLimits,
  type ConnectionLog,
  DEFAULT_MAX_CONNECTIONS_PER_ADDRESS,
  defaultMaxConnections,
} from "./connection-limits.js";
export { CONSOLE_PATH, consoleAssets } from "./console-assets.js";
export {
  type ConsoleSessions,
  createConsoleSessions,
  DEFAULT_SESSION_TTL_MS,
  type LiveSession,
  sessionIdOf,
} from "./console-sessions.js";
export { ENDPOINTS, honoPath } from "./endpoint-table.js";
export {
  deletedResponseSchema,
  type Endpoint,
  type EndpointInput,
  type EndpointResult,
  waitQuerySchema,
} from "./endpoint-types.js";
export { NO_GOAML_PROFILE, REPORT_ENDPOINTS } from "./endpoints-reports.js";
export { CREATED_HEADER } from "./endpoints-transfers.js";
export { type GoamlProfile, goamlProfileSchema } from "./goaml-profile.js";
export { actionText, GOAML_SCHEMA_VERSION, goamlReport, reasonText, sqlDate } from "./goaml-report.js";
export {
  createHttpApp,
  HTTP_DEFAULTS,
  type HttpAppOptions,
  type HttpAuthOptions,
  type HttpConsoleOptions,
  type HttpLimitOptions,
} from "./http-app.js";
export { HTTP_ERROR_CODES } from "./http-error-codes.js";
export {
  type AnsweredErrorBody,
  answerError,
  errorBody,
  HTTP_ONLY_CODES,
  STATUS_OF_CODE,
} from "./http-errors.js";
export { createHttpLogger, type HttpLoggerOptions } from "./http-logger.js";
export { type FetchApp, type HttpServer, type ServeHttpOptions, serveHttp } from "./http-server.js";
export { LOG_VALUE_MAX, logValue } from "./log-fields.js";
export { openApiDocument } from "./openapi-document.js";
export { openApiWebhooks, WEBHOOK_EVENT_DATA } from "./openapi-webhooks.js";
export { createOpsApp, type MetricsText, type OpsOptions, opsRoutes } from "./ops-routes.js";
export {
  DEFAULT_SCRYPT_COST,
  generatePassword,
  hashPassword,
  type ScryptCost,
  verifyPassword,
} from "./password-hash.js";
export {
  MAX_PASSWORD_LENGTH,
  MIN_PASSWORD_LENGTH,
  MIN_PASSWORD_SCORE,
  passwordProblem,
} from "./password-policy.js";
export { createRateLimiter, RATE_BUCKETS_MAX, type RateLimit, type RateLimiter } from "./rate-limiter.js";
export { createReadiness, type Readiness, type ReadinessAnswer, type ReadinessOptions } from "./readiness.js";
export {
  createReplayGuard,
  REPLAY_GUARD_KINDS,
  type ReplayGuard,
  type ReplayGuardKind,
  type ReplayGuardOptions,
  type ReplayGuardSettings,
  replayPerKeyBound,
} from "./replay-guard.js";
export {
  DEFAULT_EXPLORERS,
  type ExplorerTemplate,
  type ReportSettings,
  reportSettings,
  reportSettingsFileSchema,
} from "./report-settings.js";
export { REQUEST_ID_HEADER } from "./request-context.js";
export {
  type ObservedRequest,
  type RequestMetricsOptions,
  requestMetrics,
  routeOf,
} from "./request-metrics.js";
export {
  type RequestSpanEnd,
  type RequestTracer,
  type RequestTracingOptions,
  requestTracing,
} from "./request-tracing.js";
export { SESSION_REFUSED, userActor } from "./session-check.js";
export { CSRF_HEADER, SESSION_COOKIE } from "./session-cookie.js";
export { roleNeeded } from "./session-roles.js";
export { SESSION_PATH } from "./session-routes.js";
export {
  createUserDirectory,
  type NewUser,
  normaliseEmail,
  type UserDirectory,
  type UserDirectoryOptions,
  type UserInfo,
} from "./user-directory.js";
