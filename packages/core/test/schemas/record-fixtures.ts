import type {
  AlertRecord,
  CounterpartyResult,
  ExposureResult,
  ExposureShare,
  ManualCheckRecord,
  RiskRecord,
  RiskRule,
  TransferRecord,
} from "../../src/domain/records.js";

/** 2024-04-18T14:17:25.309Z, the time of the interface's signing example. */
export const T0 = 1713449845309;

const none = { state: "none", at: null } as const;

/** A share of an exposure. */
export function share(
  category: string,
  proximity: "direct" | "indirect",
  value: number,
  valueInFiat: number | null = null,
): ExposureShare {
  return { category, proximity, share: value, valueInFiat, entityNames: [], minHops: 2, path: [] };
}

/** An unattributed exposure: 0.6 exchange and 0.1 sanctions indirect, 0.3 unexplained. */
export function indirectExposure(): ExposureResult {
  return {
    direct: null,
    shares: [
      share("exchange", "indirect", 0.6, 60),
      share("sanctions", "indirect", 0.1, 10),
      share("undefined", "indirect", 0.3, 30),
    ],
    truncated: false,
    edgesRead: 12,
    hops: 3,
  };
}

/** A bound ETH USDT transfer, checked. */
export function transferRecord(overrides: Partial<TransferRecord> = {}): TransferRecord {
  return {
    id: "5f0c7a9e-1f6b-4b8e-9d2a-3c1e0b7a6d41",
    accountId: "acct-1",
    clientId: null,
    attemptId: null,
    registeredAt: T0,
    network: "ETH",
    tokenId: "0xdac17f958d2ee523a2206206994597c13d831ec7",
    tokenSymbol: "USDT",
    direction: "incoming",
    txStatus: "bound",
    txHash: "0x28138cd586826bbad08d1d0e64b566795b5907790ad30ebb0722948c2ba21d09",
    occurredAt: T0 - 60_000,
    inputAddress: "0x0330070fd38ec3bb94f58fa55d40368271e9e54a",
    outputAddress: "0x016606acc6b0cfe537acc221e3bf1bb44b4049ee",
    amount: 499.67,
    valueInFiat: 499.66889865320763,
    riskLevel: "medium",
    riskScore: 0.5,
    riskModelId: null,
    riskModelVersion: "default@1",
    checks: {
      exposure: { state: "checked", at: T0 + 1000 },
      counterparty: { state: "checked", at: T0 + 2000 },
      sanctions: { state: "checked", at: T0 + 3000 },
    },
    disableAutoCheck: false,
    exposure: indirectExposure(),
    counterparty: {
      address: "0x0330070fd38ec3bb94f58fa55d40368271e9e54a",
      entity: { name: "Binance", category: "exchange" },
      exposure: null,
    },
    sanctions: null,
    counterpartyName: "Binance",
    counterpartyCategory: "exchange",
    lastError: null,
    updatedAt: T0 + 3000,
    ...overrides,
  };
}

/** A fresh attempt: nothing bound or checked yet. */
export function attemptRecord(): TransferRecord {
  return transferRecord({
    attemptId: "att-1",
    clientId: "client-7",
    txStatus: "none",
    txHash: null,
    occurredAt: null,
    amount: 30,
    riskLevel: "undefined",
    riskScore: null,
    checks: { exposure: none, counterparty: { state: "queued", at: T0 }, sanctions: none },
    exposure: null,
    counterparty: null,
  });
}

/** A deposit check, finished. */
export function manualCheckRecord(overrides: Partial<ManualCheckRecord> = {}): ManualCheckRecord {
  return {
    id: "8a1d2c3b-4e5f-4a6b-8c7d-9e0f1a2b3c4d",
    accountId: "acct-1",
    createdAt: T0,
    checkType: "deposit",
    checkStatus: "checked",
    checkedAt: T0 + 5000,
    network: "BTC",
    tokenId: "native",
    tokenSymbol: "BTC",
    txHash: "a1075db55d416d3ca199f55b6084e2115b9345e16c5cf302fc80e9d5fbf5d48d",
    outputAddress: "bc1q05aktddf9ce4p7hh3stgsf253m4vweu7nkhtmw",
    direction: "incoming",
    address: null,
    txStatus: "bound",
    occurredAt: T0 - 3_600_000,
    inputAddress: "194xmrZA53UBsZau2PnJLdmVVW9m5feeS",
    counterpartyAddress: "194xmrZA53UBsZau2PnJLdmVVW9m5feeS",
    amount: 0.5,
    valueInFiat: 31_234.567,
    riskLevel: "severe",
    riskScore: 1,
    riskModelId: null,
    riskModelVersion: "default@1",
    exposure: indirectExposure(),
    counterparty: {
      address: "194xmrZA53UBsZau2PnJLdmVVW9m5feeS",
      entity: null,
      exposure: {
        ...indirectExposure(),
        shares: [share("mixer", "indirect", 0.25), share("undefined", "indirect", 0.75)],
      },
    },
    sanctions: null,
    lastError: null,
    updatedAt: T0 + 5000,
    ...overrides,
  };
}

/** The rule of the interface's alert example. */
export const RULE: RiskRule = {
  ruleType: "origin_of_funds",
  ruleSubType: "indirect",
  entityCategory: "sanctions",
  minValueInFiat: 10,
  minValueShare: 0.2,
  riskLevel: "severe",
};

/** A risk of a transfer. */
export function riskRecord(overrides: Partial<RiskRecord> = {}): RiskRecord {
  return {
    id: "risk-1",
    accountId: "acct-1",
    subjectType: "transfer",
    subjectId: transferRecord().id,
    checkKind: "exposure",
    riskType: "origin_of_funds",
    riskLevel: "severe",
    entityCategory: "sanctions",
    entityName: "Garantex",
    proximity: "indirect",
    valueInFiat: 29.8149,
    valueShare: 0.9932,
    rule: RULE,
    occurredAt: T0 - 60_000,
    createdAt: T0 + 1000,
    ...overrides,
  };
}

/** The alert opened for {@link riskRecord}. */
export function alertRecord(overrides: Partial<AlertRecord> = {}): AlertRecord {
  return {
    id: "alert-1",
    accountId: "acct-1",
    transferId: transferRecord().id,
    dedupeKey: "origin_of_funds:sanctions:indirect",
    createdAt: T0 + 1000,
    updatedAt: null,
    riskLevel: "severe",
    riskType: "origin_of_funds",
    riskOccurredAt: T0 - 60_000,
    alertStatus: "open",
    assignee: null,
    entityCategory: "sanctions",
    proximity: "indirect",
    valueInFiat: 29.8149,
    valueShare: 0.9932,
    rule: RULE,
    ...overrides,
  };
}

/** An identified counterparty. */
export const IDENTIFIED: CounterpartyResult = {
  address: "TA3rH2A7iHnm6pKH8gr9cK1EZnShnmZdFg",
  entity: { name: "Garantex", category: "sanctions" },
  exposure: null,
};
