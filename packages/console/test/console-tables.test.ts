/**
 * The console's copies of core's tables (it bundles no server code) are the same as core's: the
 * enums its forms offer and the alert state machine whose next states the alert page offers.
 */
import {
  ALERT_STATUS_MACHINE,
  ALERT_STATUSES,
  PROXIMITIES,
  RISK_TYPES,
  RULE_RISK_LEVELS,
  RULE_SUB_TYPES,
  RULE_TYPES,
  TX_STATUSES,
  WEBHOOK_EVENT_TYPES,
} from "@openkyt/core";
import { describe, expect, it } from "vitest";
import * as wire from "../src/api/wire-enums.js";

describe("the console's tables", () => {
  it("are core's enums", () => {
    expect(wire.ALERT_STATUSES).toEqual(ALERT_STATUSES);
    expect(wire.RULE_RISK_LEVELS).toEqual(RULE_RISK_LEVELS);
    expect(wire.RISK_TYPES).toEqual(RISK_TYPES);
    expect(wire.PROXIMITIES).toEqual(PROXIMITIES);
    expect(wire.RULE_TYPES).toEqual(RULE_TYPES);
    expect(wire.RULE_SUB_TYPES).toEqual(RULE_SUB_TYPES);
    expect(wire.TX_STATUSES).toEqual(TX_STATUSES);
    expect(wire.WEBHOOK_EVENT_TYPES).toEqual(WEBHOOK_EVENT_TYPES);
  });

  it("offer exactly the alert machine's next states", () => {
    expect(wire.ALERT_NEXT).toEqual(ALERT_STATUS_MACHINE.transitions);
  });
});
