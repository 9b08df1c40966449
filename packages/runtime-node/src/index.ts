/**
 * @openkyt/runtime-node: the Node.js side effects OpenKYT's core leaves to be injected. The
 * webhook transport (system DNS and a sender connected only to addresses the target policy
 * allowed) and the worker-thread starter the PDF pool and the ledger parser use.
 */
export { type ModuleThreadOptions, startModuleThread } from "./module-thread.js";
export { createNodeWebhookSender, nodeWebhookTransport, systemHostLookup } from "./node-webhook-sender.js";
export { existingDatabase, invocationDir, userPath } from "./user-paths.js";
