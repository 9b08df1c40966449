/** Every engine scenario suite, for one store. */
import type { StoreFactory } from "./engine-harness.js";
import { runAccountScenarios } from "./engine-scenarios-accounts.js";
import { runBitcoinScenarios } from "./engine-scenarios-bitcoin.js";
import { runCheckAndAlertScenarios } from "./engine-scenarios-checks.js";
import { runTransferLifecycleScenarios } from "./engine-scenarios-transfers.js";
import { runWebhookScenarios } from "./engine-scenarios-webhooks.js";

/** Runs the transfer lifecycles, manual checks, alerts, accounts, lists, webhook and Bitcoin scenarios against a store. */
export function runEngineScenarios(factory: StoreFactory): void {
  runTransferLifecycleScenarios(factory);
  runCheckAndAlertScenarios(factory);
  runAccountScenarios(factory);
  runWebhookScenarios(factory);
  runBitcoinScenarios(factory);
}
